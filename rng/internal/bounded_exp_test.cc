#include "rng/internal/bounded_exp.h"

#include <cmath>
#include <cstdint>

#include "gtest/gtest.h"
#include "testing/ulp_testing.h"

namespace sgmcmc::rng_internal {
namespace {

// Within 2 ulps of glibc's std::exp (itself within 0.502 ulps of e^x) on a dense grid over
// [0, 10) that hits every table interval at many offsets, including both ends of each; and
// mostly (> 99.9%) within 1.
TEST(BoundedExpTest, WithinTwoUlpsOfStdExp) {
  int64_t worst = 0;
  double worst_x = 0;
  int64_t over_one = 0;
  for (int64_t n = 0; n < 2000000; ++n) {
    const double x = kBoundedExpMax * static_cast<double>(n) / 2000000 + 1.7e-9 * (n % 5);
    if (x >= kBoundedExpMax) continue;
    const int64_t distance = testing::UlpDistance(BoundedExp(x), std::exp(x));
    over_one += distance > 1;
    if (distance > worst) {
      worst = distance;
      worst_x = x;
    }
  }
  EXPECT_LE(worst, 2) << "at x = " << worst_x;
  EXPECT_LT(over_one, 2000) << "of 2e6";
}

TEST(BoundedExpTest, ExactAndExtremePoints) {
  EXPECT_EQ(BoundedExp(0), 1.0);
  EXPECT_EQ(BoundedExp(0x1p-60), 1.0);
  EXPECT_EQ(BoundedExp(1e-300), 1.0);
  // Table entries and their neighbours against high-precision values (mpmath, 40 digits).
  EXPECT_LE(testing::UlpDistance(BoundedExp(1), 2.718281828459045235360287471352662497757), 1);
  EXPECT_LE(testing::UlpDistance(BoundedExp(9.9375), 20691.94969525563783923071119080106703008), 1);
  EXPECT_LE(testing::UlpDistance(BoundedExp(std::nextafter(kBoundedExpMax, 0)),
                        22026.46579480667739009473822473425838813),
            1);
  EXPECT_LE(testing::UlpDistance(BoundedExp(0.0625), 1.064494458917859429563390594642889673101), 1);
}

}  // namespace
}  // namespace sgmcmc::rng_internal
