#include "testing/numeric_testing.h"

#include <cmath>
#include <limits>

#include "gtest/gtest.h"

namespace sgmcmc::testing {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(RelativeErrorWithFloorTest, RelativeAboveFloorAbsoluteBelow) {
  EXPECT_DOUBLE_EQ(RelativeErrorWithFloor(101, 100, 1), 0.01);
  EXPECT_DOUBLE_EQ(RelativeErrorWithFloor(0.02, 0.01, 1), 0.01);  // absolute below the floor
  EXPECT_DOUBLE_EQ(RelativeErrorWithFloor(1e-3, 0, 0.5), 2e-3);
}

TEST(RelativeErrorWithFloorTest, NonFiniteValues) {
  EXPECT_EQ(RelativeErrorWithFloor(NAN, 1, 1), kInf);
  EXPECT_EQ(RelativeErrorWithFloor(1, NAN, 1), kInf);
  EXPECT_EQ(RelativeErrorWithFloor(kInf, kInf, 1), 0);
  EXPECT_EQ(RelativeErrorWithFloor(-kInf, kInf, 1), kInf);
  EXPECT_EQ(RelativeErrorWithFloor(1e300, kInf, 1), kInf);
}

TEST(IsNearRelativeTest, PassesAndFails) {
  EXPECT_TRUE(IsNearRelative(1.0 + 1e-15, 1.0, 1e-14, 1));
  const ::testing::AssertionResult result = IsNearRelative(1.1, 1.0, 1e-3, 1);
  EXPECT_FALSE(result);
  EXPECT_NE(std::string(result.message()).find("1.1000000000000001"), std::string::npos)
      << result.message();
}

TEST(RelativeErrorWithFloorDeathTest, FloorMustBePositive) {
  EXPECT_DEATH(RelativeErrorWithFloor(1, 1, 0), "floor must be > 0");
}

}  // namespace
}  // namespace sgmcmc::testing
