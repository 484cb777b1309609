#include "rng/poisson.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "boost/math/distributions/poisson.hpp"
#include "gtest/gtest.h"
#include "rng/internal/discrete_variate_testing.h"
#include "rng/internal/saddle_point.h"
#include "rng/internal/variate_testing.h"
#include "rng/uniform.h"
#include "testing/distribution_testing.h"

namespace sgmcmc::rng {
namespace {

// Every statistical check below fails with probability testing::kFalseFailureRate = 1e-6 when
// the generator is exact (p-value threshold); this file runs 159 of them, so a correct
// generator fails a run with probability < 2e-4 (Bonferroni).

constexpr uint64_t kSeeds[] = {1, 2, 3};

std::vector<int64_t> Draw(uint64_t seed, double mean, int n) {
  Engine engine(seed, /*stream=*/static_cast<uint64_t>(mean * 1000));
  std::vector<int64_t> draws(n);
  for (int64_t& k : draws) k = PoissonSample(engine, mean);
  return draws;
}

std::string Label(double mean, uint64_t seed) {
  return "mean=" + std::to_string(mean) + " seed=" + std::to_string(seed);
}

// Chi-squared of the draws against Boost.Math's Poisson pmf (rng_internal::ExpectFitsPmf:
// exact count test for 1e-8), for means on both sides of the switches from sequential search
// to branch-free inversion at 3 and from inversion to PTRS at 10 (9.999: ~0.35% of the draws
// take the branch-free inversion's tail search from k = 20, and the cells reach k = 25).
TEST(PoissonSampleTest, MatchesBoostPmfAcrossMeansAndSeeds) {
  for (double mean : {1e-8, 1e-3, 0.1, 1.0, 2.999, 3.0, 5.0, 7.5, 9.9, 9.999, 10.0, 30.0, 1e3,
                      1e6}) {
    for (uint64_t seed : kSeeds) {
      const std::vector<int64_t> draws = Draw(seed, mean, 100000);
      rng_internal::ExpectFitsPmf(draws, boost::math::poisson_distribution<double>(mean),
                                  Label(mean, seed));
      if (mean >= 0.1) {
        // Poisson: variance = mean, fourth central moment = mean (1 + 3 mean).
        rng_internal::ExpectMoments(std::vector<double>(draws.begin(), draws.end()), mean, mean,
                                    mean * (1 + 3 * mean), Label(mean, seed));
      }
    }
  }
}

// Huge means: a cell-by-cell chi-squared would need ~1e7 cells and Boost's Poisson CDF
// gives up at mean 1e12, so test the moments and the continuous-ised draw Y = K + V - 1/2,
// V ~ U(0, 1) independent, by KS against N(mean, mean). By Berry-Esseen (Poisson(mean) is a
// sum of mean Poisson(1) variables; constant 0.4748, E|X - 1|^3 < 1.2) the CDF of
// (Y - mean) / sqrt(mean) is within 0.6 / sqrt(mean) <= 2e-5 of the normal CDF, far below
// the KS critical value ~0.04 at n = 20000, so the test keeps its stated false-failure rate.
TEST(PoissonSampleTest, HugeMeansMatchMomentsAndNormalLimit) {
  for (double mean : {1e9, 1e12}) {
    const double sd = std::sqrt(mean);
    for (uint64_t seed : kSeeds) {
      const std::vector<int64_t> draws = Draw(seed, mean, 20000);
      rng_internal::ExpectMoments(std::vector<double>(draws.begin(), draws.end()), mean, mean,
                                  mean * (1 + 3 * mean), Label(mean, seed));
      Engine jitter(seed + 1000);
      std::vector<double> standardised(draws.size());
      for (size_t i = 0; i < draws.size(); ++i) {
        standardised[i] =
            (rng_internal::ExactDifference(draws[i], mean) + UniformDouble(jitter) - 0.5) / sd;
      }
      const auto ks = testing::KolmogorovSmirnovTest(
          standardised, [](double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); });
      EXPECT_TRUE(ks.Passed()) << Label(mean, seed) << " " << ks;
    }
  }
}

// For mean < 10 PoissonSample inverts the cdf at one uniform per draw, whichever of its two
// inversion paths it takes: compare with the textbook loop (Devroye 1986, sec. X.3.3) in long
// double on the same uniforms from a twin engine. The two can disagree only when u lies
// within the cdf's rounding error (~1e-15) of a cdf value, probability ~1e-14 per draw, so
// equality is required; the tail search past the branch-free terms (k >= 12 below mean 5.5,
// k >= 16 above) must also have been exercised.
TEST(PoissonSampleTest, InvertsTheCdfOfOneUniformPerDraw) {
  int64_t tail_draws = 0;
  for (double mean : {1e-300, 1e-6, 0.5, 2.0, 2.999, 3.0, 4.2, 6.0, 8.5, 9.5, 9.9999}) {
    Engine engine(21, static_cast<uint64_t>(mean * 1e4)), twin = engine;
    for (int i = 0; i < 20000; ++i) {
      const int64_t k = PoissonSample(engine, mean);
      long double u = UniformDouble(twin);
      long double p = std::exp(-static_cast<long double>(mean));
      int64_t expected = 0;
      while (u > p) {
        u -= p;
        p *= mean / static_cast<long double>(++expected);
      }
      ASSERT_EQ(k, expected) << "mean=" << mean << " draw " << i;
      tail_draws += k >= 16;
    }
    EXPECT_EQ(engine.position(), twin.position()) << "mean=" << mean;
  }
  // P(K >= 16) = 0.049 at mean 9.9999, 0.033 at 9.5, 0.014 at 8.5: ~1900 expected.
  EXPECT_GT(tail_draws, 0);
}

TEST(PoissonSampleTest, MeanZeroReturnsZeroWithoutConsumingRandomness) {
  Engine engine(5);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(PoissonSample(engine, 0.0), 0);
  EXPECT_EQ(engine.position(), 0u);
}

TEST(PoissonSampleTest, LargestMeanStaysInRange) {
  Engine engine(6);
  const double sd = std::sqrt(kMaxPoissonMean);
  for (int i = 0; i < 1000; ++i) {
    const int64_t k = PoissonSample(engine, kMaxPoissonMean);
    // Exact int64 arithmetic: beyond 2^53 every integer must remain reachable, so also
    // check that odd values occur.
    ASSERT_LT(std::fabs(static_cast<double>(k - (int64_t{1} << 62))), 7 * sd);
  }
  int odd = 0;
  for (int i = 0; i < 1000; ++i) odd += PoissonSample(engine, kMaxPoissonMean) & 1;
  // Binomial(1000, 1/2): P(odd outside [400, 600]) < 1e-9.
  EXPECT_GT(odd, 400);
  EXPECT_LT(odd, 600);
}

// Up to kMaxPoissonMean PoissonSampleUnbounded is PoissonSample's draw, word for word.
TEST(PoissonSampleUnboundedTest, IsPoissonSampleUpToTheLargestMean) {
  Engine engine(8), twin = engine;
  for (double mean : {0.0, 1e-300, 0.5, 5.0, 30.0, 1e12, kMaxPoissonMean}) {
    for (int i = 0; i < 100; ++i) {
      ASSERT_EQ(PoissonSampleUnbounded(engine, mean),
                static_cast<double>(PoissonSample(twin, mean)))
          << "mean=" << mean << " draw " << i;
    }
  }
  EXPECT_EQ(engine.position(), twin.position());
}

// Above 2^62 (the gamma reduction, one round at 1e19 and 5e19 = 2^65.4, two or three at
// 1e21): the moments and the normal limit of HugeMeansMatchMomentsAndNormalLimit, whose
// Berry-Esseen argument bounds the normal approximation by 0.6 / sqrt(mean) < 1e-9 here;
// the draws' rounding to double (spacing 2048 at 1e19, 2^18 at 1e21) moves the standardised
// value by < 1e-5, far below the KS critical value ~0.04 at n = 20000. A reduction that
// dropped the n arrivals, or used mean - n for mean - G, is off by ~mean / sd standard
// deviations; one that reused the gamma draw's randomness would fail the variance.
TEST(PoissonSampleUnboundedTest, HugeMeansMatchMomentsAndNormalLimit) {
  for (double mean : {1e19, 5e19, 1e21}) {
    const double sd = std::sqrt(mean);
    for (uint64_t seed : kSeeds) {
      Engine engine(seed, /*stream=*/17);
      std::vector<double> standardised(20000);
      for (double& z : standardised) z = (PoissonSampleUnbounded(engine, mean) - mean) / sd;
      rng_internal::ExpectMoments(standardised, 0, 1, 3 + 1 / mean, Label(mean, seed));
      const auto ks = testing::KolmogorovSmirnovTest(
          standardised, [](double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); });
      EXPECT_TRUE(ks.Passed()) << Label(mean, seed) << " " << ks;
    }
  }
}

