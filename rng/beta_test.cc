#include "rng/beta.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "boost/math/distributions/beta.hpp"
#include "boost/math/special_functions/beta.hpp"
#include "gtest/gtest.h"
#include "rng/internal/variate_testing.h"
#include "testing/distribution_testing.h"

// Every statistical check below fails a correct sampler with probability 1e-6
// (testing::kFalseFailureRate); this file makes 74 of them, so it fails spuriously with
// probability < 1e-4 (Bonferroni).
namespace sgmcmc::rng {
namespace {

using rng_internal::DrawMany;
using rng_internal::ExpectFitsCdf;
using rng_internal::ExpectMoments;

constexpr int kDraws = 50000;

std::string Label(double a, double b, uint64_t seed) {
  return "a=" + std::to_string(a) + " b=" + std::to_string(b) + " seed=" + std::to_string(seed);
}

// Fourth central moment of Beta(a, b): var^2 (3 + excess kurtosis), with excess kurtosis
// 6 ((a - b)^2 (a + b + 1) - a b (a + b + 2)) / (a b (a + b + 2) (a + b + 3)).
double BetaFourthCentralMoment(double a, double b) {
  const double s = a + b;
  const double variance = a * b / (s * s * (s + 1));
  const double excess =
      6 * ((a - b) * (a - b) * (s + 1) - a * b * (s + 2)) / (a * b * (s + 2) * (s + 3));
  return variance * variance * (3 + excess);
}

// Both paths (linear for a, b >= 1; log space otherwise), symmetric and skewed, from U-shaped
// to concentrated. (Small b is kept >= 0.25: draws within 1.1e-16 of 1 round to 1, an atom of
// mass ~eps^b / (b B(a, b)) that KS would see at b = 0.05, where it is 8%.) 9 pairs x 2 seeds x (KS
// + chi-squared + mean + variance) = 72 checks.
TEST(BetaSampleTest, MatchesBetaCdfAcrossShapesAndSeeds) {
  const std::pair<double, double> shapes[] = {{0.25, 0.25}, {0.5, 0.5}, {0.2, 3}, {1, 1},    {2, 5},
                                              {50, 0.7},    {1, 30},    {7, 7},   {1e3, 2e3}};
  for (const auto& shape : shapes) {
    // Named variables, not structured bindings: C++17 lambdas cannot capture those (GCC
    // accepts it; clang, the compiler of --config=ubsan, tsan and fuzz, does not).
    const double a = shape.first, b = shape.second;
    for (uint64_t seed : {1, 2}) {
      Engine engine(seed, 31);
      const auto draws = DrawMany(kDraws, [&] { return BetaSample(engine, a, b); });
      const std::string label = Label(a, b, seed);
      ExpectFitsCdf(
          draws, [&](double x) { return boost::math::ibeta(a, b, x); }, label);
      const double s = a + b;
      ExpectMoments(draws, a / s, a * b / (s * s * (s + 1)), BetaFourthCentralMoment(a, b), label);
    }
  }
}

// Tiny shapes: the mass sits at the ends, P(X > 1/2) = 1 - I_{1/2}(a, b) (about a / (a + b)).
// Draws are in [0, 1] (exact 0 or 1 where the value is not representable). 2 binomial
// z-tests.
TEST(BetaSampleTest, TinyShapesSplitMassBetweenTheEnds) {
  for (const auto& [a, b] : {std::pair{1e-3, 3e-3}, std::pair{1e-200, 1e-200}}) {
    Engine engine(3);
    constexpr int kTinyDraws = 20000;
    int upper = 0;
    for (int i = 0; i < kTinyDraws; ++i) {
      const double x = BetaSample(engine, a, b);
      ASSERT_GE(x, 0);
      ASSERT_LE(x, 1);
      upper += x > 0.5;
    }
    const double p = 1 - boost::math::ibeta(a, b, 0.5);
    const double z = (upper - kTinyDraws * p) / std::sqrt(kTinyDraws * p * (1 - p));
    EXPECT_GT(testing::TwoSidedNormalPValue(z), testing::kFalseFailureRate)
        << Label(a, b, 3) << " upper=" << upper << " p=" << p;
  }
}

TEST(BetaSampleTest, SameSeedAndStreamAreBitIdentical) {
  Engine x(10, 3), y(10, 3);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(BetaSample(x, 0.5, 2), BetaSample(y, 0.5, 2));
    ASSERT_EQ(BetaSample(x, 3, 2), BetaSample(y, 3, 2));
  }
}

// Stream stability: a change of these values is a change of every downstream result.
TEST(BetaSampleTest, PinnedDraws) {
  Engine engine(42);
  const double expected[] = {0x1.517dff8826fcdp-4, 0x1.31ad002bfb522p-1, 0x1.8ecceae3eb398p-9,
                             0x1.0206ba0d5750cp-1};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(BetaSample(engine, i % 2 == 0 ? 0.5 : 3.0, 2.0), expected[i]) << i;
  }
}

TEST(BetaLogPdfTest, MatchesBoost) {
  for (const auto& [a, b] :
       {std::pair{0.3, 0.3}, std::pair{1.0, 1.0}, std::pair{2.0, 5.0}, std::pair{40.0, 0.9}}) {
    const boost::math::beta_distribution<double> dist(a, b);
    for (double x : {1e-6, 0.1, 0.5, 0.93, 1 - 1e-9}) {
      const double expected = std::log(boost::math::pdf(dist, x));
      EXPECT_NEAR(BetaLogPdf(x, a, b), expected, 1e-12 * (1 + std::fabs(expected)))
          << "x=" << x << " a=" << a << " b=" << b;
    }
  }
}

TEST(BetaLogPdfTest, EdgeCases) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(BetaLogPdf(-0.1, 2, 2), -inf);
  EXPECT_EQ(BetaLogPdf(1.1, 2, 2), -inf);
  EXPECT_EQ(BetaLogPdf(0, 0.5, 2), inf);
  EXPECT_EQ(BetaLogPdf(0, 2, 2), -inf);
  EXPECT_EQ(BetaLogPdf(1, 2, 0.5), inf);
  // Beta(1, b) at 0: density b.
  EXPECT_NEAR(BetaLogPdf(0, 1, 3), std::log(3.0), 1e-14);
  EXPECT_NEAR(BetaLogPdf(1, 4, 1), std::log(4.0), 1e-14);
}

TEST(BetaDeathTest, RejectsInvalidParameters) {
  Engine engine(1);
  EXPECT_DEATH(BetaSample(engine, 0, 1), "BetaSample: a must be finite and > 0, got 0");
  EXPECT_DEATH(BetaSample(engine, 1, -2), "BetaSample: b must be finite and > 0, got -2");
  EXPECT_DEATH(BetaSample(engine, NAN, 1), "BetaSample: a must be finite");
  EXPECT_DEATH(BetaSample(engine, 1, INFINITY), "BetaSample: b must be finite");
  EXPECT_DEATH(BetaLogPdf(0.5, 0, 1), "BetaLogPdf: a must be finite and > 0");
  EXPECT_DEATH(BetaLogPdf(0.5, 1, 0), "BetaLogPdf: b must be finite and > 0");
}

}  // namespace
}  // namespace sgmcmc::rng
