#include "samplers/scir.h"

#include <cmath>
#include <limits>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "eval/ks_dirichlet.h"
#include "gtest/gtest.h"
#include "math/special_functions.h"
#include "rng/engine.h"
#include "samplers/count_model.h"
#include "samplers/simplex_testing.h"
#include "testing/distribution_testing.h"

namespace sgmcmc::samplers {
namespace {

Scir MakeScir(int rows, int cols, std::vector<double> alpha, uint64_t seed) {
  return MakeSimplexSampler<Scir>(rows, cols, std::move(alpha), seed);
}

// Every row gets the same counts (rows are independent chains).
SimplexCounts SameCountsEveryRow(int rows, const std::vector<double>& row_counts) {
  SimplexCounts counts(rows, static_cast<int>(row_counts.size()));
  for (int r = 0; r < rows; ++r) {
    for (size_t j = 0; j < row_counts.size(); ++j) counts.Append(r, j, row_counts[j]);
  }
  return counts;
}

// One step from a fixed θ with fixed â is the exact CIR transition (eq. 3.2):
// 2θ'/(1 − e^{-h}) ~ χ'²(2â, 2θ e^{-h}/(1 − e^{-h})). 4000 chains (rows) take one step; each
// column (its own θ, â) is KS-tested against the noncentral chi-squared CDF at false-failure
// rate 1e-6, for two step sizes and two seeds.
TEST(ScirTest, OneStepIsTheExactCirTransition) {
  constexpr int kChains = 4000;
  const std::vector<double> theta0 = {0.5, 3.0, 1e-3, 20.0, 0.05};
  const std::vector<double> row_counts = {0.0, 2.0, 0.0, 10.5, 300.0};
  constexpr double kAlpha = 0.7;
  const SimplexCounts counts = SameCountsEveryRow(kChains, row_counts);
  for (double h : {0.1, 1.0}) {
    for (uint64_t seed : {1u, 2u}) {
      Scir scir = MakeScir(kChains, 5, {kAlpha}, seed);
      for (int r = 0; r < kChains; ++r) ASSERT_TRUE(scir.SetTheta(r, theta0).ok());
      scir.Step(counts, h);
      const double scale = -std::expm1(-h);
      for (int j = 0; j < 5; ++j) {
        std::vector<double> w(kChains);
        for (int r = 0; r < kChains; ++r) w[r] = 2 * std::exp(scir.log_theta(r)[j]) / scale;
        const double df = 2 * (kAlpha + row_counts[j]);
        const double nc = 2 * theta0[j] * std::exp(-h) / scale;
        const testing::TestResult ks = testing::KolmogorovSmirnovTest(
            w, [&](double x) { return math::NoncentralChiSquaredCdf(x, df, nc); });
        EXPECT_TRUE(ks.Passed()) << "h=" << h << " seed=" << seed << " col " << j << ": " << ks;
      }
    }
  }
}

// The one-step law on every path of the kernel: for each prior α (symmetric, so the
// fixed-shape table is used where it applies) 4000 chains (rows) step once from fixed θ with
// Poisson means λ = θ e^{-h}/(1 − e^{-h}) ~ 1e-30, 1 and 100 (columns 0-2) and zero counts,
// plus (α = 0.5 only) a count of 2.5 in a fourth column (shape 0.5 + count: normal plus
// gamma); each column's W = 2θ'/(1 − e^{-h}) is KS-tested against χ'²(2a, 2λ)
// (math::NoncentralChiSquaredCdf). Shapes 0.01 and 0.3 take the Poisson path (λ < 2^-54:
// no draw; λ = 1: rng::PoissonSample; the Bernoulli/zero-truncated draw is covered by the
// asymmetric case below), 0.5 the single-normal path, 3 and 50 the normal plus the
// Gamma(α − 1/2) table. An asymmetric prior (no table) covers the per-entry path with every
// branch. W underflows to 0 for a = 0.01 with probability < 1e-3, which moves the KS
// statistic by less than that (threshold ~0.08). 2 seeds x (5 x 3 + 1 + 3) = 38 KS checks
// at false-failure rate 1e-6 each: < 4e-5 for the test.
TEST(ScirTest, OneStepMatchesTheNoncentralChiSquaredLawOnEveryPath) {
  constexpr int kChains = 4000;
  constexpr double kH = 0.5;
  const double scale = -std::expm1(-kH);
  const double rate = std::exp(-kH) / scale;
  // θ giving λ = 1e-30 (negligible: no Poisson draw), 0.3 (a uniform settles P = 0, else the
  // zero-truncated Poisson), 1 and 100 (rng::PoissonSample).
  const std::vector<double> lambdas = {1e-30, 0.3, 1.0, 100.0};
  const int num_lambdas = static_cast<int>(lambdas.size());
  const auto check = [&](const Scir& scir, int col, double a, double lambda,
                         const std::string& label) {
    std::vector<double> w(kChains);
    for (int r = 0; r < kChains; ++r) w[r] = 2 * std::exp(scir.log_theta(r)[col]) / scale;
    const testing::TestResult ks = testing::KolmogorovSmirnovTest(
        w, [&](double x) { return math::NoncentralChiSquaredCdf(x, 2 * a, 2 * lambda); });
    EXPECT_TRUE(ks.Passed()) << label << " a=" << a << " lambda=" << lambda << ": " << ks;
  };
  for (uint64_t seed : {21u, 22u}) {
    for (double alpha : {0.01, 0.3, 0.5, 3.0, 50.0}) {
      const int cols = alpha == 0.5 ? num_lambdas + 1 : num_lambdas;
      std::vector<double> theta0;
      for (double lambda : lambdas) theta0.push_back(lambda / rate);
      std::vector<double> row_counts(cols, 0.0);
      if (alpha == 0.5) {
        theta0.push_back(1.0 / rate);
        row_counts[num_lambdas] = 2.5;
      }
      Scir scir = MakeScir(kChains, cols, {alpha}, seed);
      for (int r = 0; r < kChains; ++r) ASSERT_TRUE(scir.SetTheta(r, theta0).ok());
      scir.Step(SameCountsEveryRow(kChains, row_counts), kH);
      const std::string label = absl::StrFormat("seed=%d alpha=%g", seed, alpha);
      for (int j = 0; j < num_lambdas; ++j) check(scir, j, alpha, lambdas[j], label);
      if (alpha == 0.5) check(scir, num_lambdas, 0.5 + 2.5, 1.0, label);
    }
    // Asymmetric prior: shapes 0.01 (λ = 0.3: the Bernoulli and zero-truncated Poisson
    // draws), 0.3 with a count of 0.1 (a = 0.4 < 1/2 with a count) and 0.7 (normal plus
    // rng::LogGammaSample).
    Scir scir = MakeScir(kChains, 3, {0.01, 0.3, 0.7}, seed);
    const std::vector<double> theta0 = {0.3 / rate, 1.0 / rate, 5.0 / rate};
    for (int r = 0; r < kChains; ++r) ASSERT_TRUE(scir.SetTheta(r, theta0).ok());
    scir.Step(SameCountsEveryRow(kChains, {0.0, 0.1, 0.0}), kH);
    const std::string label = absl::StrFormat("seed=%d asymmetric", seed);
    check(scir, 0, 0.01, 0.3, label);
    check(scir, 1, 0.4, 1.0, label);
    check(scir, 2, 0.7, 5.0, label);
  }
}

// KS test of θ (draws of one coordinate) against the exact CIR law after time t from θ_0
// towards Gamma(a, 1): 2θ/(1 − e^{-t}) ~ χ'²(2a, 2θ_0 e^{-t}/(1 − e^{-t})).
testing::TestResult ExactCirKsTest(const std::vector<double>& theta, double theta0, double a,
                                double t) {
  const double scale = -std::expm1(-t);
  std::vector<double> w(theta.size());
  for (size_t r = 0; r < theta.size(); ++r) w[r] = 2 * theta[r] / scale;
  const double nc = 2 * theta0 * std::exp(-t) / scale;
  return testing::KolmogorovSmirnovTest(
      w, [&](double x) { return math::NoncentralChiSquaredCdf(x, 2 * a, nc); });
}

// Monte Carlo test of Corollary 4.2 with a stochastic â of known variance: each step every
// row (an independent chain) gets ĉ_j = n_j ± s_j with a fair coin per (row, step, column), so
// â_j = α + ĉ_j has mean a_j = α + n_j and Var[â_j] = s_j². R = 20000 chains run M = 6 steps
// of h = 0.3 from θ_0 = 1; columns cover a large, a moderate and a zero count (s = 0: the
// exact CIR moments). Tolerance: two-sided z-tests at false-failure rate 1e-6 (|z| < 4.9); the
// mean's standard error is √(Var[θ_M]/R) from the corollary itself, the variance's is
// √((μ̂_4 − s⁴)/R) from the sample fourth moment, about 1% of Var[θ_M] here. The test has
// power: the same draws reject the variance without the Var[â] term. The zero-count column
// (a = 0.1, too heavy-tailed for the variance z-test) is KS-tested against its exact law.
TEST(ScirTest, Corollary42MeanAndVarianceWithStochasticShape) {
  const std::vector<double> n = {800, 100, 0};
  const std::vector<double> spread = {600, 90, 0};
  constexpr int kReplicates = 20000, kSteps = 6;
  constexpr double kH = 0.3, kAlpha = 0.1;
  for (uint64_t seed : {3u, 4u}) {
    Scir scir = MakeScir(kReplicates, 3, {kAlpha}, seed);
    rng::Engine coins(seed, /*stream=*/0);
    for (int m = 0; m < kSteps; ++m) {
      SimplexCounts counts(kReplicates, 3);
      for (int r = 0; r < kReplicates; ++r) {
        const uint64_t bits = coins();
        for (int j = 0; j < 3; ++j) {
          counts.Append(r, j, n[j] + (((bits >> j) & 1) ? spread[j] : -spread[j]));
        }
      }
      scir.Step(counts, kH);
    }
    for (int j = 0; j < 3; ++j) {
      std::vector<double> theta(kReplicates);
      for (int r = 0; r < kReplicates; ++r) theta[r] = std::exp(scir.log_theta(r)[j]);
      const double a = kAlpha + n[j];
      const double var_a_hat = spread[j] * spread[j];
      const ScirMoments expected = ScirCorollary42Moments(1.0, a, var_a_hat, kH, kSteps);
      const testing::TestResult mean = testing::MeanZTest(theta, expected.mean, expected.variance);
      EXPECT_TRUE(mean.Passed()) << "seed " << seed << " j=" << j << " " << mean;
      const double m4 = FourthCentralMoment(theta);
      if (var_a_hat > 0) {
        const testing::TestResult var = testing::VarianceZTest(theta, expected.variance, m4);
        EXPECT_TRUE(var.Passed()) << "seed " << seed << " j=" << j << " " << var;
      } else {
        // â = α = 0.1 exactly: the variance z-test's normal approximation does not hold at
        // kurtosis 3 + 6/0.1 (rng/gamma_test.cc), but the law itself is known: M exact CIR
        // steps with a fixed shape are one of time M h (the CIR semigroup), so
        // 2θ_M/(1 − e^{-Mh}) ~ χ'²(2a, 2θ_0 e^{-Mh}/(1 − e^{-Mh})). KS at rate 1e-6.
        const testing::TestResult ks = ExactCirKsTest(theta, 1.0, a, kH * kSteps);
        EXPECT_TRUE(ks.Passed()) << "seed " << seed << " j=" << j << " " << ks;
      }
      if (var_a_hat > 0) {
        const ScirMoments exact_cir = ScirCorollary42Moments(1.0, a, 0.0, kH, kSteps);
        EXPECT_FALSE(testing::VarianceZTest(theta, exact_cir.variance, m4).Passed())
            << "the Var[â] term must be detectable, j=" << j;
      }
    }
  }
}

TEST(ScirTest, Corollary42MomentsLimits) {
  // M = 0: the start; M → ∞: a and a + (1 − e^{-h})/(1 + e^{-h}) Var[â].
  const ScirMoments start = ScirCorollary42Moments(2.0, 5.0, 9.0, 0.5, 0);
  EXPECT_DOUBLE_EQ(start.mean, 2.0);
  EXPECT_DOUBLE_EQ(start.variance, 0.0);
  const ScirMoments limit = ScirCorollary42Moments(2.0, 5.0, 9.0, 0.5, 1000);
  EXPECT_DOUBLE_EQ(limit.mean, 5.0);
  EXPECT_NEAR(limit.variance, 5.0 + std::tanh(0.25) * 9.0, 1e-12);
}

// A stochastic shape for the positive-real steps: â = a ± spread (a fair coin per step), rate
// `rate`, step h, M = `steps` steps from θ_0.
struct StochasticShapeChain {
  int steps;
  double h, rate, a, spread, theta0;
};

// Runs one_step.size() (== linear.size()) chains of ScirGammaStep and ScirLogGammaStep side by
// side: the coins come from Engine(seed, 1), chain r's steps from two copies of
// Engine(seed, 1000 + r), and the two steps must agree to 1e-12 relative. Fills θ after the
// first step in `one_step` and rate·θ after the last in `linear`. Call it under
// ASSERT_NO_FATAL_FAILURE.
void RunStochasticShapeChains(uint64_t seed, const StochasticShapeChain& chain,
                              std::vector<double>& one_step, std::vector<double>& linear) {
  rng::Engine shapes(seed, 1);
  for (size_t r = 0; r < linear.size(); ++r) {
    rng::Engine a(seed, 1000 + r), b(seed, 1000 + r);
    double theta = chain.theta0;
    for (int m = 0; m < chain.steps; ++m) {
      const double a_hat = chain.a + ((shapes() >> 63) ? chain.spread : -chain.spread);
      // Both step from the same θ: (Z + √(2λ))² cancels when Z ~ −√(2λ), which would
      // amplify the chains' last-bit differences.
      const double log_theta = ScirLogGammaStep(b, std::log(theta), a_hat, chain.rate, chain.h);
      theta = ScirGammaStep(a, theta, a_hat, chain.rate, chain.h);
      ASSERT_NEAR(theta, std::exp(log_theta), 1e-12 * theta) << r << " step " << m;
      if (m == 0) one_step[r] = theta;
    }
    linear[r] = chain.rate * theta;
  }
}

// rate·θ_M over the chains (`linear`, from RunStochasticShapeChains) against Corollary 4.2's
// mean and variance, z-tests at false-failure rate 1e-6; failures start with `label`.
void ExpectCorollary42Moments(const std::vector<double>& linear, const StochasticShapeChain& chain,
                              const std::string& label) {
  const ScirMoments expected = ScirCorollary42Moments(chain.rate * chain.theta0, chain.a,
                                                      chain.spread * chain.spread, chain.h,
                                                      chain.steps);
  const testing::TestResult mean = testing::MeanZTest(linear, expected.mean, expected.variance);
  EXPECT_TRUE(mean.Passed()) << label << mean;
  const testing::TestResult var =
      testing::VarianceZTest(linear, expected.variance, FourthCentralMoment(linear));
  EXPECT_TRUE(var.Passed()) << label << var;
}

// The positive-real variant against the same corollary, with a rate: θ targets
// Gamma(â, rate), i.e. rate·θ is the unit-rate SCIR process. â = a + (Bernoulli(1/2) − 1/2)·2s,
// mean a and Var[â] = s². Linear and log-space steps share their engine words draw for draw.
TEST(ScirTest, PositiveRealVariantFollowsCorollary42) {
  constexpr StochasticShapeChain kChain = {
      /*steps=*/5, /*h=*/0.5, /*rate=*/4.0, /*a=*/3.0, /*spread=*/2.5, /*theta0=*/0.2};
  for (uint64_t seed : {5u, 6u}) {
    std::vector<double> one_step(20000), linear(20000);
    ASSERT_NO_FATAL_FAILURE(RunStochasticShapeChains(seed, kChain, one_step, linear));
    ExpectCorollary42Moments(linear, kChain, "");
  }
}

// Full batch (â = a) SCIR has no discretisation error: independent chains (rows) run for
// M h = 30 reach Dir(α + n) for ANY h, including the paper's sparse posterior where SGRLD
// fails. Each Rosenblatt component (computed from log ω, no underflow) passes the KS test
// at false-failure rate 1e-6; sparse and dense posteriors, h = 1 and h = 0.1, two seeds.
TEST(ScirTest, FullBatchTargetsTheExactDirichletForAnyStepSize) {
  const std::vector<std::vector<double>> data = {{800, 100, 100, 0, 0, 0, 0, 0, 0, 0},
                                                 {112, 119, 92, 98, 95, 96, 102, 92, 91, 103}};
  constexpr int kChains = 2000;
  for (const std::vector<double>& n : data) {
    std::vector<double> posterior;
    for (double c : n) posterior.push_back(0.1 + c);
    const SimplexCounts counts = SameCountsEveryRow(kChains, n);
    for (double h : {1.0, 0.1}) {
      for (uint64_t seed : {7u, 8u}) {
        Scir scir = MakeScir(kChains, 10, {0.1}, seed);
        const int steps = static_cast<int>(std::ceil(30 / h));
        for (int m = 0; m < steps; ++m) scir.Step(counts, h);
        std::vector<double> log_draws(kChains * 10);
        for (int r = 0; r < kChains; ++r) {
          scir.LogSimplex(r, absl::MakeSpan(log_draws).subspan(r * 10, 10));
        }
        const eval::DirichletKsResult ks =
            *eval::DirichletKsDistanceFromLog(log_draws, 10, posterior);
        for (size_t k = 0; k < ks.per_component.size(); ++k) {
          EXPECT_GE(testing::KolmogorovPValue(std::sqrt(double{kChains}) * ks.per_component[k]),
                    testing::kFalseFailureRate)
              << "h=" << h << " seed " << seed << " component " << k
              << " D=" << ks.per_component[k];
        }
      }
    }
  }
}

// Tiny shapes (LDA's β = 0.01, and 1e-300) with zero counts: Gamma(â + P) underflows in
// linear space, but log θ and log ω stay finite; ω still sums to 1.
TEST(ScirTest, TinyShapesStayFiniteInLogSpace) {
  constexpr int kCols = 2000;
  for (double alpha : {0.01, 1e-300}) {
    SimplexCounts counts(1, kCols);
    counts.Append(0, 10, 50.0);
    Scir scir = MakeScir(1, kCols, {alpha}, 31);
    std::vector<double> omega(kCols), log_omega(kCols);
    int underflowed = 0;
    for (int m = 0; m < 200; ++m) {
      scir.Step(counts, 0.5);
      scir.LogSimplex(0, absl::MakeSpan(log_omega));
      scir.Simplex(0, absl::MakeSpan(omega));
      double sum = 0;
      for (int j = 0; j < kCols; ++j) {
        ASSERT_TRUE(std::isfinite(scir.log_theta(0)[j])) << "alpha " << alpha << " col " << j;
        ASSERT_TRUE(std::isfinite(log_omega[j])) << "alpha " << alpha << " col " << j;
        ASSERT_LE(log_omega[j], 0.0);
        underflowed += omega[j] == 0;
        sum += omega[j];
      }
      ASSERT_NEAR(sum, 1.0, 1e-12);
    }
    EXPECT_GT(underflowed, 0) << "the linear-space path would have produced zeros";
  }
}

TEST(ScirTest, SparseAndDenseCountsAreBitIdentical) {
  constexpr int kCols = 500;
  SimplexCounts sparse(3, kCols);
  std::vector<double> dense(3 * kCols, 0.0);
  for (int r = 0; r < 3; ++r) {
    for (int c = 2 * r; c < kCols; c += 37) {
      sparse.Append(r, c, 0.5 + c);
      dense[r * kCols + c] = 0.5 + c;
    }
  }
  for (const std::vector<double>& alpha :
       {std::vector<double>{0.2}, std::vector<double>(kCols, 0.2)}) {
    Scir a = MakeScir(3, kCols, alpha, 12);
    Scir b = MakeScir(3, kCols, alpha, 12);
    for (int m = 0; m < 5; ++m) {
      a.Step(sparse, 0.3);
      b.Step(DenseCountsView{3, kCols, dense}, 0.3);
    }
    for (int r = 0; r < 3; ++r) {
      EXPECT_EQ(std::vector<double>(a.log_theta(r).begin(), a.log_theta(r).end()),
                std::vector<double>(b.log_theta(r).begin(), b.log_theta(r).end()));
      EXPECT_EQ(a.log_normalizer(r), b.log_normalizer(r));
    }
  }
}

// A chain restored from log θ (SetLogTheta, SetSteps) continues bit-identically: the θ cache
// and the log-normaliser are functions of log θ alone, for every kernel (α = 0.01 and 0.2:
// the sequential kernel, whose cache skips the entries negligible in Σθ; 0.5 and 0.7: the
// vectorised normal decomposition).
TEST(ScirTest, RestoredFromLogThetaContinuesBitIdentically) {
  constexpr int kRows = 3;
  constexpr int kCols = 700;  // several blocks of the row loops
  const SimplexCounts counts = RandomSparseCounts(kRows, kCols, /*density=*/0.02, /*seed=*/3);
  for (const double alpha : {0.01, 0.2, 0.5, 0.7}) {
    Scir uninterrupted = MakeScir(kRows, kCols, {alpha}, 21);
    for (int m = 0; m < 6; ++m) uninterrupted.Step(counts, 0.5);
    Scir first = MakeScir(kRows, kCols, {alpha}, 21);
    for (int m = 0; m < 3; ++m) first.Step(counts, 0.5);
    Scir resumed = MakeScir(kRows, kCols, {alpha}, 21);
    std::vector<int64_t> steps(kRows);
    for (int r = 0; r < kRows; ++r) {
      ASSERT_TRUE(resumed.SetLogTheta(r, first.log_theta(r)).ok());
      EXPECT_EQ(resumed.log_normalizer(r), first.log_normalizer(r)) << "alpha=" << alpha;
      steps[r] = first.steps(r);
    }
    ASSERT_TRUE(resumed.SetSteps(steps).ok());
    for (int m = 3; m < 6; ++m) resumed.Step(counts, 0.5);
    for (int r = 0; r < kRows; ++r) {
      EXPECT_EQ(std::vector<double>(resumed.log_theta(r).begin(), resumed.log_theta(r).end()),
                std::vector<double>(uninterrupted.log_theta(r).begin(),
                                    uninterrupted.log_theta(r).end()))
          << "alpha=" << alpha << " row=" << r;
      EXPECT_EQ(resumed.log_normalizer(r), uninterrupted.log_normalizer(r)) << "alpha=" << alpha;
    }
  }
}

// The lognormal variant: x = log θ follows the exact OU transition towards N(μ̂, σ²). With
// μ̂ = μ ± s (fair coin) the moments after M steps have the same form as Corollary 4.2:
// E[x_M] = x_0 e^{-Mh} + μ(1 − e^{-Mh}),
// Var[x_M] = σ²(1 − e^{-2Mh}) + (1 − e^{-2Mh})(1 − e^{-h})/(1 + e^{-h}) s².
// z-tests at false-failure rate 1e-6, plus a KS test of one step from a fixed x.
TEST(ScirTest, LognormalOuStepIsExact) {
  constexpr int kReplicates = 20000, kSteps = 4;
  constexpr double kMu = -1.5, kSigma = 0.7, kH = 0.4, kX0 = 2.0, kSpread = 1.2;
  rng::Engine engine(40), coin(40, 1);
  std::vector<double> one_step(kReplicates), x_m(kReplicates);
  for (int r = 0; r < kReplicates; ++r) {
    one_step[r] = LognormalOuStep(engine, kX0, kMu, kSigma, kH);
    double x = kX0;
    for (int m = 0; m < kSteps; ++m) {
      x = LognormalOuStep(engine, x, kMu + ((coin() >> 63) ? kSpread : -kSpread), kSigma, kH);
    }
    x_m[r] = x;
  }
  const double mean1 = kMu + (kX0 - kMu) * std::exp(-kH);
  const double sd1 = kSigma * std::sqrt(1 - std::exp(-2 * kH));
  const testing::TestResult ks = testing::KolmogorovSmirnovTest(
      one_step, [&](double x) { return 0.5 * std::erfc(-(x - mean1) / (sd1 * std::sqrt(2.0))); });
  EXPECT_TRUE(ks.Passed()) << ks;
  const double e1 = std::exp(-kSteps * kH), e2 = std::exp(-2 * kSteps * kH), eh = std::exp(-kH);
  const double mean = kX0 * e1 + kMu * (1 - e1);
  const double variance =
      kSigma * kSigma * (1 - e2) + (1 - e2) * (1 - eh) / (1 + eh) * kSpread * kSpread;
  EXPECT_TRUE(testing::MeanZTest(x_m, mean, variance).Passed());
  const testing::TestResult var = testing::VarianceZTest(x_m, variance, FourthCentralMoment(x_m));
  EXPECT_TRUE(var.Passed()) << var;
}

// The vectorised kernel (every α_j >= 1/2) under an ASYMMETRIC prior (no fixed-shape table:
// rng::LogGammaSample per entry, a_j − 1/2 from the column's own α_j) and, at the paper's
// LDA β = 0.5, with DENSE counts (RowCounts' dense path: the gamma draws of the count
// entries found by NextCandidate on every column). 4000 chains (rows) step once from fixed
// θ; each column's 2θ'/(1 − e^{-h}) is KS-tested against χ'²(2a_j, 2λ_j), false-failure
// rate 1e-6 per check, 2 seeds x (5 + 5) checks.
TEST(ScirTest, VectorisedKernelAsymmetricPriorAndDenseCountsMatchTheExactLaw) {
  constexpr int kChains = 4000, kCols = 5;
  constexpr double kH = 0.4;
  const std::vector<double> theta0 = {0.2, 1.0, 1e-6, 30.0, 4.0};
  const std::vector<double> row_counts = {0.0, 3.5, 0.0, 12.0, 0.0};
  for (uint64_t seed : {51u, 52u}) {
    // Asymmetric, every α_j >= 1/2 (0.5 exactly: the single-normal case within the loop).
    const std::vector<double> alpha = {0.5, 0.8, 2.5, 0.5, 1.7};
    Scir asymmetric = MakeScir(kChains, kCols, alpha, seed);
    // Symmetric β = 0.5 fed dense counts.
    Scir dense = MakeScir(kChains, kCols, {0.5}, seed);
    std::vector<double> dense_counts;
    for (int r = 0; r < kChains; ++r) {
      ASSERT_TRUE(asymmetric.SetTheta(r, theta0).ok());
      ASSERT_TRUE(dense.SetTheta(r, theta0).ok());
      dense_counts.insert(dense_counts.end(), row_counts.begin(), row_counts.end());
    }
    asymmetric.Step(SameCountsEveryRow(kChains, row_counts), kH);
    dense.Step(DenseCountsView{kChains, kCols, dense_counts}, kH);
    for (int j = 0; j < kCols; ++j) {
      for (const auto& [scir, a, label] :
           {std::tuple<const Scir*, double, const char*>{&asymmetric, alpha[j] + row_counts[j],
                                                          "asymmetric"},
            std::tuple<const Scir*, double, const char*>{&dense, 0.5 + row_counts[j],
                                                          "dense beta=0.5"}}) {
        std::vector<double> theta(kChains);
        for (int r = 0; r < kChains; ++r) theta[r] = std::exp(scir->log_theta(r)[j]);
        const testing::TestResult ks = ExactCirKsTest(theta, theta0[j], a, kH);
        EXPECT_TRUE(ks.Passed()) << label << " seed " << seed << " col " << j << ": " << ks;
      }
    }
  }
}

// The vectorised kernel is bit-identical for any row split and thread count (the sequential
// kernel's are in simplex_sampler_test.cc): symmetric α = 0.5 (normals only for zero counts),
// 0.7 (plus the α − 1/2 table) and an asymmetric prior >= 1/2, sparse and dense counts, with
// 700 columns (several blocks of the row loops).
TEST(ScirTest, VectorisedKernelIsBitIdenticalForAnySplitAndThreadCount) {
  constexpr int kRows = 11, kCols = 700;
  const SimplexCounts sparse = RandomSparseCounts(kRows, kCols, /*density=*/0.05, /*seed=*/8);
  std::vector<double> dense(static_cast<size_t>(kRows) * kCols);
  sparse.ToDense(absl::MakeSpan(dense));
  const DenseCountsView dense_view{kRows, kCols, dense};
  std::vector<double> asymmetric(kCols);
  for (int j = 0; j < kCols; ++j) asymmetric[j] = 0.5 + 0.01 * (j % 37);
  for (const std::vector<double>& alpha :
       {std::vector<double>{0.5}, std::vector<double>{0.7}, asymmetric}) {
    for (bool use_dense : {false, true}) {
      auto step_all = [&](Scir& scir, double h, int begin, int end) {
        if (use_dense) {
          scir.StepRows(dense_view, h, begin, end);
        } else {
          scir.StepRows(sparse, h, begin, end);
        }
      };
      Scir whole = MakeScir(kRows, kCols, alpha, 61);
      Scir split = MakeScir(kRows, kCols, alpha, 61);
      Scir threaded = MakeScir(kRows, kCols, alpha, 61);
      for (int step = 0; step < 3; ++step) {
        const double h = 0.2 * (step + 1);
        step_all(whole, h, 0, kRows);
        step_all(split, h, 7, kRows);  // uneven pieces, in reverse order
        step_all(split, h, 1, 7);
        step_all(split, h, 0, 1);
        std::vector<std::thread> threads;
        for (int t = 0; t < 3; ++t) {
          threads.emplace_back([&, t] {
            step_all(threaded, h, t * kRows / 3, (t + 1) * kRows / 3);
          });
        }
        for (std::thread& t : threads) t.join();
      }
      for (int r = 0; r < kRows; ++r) {
        const std::vector<double> reference(whole.log_theta(r).begin(), whole.log_theta(r).end());
        const std::string label = absl::StrFormat("alpha[0]=%g size=%d dense=%d row=%d",
                                                  alpha[0], alpha.size(), use_dense, r);
        EXPECT_EQ(std::vector<double>(split.log_theta(r).begin(), split.log_theta(r).end()),
                  reference)
            << label;
        EXPECT_EQ(std::vector<double>(threaded.log_theta(r).begin(),
                                      threaded.log_theta(r).end()),
                  reference)
            << label;
        EXPECT_EQ(split.log_normalizer(r), whole.log_normalizer(r)) << label;
        EXPECT_EQ(threaded.log_normalizer(r), whole.log_normalizer(r)) << label;
      }
    }
  }
}

// The Poisson branch (shape < 1/2) of ScirGammaStep and ScirLogGammaStep with a stochastic
// shape: â = 0.375 ± 0.075 (fair coin per step; both values < 1/2), rate 2.
//  - One step from a fixed θ_0: the law is the even mixture of the two exact transitions,
//    2 rate θ'/(1 − e^{-h}) ~ ½ χ'²(0.6, 2λ) + ½ χ'²(0.9, 2λ), λ = rate θ_0 e^{-h}/(1 − e^{-h});
//    KS at false-failure rate 1e-6.
//  - M = 5 steps: Corollary 4.2's mean and variance (shape >= 0.3 throughout, where the
//    variance z-test's rate holds: rng/gamma_test.cc), z-tests at 1e-6.
// Linear and log-space steps share their engine words draw for draw (checked).
TEST(ScirTest, PoissonBranchOfPositiveRealStepsWithStochasticShape) {
  constexpr int kReplicates = 20000;
  constexpr StochasticShapeChain kChain = {
      /*steps=*/5, /*h=*/0.5, /*rate=*/2.0, /*a=*/0.375, /*spread=*/0.075, /*theta0=*/0.4};
  for (uint64_t seed : {71u, 72u}) {
    std::vector<double> one_step(kReplicates), linear(kReplicates);
    ASSERT_NO_FATAL_FAILURE(RunStochasticShapeChains(seed, kChain, one_step, linear));
    const double scale = -std::expm1(-kChain.h);
    std::vector<double> w(kReplicates);
    for (int r = 0; r < kReplicates; ++r) w[r] = 2 * kChain.rate * one_step[r] / scale;
    const double nc = 2 * kChain.rate * kChain.theta0 * std::exp(-kChain.h) / scale;
    const testing::TestResult ks = testing::KolmogorovSmirnovTest(w, [&](double x) {
      return 0.5 * math::NoncentralChiSquaredCdf(x, 2 * (kChain.a - kChain.spread), nc) +
             0.5 * math::NoncentralChiSquaredCdf(x, 2 * (kChain.a + kChain.spread), nc);
    });
    EXPECT_TRUE(ks.Passed()) << "seed " << seed << " one step: " << ks;
    ExpectCorollary42Moments(linear, kChain, absl::StrCat("seed ", seed, " "));
  }
}

// Poisson means above rng::kMaxPoissonMean = 2^62 (found by //fuzz:lda_checkpoint_fuzzer: a
// restored log θ of 42.6 gave λ = 5.6e18 at the fixture's step size, and the step failed a
// CHECK in rng::PoissonSample; fuzz/corpus/lda_checkpoint/regression_poisson_mean_above_2pow62).
// Shapes a < 1/2 draw P ~ Poisson(λ), now by rng::PoissonSampleUnbounded. 2000 chains step
// once from λ = 3.0e19 (log θ = 42.6 at h = 0.1), 1e19 and 1e25 on every path that draws P:
// the vectorised row kernel (symmetric α = 0.1), the per-entry LogCirTransition (asymmetric
// α) and the scalar ScirGammaStep / ScirLogGammaStep. G = θ'/(1 − e^{-h}) = Gamma(a + P) has
// mean a + λ and variance a + 2λ, and is normal to within its skewness ~1/√λ < 1e-9
// (Berry-Esseen), so the standardised G is KS-tested against N(0, 1); log θ' of ~43-58
// carries a rounding of ~1e-14 relative, 1e-5 of a standard deviation (2√λ/λ > 2e-13).
// 2 x 3 + 2 = 8 KS checks at false-failure rate 1e-6 each. A λ that exceeds int64 range and
// is truncated, or a P drawn as if λ were 2^62, is off by ~λ/√λ standard deviations.
TEST(ScirTest, PoissonMeansAboveTwoToThe62StepExactly) {
  constexpr int kChains = 2000;
  constexpr double kH = 0.1;
  const double scale = -std::expm1(-kH);
  const double log_rate = -kH - std::log(scale);
  const std::vector<double> log_thetas = {42.6, std::log(1e19) - log_rate,
                                          std::log(1e25) - log_rate};
  const auto standardised = [&](double log_theta_after, double a, double log_theta_before) {
    const double lambda = std::exp(log_theta_before + log_rate);
    return (std::exp(log_theta_after) / scale - (a + lambda)) / std::sqrt(a + 2 * lambda);
  };
  const auto expect_normal = [](const std::vector<double>& z, const std::string& label) {
    const testing::TestResult ks = testing::KolmogorovSmirnovTest(
        z, [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); });
    EXPECT_TRUE(ks.Passed()) << label << ": " << ks;
  };
  const int cols = static_cast<int>(log_thetas.size());
  for (const std::vector<double>& alpha :
       {std::vector<double>{0.1}, std::vector<double>{0.1, 0.2, 0.3}}) {
    Scir scir = MakeScir(kChains, cols, alpha, /*seed=*/31);
    for (int r = 0; r < kChains; ++r) ASSERT_TRUE(scir.SetLogTheta(r, log_thetas).ok());
    scir.Step(SameCountsEveryRow(kChains, std::vector<double>(cols, 0.0)), kH);
    for (int j = 0; j < cols; ++j) {
      const double a = alpha.size() == 1 ? alpha[0] : alpha[j];
      std::vector<double> z(kChains);
      for (int r = 0; r < kChains; ++r) {
        z[r] = standardised(scir.log_theta(r)[j], a, log_thetas[j]);
      }
      expect_normal(z, absl::StrCat("alpha size ", alpha.size(), " col ", j));
    }
  }
  rng::Engine engine(32);
  std::vector<double> linear(kChains), log_space(kChains);
  for (int r = 0; r < kChains; ++r) {
    linear[r] = standardised(std::log(ScirGammaStep(engine, std::exp(42.6), 0.2, 1.0, kH)),
                             0.2, 42.6);
    log_space[r] = standardised(ScirLogGammaStep(engine, log_thetas[2], 0.2, 1.0, kH), 0.2,
                                log_thetas[2]);
  }
  expect_normal(linear, "ScirGammaStep");
  expect_normal(log_space, "ScirLogGammaStep");
}

TEST(ScirDeathTest, BadArgumentsDie) {
  rng::Engine engine(1);
  EXPECT_DEATH(ScirGammaStep(engine, 1.0, 0.0, 1.0, 0.1), "ScirGammaStep: shape must be");
  EXPECT_DEATH(ScirGammaStep(engine, 1.0, 1.0, -1.0, 0.1), "ScirGammaStep: rate must be");
  EXPECT_DEATH(ScirGammaStep(engine, 1.0, 1.0, 1.0, 0.0), "ScirGammaStep: h must be");
  EXPECT_DEATH(ScirGammaStep(engine, -1.0, 1.0, 1.0, 0.1), "ScirGammaStep: theta must be");
  EXPECT_DEATH(ScirLogGammaStep(engine, NAN, 1.0, 1.0, 0.1), "log_theta must be finite");
  EXPECT_DEATH(ScirLogGammaStep(engine, 0.0, INFINITY, 1.0, 0.1), "shape must be finite");
  EXPECT_DEATH(LognormalOuStep(engine, 0.0, 0.0, 0.0, 0.1), "sigma must be finite and > 0");
  EXPECT_DEATH(LognormalOuStep(engine, 0.0, NAN, 1.0, 0.1), "mu must be finite");
  EXPECT_DEATH(LognormalOuStep(engine, 0.0, 0.0, 1.0, -1.0), "h must be finite and > 0");
}

// Stream stability: the first step of a fixed 1 x 5 problem (counts 30 and 2.5 in columns 1
// and 3) from θ = exp(log_theta0), pinned to 17 digits, so any change of the sampler's (or its
// generators') random stream is a deliberate, visible diff. One case per path of the kernel:
// α = 0.1 from θ = 1 (Poisson draws) and from θ = 0.05 (λ = 0.48: the Bernoulli and
// zero-truncated Poisson draws), α = 0.01 from θ = 1e-20 (λ negligible: the fixed-shape
// table), α = 0.5 (vectorised normal decomposition), α = 0.7 (the same plus the α − 1/2 table).
std::vector<double> FirstStep(double alpha, double log_theta0) {
  Scir sampler = MakeScir(1, 5, {alpha}, 42);
  EXPECT_TRUE(sampler.SetLogTheta(0, std::vector<double>(5, log_theta0)).ok());
  SimplexCounts counts(1, 5);
  counts.Append(0, 1, 30.0);
  counts.Append(0, 3, 2.5);
  sampler.Step(counts, 0.1);
  const absl::Span<const double> lt = sampler.log_theta(0);
  return std::vector<double>(lt.begin(), lt.end());
}

TEST(ScirTest, PinnedFirstStep) {
  struct Case {
    double alpha;
    double log_theta0;
    std::vector<double> pinned;
  };
  const std::vector<Case> cases = {
      {0.1,
       0,
       {-0.38147040010127364, 1.349959447292667, 0.32958830220488888, 0.13492838739222712,
        -1.0149832143551998}},
      {0.1,
       std::log(0.05),
       {-7.9260095752838087, 1.2649632059309952, -2.8971402694529287, -2.5056466471293217,
        -18.537986653964865}},
      {0.01,
       std::log(1e-20),
       {-54.762477315474626, 0.94478580543753798, -72.116113858895432, -1.1731600656897374,
        -88.413451374667304}},
      {0.5,
       0,
       {-0.74577850750908103, 1.2222713447310221, -1.7707587415299484, 0.17155555508297038,
        0.29673884741761203}},
      {0.7,
       0,
       {-0.74577146021611562, 1.0636589802523271, -1.7700580424114922, 0.1938783020912247,
        0.29712944406803743}},
  };


  for (const Case& c : cases) {
    const std::vector<double> step = FirstStep(c.alpha, c.log_theta0);
    for (int j = 0; j < 5; ++j) {
      EXPECT_EQ(step[j], c.pinned[j]) << "alpha=" << c.alpha << " log_theta0=" << c.log_theta0
                                      << " j=" << j << ": "
                                      << absl::StrFormat("%.17g", step[j]);
    }
  }
}

}  // namespace
}  // namespace sgmcmc::samplers
