#include "models/internal/exp_kernel.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "rng/engine.h"
#include "rng/uniform.h"

namespace sgmcmc::models_internal {
namespace {

// Distance in units in the last place between two finite non-negative doubles (their bit
// patterns are ordered like the values).
int64_t UlpDistance(double a, double b) {
  int64_t ia, ib;
  std::memcpy(&ia, &a, sizeof(a));
  std::memcpy(&ib, &b, sizeof(b));
  return ia > ib ? ia - ib : ib - ia;
}

std::vector<double> Exp(const std::vector<double>& x) {
  std::vector<double> y(x.size());
  ExpArray(x.data(), y.data(), static_cast<int64_t>(x.size()));
  return y;
}

// Within 1 ulp of glibc's exp (itself correctly rounded but for rare cases) on wide and
// narrow ranges, the subnormal range included, and bit-identical to the portable path.
TEST(ExpArrayTest, WithinOneUlpOfStdExpAndEqualToPortablePath) {
  struct Range {
    double lo, hi;
  };
  const std::vector<Range> ranges = {
      {-745.2, 709.8}, {-1, 1}, {-1e-6, 1e-6}, {-30, 0}, {-745.2, -708}, {700, 709.78}};
  rng::Engine engine(17);
  for (const Range& range : ranges) {
    std::vector<double> x(100003);  // not a multiple of 4: the tail path runs too
    for (double& v : x) v = rng::UniformDouble(engine, range.lo, range.hi);
    const std::vector<double> y = Exp(x);
    std::vector<double> portable(x.size());
    ExpArrayPortable(x.data(), portable.data(), static_cast<int64_t>(x.size()));
    int64_t max_ulps = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      ASSERT_EQ(std::memcmp(&y[i], &portable[i], sizeof(double)), 0)
          << "x = " << x[i] << ": " << y[i] << " vs portable " << portable[i];
      max_ulps = std::max(max_ulps, UlpDistance(y[i], std::exp(x[i])));
    }
    EXPECT_LE(max_ulps, 1) << "[" << range.lo << ", " << range.hi << "]";
  }
}

TEST(ExpArrayTest, SpecialValues) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const std::vector<double> x = {0.0,    -0.0,   1.0,     -kInf,    kInf,  709.78,  709.79,
                                 -745.1, -745.2, -1000.0, 1000.0,   -1e-300, 1e-300};
  const std::vector<double> y = Exp(x);
  EXPECT_EQ(y[0], 1.0);
  EXPECT_EQ(y[1], 1.0);
  EXPECT_LE(UlpDistance(y[2], std::exp(1.0)), 1);
  EXPECT_EQ(y[3], 0.0);
  EXPECT_EQ(y[4], kInf);
  EXPECT_LE(UlpDistance(y[5], std::exp(709.78)), 1);
  EXPECT_EQ(y[6], kInf);
  EXPECT_EQ(y[7], std::exp(-745.1));  // the smallest subnormal
  EXPECT_EQ(y[8], 0.0);
  EXPECT_EQ(y[9], 0.0);
  EXPECT_EQ(y[10], kInf);
  EXPECT_EQ(y[11], 1.0);
  EXPECT_EQ(y[12], 1.0);
  const std::vector<double> nan = Exp({std::nan(""), 0.5, std::nan(""), -2.0, 3.0});
  EXPECT_TRUE(std::isnan(nan[0]));
  EXPECT_TRUE(std::isnan(nan[2]));
  EXPECT_LE(UlpDistance(nan[1], std::exp(0.5)), 1);
  EXPECT_LE(UlpDistance(nan[4], std::exp(3.0)), 1);
}

TEST(ExpArrayTest, InPlaceAndEveryTailLength) {
  for (int n = 0; n <= 9; ++n) {
    std::vector<double> x(n), expected(n);
    for (int i = 0; i < n; ++i) x[i] = 0.37 * i - 1.5;
    ExpArrayPortable(x.data(), expected.data(), n);
    ExpArray(x.data(), x.data(), n);
    for (int i = 0; i < n; ++i) EXPECT_EQ(x[i], expected[i]) << "n=" << n << " i=" << i;
  }
}

}  // namespace
}  // namespace sgmcmc::models_internal
