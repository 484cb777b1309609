#include "rng/binomial.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "boost/math/distributions/binomial.hpp"
#include "gtest/gtest.h"
#include "rng/internal/discrete_variate_testing.h"
#include "rng/internal/variate_testing.h"

namespace sgmcmc::rng {
namespace {

// Every statistical check below fails a correct generator with probability
// testing::kFalseFailureRate = 1e-6; this file runs 261 of them, so a correct generator fails a
// run with probability < 3e-4 (Bonferroni).

constexpr uint64_t kSeeds[] = {1, 2, 3};

std::string Label(int64_t n, double p, uint64_t seed) {
  return "n=" + std::to_string(n) + " p=" + std::to_string(p) + " seed=" + std::to_string(seed);
}

// Chi-squared against Boost.Math's binomial pmf and moment z-tests (mean n p, variance n p q,
// fourth central moment n p q (1 + 3 (n - 2) p q)), where the moments are informative.
void ExpectBinomial(int64_t n, double p) {
  const double q = 1 - p;
  for (uint64_t seed : kSeeds) {
    Engine engine(seed, static_cast<uint64_t>(n) ^ static_cast<uint64_t>(p * 1e9));
    std::vector<int64_t> draws(100000);
    for (int64_t& k : draws) k = BinomialSample(engine, n, p);
    rng_internal::ExpectFitsPmf(draws, boost::math::binomial_distribution<double>(n, p),
                                Label(n, p, seed));
    const double variance = n * p * q;
    // Below variance 0.1 the draws are mostly one value and z-tests lose their normal limit;
    // for n = 1 (Bernoulli) s^2 is nearly deterministic and the pmf test says everything.
    if (variance >= 0.1 && n >= 2) {
      rng_internal::ExpectMoments(std::vector<double>(draws.begin(), draws.end()), n * p, variance,
                                  variance * (1 + 3 * (n - 2) * p * q), Label(n, p, seed));
    }
  }
}

TEST(BinomialSampleTest, MatchesBoostPmfOverGrid) {
  for (int64_t n : {1, 7, 30, 100, 1000, 1000000, 1000000000}) {
    for (double p : {1e-6, 0.3, 0.5, 0.99}) ExpectBinomial(n, p);
  }
}

// Both sides of the inversion/BTRS switch at n min(p, 1 - p) = 10, and the mirror p > 1/2.
TEST(BinomialSampleTest, MatchesBoostPmfAroundAlgorithmSwitch) {
  ExpectBinomial(19, 0.5);
  ExpectBinomial(21, 0.5);
  ExpectBinomial(100, 0.0999);
  ExpectBinomial(100, 0.1);
  ExpectBinomial(100, 0.9001);
  ExpectBinomial(200, 0.95);
  ExpectBinomial(3, 0.7);
}

TEST(BinomialSampleTest, DegenerateCasesConsumeNoRandomness) {
  Engine engine(9);
  EXPECT_EQ(BinomialSample(engine, 0, 0.3), 0);
  EXPECT_EQ(BinomialSample(engine, 0, 1.0), 0);
  EXPECT_EQ(BinomialSample(engine, 1000000000, 0.0), 0);
  EXPECT_EQ(BinomialSample(engine, 1000000000, 1.0), 1000000000);
  EXPECT_EQ(BinomialSample(engine, kMaxBinomialTrials, 1.0), kMaxBinomialTrials);
  EXPECT_EQ(engine.position(), 0u);
}

TEST(BinomialSampleTest, LargestTrialCountStaysInRangeAndHitsOddValues) {
  Engine engine(10);
  const double n = static_cast<double>(kMaxBinomialTrials);
  const double sd = std::sqrt(n * 0.25);
  int odd = 0;
  for (int i = 0; i < 1000; ++i) {
    const int64_t k = BinomialSample(engine, kMaxBinomialTrials, 0.5);
    ASSERT_LT(std::fabs(static_cast<double>(k - kMaxBinomialTrials / 2)), 7 * sd);
    odd += k & 1;
  }
  // Beyond 2^53 a double-based draw could only produce even values. Binomial(1000, 1/2):
  // P(odd outside (400, 600)) < 1e-9.
  EXPECT_GT(odd, 400);
  EXPECT_LT(odd, 600);
}

// Stream stability: the first draws for seed 42, one case per algorithm branch.
TEST(BinomialSampleTest, PinnedDraws) {
  Engine engine(42);
  std::vector<int64_t> got;
  for (auto [n, p] : {std::pair<int64_t, double>{10, 0.3},
                      {10, 0.7},
                      {1000, 0.3},
                      {1000, 0.99},
                      {1000000000, 0.5}}) {
    for (int i = 0; i < 3; ++i) got.push_back(BinomialSample(engine, n, p));
  }
  const std::vector<int64_t> expected = {3,   2,   2,   7,   6,         6,         307,      316,
                                         291, 988, 991, 994, 499995331, 500007548, 499997191};
  EXPECT_EQ(got, expected);
}

TEST(BinomialLogPmfTest, MatchesHighPrecisionReference) {
  // mpmath 1.3 at 60 digits: loggamma(n+1) - loggamma(k+1) - loggamma(n-k+1) + k log(p)
  // + (n-k) log1p(-p), with p the given double.
  struct Case {
    int64_t k, n;
    double p, expected;
  };
  const Case cases[] = {
      {3, 10, 0.3, -1.321151277766888636},
      {0, 10, 0.3, -3.5667494393873236305},
      {10, 10, 0.3, -12.039728043259360296},
      {500, 1000, 0.5, -3.6799189920941293417},
      {300000123, 1000000000, 0.3, -10.500283716427608334},
      {1000, 1000000000, 1e-6, -4.3728990060260469073},
      {999, 1000, 0.99, -7.7377004246539021327},
      {1, 5, 1e-300, -689.16608998577960481},
      {500000000000, 1000000000000, 0.5, -14.041301910609251536},
  };
  for (const Case& c : cases) {
    EXPECT_NEAR(BinomialLogPmf(c.k, c.n, c.p), c.expected, 1e-14 * std::fabs(c.expected))
        << "k=" << c.k << " n=" << c.n << " p=" << c.p;
  }
}

TEST(BinomialLogPmfTest, MatchesBoostAndHandlesEdges) {
  for (auto [n, p] : {std::pair<int64_t, double>{12, 0.25}, {75, 0.6}, {400, 0.02}}) {
    const boost::math::binomial_distribution<double> dist(n, p);
    for (int64_t k = 0; k <= n; ++k) {
      const double expected = std::log(boost::math::pdf(dist, static_cast<double>(k)));
      if (expected < -700) continue;
      EXPECT_NEAR(BinomialLogPmf(k, n, p), expected, 1e-12 * std::max(1.0, std::fabs(expected)))
          << "k=" << k << " n=" << n << " p=" << p;
    }
  }
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(BinomialLogPmf(-1, 5, 0.5), -inf);
  EXPECT_EQ(BinomialLogPmf(6, 5, 0.5), -inf);
  EXPECT_EQ(BinomialLogPmf(0, 0, 1.0), 0.0);
  EXPECT_EQ(BinomialLogPmf(0, 5, 0.0), 0.0);
  EXPECT_EQ(BinomialLogPmf(1, 5, 0.0), -inf);
  EXPECT_EQ(BinomialLogPmf(5, 5, 1.0), 0.0);
  EXPECT_EQ(BinomialLogPmf(4, 5, 1.0), -inf);
  EXPECT_EQ(BinomialLogPmf(0, 5, 1.0), -inf);
}

TEST(BinomialDeathTest, RejectsInvalidArguments) {
  Engine engine(1);
  EXPECT_DEATH(BinomialSample(engine, -1, 0.5), "BinomialSample: n must be .* got -1");
  EXPECT_DEATH(BinomialSample(engine, kMaxBinomialTrials + 1, 0.5),
               "BinomialSample: n must be .* got 4611686018427387905");
  EXPECT_DEATH(BinomialSample(engine, 10, -0.1),
               "BinomialSample: p must be in \\[0, 1\\], got -0.1");
  EXPECT_DEATH(BinomialSample(engine, 10, 1.5), "BinomialSample: p must be .* got 1.5");
  EXPECT_DEATH(BinomialSample(engine, 10, std::nan("")), "BinomialSample: p must be .* got nan");
  EXPECT_DEATH(BinomialLogPmf(1, 10, 2.0), "BinomialLogPmf: p must be .* got 2");
}

}  // namespace
}  // namespace sgmcmc::rng
