#include "rng/gamma.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "boost/math/distributions/gamma.hpp"
#include "boost/math/special_functions/gamma.hpp"
#include "gtest/gtest.h"
#include "rng/internal/variate_testing.h"
#include "testing/distribution_testing.h"

// Every statistical check below fails a correct sampler with probability 1e-6
// (testing::kFalseFailureRate); this file makes 164 of them, so it fails spuriously with
// probability < 1.7e-4 (Bonferroni).
namespace sgmcmc::rng {
namespace {

using rng_internal::DrawMany;
using rng_internal::ExpectFitsCdf;
using rng_internal::ExpectLogGammaLaw;
using rng_internal::ExpectMoments;
using rng_internal::LogGammaCdf;

constexpr int kDraws = 50000;

std::string Label(double shape, uint64_t seed) {
  return "shape=" + std::to_string(shape) + " seed=" + std::to_string(seed);
}

// 8 shapes x 2 seeds x (KS + chi-squared + mean [+ variance for shape >= 0.3]): 58 checks.
// Gamma(a, 1) has mean a, variance a and fourth central moment 3a^2 + 6a. The variance
// z-test is skipped below a = 0.3, where the kurtosis (3 + 6/a) makes the sample variance
// too skewed for its normal approximation at the 1e-6 level.
TEST(GammaSampleTest, MatchesGammaCdfAcrossShapesAndSeeds) {
  for (double shape : {0.05, 0.3, 0.9, 1.0, 1.5, 4.0, 30.0, 1e4}) {
    for (uint64_t seed : {1, 2}) {
      Engine engine(seed, 11);
      const auto draws = DrawMany(kDraws, [&] { return GammaSample(engine, shape); });
      const std::string label = Label(shape, seed);
      ExpectFitsCdf(
          draws, [&](double x) { return boost::math::gamma_p(shape, x); }, label);
      if (shape >= 0.3) {
        ExpectMoments(draws, shape, shape, 3 * shape * shape + 6 * shape, label);
      } else {
        const auto mean = testing::MeanZTest(draws, shape, shape);
        EXPECT_TRUE(mean.Passed()) << label << ": " << mean;
      }
    }
  }
}

// log G for shapes from 1e-4 to 1e4: 7 shapes x 2 seeds x (KS + chi-squared + mean + variance)
// = 56 checks. The cumulants of log G are the polygamma functions: mean psi(a), variance
// psi'(a), fourth central moment psi'''(a) + 3 psi'(a)^2.
// KS + chi-squared + mean + variance (4 checks) of kDraws LogGammaSample draws.
void ExpectLogGammaFits(double shape, uint64_t seed, uint64_t stream) {
  Engine engine(seed, stream);
  const auto draws = DrawMany(kDraws, [&] { return LogGammaSample(engine, shape); });
  const std::string label = Label(shape, seed);
  ExpectLogGammaLaw(draws, shape, label);
}

TEST(LogGammaSampleTest, MatchesLogGammaCdfAcrossShapesAndSeeds) {
  for (double shape : {1e-4, 1e-2, 0.3, 1.0, 7.0, 100.0, 1e4}) {
    for (uint64_t seed : {3, 4}) ExpectLogGammaFits(shape, seed, /*stream=*/12);
  }
}

// Shapes so small that psi(a) ~ -1/a: -a log G = E - a log G(a + 1) with E ~ Exp(1), and the
// second term is below 1e-99, so -a log G ~ Exp(1) to double precision. 2 shapes x 2 seeds x
// (KS + chi-squared + mean + variance) = 16 checks, and every draw finite.
TEST(LogGammaSampleTest, TinyShapesScaleToExponential) {
  for (double shape : {1e-100, 1e-300}) {
    for (uint64_t seed : {5, 6}) {
      Engine engine(seed, 13);
      const auto draws = DrawMany(kDraws, [&] {
        const double log_g = LogGammaSample(engine, shape);
        EXPECT_TRUE(std::isfinite(log_g));
        return -shape * log_g;
      });
      const std::string label = Label(shape, seed);
      ExpectFitsCdf(
          draws, [](double x) { return -std::expm1(-x); }, label);
      ExpectMoments(draws, 1, 1, 9, label);
    }
  }
}

// Shapes below 0.25 use Liu, Martin & Syring's rejection sampler, shapes from 0.25 the
// Marsaglia-Tsang boost: shapes on both sides of the switch, including the rarely taken
// z < 0 envelope piece (probability w / (1 + w) ~ 0.1 at a = 0.24), 4 shapes x 2 seeds x
// (KS + chi-squared + mean + variance) = 32 checks.
TEST(LogGammaSampleTest, MatchesLogGammaCdfAroundTheSmallShapeSwitch) {
  for (double shape : {1e-3, 0.1, 0.24, 0.26}) {
    for (uint64_t seed : {7, 8}) ExpectLogGammaFits(shape, seed, /*stream=*/14);
  }
}

TEST(LogGammaSampleTest, FiniteDownToTheSmallestSubnormalShape) {
  Engine engine(7);
  for (double shape : {1e-306, 1e-308, std::numeric_limits<double>::denorm_min()}) {
    for (int i = 0; i < 1000; ++i) {
      const double log_g = LogGammaSample(engine, shape);
      ASSERT_TRUE(std::isfinite(log_g)) << shape;
      ASSERT_LT(log_g, 0) << shape;
    }
  }
}

TEST(GammaSampleTest, TinyShapesUnderflowToZeroNotNan) {
  Engine engine(8);
  int zeros = 0;
  for (int i = 0; i < 10000; ++i) {
    const double g = GammaSample(engine, 1e-4);
    ASSERT_GE(g, 0);
    ASSERT_TRUE(std::isfinite(g));
    zeros += g == 0;
  }
  // P(G < 2^-1074) = exp(-744.4 * 1e-4) / Gamma(1.0001) ~ 0.93: most draws underflow.
  EXPECT_GT(zeros, 9000);
}

// The two functions consume the same words, so they agree draw for draw.
TEST(LogGammaSampleTest, AgreesWithLogOfGammaSample) {
  for (double shape : {0.05, 0.2, 0.999, 1.0, 3.0, 1e6}) {
    Engine a(9, 1), b(9, 1);
    for (int i = 0; i < 1000; ++i) {
      const double g = GammaSample(a, shape);
      const double log_g = LogGammaSample(b, shape);
      ASSERT_NEAR(std::log(g), log_g, 1e-13 * std::max(1.0, std::fabs(log_g))) << shape;
    }
    EXPECT_EQ(a.position(), b.position());
  }
}

TEST(GammaSampleTest, SameSeedAndStreamAreBitIdentical) {
  Engine a(10, 3), b(10, 3);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(GammaSample(a, 0.5), GammaSample(b, 0.5));
    ASSERT_EQ(GammaSample(a, 3), GammaSample(b, 3));
  }
}

// Stream stability: a change of these values is a change of every downstream result.
TEST(GammaSampleTest, PinnedDraws) {
  Engine engine(42);
  const double expected[] = {0x1.055107f36f13cp-2, 0x1.9f84a81e32f5cp+2, 0x1.a3ac1647b9e02p-5,
                             0x1.746454941d5c5p+1, 0x1.4e7b822772d16p+0, 0x1.482ca59820bp+2};
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(GammaSample(engine, i % 2 == 0 ? 0.5 : 5.0), expected[i]) << i;
  }
  Engine other(42, 1);
  // Shapes below 0.25 take the small-shape rejection sampler.
  EXPECT_EQ(LogGammaSample(other, 1e-300), -0x1.868a689d3b131p+997);
  EXPECT_EQ(LogGammaSample(other, 0.1), 0x1.c75b7e44ee4c8p-4);
  EXPECT_EQ(GammaSample(other, 0.01), 0x1.fbea09b36a929p-89);
}

