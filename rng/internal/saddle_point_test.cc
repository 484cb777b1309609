#include "rng/internal/saddle_point.h"

#include <cmath>
#include <cstdint>

#include "gtest/gtest.h"

namespace sgmcmc::rng_internal {
namespace {

// Reference values: mpmath 1.3 at 80 digits,
//   StirlingError(n) = loggamma(n+1) - log(sqrt(2 pi n)) - n log(n) + n,
//   DevianceTerm(x, m) = x log(x/m) + m - x.
TEST(StirlingErrorTest, MatchesHighPrecisionReference) {
  struct Case {
    int64_t n;
    double expected;
  };
  const Case cases[] = {
      {1, 0.08106146679532725822},
      {2, 0.041340695955409294094},
      {5, 0.016644691189821192163},
      {15, 0.005554733551962801371},
      {16, 0.0052076559196096404407},
      {30, 0.0027776749297526936036},
      {36, 0.0023147552905146838668},
      {50, 0.0016666444469833655099},
      {81, 0.0010288013577107775094},
      {200, 0.00041666631944692455667},
      {501, 0.00016633397657993270518},
      {1000000, 8.3333333333330555556e-8},
      {1000000000000, 8.3333333333333333333e-14},
  };
  for (const Case& c : cases) {
    // StirlingError enters log-pmfs additively, so absolute error is what matters. Small n
    // come from a table (correctly rounded); for larger n Loader's truncation leaves
    // < 1.2e-16 (the first omitted term, 691 / (360360 n^11) at n = 16).
    const double tolerance = c.n <= 15 ? 1e-17 : 2e-16;
    EXPECT_NEAR(StirlingError(c.n), c.expected, tolerance) << "n=" << c.n;
  }
  EXPECT_EQ(StirlingError(0), 0.0);
}

TEST(DevianceTermTest, MatchesHighPrecisionReference) {
  struct Case {
    double x, mean, expected;
  };
  const Case cases[] = {
      {0, 3.5, 3.5},
      {3, 3.5, 0.037547960518225087121},
      {10, 7.25, 0.46583624127462275669},
      {1001000, 1e6, 0.49983341661669997621},
      {1000003000000, 1e12, 4.4999955000067499879},
      {50, 2, 112.94379124341003746},
      {1, 40, 35.311120545886063697},
  };
  for (const Case& c : cases) {
    EXPECT_NEAR(DevianceTerm(c.x, c.mean, c.x - c.mean), c.expected, 4e-15 * c.expected)
        << "x=" << c.x << " mean=" << c.mean;
  }
}

TEST(ExactDifferenceTest, ExactForHugeArguments) {
  EXPECT_EQ(ExactDifference(5, 2.25), 2.75);
  EXPECT_EQ(ExactDifference(0, 0.5), -0.5);
  // 2^62 + 3 is not a double; the naive double difference would give 3 - 0.5 rounded to a
  // multiple of 1024.
  const int64_t k = (int64_t{1} << 62) + 3;
  EXPECT_EQ(ExactDifference(k, 0x1p62), 3.0);
  EXPECT_EQ(ExactDifference(1000000000007, 1e12 + 0.5), 6.5);
}

}  // namespace
}  // namespace sgmcmc::rng_internal