// Means far beyond int64 (SCIR's Poisson mean for a log θ near its bound of 512): finite,
// and within a few ulps of the mean, since sd / mean = 1e-100 at 1e200.
TEST(PoissonSampleUnboundedTest, AstronomicalMeansAreFiniteAndAtTheMean) {
  Engine engine(9);
  for (double mean : {1e30, 1e100, 1e200, 1e300}) {
    for (int i = 0; i < 10; ++i) {
      const double k = PoissonSampleUnbounded(engine, mean);
      ASSERT_TRUE(std::isfinite(k)) << "mean=" << mean;
      EXPECT_NEAR(k / mean, 1, 1e-12) << "mean=" << mean;
    }
  }
}

// Stream stability: the first draws for seed 42 are pinned, one mean per algorithm branch.
TEST(PoissonSampleTest, PinnedDraws) {
  Engine engine(42);
  std::vector<int64_t> got;
  for (double mean : {0.5, 5.0, 30.0, 1e6, 1e12}) {
    for (int i = 0; i < 3; ++i) got.push_back(PoissonSample(engine, mean));
  }
  const std::vector<int64_t> expected = {
      0,           0, 0, 5, 6, 7, 33, 36, 26, 1000734, 999739, 998733, 999999704698, 1000000477443,
      999999822331};
  EXPECT_EQ(got, expected);
}

