#include "testing/ulp_testing.h"

#include <cmath>

#include "gtest/gtest.h"

namespace sgmcmc::testing {
namespace {

TEST(UlpDistanceTest, CountsRepresentableDoublesBetweenTwoValues) {
  EXPECT_EQ(UlpDistance(1.0, 1.0), 0);
  const double next = std::nextafter(1.0, 2.0);
  EXPECT_EQ(UlpDistance(1.0, next), 1);
  EXPECT_EQ(UlpDistance(next, 1.0), 1);
  EXPECT_EQ(UlpDistance(1.0, 1.0 + 4 * (next - 1.0)), 4);
  // Across a binade: 2 - 2^-52 and 2 + 2^-51 are one step from 2 on either side.
  EXPECT_EQ(UlpDistance(std::nextafter(2.0, 0.0), std::nextafter(2.0, 4.0)), 2);
  EXPECT_EQ(UlpDistance(-1.0, std::nextafter(-1.0, -2.0)), 1);
}

}  // namespace
}  // namespace sgmcmc::testing
