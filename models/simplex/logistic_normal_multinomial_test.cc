#include "models/simplex/logistic_normal_multinomial.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "Eigen/Dense"
#include "base/check.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rng/engine.h"
#include "rng/multinomial.h"
#include "rng/normal.h"
#include "testing/distribution_testing.h"
#include "testing/numeric_testing.h"

namespace sgmcmc::models {
namespace {

using ::sgmcmc::testing::IsNearRelative;
using ::sgmcmc::testing::KolmogorovSmirnovTest;
using ::sgmcmc::testing::TestResult;
using ::testing::HasSubstr;

double NormalCdf(double x, double mean, double sd) {
  return 0.5 * std::erfc(-(x - mean) / (sd * std::sqrt(2.0)));
}

LogisticNormalMultinomialOptions SmallOptions() {
  LogisticNormalMultinomialOptions options;
  options.dimension = 3;
  options.rank = 1;
  options.loading_prior_sd = 1.0;
  options.noise_sd = 0.5;
  options.mean_prior_sd = 0.7;
  return options;
}

// A model with Λ and m drawn from their priors by Engine(seed).
LogisticNormalMultinomial CreateModel(const LogisticNormalMultinomialOptions& options,
                                      uint64_t seed) {
  rng::Engine engine(seed);
  absl::StatusOr<LogisticNormalMultinomial> model =
      LogisticNormalMultinomial::Create(options, engine);
  SGMCMC_CHECK(model.ok()) << model.status();
  return *std::move(model);
}

LogisticNormalMultinomial SmallModel(uint64_t seed) { return CreateModel(SmallOptions(), seed); }

// z statistic of the mean of iid paired differences whose exact mean is 0.
double PairedZ(absl::Span<const double> differences) {
  const testing::SampleMoments moments = testing::ComputeMoments(differences);
  return moments.mean / std::sqrt(moments.variance / differences.size());
}

// Σ = Λ Λᵀ + s² I of the model, dense.
Eigen::MatrixXd DenseCovariance(const LogisticNormalMultinomial& model) {
  const int d = model.dimension();
  const int r = model.rank();
  Eigen::MatrixXd lambda(d, r);
  for (int i = 0; i < d; ++i) {
    for (int j = 0; j < r; ++j) lambda(i, j) = model.loadings()[i * r + j];
  }
  Eigen::MatrixXd sigma = lambda * lambda.transpose();
  sigma.diagonal().array() += model.options().noise_sd * model.options().noise_sd;
  return sigma;
}

LogisticNormalAtom AtomOf(std::vector<double> eta) {
  LogisticNormalAtom atom;
  atom.SetEta(eta);
  return atom;
}

TEST(LogisticNormalMultinomialTest, OptionsValidate) {
  LogisticNormalMultinomialOptions options = SmallOptions();
  EXPECT_TRUE(options.Validate().ok());
  options.dimension = 1;
  EXPECT_THAT(options.Validate().message(), HasSubstr("dimension"));
  options = SmallOptions();
  options.rank = 4;
  EXPECT_THAT(options.Validate().message(), HasSubstr("rank"));
  options = SmallOptions();
  options.noise_sd = 0;
  EXPECT_THAT(options.Validate().message(), HasSubstr("noise_sd"));
  options = SmallOptions();
  options.loading_prior_sd = NAN;
  EXPECT_THAT(options.Validate().message(), HasSubstr("loading_prior_sd"));
  options = SmallOptions();
  options.mean_prior_sd = -1;
  EXPECT_THAT(options.Validate().message(), HasSubstr("mean_prior_sd"));
  options = SmallOptions();
  options.atom_steps = 0;
  EXPECT_THAT(options.Validate().message(), HasSubstr("atom_steps"));
  rng::Engine engine(1);
  EXPECT_FALSE(LogisticNormalMultinomial::Create(options, engine).ok());
}

// Reference: mpmath at 40 digits, log(5! / (2! 0! 3!)) + Σ_d x_d log softmax(η)_d with
// η = (0.3, -1.2, 2.5), x = (2, 0, 3).
TEST(LogisticNormalMultinomialTest, LogLikelihoodMatchesReference) {
  const LogisticNormalMultinomial model = SmallModel(1);
  const std::vector<int32_t> x = {2, 0, 3};
  constexpr double kExpected = -2.732897821008383532290567;
  EXPECT_TRUE(IsNearRelative(model.LogLikelihood(x, AtomOf({0.3, -1.2, 2.5})), kExpected,
                             1e-15, 1.0));
  // Shifting η leaves softmax unchanged; |η| ~ 1e3 does not overflow.
  const LogisticNormalAtom shifted = AtomOf({1000.3, 998.8, 1002.5});
  EXPECT_TRUE(IsNearRelative(model.LogLikelihood(x, shifted), kExpected, 1e-13, 1.0));
  const LogisticNormalAtom negative = AtomOf({-999.7, -1001.2, -997.5});
  EXPECT_TRUE(IsNearRelative(model.LogLikelihood(x, negative), kExpected, 1e-13, 1.0));
  // mpmath: log(e^1000.3 + e^998.8 + e^1002.5) = 1002.627096582800485843262.
  EXPECT_TRUE(IsNearRelative(shifted.eta[2] - shifted.log_probs[2], 1002.627096582800485843262,
                             1e-15, 1.0));
}

TEST(LogisticNormalMultinomialTest, LogLikelihoodsMatchOneAtATime) {
  const LogisticNormalMultinomial model = SmallModel(2);
  rng::Engine engine(3);
  std::vector<LogisticNormalAtom> atoms;
  for (int k = 0; k < 5; ++k) atoms.push_back(model.DrawFromBase(engine));
  const std::vector<int32_t> x = {7, 1, 0};
  std::vector<double> out(atoms.size());
  model.LogLikelihoods(x, atoms, absl::MakeSpan(out));
  for (size_t k = 0; k < atoms.size(); ++k) {
    EXPECT_EQ(out[k], model.LogLikelihood(x, atoms[k]));
    // The kernel of one point plus its coefficient.
    MultinomialStatistics stats(3);
    stats.Add(x);
    EXPECT_NEAR(out[k], LogMultinomialCoefficient(x) + LogLikelihoodKernel(stats, atoms[k].log_probs),
                1e-12);
  }
}

TEST(LogisticNormalMultinomialTest, StatisticsAddRemoveMerge) {
  MultinomialStatistics a(3), b(3);
  a.Add(std::vector<int32_t>{1, 2, 3});
  a.Add(std::vector<int32_t>{0, 5, 1});
  b.Add(std::vector<int32_t>{4, 0, 0});
  a.Merge(b);
  EXPECT_THAT(a.counts, ::testing::ElementsAre(5, 7, 4));
  EXPECT_EQ(a.total, 16);
  EXPECT_EQ(a.members, 3);
  a.Remove(std::vector<int32_t>{1, 2, 3});
  EXPECT_THAT(a.counts, ::testing::ElementsAre(4, 5, 1));
  EXPECT_EQ(a.total, 10);
  EXPECT_EQ(a.members, 2);
}

// LogBaseDensity (Woodbury, cached factors) against the dense Gaussian log density
// -(D log 2π + log|Σ| + eᵀ Σ⁻¹ e) / 2 computed with a full Cholesky: agreement to 1e-12
// relative (both are O(1e-15)-accurate for these well-conditioned Σ).
TEST(LogisticNormalMultinomialTest, LogBaseDensityMatchesDenseGaussian) {
  for (int rank : {0, 2, 5}) {
    LogisticNormalMultinomialOptions options;
    options.dimension = 5;
    options.rank = rank;
    options.noise_sd = 0.3;
    options.mean_prior_sd = 1.0;
    rng::Engine engine(40 + rank);
    absl::StatusOr<LogisticNormalMultinomial> model =
        LogisticNormalMultinomial::Create(options, engine);
    ASSERT_TRUE(model.ok()) << model.status();
    const Eigen::MatrixXd sigma = DenseCovariance(*model);
    const Eigen::LLT<Eigen::MatrixXd> llt(sigma);
    const double log_det = 2 * Eigen::MatrixXd(llt.matrixL()).diagonal().array().log().sum();
    for (int trial = 0; trial < 5; ++trial) {
      Eigen::VectorXd eta(5);
      for (int d = 0; d < 5; ++d) eta[d] = rng::NormalSample(engine, 0, 2);
      const Eigen::VectorXd e = eta - Eigen::Map<const Eigen::VectorXd>(model->mean().data(), 5);
      const double expected =
          -0.5 * (5 * std::log(2 * M_PI) + log_det + e.dot(llt.solve(e)));
      EXPECT_TRUE(IsNearRelative(model->LogBaseDensity({eta.data(), 5}), expected, 1e-12, 1.0))
          << "rank " << rank;
      // LogBaseLikelihood at the current base sums the same densities.
      std::vector<double> base(model->loadings().begin(), model->loadings().end());
      base.insert(base.end(), model->mean().begin(), model->mean().end());
      const LogisticNormalAtom atom = AtomOf({eta.data(), eta.data() + 5});
      const std::vector<LogisticNormalAtom> two = {atom, atom};
      EXPECT_TRUE(IsNearRelative(model->LogBaseLikelihood(base, two), 2 * expected, 1e-12, 1.0));
    }
  }
}

TEST(LogisticNormalMultinomialTest, SetBaseValidatesAndRefreshes) {
  LogisticNormalMultinomial model = SmallModel(5);
  EXPECT_FALSE(model.SetBase({1.0, 2.0}, {0, 0, 0}).ok());
  EXPECT_THAT(model.SetBase({1.0, NAN, 0.0}, {0, 0, 0}).message(), HasSubstr("non-finite"));
  ASSERT_TRUE(model.SetBase({1.0, 0.0, 0.0}, {0.5, 0, 0}).ok());
  // Σ = diag(1.25, 0.25, 0.25): log N(η; m, Σ) at η = m is -(3 log 2π + log 0.078125) / 2.
  EXPECT_TRUE(IsNearRelative(model.LogBaseDensity({0.5, 0, 0}),
                             -0.5 * (3 * std::log(2 * M_PI) + std::log(1.25 * 0.0625)), 1e-14,
                             1.0));
  LogisticNormalMultinomialOptions fixed_mean = SmallOptions();
  fixed_mean.mean_prior_sd = 0;
  LogisticNormalMultinomial fixed = CreateModel(fixed_mean, 6);
  EXPECT_THAT(fixed.SetBase({1.0, 0.0, 0.0}, {0.5, 0, 0}).message(),
              HasSubstr("mean_prior_sd = 0"));
}

// DrawFromBase: 20,000 independent draws; KS of η_0 and of η_1 - η_2 against their exact
// normal marginals (N(m_0, Σ_00), N(m_1 - m_2, Σ_11 + Σ_22 - 2 Σ_12)), 1e-6 each.
TEST(LogisticNormalMultinomialTest, DrawFromBaseHasBaseMarginals) {
  const LogisticNormalMultinomial model = SmallModel(7);
  const Eigen::MatrixXd sigma = DenseCovariance(model);
  rng::Engine engine(8);
  constexpr int kDraws = 20000;
  std::vector<double> first(kDraws), difference(kDraws);
  for (int i = 0; i < kDraws; ++i) {
    const LogisticNormalAtom atom = model.DrawFromBase(engine);
    first[i] = atom.eta[0];
    difference[i] = atom.eta[1] - atom.eta[2];
  }
  const absl::Span<const double> m = model.mean();
  const TestResult ks_first = KolmogorovSmirnovTest(
      first, [&](double v) { return NormalCdf(v, m[0], std::sqrt(sigma(0, 0))); });
  EXPECT_TRUE(ks_first.Passed()) << ks_first;
  const double sd = std::sqrt(sigma(1, 1) + sigma(2, 2) - 2 * sigma(1, 2));
  const TestResult ks_difference = KolmogorovSmirnovTest(
      difference, [&](double v) { return NormalCdf(v, m[1] - m[2], sd); });
  EXPECT_TRUE(ks_difference.Passed()) << ks_difference;
}

// A joint-distribution (Geweke 2004 "successive conditional") test of UpdateAtom: draw
// η₀ ~ H and S ~ Mult(n, softmax(η₀)), so η₀ is an exact draw from p(η | S); one UpdateAtom
// gives η₁, and (η₁, S) has the joint law of (η₀, S) iff the kernel keeps p(η | S)
// invariant. 20,000 independent replicates (own streams) make two kinds of checks:
//  - KS of each coordinate of η₁ against its base marginal N(m_d, Σ_dd) (3 checks at 1e-6);
//  - a paired z-test of g(η, S) = Σ_d S_d log softmax(η)_d: the differences
//    g(η₁, S) − g(η₀, S) are iid with mean exactly 0, so |mean| / (sd / √n) > 5 has
//    probability 5.7e-7. This catches kernels that ignore or overweight the data, which the
//    marginal checks alone cannot.
// Overall false-failure rate about 3.6e-6 per n.
void CheckUpdateAtomJoint(int64_t n, int atom_steps, uint64_t seed) {
  LogisticNormalMultinomialOptions options = SmallOptions();
  options.atom_steps = atom_steps;
  const LogisticNormalMultinomial model = CreateModel(options, seed);
  const Eigen::MatrixXd sigma = DenseCovariance(model);
  constexpr int kReplicates = 20000;
  std::vector<std::vector<double>> ends(3, std::vector<double>(kReplicates));
  std::vector<double> differences(kReplicates);
  for (int i = 0; i < kReplicates; ++i) {
    rng::Engine engine(seed, /*stream=*/1 + i);
    LogisticNormalAtom atom = model.DrawFromBase(engine);
    std::vector<double> probs(3);
    for (int d = 0; d < 3; ++d) probs[d] = std::exp(atom.log_probs[d]);
    std::vector<int64_t> counts(3);
    rng::MultinomialSample(engine, n, probs, absl::MakeSpan(counts));
    MultinomialStatistics stats(3);
    stats.counts = counts;
    stats.total = n;
    stats.members = 1;
    const double before = LogLikelihoodKernel(stats, atom.log_probs);
    model.UpdateAtom(stats, &atom, engine);
    differences[i] = LogLikelihoodKernel(stats, atom.log_probs) - before;
    for (int d = 0; d < 3; ++d) ends[d][i] = atom.eta[d];
    // log_probs stay consistent with η.
    std::vector<double> expected(3);
    LogSoftmax(atom.eta, absl::MakeSpan(expected));
    ASSERT_EQ(atom.log_probs, expected);
  }
  for (int d = 0; d < 3; ++d) {
    const double m = model.mean()[d];
    const double sd = std::sqrt(sigma(d, d));
    const TestResult ks =
        KolmogorovSmirnovTest(ends[d], [&](double v) { return NormalCdf(v, m, sd); });
    EXPECT_TRUE(ks.Passed()) << "n " << n << " d " << d << ": " << ks;
  }
  EXPECT_LT(std::abs(PairedZ(differences)), 5.0) << "n " << n;
  // The kernel moves: g changes in almost every replicate.
  int moved = 0;
  for (double diff : differences) moved += diff != 0;
  EXPECT_GT(moved, kReplicates * 9 / 10) << "n " << n;
}

TEST(LogisticNormalMultinomialTest, UpdateAtomKeepsConditionalInvariantFewCounts) {
  CheckUpdateAtomJoint(/*n=*/20, /*atom_steps=*/1, /*seed=*/11);
}

TEST(LogisticNormalMultinomialTest, UpdateAtomKeepsConditionalInvariantManyCounts) {
  CheckUpdateAtomJoint(/*n=*/2000, /*atom_steps=*/2, /*seed=*/12);
}

// The same joint test for UpdateBase: (Λ, m) ~ prior (Create), K = 4 atoms η_k ~ H, then
// UpdateBase. The moved (Λ, m) must again be prior draws: KS of each of the 3 loadings
// against N(0, σ_Λ²) and of each of the 3 means against N(0, σ_m²) (6 checks at 1e-6), and a
// paired z-test (|z| < 5, 5.7e-7) of g = Σ_k log H(η_k) before and after. About 6.6e-6 overall.
TEST(LogisticNormalMultinomialTest, UpdateBaseKeepsConditionalInvariant) {
  LogisticNormalMultinomialOptions options = SmallOptions();
  options.base_steps = 2;
  constexpr int kReplicates = 20000;
  constexpr int kAtoms = 4;
  std::vector<std::vector<double>> loadings(3, std::vector<double>(kReplicates));
  std::vector<std::vector<double>> means(3, std::vector<double>(kReplicates));
  std::vector<double> differences(kReplicates);
  for (int i = 0; i < kReplicates; ++i) {
    rng::Engine engine(/*seed=*/13, /*stream=*/i);
    absl::StatusOr<LogisticNormalMultinomial> model =
        LogisticNormalMultinomial::Create(options, engine);
    ASSERT_TRUE(model.ok());
    std::vector<LogisticNormalAtom> atoms;
    for (int k = 0; k < kAtoms; ++k) atoms.push_back(model->DrawFromBase(engine));
    auto g = [&] {
      double sum = 0;
      for (const LogisticNormalAtom& atom : atoms) sum += model->LogBaseDensity(atom.eta);
      return sum;
    };
    const double before = g();
    const std::vector<LogisticNormalAtom> atoms_before = atoms;
    model->UpdateBase(atoms, engine);
    differences[i] = g() - before;
    for (int d = 0; d < 3; ++d) {
      loadings[d][i] = model->loadings()[d];
      means[d][i] = model->mean()[d];
    }
    for (int k = 0; k < kAtoms; ++k) ASSERT_EQ(atoms[k].eta, atoms_before[k].eta);
  }
  for (int d = 0; d < 3; ++d) {
    const TestResult ks_loading = KolmogorovSmirnovTest(
        loadings[d], [&](double v) { return NormalCdf(v, 0, options.loading_prior_sd); });
    EXPECT_TRUE(ks_loading.Passed()) << "loading " << d << ": " << ks_loading;
    const TestResult ks_mean = KolmogorovSmirnovTest(
        means[d], [&](double v) { return NormalCdf(v, 0, options.mean_prior_sd); });
    EXPECT_TRUE(ks_mean.Passed()) << "mean " << d << ": " << ks_mean;
  }
  EXPECT_LT(std::abs(PairedZ(differences)), 5.0);
}

// With σ_m = 0 the mean stays 0 and only Λ moves.
TEST(LogisticNormalMultinomialTest, UpdateBaseWithFixedMeanMovesLoadingsOnly) {
  LogisticNormalMultinomialOptions options = SmallOptions();
  options.mean_prior_sd = 0;
  LogisticNormalMultinomial model = CreateModel(options, 14);
  rng::Engine engine(15);
  std::vector<LogisticNormalAtom> atoms = {model.DrawFromBase(engine),
                                           model.DrawFromBase(engine)};
  const std::vector<double> before(model.loadings().begin(), model.loadings().end());
  model.UpdateBase(atoms, engine);
  EXPECT_THAT(model.mean(), ::testing::Each(0.0));
  EXPECT_NE(std::vector<double>(model.loadings().begin(), model.loadings().end()), before);
}

// Stream stability: a base draw and one atom update from fixed seeds, pinned; the same
// engine state gives the same result.
TEST(LogisticNormalMultinomialTest, PinnedDraws) {
  const LogisticNormalMultinomial model = SmallModel(15);
  rng::Engine engine(16);
  LogisticNormalAtom atom = model.DrawFromBase(engine);
  MultinomialStatistics stats(3);
  stats.Add(std::vector<int32_t>{3, 1, 4});
  rng::Engine replay = engine;
  LogisticNormalAtom copy = atom;
  model.UpdateAtom(stats, &atom, engine);
  model.UpdateAtom(stats, &copy, replay);
  EXPECT_EQ(atom.eta, copy.eta);
  EXPECT_EQ(atom.eta, std::vector<double>({0.17831191767218735, -2.0112303627976975,
                                           -0.42631638196949612}));
}

}  // namespace
}  // namespace sgmcmc::models
