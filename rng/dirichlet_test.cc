#include "rng/dirichlet.h"

#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "boost/math/distributions/beta.hpp"
#include "boost/math/special_functions/beta.hpp"
#include "boost/math/special_functions/digamma.hpp"
#include "boost/math/special_functions/gamma.hpp"
#include "boost/math/special_functions/polygamma.hpp"
#include "boost/math/special_functions/trigamma.hpp"
#include "gtest/gtest.h"
#include "rng/internal/variate_testing.h"
#include "testing/distribution_testing.h"

// Every statistical check below fails a correct sampler with probability 1e-6
// (testing::kFalseFailureRate); this file makes 88 of them, so it fails spuriously with
// probability < 1e-4 (Bonferroni).
namespace sgmcmc::rng {
namespace {

using rng_internal::ExpectFitsCdf;
using rng_internal::ExpectMoments;

constexpr int kDraws = 30000;

// Draws kDraws vectors and returns component i of each.
std::vector<std::vector<double>> Components(Engine& engine, const std::vector<double>& alpha,
                                            bool log_space) {
  std::vector<std::vector<double>> components(alpha.size(), std::vector<double>(kDraws));
  std::vector<double> x(alpha.size());
  for (int n = 0; n < kDraws; ++n) {
    if (log_space) {
      LogDirichletSample(engine, alpha, absl::MakeSpan(x));
    } else {
      DirichletSample(engine, alpha, absl::MakeSpan(x));
    }
    for (size_t i = 0; i < alpha.size(); ++i) components[i][n] = x[i];
  }
  return components;
}

// Marginals of Dir(alpha) are Beta(alpha_i, A - alpha_i), A = sum alpha: KS + chi-squared per
// component for the linear path (all alpha >= 1) and the log-space path (some alpha < 1),
// 2 seeds each: (4 + 4) components x 2 seeds x 2 = 32 checks.
TEST(DirichletSampleTest, MarginalsAreBeta) {
  for (const std::vector<double>& alpha :
       {std::vector<double>{1, 2, 5, 10}, std::vector<double>{0.3, 1, 2.5, 0.7}}) {
    const double total = std::accumulate(alpha.begin(), alpha.end(), 0.0);
    for (uint64_t seed : {1, 2}) {
      Engine engine(seed, 41);
      const auto components = Components(engine, alpha, /*log_space=*/false);
      for (size_t i = 0; i < alpha.size(); ++i) {
        const double a = alpha[i], b = total - alpha[i];
        ExpectFitsCdf(
            components[i], [&](double x) { return boost::math::ibeta(a, b, x); },
            "alpha_i=" + std::to_string(a) + " seed=" + std::to_string(seed));
      }
    }
  }
}

// log X_i = log G_i - log S with S = sum G independent of X (Lukacs), so the cumulants of
// log X_i are psi^(n-1)(alpha_i) - psi^(n-1)(A): mean psi(alpha_i) - psi(A), variance
// psi'(alpha_i) - psi'(A), fourth central moment psi'''(alpha_i) - psi'''(A) + 3 var^2.
// Tiny and moderate concentrations, K = 10 and 3: (10 + 3) components x 2 seeds x 2
// (mean, variance) = 52 checks, plus every log component finite.
TEST(LogDirichletSampleTest, LogComponentMomentsIncludingTinyAlpha) {
  for (const std::vector<double>& alpha :
       {std::vector<double>(10, 1e-3), std::vector<double>{0.05, 0.5, 4}}) {
    const double total = std::accumulate(alpha.begin(), alpha.end(), 0.0);
    for (uint64_t seed : {3, 4}) {
      Engine engine(seed, 42);
      const auto components = Components(engine, alpha, /*log_space=*/true);
      for (size_t i = 0; i < alpha.size(); ++i) {
        for (double l : components[i]) ASSERT_TRUE(std::isfinite(l)) << alpha[i];
        const double a = alpha[i];
        const double variance = boost::math::trigamma(a) - boost::math::trigamma(total);
        const double kappa4 = boost::math::polygamma(3, a) - boost::math::polygamma(3, total);
        ExpectMoments(components[i], boost::math::digamma(a) - boost::math::digamma(total),
                      variance, kappa4 + 3 * variance * variance,
                      "alpha_i=" + std::to_string(a) + " seed=" + std::to_string(seed));
      }
    }
  }
}

// With symmetric tiny alpha (1e-3, and 1e-250 where every G_i underflows) the largest of the
// K = 10 components is equally likely to be any of them: chi-squared over the K cells for
// DirichletSample and LogDirichletSample, 2 alphas x 2 functions = 4 checks.
TEST(DirichletSampleTest, TinySymmetricAlphaPicksAUniformWinner) {
  constexpr int kK = 10;
  for (double a : {1e-3, 1e-250}) {
    const std::vector<double> alpha(kK, a);
    for (bool log_space : {false, true}) {
      Engine engine(5, log_space);
      std::vector<int64_t> winners(20000);
      std::vector<double> x(kK);
      for (auto& w : winners) {
        if (log_space) {
          LogDirichletSample(engine, alpha, absl::MakeSpan(x));
        } else {
          DirichletSample(engine, alpha, absl::MakeSpan(x));
        }
        w = std::max_element(x.begin(), x.end()) - x.begin();
      }
      const auto result = testing::DiscreteChiSquaredTest(
          winners, [](int64_t) { return 1.0 / kK; }, 0, kK - 1);
      EXPECT_TRUE(result.Passed()) << "alpha=" << a << " log=" << log_space << " " << result;
    }
  }
}

// Exact identities: the simplex is preserved on both paths, for K from 1 to 1000.
TEST(DirichletSampleTest, ComponentsAreNonNegativeAndSumToOne) {
  Engine engine(6);
  for (size_t k : {1, 2, 10, 1000}) {
    for (double a : {1e-3, 0.5, 1.0, 30.0}) {
      const std::vector<double> alpha(k, a);
      std::vector<double> x(k), log_x(k);
      for (int rep = 0; rep < 20; ++rep) {
        DirichletSample(engine, alpha, absl::MakeSpan(x));
        double sum = 0;
        for (double xi : x) {
          ASSERT_GE(xi, 0);
          sum += xi;
        }
        EXPECT_NEAR(sum, 1, 1e-12) << "K=" << k << " alpha=" << a;
        LogDirichletSample(engine, alpha, absl::MakeSpan(log_x));
        double log_sum = 0;
        for (double l : log_x) {
          ASSERT_TRUE(std::isfinite(l));
          ASSERT_LE(l, 1e-12);
          log_sum += std::exp(l);
        }
        EXPECT_NEAR(log_sum, 1, 1e-12) << "K=" << k << " alpha=" << a;
      }
    }
  }
  // K = 1 is the point mass at 1.
  double one;
  DirichletSample(engine, std::vector<double>{0.2}, absl::MakeSpan(&one, 1));
  EXPECT_EQ(one, 1);
}

TEST(DirichletSampleTest, SameSeedAndStreamAreBitIdentical) {
  Engine e1(10, 3), e2(10, 3);
  const std::vector<double> alpha = {0.5, 2, 3};
  std::vector<double> x1(3), x2(3);
  for (int i = 0; i < 1000; ++i) {
    DirichletSample(e1, alpha, absl::MakeSpan(x1));
    DirichletSample(e2, alpha, absl::MakeSpan(x2));
    ASSERT_EQ(x1, x2);
  }
}

// Stream stability: a change of these values is a change of every downstream result.
TEST(DirichletSampleTest, PinnedDraws) {
  Engine engine(42);
  std::vector<double> x(3), log_x(3);
  DirichletSample(engine, std::vector<double>{1, 2, 3}, absl::MakeSpan(x));
  EXPECT_EQ(
      x, (std::vector<double>{0x1.8dbfcfbad6789p-3, 0x1.a165f76088c42p-4, 0x1.68634d2539496p-1}));
  LogDirichletSample(engine, std::vector<double>{1e-3, 0.5, 2}, absl::MakeSpan(log_x));
  EXPECT_EQ(log_x, (std::vector<double>{-0x1.f1fa4a5ce4a95p+9, -0x1.eb59881a0f1f6p+1,
                                        -0x1.647846d888fp-6}));
}

TEST(DirichletLogPdfTest, ReferenceValues) {
  // K = 2 is the Beta density of the first component.
  for (const auto& [a, b] : {std::pair{0.5, 0.5}, std::pair{2.0, 7.0}}) {
    for (double x : {0.01, 0.4, 0.99}) {
      const std::vector<double> point = {x, 1 - x}, alpha = {a, b};
      const double expected =
          std::log(boost::math::pdf(boost::math::beta_distribution<double>(a, b), x));
      EXPECT_NEAR(DirichletLogPdf(point, alpha), expected, 1e-12 * (1 + std::fabs(expected)));
    }
  }
  // Dir(1, 1, 1) is uniform on the simplex with density Gamma(3) = 2.
  EXPECT_NEAR(DirichletLogPdf(std::vector<double>{0.2, 0.3, 0.5}, std::vector<double>{1, 1, 1}),
              std::log(2.0), 1e-14);
  // Dir(2, 3, 0.5) at (0.1, 0.6, 0.3): log Gamma(5.5) - log Gamma(2) - log Gamma(3)
  // - log Gamma(0.5) + log 0.1 + 2 log 0.6 - 0.5 log 0.3 (Boost lgamma for the reference).
  const double expected = boost::math::lgamma(5.5) - boost::math::lgamma(2.0) -
                          boost::math::lgamma(3.0) - boost::math::lgamma(0.5) + std::log(0.1) +
                          2 * std::log(0.6) - 0.5 * std::log(0.3);
  EXPECT_NEAR(DirichletLogPdf(std::vector<double>{0.1, 0.6, 0.3}, std::vector<double>{2, 3, 0.5}),
              expected, 1e-13);
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(DirichletLogPdf(std::vector<double>{-0.1, 1.1}, std::vector<double>{2, 2}), -inf);
  EXPECT_EQ(DirichletLogPdf(std::vector<double>{0, 1}, std::vector<double>{0.5, 2}), inf);
  EXPECT_EQ(DirichletLogPdf(std::vector<double>{0, 1}, std::vector<double>{2, 2}), -inf);
}

TEST(DirichletDeathTest, RejectsInvalidParameters) {
  Engine engine(1);
  std::vector<double> out(2);
  EXPECT_DEATH(DirichletSample(engine, std::vector<double>{}, absl::MakeSpan(out).subspan(0, 0)),
               "DirichletSample: alpha must be non-empty");
  EXPECT_DEATH(DirichletSample(engine, std::vector<double>{1, 2, 3}, absl::MakeSpan(out)),
               "DirichletSample: output and alpha sizes differ");
  EXPECT_DEATH(DirichletSample(engine, std::vector<double>{1, 0}, absl::MakeSpan(out)),
               "DirichletSample: alpha\\[1\\] must be finite and > 0, got 0");
  EXPECT_DEATH(LogDirichletSample(engine, std::vector<double>{1, NAN}, absl::MakeSpan(out)),
               "LogDirichletSample: alpha\\[1\\] must be finite and > 0, got nan");
  EXPECT_DEATH(LogDirichletSample(engine, std::vector<double>{1}, absl::MakeSpan(out)),
               "LogDirichletSample: output and alpha sizes differ");
  EXPECT_DEATH(DirichletLogPdf(std::vector<double>{0.5, 0.5}, std::vector<double>{1, -1}),
               "DirichletLogPdf: alpha\\[1\\] must be finite and > 0, got -1");
  EXPECT_DEATH(DirichletLogPdf(std::vector<double>{0.5, 0.6}, std::vector<double>{1, 1}),
               "DirichletLogPdf: x must lie on the simplex, but sums to 1.1");
}

}  // namespace
}  // namespace sgmcmc::rng
