#include "eval/squared_error.h"

#include <vector>

#include "gtest/gtest.h"

namespace sgmcmc::eval {
namespace {

TEST(SquaredErrorTest, HandValues) {
  EXPECT_EQ(SquaredError(std::vector<double>{1, 2, 3}, std::vector<double>{1, 0, 6}), 13.0);
  EXPECT_EQ(SquaredError(std::vector<double>{}, std::vector<double>{}), 0.0);
  EXPECT_EQ(SquaredError(std::vector<double>{-0.5}, std::vector<double>{0.5}), 1.0);
}

TEST(SquaredErrorDeathTest, LengthMismatch) {
  EXPECT_DEATH(SquaredError(std::vector<double>{1}, std::vector<double>{1, 2}), "lengths differ");
}

}  // namespace
}  // namespace sgmcmc::eval