TEST(GammaLogPdfTest, MatchesBoost) {
  for (double shape : {0.01, 0.5, 1.0, 2.5, 300.0}) {
    for (double rate : {0.1, 1.0, 7.0}) {
      const boost::math::gamma_distribution<double> dist(shape, 1 / rate);
      for (double x : {1e-8, 0.3, 1.0, 4.0, 50.0}) {
        const double expected = std::log(boost::math::pdf(dist, x));
        if (!std::isfinite(expected)) continue;  // underflow in Boost, not in GammaLogPdf
        EXPECT_NEAR(GammaLogPdf(x, shape, rate), expected, 1e-12 * (1 + std::fabs(expected)))
            << "x=" << x << " shape=" << shape << " rate=" << rate;
      }
    }
  }
}

TEST(GammaLogPdfTest, EdgeCases) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(GammaLogPdf(-1, 2, 1), -inf);
  EXPECT_EQ(GammaLogPdf(inf, 2, 1), -inf);
  EXPECT_EQ(GammaLogPdf(0, 0.5, 1), inf);
  EXPECT_EQ(GammaLogPdf(0, 2, 1), -inf);
  EXPECT_DOUBLE_EQ(GammaLogPdf(0, 1, 3), std::log(3.0));
  // Exponential density: log(2) - 2 x.
  EXPECT_DOUBLE_EQ(GammaLogPdf(1.5, 1, 2), std::log(2.0) - 3);
}

TEST(GammaDeathTest, RejectsInvalidParameters) {
  Engine engine(1);
  EXPECT_DEATH(GammaSample(engine, 0), "GammaSample: shape must be finite and > 0, got 0");
  EXPECT_DEATH(GammaSample(engine, -1), "GammaSample: shape must be finite and > 0, got -1");
  EXPECT_DEATH(GammaSample(engine, NAN), "GammaSample: shape");
  EXPECT_DEATH(GammaSample(engine, INFINITY), "GammaSample: shape");
  EXPECT_DEATH(LogGammaSample(engine, 0), "LogGammaSample: shape must be finite and > 0");
  EXPECT_DEATH(LogGammaSample(engine, NAN), "LogGammaSample: shape");
  EXPECT_DEATH(GammaLogPdf(1, 0, 1), "GammaLogPdf: shape must be finite and > 0");
  EXPECT_DEATH(GammaLogPdf(1, 1, 0), "GammaLogPdf: rate must be finite and > 0, got 0");
  EXPECT_DEATH(GammaLogPdf(1, 1, NAN), "GammaLogPdf: rate");
}

}  // namespace
}  // namespace sgmcmc::rng
