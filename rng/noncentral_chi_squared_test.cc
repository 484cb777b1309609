#include "rng/noncentral_chi_squared.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "boost/math/distributions/non_central_chi_squared.hpp"
#include "gtest/gtest.h"
#include "rng/gamma.h"
#include "rng/internal/variate_testing.h"
#include "rng/normal.h"
#include "testing/distribution_testing.h"

namespace sgmcmc::rng {
namespace {

// Each statistical check fails a correct sampler with probability testing::kFalseFailureRate
// = 1e-6; this file runs 252 of them: false-failure rate < 3e-4 per run (Bonferroni).

constexpr uint64_t kSeeds[] = {1, 2, 3};
constexpr int kDraws = 10000;
// Both sides of the switch from the Poisson mixture (df < 1) to the normal-plus-central split
// (df >= 1), including df = 1 itself (no central part) and just above it (a tiny gamma shape).
constexpr double kDfs[] = {0.01, 0.999, 1, 1.001, 5, 50};
constexpr double kNoncentralities[] = {0, 0.1, 10, 1000};

std::string Label(double df, double lambda, uint64_t seed) {
  return "df=" + std::to_string(df) + " lambda=" + std::to_string(lambda) +
         " seed=" + std::to_string(seed);
}

// KS against Boost.Math's noncentral chi-squared CDF over the df x noncentrality grid.
// For df = 0.01 about 2.4% of draws underflow to exactly 0 (true value below 4.9e-324), a
// tie KS cannot handle; there a chi-squared over 20 equiprobable bins is used instead, which
// is exact because every underflowed draw belongs to the first bin (F(4.9e-324) < 0.026 <
// 1/20 for all four noncentralities).
TEST(NoncentralChiSquaredSampleTest, MatchesBoostCdf) {
  for (double df : kDfs) {
    for (double lambda : kNoncentralities) {
      const boost::math::non_central_chi_squared_distribution<double> dist(df, lambda);
      const auto cdf = [&](double x) { return x <= 0 ? 0.0 : boost::math::cdf(dist, x); };
      for (uint64_t seed : kSeeds) {
        Engine engine(seed, static_cast<uint64_t>(df * 100 + lambda * 10000));
        const std::vector<double> draws = rng_internal::DrawMany(
            kDraws, [&] { return NoncentralChiSquaredSample(engine, df, lambda); });
        const auto result = df < 1 ? testing::ChiSquaredQuantileTest(draws, cdf, 20)
                                   : testing::KolmogorovSmirnovTest(draws, cdf);
        EXPECT_TRUE(result.Passed()) << Label(df, lambda, seed) << " " << result;
        // Moments: cumulants k_r = 2^(r-1) (r-1)! (df + r lambda). Only where the sampling
        // distribution of the mean and variance is close enough to normal for a 1e-6 tail.
        if (df + lambda >= 5) {
          const double variance = 2 * (df + 2 * lambda);
          rng_internal::ExpectMoments(draws, df + lambda, variance,
                                      48 * (df + 4 * lambda) + 3 * variance * variance,
                                      Label(df, lambda, seed));
        }
      }
    }
  }
}

// The log-space draw by KS on log X. Below log x = -700 the CDF is taken from its small-x
// limit F(x) = e^(-lambda/2) (x/2)^(df/2) / Gamma(df/2 + 1) (the P >= 1 terms and the
// relative correction are O(x), i.e. zero in double precision there).
TEST(LogNoncentralChiSquaredSampleTest, MatchesBoostCdfInLogSpace) {
  for (double df : {0.001, 0.01, 0.999, 1.0, 1.001, 5.0}) {
    for (double lambda : kNoncentralities) {
      const boost::math::non_central_chi_squared_distribution<double> dist(df, lambda);
      const auto cdf_of_log = [&](double y) {
        if (y > -700) return boost::math::cdf(dist, std::exp(y));
        return std::exp(-0.5 * lambda + 0.5 * df * (y - M_LN2) - std::lgamma(0.5 * df + 1));
      };
      for (uint64_t seed : kSeeds) {
        Engine engine(seed, static_cast<uint64_t>(df * 1000 + lambda * 10000));
        const std::vector<double> draws = rng_internal::DrawMany(
            kDraws, [&] { return LogNoncentralChiSquaredSample(engine, df, lambda); });
        for (double y : draws) ASSERT_TRUE(std::isfinite(y)) << Label(df, lambda, seed);
        const auto result = testing::KolmogorovSmirnovTest(draws, cdf_of_log);
        EXPECT_TRUE(result.Passed()) << Label(df, lambda, seed) << " " << result;
      }
    }
  }
}

TEST(NoncentralChiSquaredSampleTest, LinearAndLogDrawsAgree) {
  for (double df : {0.01, 0.999, 1.0, 1.0 + 1e-9, 2.0, 30.0}) {
    Engine a(7), b(7);
    for (int i = 0; i < 1000; ++i) {
      const double x = NoncentralChiSquaredSample(a, df, 3.0);
      const double log_x = LogNoncentralChiSquaredSample(b, df, 3.0);
      if (x > std::numeric_limits<double>::min()) {
        ASSERT_NEAR(std::log(x), log_x, 1e-12 * std::max(1.0, std::fabs(log_x))) << "df=" << df;
      } else {
        ASSERT_LT(log_x, -700) << "df=" << df;
      }
    }
  }
}

// Large noncentralities (the benchmark's 1e6), on both sides of df = 1, by moments.
TEST(NoncentralChiSquaredSampleTest, LargeNoncentralityMatchesMoments) {
  for (double df : {0.5, 5.0}) {
    const double lambda = 1e6;
    const double variance = 2 * (df + 2 * lambda);
    for (uint64_t seed : kSeeds) {
      Engine engine(seed, 77);
      const std::vector<double> draws = rng_internal::DrawMany(
          kDraws, [&] { return NoncentralChiSquaredSample(engine, df, lambda); });
      rng_internal::ExpectMoments(draws, df + lambda, variance,
                                  48 * (df + 4 * lambda) + 3 * variance * variance,
                                  Label(df, lambda, seed));
    }
  }
}

// The df >= 1 representation, exactly: the same stream gives (Z + sqrt(lambda))^2 from
// NormalSample, plus 2 GammaSample((df - 1) / 2) from the words after it (none at df = 1).
TEST(NoncentralChiSquaredSampleTest, SplitsIntoShiftedNormalAndCentralPart) {
  for (double df : {1.0, 1.5, 7.0}) {
    for (double lambda : {0.0, 2.5, 1e4}) {
      Engine engine(11), reference(11);
      for (int i = 0; i < 100; ++i) {
        const double x = NoncentralChiSquaredSample(engine, df, lambda);
        const double shifted = NormalSample(reference) + std::sqrt(lambda);
        const double central = df == 1 ? 0.0 : 2 * GammaSample(reference, 0.5 * (df - 1));
        ASSERT_EQ(x, shifted * shifted + central) << "df=" << df << " lambda=" << lambda;
      }
      EXPECT_EQ(engine.position(), reference.position());
    }
  }
}

TEST(NoncentralChiSquaredSampleTest, TinyDfStaysFiniteAndNonNegative) {
  Engine engine(8);
  for (double df : {1e-3, 1e-10, 1e-300}) {
    for (double lambda : {0.0, 1e-3, 5.0}) {
      for (int i = 0; i < 1000; ++i) {
        const double x = NoncentralChiSquaredSample(engine, df, lambda);
        ASSERT_TRUE(x >= 0 && std::isfinite(x)) << x;
        ASSERT_TRUE(std::isfinite(LogNoncentralChiSquaredSample(engine, df, lambda)));
      }
    }
  }
}

// Stream stability: pinned draws for seed 42, covering the Poisson mixture (df < 1) and the
// split (df >= 1) in linear and log space. Updated in session 2, when df >= 1 moved from the
// Poisson mixture to the split: the df = 3 and df = 50 draws and everything after them
// changed.
TEST(NoncentralChiSquaredSampleTest, PinnedDraws) {
  Engine engine(42);
  std::vector<double> got;
  for (auto [df, lambda] : {std::pair{0.5, 0.0}, std::pair{3.0, 7.0}, std::pair{50.0, 1e4}}) {
    for (int i = 0; i < 2; ++i) got.push_back(NoncentralChiSquaredSample(engine, df, lambda));
  }
  got.push_back(LogNoncentralChiSquaredSample(engine, 1e-3, 0.2));
  got.push_back(LogNoncentralChiSquaredSample(engine, 5.0, 0.2));
  const std::vector<double> expected = {
      0x1.7cdbadaf14a7dp-5,  0x1.523f0a3e7a85ap+0,  0x1.ca4f4b656865ap+3,  0x1.094d3c9b5118ep+3,
      0x1.31390bb58dc2fp+13, 0x1.38a611e576d04p+13, -0x1.45c2e0727d7d3p+12, 0x1.52a1c0942ace6p-3};
  std::ostringstream hex;
  for (double x : got) hex << std::hexfloat << x << ", ";
  EXPECT_EQ(got, expected) << "got (hex): " << hex.str();
}

TEST(NoncentralChiSquaredDeathTest, RejectsInvalidArguments) {
  Engine engine(1);
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_DEATH(NoncentralChiSquaredSample(engine, 0.0, 1.0),
               "NoncentralChiSquaredSample: df must be finite and > 0, got 0");
  EXPECT_DEATH(NoncentralChiSquaredSample(engine, -2.0, 1.0),
               "NoncentralChiSquaredSample: df must be finite and > 0, got -2");
  EXPECT_DEATH(NoncentralChiSquaredSample(engine, inf, 1.0),
               "NoncentralChiSquaredSample: df must be finite and > 0, got inf");
  EXPECT_DEATH(NoncentralChiSquaredSample(engine, 1.0, -0.5),
               "NoncentralChiSquaredSample: noncentrality must be .* got -0.5");
  EXPECT_DEATH(NoncentralChiSquaredSample(engine, 1.0, std::nan("")),
               "NoncentralChiSquaredSample: noncentrality must be .* got nan");
  EXPECT_DEATH(NoncentralChiSquaredSample(engine, 1.0, inf),
               "NoncentralChiSquaredSample: noncentrality must be .* got inf");
  EXPECT_DEATH(LogNoncentralChiSquaredSample(engine, std::nan(""), 1.0),
               "LogNoncentralChiSquaredSample: df must be finite and > 0, got nan");
}

}  // namespace
}  // namespace sgmcmc::rng
