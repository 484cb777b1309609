#include "rng/internal/ziggurat.h"

#include <cmath>

#include "gtest/gtest.h"
#include "rng/exponential.h"
#include "rng/normal.h"

namespace sgmcmc::rng_internal {
namespace {

// Distance in units in the last place.
double UlpDistance(double a, double b) {
  return std::fabs(a - b) / (std::nextafter(std::fabs(b), INFINITY) - std::fabs(b));
}

TEST(ConstexprMathTest, ExpMatchesLibm) {
  static_assert(ConstexprExp(0) == 1);
  for (double x = -700; x <= 700; x += 0.37) {
    EXPECT_LE(UlpDistance(ConstexprExp(x), std::exp(x)), 4) << x;
  }
  for (double x = -1; x <= 1; x += 0.0011) {
    EXPECT_LE(UlpDistance(ConstexprExp(x), std::exp(x)), 2) << x;
  }
}

TEST(ConstexprMathTest, LogMatchesLibm) {
  static_assert(ConstexprLog(1) == 0);
  for (double y = 1e-300; y < 1e300; y *= 1.7) {
    EXPECT_LE(UlpDistance(ConstexprLog(y), std::log(y)), 4) << y;
  }
  for (double y = 0.5; y <= 2; y += 0.00097) {
    if (std::fabs(y - 1) < 1e-9) continue;
    EXPECT_LE(UlpDistance(ConstexprLog(y), std::log(y)), 4) << y;
  }
}

TEST(ConstexprMathTest, SqrtMatchesLibm) {
  static_assert(ConstexprSqrt(4) == 2);
  static_assert(ConstexprSqrt(0) == 0);
  for (double y = 1e-300; y < 1e300; y *= 1.3) {
    EXPECT_LE(UlpDistance(ConstexprSqrt(y), std::sqrt(y)), 1) << y;
  }
}

// Checks the geometry of a 256-layer ziggurat for density f with tail mass tail_area beyond r.
void ExpectValidTable(const ZigguratTable& t, double (*f)(double), double tail_area) {
  // Tables were built with the constexpr math: compare with <cmath> evaluations.
  EXPECT_NEAR(t.v / (t.r * f(t.r) + tail_area), 1, 1e-14);
  EXPECT_NEAR(t.closure, 0, 1e-11);
  EXPECT_EQ(t.x[1], t.r);
  EXPECT_EQ(t.x[kZigguratLayers], 0);
  EXPECT_EQ(t.f[kZigguratLayers], 1);
  EXPECT_NEAR(t.x[0] * f(t.r) / t.v, 1, 1e-14);
  for (int i = 0; i < kZigguratLayers; ++i) {
    EXPECT_GT(t.x[i], t.x[i + 1]) << i;
    EXPECT_NEAR(t.f[i] / f(t.x[i]), 1, 1e-14) << i;
    // Every layer has area v.
    if (i >= 1) {
      EXPECT_NEAR(t.x[i] * (t.f[i + 1] - t.f[i]) / t.v, 1, 1e-11) << i;
    }
    // The fast path never accepts a point outside the core [0, x[i+1]) and misses at most
    // a few grid points of it.
    const uint64_t k = t.layers[i].accept_below;
    if (k > 0) {
      EXPECT_LT(ZigguratCandidate(k - 1, t.layers[i].width_scale), t.x[i + 1]) << i;
      EXPECT_GE(ZigguratCandidate(k + 4, t.layers[i].width_scale), t.x[i + 1]) << i;
    }
  }
  EXPECT_EQ(t.layers[kZigguratLayers - 1].accept_below, 0u);
}

TEST(ZigguratTableTest, Normal) {
  const double r = kNormalZiggurat.r;
  ExpectValidTable(
      kNormalZiggurat, [](double x) { return std::exp(-0.5 * x * x); },
      std::sqrt(M_PI / 2) * std::erfc(r / std::sqrt(2.0)));
  // Fraction of draws taking the fast path: sum over layers of core / layer width.
  double fast = 0;
  for (int i = 0; i < kZigguratLayers; ++i) fast += kNormalZiggurat.x[i + 1] / kNormalZiggurat.x[i];
  EXPECT_GT(fast / kZigguratLayers, 0.98);
}

TEST(ZigguratTableTest, Exponential) {
  ExpectValidTable(
      kExponentialZiggurat, [](double x) { return std::exp(-x); },
      std::exp(-kExponentialZiggurat.r));
}

}  // namespace
}  // namespace sgmcmc::rng_internal
