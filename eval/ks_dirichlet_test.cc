#include "eval/ks_dirichlet.h"

#include <cmath>
#include <limits>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rng/dirichlet.h"
#include "rng/engine.h"
#include "testing/distribution_testing.h"

namespace sgmcmc::eval {
namespace {

using ::sgmcmc::testing::KolmogorovPValue;
using ::sgmcmc::testing::kFalseFailureRate;
using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Closed forms: I_x(1, 2) = 1 - (1 - x)^2, I_y(1, 1) = y, I_x(2, 1) = x^2.
TEST(DirichletRosenblattTest, MatchesClosedFormConditionalCdfs) {
  const std::vector<double> alpha = {1, 1, 1};
  const std::vector<double> x = {0.2, 0.5, 0.3};
  std::vector<double> u(2);
  DirichletRosenblatt(x, alpha, absl::MakeSpan(u));
  EXPECT_NEAR(u[0], 1 - 0.8 * 0.8, 1e-14);
  EXPECT_NEAR(u[1], 0.5 / 0.8, 1e-14);

  const std::vector<double> beta_alpha = {2, 1};
  const std::vector<double> y = {0.3, 0.7};
  std::vector<double> v(1);
  DirichletRosenblatt(y, beta_alpha, absl::MakeSpan(v));
  EXPECT_NEAR(v[0], 0.09, 1e-14);
}

// The remaining mass comes from the suffix sum: when the first component rounds to 1 the
// later ones still define the conditional (the authors' 1 - sum divides by 0 there).
TEST(DirichletRosenblattTest, RobustWhenEarlierComponentsSumToOne) {
  const std::vector<double> alpha = {1, 1, 1};
  const std::vector<double> x = {1.0, 1e-300, 3e-300};
  ASSERT_EQ(1.0 - x[0], 0.0);
  std::vector<double> u(2);
  DirichletRosenblatt(x, alpha, absl::MakeSpan(u));
  EXPECT_EQ(u[0], 1.0);
  EXPECT_NEAR(u[1], 0.25, 1e-14);

  // All remaining components exactly zero: 0/0 is taken as ratio 0, never NaN.
  const std::vector<double> corner = {1.0, 0.0, 0.0};
  DirichletRosenblatt(corner, alpha, absl::MakeSpan(u));
  EXPECT_THAT(u, ElementsAre(1.0, 0.0));
}

// A ratio within 1e-16 of 1 keeps its information through the complement:
// I_r(1, b) = 1 − (1 − r)^b, and with x = (1, 1e-20), b = 0.01 the exact value is
// 1 − 1e-20^0.01 ≈ 0.369, although r = x_1/(x_1 + x_2) rounds to 1.
TEST(DirichletRosenblattTest, RatiosNearOneUseTheComplement) {
  const std::vector<double> alpha = {1.0, 0.01};
  const std::vector<double> x = {1.0, 1e-20};
  std::vector<double> u(1);
  DirichletRosenblatt(x, alpha, absl::MakeSpan(u));
  EXPECT_NEAR(u[0], 1 - std::pow(1e-20, 0.01), 1e-14);
  const std::vector<double> log_x = {0.0, std::log(1e-20)};
  const DirichletKsResult ks = *DirichletKsDistanceFromLog(log_x, 2, alpha);
  EXPECT_NEAR(ks.distance, std::pow(1e-20, 0.01), 1e-14);  // one sample: D = max(u, 1 − u)
}

TEST(KsDistanceToUniformTest, KnownValues) {
  std::vector<double> one = {0.3};
  EXPECT_DOUBLE_EQ(KsDistanceToUniform(absl::MakeSpan(one)), 0.7);
  std::vector<double> grid = {0.75, 0.25};  // the midpoints of two cells: D = 1/4
  EXPECT_DOUBLE_EQ(KsDistanceToUniform(absl::MakeSpan(grid)), 0.25);
  std::vector<double> none;
  EXPECT_EQ(KsDistanceToUniform(absl::MakeSpan(none)), 0.0);
}

std::vector<double> DirichletDraws(uint64_t seed, absl::Span<const double> alpha, int m) {
  rng::Engine engine(seed);
  std::vector<double> draws(alpha.size() * m);
  for (int i = 0; i < m; ++i) {
    rng::DirichletSample(engine, alpha,
                         absl::MakeSpan(draws).subspan(i * alpha.size(), alpha.size()));
  }
  return draws;
}

// Under the true Dirichlet each component's sqrt(M) D is Kolmogorov distributed: every
// component must pass the KS test at false-failure rate 1e-6 (the threshold on D is
// KolmogorovPValue(sqrt(M) D) >= 1e-6, i.e. D <~ 2.77 / sqrt(M) = 0.062 for M = 2000), for
// the paper's sparse and dense posteriors and several seeds. A wrong alpha must not pass.
TEST(DirichletKsDistanceTest, ExactDrawsAreCloseAndWrongAlphaIsFar) {
  const std::vector<std::vector<double>> posteriors = {
      {800.1, 100.1, 100.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1},
      {112.1, 119.1, 92.1, 98.1, 95.1, 96.1, 102.1, 92.1, 91.1, 103.1},
      {0.5, 2.0, 1e-2}};
  constexpr int kM = 2000;
  for (const auto& alpha : posteriors) {
    for (uint64_t seed : {1u, 2u, 3u}) {
      const std::vector<double> draws = DirichletDraws(seed, alpha, kM);
      absl::StatusOr<DirichletKsResult> ks = DirichletKsDistance(draws, alpha.size(), alpha);
      ASSERT_TRUE(ks.ok()) << ks.status();
      ASSERT_EQ(ks->per_component.size(), alpha.size() - 1);
      double mean = 0;
      for (double d : ks->per_component) {
        const double lambda = std::sqrt(static_cast<double>(kM)) * d;
        EXPECT_GE(KolmogorovPValue(lambda), kFalseFailureRate) << "D=" << d << " seed " << seed;
        mean += d;
      }
      EXPECT_DOUBLE_EQ(ks->distance, mean / ks->per_component.size());

      std::vector<double> wrong = alpha;
      wrong[0] *= 2;
      absl::StatusOr<DirichletKsResult> far = DirichletKsDistance(draws, alpha.size(), wrong);
      ASSERT_TRUE(far.ok());
      EXPECT_LT(KolmogorovPValue(std::sqrt(static_cast<double>(kM)) * far->per_component[0]),
                kFalseFailureRate);
    }
  }
}

TEST(DirichletKsDistanceTest, LogInputAgreesWithLinearInput) {
  const std::vector<double> alpha = {3.0, 0.2, 1.5, 0.7};
  const std::vector<double> draws = DirichletDraws(11, alpha, 300);
  std::vector<double> log_draws(draws.size());
  for (size_t i = 0; i < draws.size(); ++i) log_draws[i] = std::log(draws[i]);
  const DirichletKsResult linear = *DirichletKsDistance(draws, 4, alpha);
  const DirichletKsResult log = *DirichletKsDistanceFromLog(log_draws, 4, alpha);
  for (int k = 0; k < 3; ++k) {
    EXPECT_THAT(log.per_component[k], DoubleNear(linear.per_component[k], 1e-12));
  }
  // Log input never meets 0/0 even where exp() underflows; -inf entries are allowed.
  const std::vector<double> tiny = {0.0, -2000.0, -2001.0,
                                    -std::numeric_limits<double>::infinity()};
  const absl::StatusOr<DirichletKsResult> tiny_ks = DirichletKsDistanceFromLog(tiny, 4, alpha);
  ASSERT_TRUE(tiny_ks.ok()) << tiny_ks.status();
  for (double d : tiny_ks->per_component) EXPECT_TRUE(std::isfinite(d));
}

TEST(DirichletKsDistanceTest, BadArgumentsAreRejected) {
  const std::vector<double> alpha = {1, 2};
  EXPECT_THAT(DirichletKsDistance({0.5, 0.5}, 1, alpha).status().message(),
              HasSubstr("dimension must be >= 2"));
  EXPECT_THAT(DirichletKsDistance({0.5, 0.5}, 3, alpha).status().message(),
              HasSubstr("alpha has 2 entries"));
  EXPECT_THAT(DirichletKsDistance({0.5, 0.5, 0.5}, 2, alpha).status().message(),
              HasSubstr("positive multiple of 2"));
  EXPECT_THAT(DirichletKsDistance({}, 2, alpha).status().message(),
              HasSubstr("positive multiple of 2"));
  EXPECT_THAT(DirichletKsDistance({0.5, 0.5, -1, 2}, 2, alpha).status().message(),
              HasSubstr("sample 1 component 0"));
  EXPECT_THAT(DirichletKsDistance({0.0, 0.0}, 2, alpha).status().message(),
              HasSubstr("sample 0 has no positive component"));
  const std::vector<double> bad_alpha = {1, 0};
  EXPECT_THAT(DirichletKsDistance({0.5, 0.5}, 2, bad_alpha).status().message(),
              HasSubstr("alpha[1] must be finite and > 0"));
  EXPECT_THAT(DirichletKsDistanceFromLog({0.0, std::nan("")}, 2, alpha).status().message(),
              HasSubstr("sample 0 component 1"));
  const double ninf = -std::numeric_limits<double>::infinity();
  EXPECT_THAT(DirichletKsDistanceFromLog({ninf, ninf}, 2, alpha).status().message(),
              HasSubstr("no finite log component"));
}

}  // namespace
}  // namespace sgmcmc::eval
