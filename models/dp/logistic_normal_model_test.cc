#include "models/dp/logistic_normal_model.h"

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "base/check.h"
#include "gtest/gtest.h"
#include "math/special_functions.h"
#include "models/dp/component_model.h"
#include "models/dp/neal8.h"
#include "models/dp/partition_testing.h"
#include "models/simplex/logistic_normal_multinomial.h"
#include "rng/engine.h"
#include "rng/uniform.h"

namespace sgmcmc::models {
namespace {

// D = 2, r = 1, Λ = (1.5, −1.5)ᵀ, s = 0.1, m = 0: θ_1 = σ(u) with u = η_1 − η_2 ~ N(0, v),
// v = (Λ_1 − Λ_2)² + 2 s² = 9.02, so a cluster's marginal likelihood is a 1-D integral.
constexpr double kLoading = 1.5;
constexpr double kNoiseSd = 0.1;
constexpr double kVariance = 4 * kLoading * kLoading + 2 * kNoiseSd * kNoiseSd;

DpLogisticNormalModel TwoCategoryModel(int marginal_draws = 64) {
  LogisticNormalMultinomialOptions options;
  options.dimension = 2;
  options.rank = 1;
  options.noise_sd = kNoiseSd;
  options.atom_steps = 2;
  rng::Engine engine(7, 0);
  absl::StatusOr<LogisticNormalMultinomial> base =
      LogisticNormalMultinomial::Create(options, engine);
  SGMCMC_CHECK(base.ok()) << base.status();
  SGMCMC_CHECK(base->SetBase({kLoading, -kLoading}, {0.0, 0.0}).ok());
  DpLogisticNormalOptions dp;
  dp.marginal_draws = marginal_draws;
  return DpLogisticNormalModel(*std::move(base), dp);
}

// log E_u[σ(u)^a σ(−u)^b], u ~ N(0, v): trapezoid rule on [−20 √v, 20 √v] with 4,001
// nodes (step h ≈ 0.03). The integrand is analytic in the strip |Im u| < π (σ's poles at
// ±iπ), so the rule's error is O(exp(−2π² / h)) < 1e-200, and the cut tails are below
// e^{-200}: far below 1e-12 relative, negligible next to the TV tolerances below.
double LogSigmoidMoment(double a, double b, double v) {
  constexpr int kNodes = 4001;
  const double half = 20 * std::sqrt(v), h = 2 * half / (kNodes - 1);
  std::vector<double> terms(kNodes);
  for (int j = 0; j < kNodes; ++j) {
    const double u = -half + j * h;
    const double log_sig = -std::log1p(std::exp(-u)), log_sig_neg = -std::log1p(std::exp(u));
    terms[j] = a * log_sig + b * log_sig_neg - 0.5 * u * u / v - 0.5 * std::log(2 * M_PI * v) +
               std::log(h) + ((j == 0 || j == kNodes - 1) ? std::log(0.5) : 0.0);
  }
  return math::LogSumExp(terms);
}

double LogClusterMarginal(const double* stats) {
  return LogSigmoidMoment(stats[0], stats[1], kVariance);
}

// Five points of five counts: two pairs at the ends and one between.
CountMatrix TinyData() { return CountMatrix{2, {5, 0, 4, 1, 0, 5, 1, 4, 3, 2}}; }

std::vector<double> FinalPartitions(const DpLogisticNormalModel& model,
                                    const PartitionPosterior& exact, DpNeal8Options options,
                                    int chains, int sweeps, int64_t* accepted) {
  const CountMatrix data = TinyData();
  std::vector<double> counts(exact.num_partitions(), 0.0);
  for (int c = 0; c < chains; ++c) {
    options.seed = c + 1;
    rng::Engine engine(c + 1, 99);
    std::vector<int32_t> labels(data.rows());
    for (int32_t& l : labels) l = static_cast<int32_t>(rng::UniformInt(engine, 3));
    DpNeal8 sampler(&model, &data, options, labels);
    for (int t = 0; t < sweeps; ++t) sampler.Sweep();
    counts[exact.Index(sampler.allocations())] += 1;
    *accepted += sampler.acceptances();
  }
  return Normalised(counts);
}

constexpr int kChains = 6000;
// Sweeps per chain: each sweep moves every atom by two elliptical slice steps, which mix the
// 1-D posterior of u within a few steps at these counts; 20 sweeps leave a burn-in bias far
// below the TV margin on five points.
constexpr int kSweeps = 20;
// False-failure rate of each TV check (TotalVariationTolerance: Jensen bound on E[TV] plus a
// McDiarmid margin).
constexpr double kFalseFailure = 1e-6;

TEST(DpLogisticNormalModelTest, Algorithm8MatchesEnumeratedPosteriorByQuadrature) {
  const DpLogisticNormalModel model = TwoCategoryModel();
  const PartitionPosterior exact(model, TinyData(), /*alpha=*/1.0, LogClusterMarginal);
  DpNeal8Options options;
  options.concentration.sample_alpha = false;
  int64_t accepted = 0;
  const std::vector<double> empirical =
      FinalPartitions(model, exact, options, kChains, kSweeps, &accepted);
  const double tol = TotalVariationTolerance(exact.probabilities(), kChains, kFalseFailure);
  EXPECT_LT(TotalVariation(exact.probabilities(), empirical), tol);
  // The check has power: α = 3 is further than the tolerance.
  const PartitionPosterior wrong(model, TinyData(), /*alpha=*/3.0, LogClusterMarginal);
  EXPECT_GT(TotalVariation(exact.probabilities(), wrong.probabilities()), 2 * tol);
}

TEST(DpLogisticNormalModelTest, EmpiricalProposalsMatchEnumeratedPosteriorByQuadrature) {
  const DpLogisticNormalModel model = TwoCategoryModel();
  const PartitionPosterior exact(model, TinyData(), /*alpha=*/1.0, LogClusterMarginal);
  DpNeal8Options options;
  options.concentration.sample_alpha = false;
  options.empirical_probability = 0.5;
  options.num_auxiliary = 2;
  int64_t accepted = 0;
  const std::vector<double> empirical =
      FinalPartitions(model, exact, options, kChains, kSweeps, &accepted);
  EXPECT_LT(TotalVariation(exact.probabilities(), empirical),
            TotalVariationTolerance(exact.probabilities(), kChains, kFalseFailure));
  EXPECT_GT(accepted, 0);
}

TEST(DpLogisticNormalModelTest, DelegatesToTheWrappedModel) {
  const DpLogisticNormalModel model = TwoCategoryModel();
  rng::Engine engine(3, 0);
  std::vector<double> atom(model.atom_size());
  model.SampleBase(engine, atom.data());
  const std::vector<double> x = {3, 4};
  LogisticNormalAtom wrapped;
  wrapped.SetEta({atom[0], atom[1]});
  EXPECT_NEAR(model.LogLikelihood(x.data(), atom.data()) + model.LogNormalizer(x.data()),
              model.model().LogLikelihood(std::vector<int32_t>{3, 4}, wrapped), 1e-12);
  EXPECT_EQ(model.LogBaseDensity(atom.data()), model.model().LogBaseDensity(wrapped.eta));
  // The stored log-probabilities follow η after an atom move.
  const std::vector<double> stats = {10, 2};
  model.UpdateAtom(engine, stats.data(), atom.data());
  wrapped.SetEta({atom[0], atom[1]});
  EXPECT_EQ(atom[2], wrapped.log_probs[0]);
  EXPECT_EQ(atom[3], wrapped.log_probs[1]);
  // The empirical kernel is a normalised density: its log at the centre is −D/2 log(2π τ²).
  const double centre0 = std::log(3.5) - 0.5 * (std::log(3.5) + std::log(4.5));
  const std::vector<double> at_centre = {centre0, -centre0, 0, 0};
  EXPECT_NEAR(model.LogEmpiricalDensity(x.data(), at_centre.data()), -std::log(2 * M_PI * 0.25),
              1e-12);
}

TEST(DpLogisticNormalModelTest, MonteCarloMarginalMatchesQuadrature) {
  constexpr int kDraws = 20000;
  const DpLogisticNormalModel model = TwoCategoryModel(kDraws);
  const std::vector<double> x = {6, 2};
  const double log_mean = LogSigmoidMoment(6, 2, kVariance);
  const double log_second = LogSigmoidMoment(12, 4, kVariance);
  // Delta method: sd of the log of a mean of M iid draws ≈ sqrt(Var f / M) / E f; 5 sd.
  const double rel_sd = std::sqrt((std::exp(log_second - 2 * log_mean) - 1) / kDraws);
  EXPECT_NEAR(model.LogMarginal(x.data()) - model.LogNormalizer(x.data()), log_mean, 5 * rel_sd);
}

TEST(DpLogisticNormalModelTest, UpdateGlobalMovesTheLoadings) {
  DpLogisticNormalModel model = TwoCategoryModel();
  rng::Engine engine(5, 0);
  std::vector<double> atoms(3 * model.atom_size());
  for (int k = 0; k < 3; ++k) model.SampleBase(engine, atoms.data() + k * model.atom_size());
  const double before = model.LogMarginal(std::vector<double>{5, 1}.data());
  const std::vector<double> loadings(model.model().loadings().begin(),
                                     model.model().loadings().end());
  model.UpdateGlobal(engine, atoms, 3);
  EXPECT_NE(loadings[0], model.model().loadings()[0]);
  // The bank follows the new base.
  EXPECT_NE(before, model.LogMarginal(std::vector<double>{5, 1}.data()));
}

}  // namespace
}  // namespace sgmcmc::models