TEST(PoissonLogPmfTest, MatchesHighPrecisionReference) {
  // mpmath 1.3 at 60 digits: k log(mean) - mean - loggamma(k + 1).
  struct Case {
    int64_t k;
    double mean, expected;
  };
  const Case cases[] = {
      {0, 2.5, -2.5},
      {3, 2.5, -1.5428872736055898053},
      {17, 9.9, -4.431982578747636501},
      {1000, 1000, -4.3728995060262968242},
      {1000000000000, 1e12, -14.734449091169030179},
      {1000002000000, 1e12, -16.734448757836030179},
      {40, 3, -69.376148168033007773},
      {5, 1e-8, -96.89089547254387325},
  };
  for (const Case& c : cases) {
    EXPECT_NEAR(PoissonLogPmf(c.k, c.mean), c.expected, 1e-14 * std::fabs(c.expected))
        << "k=" << c.k << " mean=" << c.mean;
  }
}

TEST(PoissonLogPmfTest, MatchesBoostAndHandlesEdges) {
  for (double mean : {0.3, 7.0, 123.5}) {
    const boost::math::poisson_distribution<double> dist(mean);
    for (int64_t k = 0; k < 300; ++k) {
      const double expected = std::log(boost::math::pdf(dist, static_cast<double>(k)));
      if (expected < -700) break;
      EXPECT_NEAR(PoissonLogPmf(k, mean), expected, 1e-12 * std::max(1.0, std::fabs(expected)))
          << "k=" << k << " mean=" << mean;
    }
  }
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(PoissonLogPmf(-1, 3.0), -inf);
  EXPECT_EQ(PoissonLogPmf(0, 0.0), 0.0);
  EXPECT_EQ(PoissonLogPmf(1, 0.0), -inf);
}

TEST(PoissonDeathTest, RejectsInvalidMean) {
  Engine engine(1);
  EXPECT_DEATH(PoissonSample(engine, -1.0), "PoissonSample: mean must be .* got -1");
  EXPECT_DEATH(PoissonSample(engine, std::nan("")), "PoissonSample: mean .* got nan");
  EXPECT_DEATH(PoissonSample(engine, std::numeric_limits<double>::infinity()),
               "PoissonSample: mean .* got inf");
  EXPECT_DEATH(PoissonSample(engine, 1e19), "PoissonSample: mean .* got 1e\\+19");
  EXPECT_DEATH(PoissonLogPmf(0, -2.0), "PoissonLogPmf: mean .* got -2");
  EXPECT_DEATH(PoissonSampleUnbounded(engine, -1.0), "PoissonSampleUnbounded: mean .* got -1");
  EXPECT_DEATH(PoissonSampleUnbounded(engine, std::numeric_limits<double>::infinity()),
               "PoissonSampleUnbounded: mean .* got inf");
}

}  // namespace
}  // namespace sgmcmc::rng
