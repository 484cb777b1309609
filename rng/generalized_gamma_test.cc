#include "rng/generalized_gamma.h"

#include <cmath>
#include <string>
#include <tuple>

#include "boost/math/special_functions/gamma.hpp"
#include "gtest/gtest.h"
#include "rng/internal/variate_testing.h"

// Every statistical check below fails a correct sampler with probability 1e-6
// (testing::kFalseFailureRate); this file makes 48 + 16 = 64 of them, so it fails spuriously
// with probability < 7e-5 (Bonferroni).
namespace sgmcmc::rng {
namespace {

using rng_internal::DrawMany;
using rng_internal::ExpectFitsCdf;
using rng_internal::ExpectMoments;

// E[X^k] = a^k Gamma((d + k) / p) / Gamma(d / p).
double RawMoment(double a, double d, double p, int k) {
  return std::pow(a, k) * boost::math::tgamma_ratio((d + k) / p, d / p);
}

// P(X <= x) = P(d/p, (x/a)^p). Gamma (p = 1), Weibull (d = p), chi (p = 2, a = sqrt 2) and
// general cases, including d/p < 1: 6 parameter sets x 2 seeds x (KS + chi-squared + mean +
// variance) = 48 checks. Moments from the raw moments E[X^k], k = 1..4.
TEST(GeneralizedGammaSampleTest, MatchesCdfAcrossParametersAndSeeds) {
  const std::tuple<double, double, double> cases[] = {
      {1, 2, 1}, {2, 1.5, 1.5}, {std::sqrt(2.0), 3, 2}, {0.5, 0.3, 0.7}, {3, 1, 5}, {1, 8, 0.5}};
  for (const auto& parameters : cases) {
    // Named variables, not structured bindings: C++17 lambdas cannot capture those (GCC
    // accepts it; clang, the compiler of --config=ubsan, tsan and fuzz, does not).
    const double a = std::get<0>(parameters), d = std::get<1>(parameters),
                 p = std::get<2>(parameters);
    for (uint64_t seed : {1, 2}) {
      Engine engine(seed, 61);
      const auto draws = DrawMany(50000, [&] { return GeneralizedGammaSample(engine, a, d, p); });
      const std::string label = "a=" + std::to_string(a) + " d=" + std::to_string(d) +
                                " p=" + std::to_string(p) + " seed=" + std::to_string(seed);
      ExpectFitsCdf(
          draws, [&](double x) { return boost::math::gamma_p(d / p, std::pow(x / a, p)); }, label);
      const double m1 = RawMoment(a, d, p, 1), m2 = RawMoment(a, d, p, 2);
      const double m3 = RawMoment(a, d, p, 3), m4 = RawMoment(a, d, p, 4);
      const double fourth_central = m4 - 4 * m3 * m1 + 6 * m2 * m1 * m1 - 3 * std::pow(m1, 4);
      ExpectMoments(draws, m1, m2 - m1 * m1, fourth_central, label);
    }
  }
}

// The alpha-stable MF prior GG(a, b, c) (X^c ~ Gamma(a, rate b)) at the model's parameters
// c = -2/alpha for alpha = 1.2 (speech) and 1.89 (noise), shapes/rates of the model defaults
// and of the speech experiment, plus a positive power: P(X <= x) = Q(a, b x^c) for c < 0 and
// P(a, b x^c) for c > 0 (Boost's regularised incomplete gamma). KS + chi-squared:
// 4 laws x 2 seeds x 2 = 16 checks.
TEST(GeneralizedGammaPowerSampleTest, MatchesCdfAtAlphaStableMfParameters) {
  const std::tuple<double, double, double> cases[] = {
      {2, 1, -2 / 1.2}, {2, 1, -2 / 1.89}, {1, 0.5, -2 / 1.2}, {1.5, 3, 2 / 1.89}};
  for (const auto& parameters : cases) {
    // Named variables, not structured bindings: C++17 lambdas cannot capture those (GCC
    // accepts it; clang, the compiler of --config=ubsan, tsan and fuzz, does not).
    const double a = std::get<0>(parameters), b = std::get<1>(parameters),
                 c = std::get<2>(parameters);
    for (uint64_t seed : {1, 2}) {
      Engine engine(seed, 62);
      const auto draws =
          DrawMany(50000, [&] { return GeneralizedGammaPowerSample(engine, a, b, c); });
      const std::string label = "a=" + std::to_string(a) + " b=" + std::to_string(b) +
                                " c=" + std::to_string(c) + " seed=" + std::to_string(seed);
      ExpectFitsCdf(
          draws,
          [&, a = a, b = b, c = c](double x) {
            if (x <= 0) return 0.0;
            const double y = b * std::pow(x, c);
            return c < 0 ? boost::math::gamma_q(a, y) : boost::math::gamma_p(a, y);
          },
          label);
    }
  }
}

TEST(GeneralizedGammaPowerSampleTest, NegativePowerIsReciprocalOfStacy) {
  // X^c ~ Gamma(a, rate b) with c < 0 means 1/X is Stacy with scale b^(1/c), d = -a c, p = -c:
  // the same engine words give the same draw up to rounding.
  Engine x(3, 4), y(3, 4);
  const double a = 2, b = 1.5, c = -2 / 1.2;
  for (int i = 0; i < 100; ++i) {
    const double direct = GeneralizedGammaPowerSample(x, a, b, c);
    const double stacy = GeneralizedGammaSample(y, std::pow(b, 1 / c), -a * c, -c);
    EXPECT_NEAR(direct * stacy, 1.0, 1e-12) << i;
  }
}

TEST(GeneralizedGammaSampleTest, SameSeedAndStreamAreBitIdentical) {
  Engine x(10, 3), y(10, 3);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(GeneralizedGammaSample(x, 1, 2, 3), GeneralizedGammaSample(y, 1, 2, 3));
  }
}

// Stream stability: a change of these values is a change of every downstream result.
TEST(GeneralizedGammaSampleTest, PinnedDraws) {
  Engine engine(42);
  const double expected[] = {0x1.e41c1699c31acp+2, 0x1.79d0af7fb154fp+0, 0x1.8f9da25c66794p+3,
                             0x1.1dacfaa91bf8cp+3};
  for (double x : expected) EXPECT_EQ(GeneralizedGammaSample(engine, 2, 1.5, 0.8), x);
}

TEST(GeneralizedGammaDeathTest, RejectsInvalidParameters) {
  Engine engine(1);
  EXPECT_DEATH(GeneralizedGammaSample(engine, 0, 1, 1),
               "GeneralizedGammaSample: a must be finite and > 0, got 0");
  EXPECT_DEATH(GeneralizedGammaSample(engine, 1, -1, 1),
               "GeneralizedGammaSample: d must be finite and > 0, got -1");
  EXPECT_DEATH(GeneralizedGammaSample(engine, 1, 1, NAN), "GeneralizedGammaSample: p must be");
  EXPECT_DEATH(GeneralizedGammaSample(engine, INFINITY, 1, 1), "GeneralizedGammaSample: a must be");
  EXPECT_DEATH(GeneralizedGammaPowerSample(engine, 1, 1, 0),
               "GeneralizedGammaPowerSample: power must be finite and != 0, got 0");
  EXPECT_DEATH(GeneralizedGammaPowerSample(engine, 0, 1, 1),
               "GeneralizedGammaPowerSample: shape must be finite and > 0, got 0");
  EXPECT_DEATH(GeneralizedGammaPowerSample(engine, 1, -2, 1),
               "GeneralizedGammaPowerSample: rate must be finite and > 0, got -2");
}

}  // namespace
}  // namespace sgmcmc::rng
