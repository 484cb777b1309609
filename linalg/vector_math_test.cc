#include "linalg/vector_math.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "testing/random_inputs.h"
#include "testing/ulp_testing.h"

namespace sgmcmc::linalg {
namespace {

using ::sgmcmc::testing::RandomInputs;
using ::sgmcmc::testing::UlpDistance;

// Bit patterns equal (NaN payloads included).
bool SameBits(double a, double b) { return std::memcmp(&a, &b, sizeof(a)) == 0; }

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
  RandomInputs inputs(17);
  for (const Range& range : ranges) {
    std::vector<double> x(100003);  // not a multiple of 4: the tail path runs too
    for (double& v : x) v = inputs.Uniform(range.lo, range.hi);
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

std::vector<double> Log(const std::vector<double>& x) {
  std::vector<double> y(x.size());
  LogArray(x.data(), y.data(), static_cast<int64_t>(x.size()));
  return y;
}

// x = 2^e m with e uniform over [lo_exponent, hi_exponent) and m uniform in [1, 2): every
// binade equally often, the subnormals (e < -1022) included.
std::vector<double> LogUniformInputs(RandomInputs& random, int lo_exponent, int hi_exponent,
                                     int n) {
  std::vector<double> x(n);
  for (double& v : x) {
    const int e =
        lo_exponent + static_cast<int>(random.UniformInt(hi_exponent - lo_exponent));
    v = std::ldexp(random.Uniform(1, 2), e);
  }
  return x;
}

// Within 1 ulp of glibc's log (correctly rounded in practice) over every binade, around 1
// (where log x is tiny and the reduction matters most) and in the subnormal range; and the
// AVX2 path (when the CPU has it, else the same function) equals the portable path bit for
// bit, so a seed gives the same stream on every x86-64 CPU.
TEST(LogArrayTest, WithinOneUlpOfStdLogAndEqualToPortablePath) {
  RandomInputs random(23);
  std::vector<std::vector<double>> inputs = {
      LogUniformInputs(random, -1074, 1024, 100003),
      LogUniformInputs(random, -1074, -1022, 10007), LogUniformInputs(random, -3, 3, 100003)};
  std::vector<double> near_one(100003);
  for (double& v : near_one) v = random.Uniform(0.7, 1.5);
  inputs.push_back(near_one);
  std::vector<double> tiny_offset(10007);
  for (double& v : tiny_offset) v = 1 + random.Uniform(-1e-8, 1e-8);
  inputs.push_back(tiny_offset);
  for (const std::vector<double>& x : inputs) {
    const std::vector<double> y = Log(x);
    std::vector<double> portable(x.size());
    LogArrayPortable(x.data(), portable.data(), static_cast<int64_t>(x.size()));
    int64_t max_ulps = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      ASSERT_TRUE(SameBits(y[i], portable[i]))
          << "x = " << x[i] << ": " << y[i] << " vs portable " << portable[i];
      const double expected = std::log(x[i]);
      // Both signs occur: compare magnitudes (equal signs whenever log x != 0).
      ASSERT_EQ(std::signbit(y[i]), std::signbit(expected)) << "x = " << x[i];
      max_ulps = std::max(max_ulps, UlpDistance(std::abs(y[i]), std::abs(expected)));
    }
    EXPECT_LE(max_ulps, 1) << "inputs from " << x[0];
  }
}

TEST(LogArrayTest, SpecialValues) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const double min_subnormal = std::numeric_limits<double>::denorm_min();
  const double min_normal = std::numeric_limits<double>::min();
  const double max = std::numeric_limits<double>::max();
  const std::vector<double> x = {1.0,  0.0,          -0.0,       kInf,        -kInf, -1.0,
                                 2.0,  min_subnormal, min_normal, max,         0.5,  std::nan("")};
  const std::vector<double> y = Log(x);
  std::vector<double> portable(x.size());
  LogArrayPortable(x.data(), portable.data(), static_cast<int64_t>(x.size()));
  EXPECT_TRUE(SameBits(y[0], 0.0));  // log 1 = +0 exactly
  EXPECT_EQ(y[1], -kInf);
  EXPECT_EQ(y[2], -kInf);
  EXPECT_EQ(y[3], kInf);
  EXPECT_TRUE(std::isnan(y[4]));
  EXPECT_TRUE(std::isnan(y[5]));
  EXPECT_EQ(y[6], std::log(2.0));
  EXPECT_EQ(y[7], std::log(min_subnormal));  // -744.44...
  EXPECT_EQ(y[8], std::log(min_normal));
  EXPECT_LE(UlpDistance(y[9], std::log(max)), 1);
  EXPECT_EQ(y[10], -std::log(2.0));
  EXPECT_TRUE(std::isnan(y[11]));
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_TRUE(SameBits(y[i], portable[i]) || (std::isnan(y[i]) && std::isnan(portable[i])))
        << "x = " << x[i] << ": " << y[i] << " vs portable " << portable[i];
  }
}

TEST(LogArrayTest, InPlaceAndEveryTailLength) {
  for (int n = 0; n <= 9; ++n) {
    std::vector<double> x(n), expected(n);
    for (int i = 0; i < n; ++i) x[i] = 0.37 * i + 1e-300;
    LogArrayPortable(x.data(), expected.data(), n);
    LogArray(x.data(), x.data(), n);
    for (int i = 0; i < n; ++i) EXPECT_EQ(x[i], expected[i]) << "n=" << n << " i=" << i;
  }
}

}  // namespace
}  // namespace sgmcmc::linalg
