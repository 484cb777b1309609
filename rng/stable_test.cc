#include "rng/stable.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "boost/math/distributions/cauchy.hpp"
#include "boost/math/distributions/normal.hpp"
#include "gtest/gtest.h"
#include "rng/internal/variate_testing.h"
#include "testing/distribution_testing.h"

// Every statistical check below fails a correct sampler with probability 1e-6
// (testing::kFalseFailureRate); this file makes 106 + 14 = 120 of them, so it fails spuriously
// with probability < 1.2e-4 (Bonferroni).
namespace sgmcmc::rng {
namespace {

using rng_internal::DrawMany;
using rng_internal::ExpectFitsCdf;

constexpr int kDraws = 100000;

std::string Label(double alpha, double beta, uint64_t seed) {
  return "alpha=" + std::to_string(alpha) + " beta=" + std::to_string(beta) +
         " seed=" + std::to_string(seed);
}

// alpha = 2 is N(0, 2) whatever beta: 2 betas x 2 seeds x (KS + chi-squared) = 8 checks.
TEST(StableSampleTest, AlphaTwoIsNormalWithVarianceTwo) {
  const boost::math::normal normal(0, std::sqrt(2.0));
  for (double beta : {0.0, 0.7}) {
    for (uint64_t seed : {1, 2}) {
      Engine engine(seed, 21);
      const auto draws = DrawMany(kDraws, [&] { return StableSample(engine, 2, beta); });
      ExpectFitsCdf(
          draws, [&](double x) { return boost::math::cdf(normal, x); }, Label(2, beta, seed));
    }
  }
}

// alpha = 1, beta = 0 is the standard Cauchy: 2 seeds x 2 = 4 checks.
TEST(StableSampleTest, AlphaOneBetaZeroIsCauchy) {
  const boost::math::cauchy cauchy;
  for (uint64_t seed : {3, 4}) {
    Engine engine(seed, 22);
    const auto draws = DrawMany(kDraws, [&] { return StableSample(engine, 1, 0); });
    ExpectFitsCdf(
        draws, [&](double x) { return boost::math::cdf(cauchy, x); }, Label(1, 0, seed));
  }
}

// alpha = 1/2, beta = +-1 is the Levy distribution with scale 1 (mirrored for beta = -1):
// P(X <= x) = erfc(sqrt(1 / (2x))) for x > 0. 2 signs x 2 seeds x 2 = 8 checks.
TEST(StableSampleTest, AlphaHalfBetaOneIsLevy) {
  auto levy_cdf = [](double x) { return x <= 0 ? 0.0 : std::erfc(std::sqrt(0.5 / x)); };
  for (double beta : {1.0, -1.0}) {
    for (uint64_t seed : {5, 6}) {
      Engine engine(seed, 23);
      const auto draws = DrawMany(kDraws, [&] { return beta * StableSample(engine, 0.5, beta); });
      ExpectFitsCdf(draws, levy_cdf, Label(0.5, beta, seed));
    }
  }
}

// The characteristic function of S_alpha(1, beta, 0) (see stable.h).
std::complex<double> StableCharacteristicFunction(double alpha, double beta, double t) {
  if (t == 0) return 1;
  const double abs_t = std::fabs(t);
  const double sign = t > 0 ? 1 : -1;
  const double phase = alpha == 1
                           ? -beta * (2 / M_PI) * sign * std::log(abs_t) * abs_t
                           : beta * sign * std::tan(M_PI * alpha / 2) * std::pow(abs_t, alpha);
  return std::exp(-std::pow(abs_t, alpha)) * std::complex<double>(std::cos(phase), std::sin(phase));
}

// Empirical characteristic function at t = 0.5, 1, 2 for symmetric and skewed laws: the means
// of cos(tX) and sin(tX) are z-tested against Re and Im phi(t), with their exact variances
// Var cos(tX) = (1 + Re phi(2t)) / 2 - Re phi(t)^2, Var sin(tX) = (1 - Re phi(2t)) / 2 -
// Im phi(t)^2 (bounded variables, so the z-test is accurate). 13 laws x 3 t x 2 = 78 checks.
TEST(StableSampleTest, EmpiricalCharacteristicFunction) {
  const std::pair<double, double> laws[] = {
      {0.3, 0.0}, {0.3, 0.9}, {0.5, 0.5},  {0.8, -0.3}, {1.0, 0.5},   {1.0, -1.0}, {1.2, 1.0},
      {1.5, 0.0}, {1.5, 0.5}, {1.5, -1.0}, {1.9, 0.2},  {1.99, -0.8}, {2.0, 0.0}};
  for (const auto& law : laws) {
    // Named variables, not structured bindings: C++17 lambdas cannot capture those (GCC
    // accepts it; clang, the compiler of --config=ubsan, tsan and fuzz, does not).
    const double alpha = law.first, beta = law.second;
    Engine engine(7, static_cast<uint64_t>(alpha * 1000 + beta * 10 + 10));
    const auto draws = DrawMany(kDraws, [&] { return StableSample(engine, alpha, beta); });
    for (double t : {0.5, 1.0, 2.0}) {
      const auto phi = StableCharacteristicFunction(alpha, beta, t);
      const auto phi2 = StableCharacteristicFunction(alpha, beta, 2 * t);
      std::vector<double> cosines(draws.size()), sines(draws.size());
      for (size_t i = 0; i < draws.size(); ++i) {
        cosines[i] = std::cos(t * draws[i]);
        sines[i] = std::sin(t * draws[i]);
      }
      const std::string label = Label(alpha, beta, 7) + " t=" + std::to_string(t);
      const auto re =
          testing::MeanZTest(cosines, phi.real(), (1 + phi2.real()) / 2 - phi.real() * phi.real());
      EXPECT_TRUE(re.Passed()) << label << " Re: " << re;
      const auto im =
          testing::MeanZTest(sines, phi.imag(), (1 - phi2.real()) / 2 - phi.imag() * phi.imag());
      EXPECT_TRUE(im.Passed()) << label << " Im: " << im;
    }
  }
}

// The positive-stable mixing variable of alpha-stable matrix factorisation (HAMCMC paper,
// eq. 15), Phi = 2 A with A = cos(pi alpha / 4)^(2 / alpha) S_{alpha/2}(1, 1, 0), at the model's
// alpha = 1.2 (speech) and 1.89 (noise). Exact law: E exp(-s A) = exp(-s^(alpha/2))
// (Samorodnitsky & Taqqu 1994, Prop. 1.2.12: a totally skewed S_a(sigma, 1, 0), a < 1, has
// Laplace transform exp(-sigma^a s^a / cos(pi a / 2))). The mean of exp(-s A) is z-tested at
// s = 0.1, 1, 10 with its exact variance exp(-(2s)^(a)) - exp(-2 s^a) (bounded draws): 2 alphas
// x 3 s = 6 checks.
TEST(StableSampleTest, PositiveStableMixingLaplaceTransform) {
  for (double alpha : {1.2, 1.89}) {
    const double a = alpha / 2;
    const double scale = std::pow(std::cos(M_PI * alpha / 4), 2 / alpha);
    Engine engine(9, static_cast<uint64_t>(alpha * 100));
    const auto draws = DrawMany(kDraws, [&] { return scale * StableSample(engine, a, 1); });
    for (double x : draws) ASSERT_GT(x, 0) << "alpha=" << alpha;
    for (double s : {0.1, 1.0, 10.0}) {
      std::vector<double> values(draws.size());
      for (size_t i = 0; i < draws.size(); ++i) values[i] = std::exp(-s * draws[i]);
      const double mean = std::exp(-std::pow(s, a));
      const double variance = std::exp(-std::pow(2 * s, a)) - mean * mean;
      const auto result = testing::MeanZTest(values, mean, variance);
      EXPECT_TRUE(result.Passed()) << "alpha=" << alpha << " s=" << s << ": " << result;
    }
  }
}

// Reference quantiles of S_{alpha/2}(1, 1, 0) for alpha = 1.2 and 1.89 (p = 0.01, 0.05, 0.1,
// 0.25, 0.5, 0.75, 0.9, 0.95, 0.99), computed with /usr/bin/python3 by
// scipy.stats.levy_stable.ppf(p, alpha / 2, 1.0) (parametrisation S1 = Samorodnitsky-Taqqu)
// and checked to 1e-12 in p against an independent mpmath evaluation of Zolotarev's integral
// for the CDF (Nolan 1997, Thm. 1). Counts in the 10 cells are chi-squared tested (9 degrees of
// freedom): 2 alphas x 4 seeds = 8 checks.
TEST(StableSampleTest, PositiveStableMatchesReferenceQuantiles) {
  const double probabilities[] = {0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99};
  const std::pair<double, std::vector<double>> laws[] = {
      {1.2,
       {0.36066875130367615, 0.5240541348459913, 0.6674641062804118, 1.1008290106087324,
        2.3730200297934365, 7.323681212457791, 31.714768145434057, 97.86677906866998,
        1394.219599850244}},
      {1.89,
       {9.999344071325902, 10.355263436003051, 10.599446357879307, 11.149159624361943,
        12.16262335537836, 14.311098550528172, 19.665183692152905, 28.169219148970644,
        97.99172901641118}}};
  for (const auto& [alpha, quantiles] : laws) {
    for (uint64_t seed : {11, 12, 13, 14}) {
      Engine engine(seed, 24);
      std::vector<int64_t> counts(quantiles.size() + 1, 0);
      for (int n = 0; n < kDraws; ++n) {
        const double x = StableSample(engine, alpha / 2, 1);
        ++counts[std::upper_bound(quantiles.begin(), quantiles.end(), x) - quantiles.begin()];
      }
      double statistic = 0;
      for (size_t c = 0; c < counts.size(); ++c) {
        const double p = (c == quantiles.size() ? 1.0 : probabilities[c]) -
                         (c == 0 ? 0.0 : probabilities[c - 1]);
        const double expected = p * kDraws;
        statistic += (counts[c] - expected) * (counts[c] - expected) / expected;
      }
      EXPECT_GT(testing::ChiSquaredPValue(statistic, quantiles.size()), testing::kFalseFailureRate)
          << Label(alpha / 2, 1, seed) << " chi2=" << statistic;
    }
  }
}

// Symmetric laws (beta = 0): P(X > 0) = 1/2, and among draws with |X| > 1 half are positive
// (binomial z-tests): 4 alphas x 2 = 8 checks.
TEST(StableSampleTest, SymmetricLawsHaveSymmetricQuantiles) {
  for (double alpha : {0.4, 0.9, 1.0, 1.7}) {
    Engine engine(8, static_cast<uint64_t>(alpha * 10));
    int positive = 0, above = 0, below = 0;
    for (int i = 0; i < kDraws; ++i) {
      const double x = StableSample(engine, alpha, 0);
      positive += x > 0;
      above += x > 1;
      below += x < -1;
    }
    const double z_half = (positive - 0.5 * kDraws) / std::sqrt(0.25 * kDraws);
    EXPECT_GT(testing::TwoSidedNormalPValue(z_half), testing::kFalseFailureRate) << alpha;
    const int tails = above + below;
    const double z_tail = (above - 0.5 * tails) / std::sqrt(0.25 * tails);
    EXPECT_GT(testing::TwoSidedNormalPValue(z_tail), testing::kFalseFailureRate) << alpha;
  }
}

TEST(StableSampleTest, SameSeedAndStreamAreBitIdentical) {
  Engine a(10, 3), b(10, 3);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(StableSample(a, 1.3, 0.4), StableSample(b, 1.3, 0.4));
}

// Stream stability: a change of these values is a change of every downstream result.
TEST(StableSampleTest, PinnedDraws) {
  Engine engine(42);
  const double expected[] = {-0x1.bc32b830d20c9p-4, -0x1.dbfada4cd5c6p-2, -0x1.02cc1fb5cbd81p-5,
                             0x1.04eb2f942a5acp+0};
  const std::pair<double, double> laws[] = {{1.5, 0.0}, {1.0, 0.5}, {0.7, -0.2}, {2.0, 0.0}};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(StableSample(engine, laws[i].first, laws[i].second), expected[i]) << i;
  }
}

TEST(StableDeathTest, RejectsInvalidParameters) {
  Engine engine(1);
  EXPECT_DEATH(StableSample(engine, 0, 0), "StableSample: alpha must be in \\(0, 2\\], got 0");
  EXPECT_DEATH(StableSample(engine, 2.5, 0), "StableSample: alpha must be in \\(0, 2\\], got 2.5");
  EXPECT_DEATH(StableSample(engine, NAN, 0), "StableSample: alpha");
  EXPECT_DEATH(StableSample(engine, 1.5, 1.1),
               "StableSample: beta must be in \\[-1, 1\\], got 1.1");
  EXPECT_DEATH(StableSample(engine, 1.5, -2), "StableSample: beta must be in \\[-1, 1\\]");
  EXPECT_DEATH(StableSample(engine, 1.5, NAN), "StableSample: beta");
}

}  // namespace
}  // namespace sgmcmc::rng
