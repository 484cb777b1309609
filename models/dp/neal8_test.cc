#include "models/dp/neal8.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "gtest/gtest.h"
#include "models/dp/component_model.h"
#include "models/dp/partition_testing.h"
#include "rng/dirichlet.h"
#include "rng/engine.h"
#include "rng/uniform.h"

namespace sgmcmc::models {
namespace {

// Five points, three categories: two pairs and an in-between point, so the posterior
// spreads over many of the 52 partitions.
CountMatrix TinyData() {
  return CountMatrix{3, {5, 0, 1, 4, 1, 0, 0, 5, 1, 1, 4, 0, 2, 2, 2}};
}

std::vector<int32_t> RandomLabels(uint64_t seed, int n) {
  rng::Engine engine(seed, 99);
  std::vector<int32_t> labels(n);
  for (int32_t& l : labels) l = static_cast<int32_t>(rng::UniformInt(engine, 3));
  return labels;
}

// `chains` independent chains (seeds 1..chains, random starts), `sweeps` each; the
// histogram of their final partitions.
std::vector<double> FinalPartitions(const PartitionPosterior& exact, const DpNeal8Options& base,
                                    int chains, int sweeps, int64_t* accepted = nullptr,
                                    int64_t* proposed = nullptr) {
  const MultinomialDirichletModel model(3, 1.0);
  const CountMatrix data = TinyData();
  std::vector<double> counts(exact.num_partitions(), 0.0);
  for (int c = 0; c < chains; ++c) {
    DpNeal8Options options = base;
    options.seed = c + 1;
    DpNeal8 sampler(&model, &data, options, RandomLabels(c + 1, 5));
    for (int t = 0; t < sweeps; ++t) sampler.Sweep();
    counts[exact.Index(sampler.allocations())] += 1;
    if (accepted != nullptr) *accepted += sampler.acceptances();
    if (proposed != nullptr) *proposed += sampler.proposals();
  }
  return Normalised(counts);
}

constexpr int kChains = 15000;
constexpr int kSweeps = 25;
// False-failure rate of each TV check (TotalVariationTolerance); the chains' burn-in of
// kSweeps sweeps leaves a bias far below the margin on five points.
constexpr double kFalseFailure = 1e-6;

TEST(DpNeal8Test, Algorithm8MatchesEnumeratedPosteriorWithFixedAlpha) {
  const MultinomialDirichletModel model(3, 1.0);
  const PartitionPosterior exact(model, TinyData(), /*alpha=*/1.0);
  DpNeal8Options options;
  options.concentration.sample_alpha = false;
  const std::vector<double> empirical = FinalPartitions(exact, options, kChains, kSweeps);
  const double tol = TotalVariationTolerance(exact.probabilities(), kChains, kFalseFailure);
  EXPECT_LT(TotalVariation(exact.probabilities(), empirical), tol);
  // The check has power: the posterior under α = 4 is further than the tolerance.
  const PartitionPosterior wrong(model, TinyData(), /*alpha=*/4.0);
  EXPECT_GT(TotalVariation(exact.probabilities(), wrong.probabilities()), 2 * tol);
}

TEST(DpNeal8Test, EmpiricalProposalsMatchEnumeratedPosterior) {
  const MultinomialDirichletModel model(3, 1.0);
  const PartitionPosterior exact(model, TinyData(), /*alpha=*/1.0);
  DpNeal8Options options;
  options.concentration.sample_alpha = false;
  options.empirical_probability = 0.5;
  options.num_auxiliary = 2;
  int64_t accepted = 0, proposed = 0;
  const std::vector<double> empirical =
      FinalPartitions(exact, options, kChains, kSweeps, &accepted, &proposed);
  EXPECT_LT(TotalVariation(exact.probabilities(), empirical),
            TotalVariationTolerance(exact.probabilities(), kChains, kFalseFailure));
  EXPECT_GT(accepted, 0);
  EXPECT_LT(accepted, proposed);
}

TEST(DpNeal8Test, WestAlphaUpdateMatchesPosteriorWithAlphaIntegratedOut) {
  const MultinomialDirichletModel model(3, 1.0);
  const PartitionPosterior exact(model, TinyData(), /*alpha_shape=*/1.0, /*alpha_rate=*/1.0);
  DpNeal8Options options;  // α ~ Gamma(1, 1), sampled
  const std::vector<double> empirical = FinalPartitions(exact, options, kChains, kSweeps);
  EXPECT_LT(TotalVariation(exact.probabilities(), empirical),
            TotalVariationTolerance(exact.probabilities(), kChains, kFalseFailure));
}

TEST(DpNeal8Test, SameSeedIsBitIdentical) {
  const MultinomialDirichletModel model(3, 1.0);
  const CountMatrix data = TinyData();
  DpNeal8Options options;
  options.empirical_probability = 0.3;
  DpNeal8 a(&model, &data, options), b(&model, &data, options);
  for (int t = 0; t < 30; ++t) {
    a.Sweep();
    b.Sweep();
  }
  EXPECT_EQ(std::vector<int32_t>(a.allocations().begin(), a.allocations().end()),
            std::vector<int32_t>(b.allocations().begin(), b.allocations().end()));
  EXPECT_EQ(a.alpha(), b.alpha());
  EXPECT_EQ(a.LogPredictive(data.row(0)), b.LogPredictive(data.row(0)));
}

// A chain saved after 12 sweeps and restored into a fresh sampler (same model, data, options)
// continues bit-identically, with ρ > 0 (the pool persists between sweeps), from singletons
// whose clusters close (so the free slots and their order matter). A state that does not
// fit is refused naming the field, leaving the sampler as it was.
TEST(DpNeal8Test, SaveAndRestoreContinuesBitIdentically) {
  const MultinomialDirichletModel model(8, 1.0);
  const CountMatrix data = SyntheticMultinomialMixture({120}, 8, 40, 4, 1.0, 3)[0];
  DpNeal8Options options;
  options.empirical_probability = 0.3;
  std::vector<int32_t> singletons(120);  // many clusters close in the first sweeps
  std::iota(singletons.begin(), singletons.end(), 0);
  DpNeal8 whole(&model, &data, options, singletons);
  for (int t = 0; t < 12; ++t) whole.Sweep();
  const DpNeal8State state = whole.SaveState();
  DpNeal8 restored(&model, &data, options);
  ASSERT_TRUE(restored.RestoreState(state).ok());
  EXPECT_EQ(restored.SaveState().SerializeAsString(), state.SerializeAsString());
  for (int t = 0; t < 10; ++t) {
    whole.Sweep();
    restored.Sweep();
  }
  EXPECT_EQ(restored.SaveState().SerializeAsString(), whole.SaveState().SerializeAsString());
  EXPECT_EQ(restored.LogPredictive(data.row(0)), whole.LogPredictive(data.row(0)));
  EXPECT_GT(state.free_slots_size(), 0);

  const std::pair<void (*)(DpNeal8State&), const char*> cases[] = {
      {[](DpNeal8State& s) { s.set_alpha(0); }, "DpNeal8State.alpha must be finite and > 0"},
      {[](DpNeal8State& s) { s.mutable_allocations()->RemoveLast(); },
       "DpNeal8State.allocations has 119 labels for 120 rows"},
      {[](DpNeal8State& s) { s.set_allocations(0, 100000); },
       "DpNeal8State.allocations[0] = 100000 is not an open slot"},
      {[](DpNeal8State& s) { s.set_slot_sizes(0, s.slot_sizes(0) + 1); },
       "DpNeal8State.slot_sizes[0] = "},
      {[](DpNeal8State& s) { s.mutable_pool()->RemoveLast(); }, "DpNeal8State.pool has "},
      {[](DpNeal8State& s) { s.mutable_slot_stats()->RemoveLast(); },
       "DpNeal8State.slot_*: cluster table: "},
  };
  for (const auto& [damage, message] : cases) {
    DpNeal8State bad = state;
    damage(bad);
    const absl::Status status = restored.RestoreState(bad);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << message;
    EXPECT_NE(std::string(status.message()).find(message), std::string::npos) << status;
  }
  EXPECT_EQ(restored.SaveState().SerializeAsString(), whole.SaveState().SerializeAsString());
}

TEST(MultinomialDirichletModelTest, DensitiesMatchRngDirichlet) {
  const MultinomialDirichletModel model(3, 0.7);
  rng::Engine engine(5);
  std::vector<double> atom(3), theta(3);
  model.SampleBase(engine, atom.data());
  for (int d = 0; d < 3; ++d) theta[d] = std::exp(atom[d]);
  const std::vector<double> x = {2, 0, 5}, base = {0.7, 0.7, 0.7}, post = {2.7, 0.7, 5.7};
  EXPECT_NEAR(model.LogBaseDensity(atom.data()), rng::DirichletLogPdf(theta, base), 1e-9);
  EXPECT_NEAR(model.LogEmpiricalDensity(x.data(), atom.data()),
              rng::DirichletLogPdf(theta, post), 1e-9);
  // log f = LogLikelihood + LogNormalizer: 7! / (2! 5!) θ0² θ2⁵.
  EXPECT_NEAR(model.LogLikelihood(x.data(), atom.data()) + model.LogNormalizer(x.data()),
              std::log(21.0) + 2 * atom[0] + 5 * atom[2], 1e-9);
  // Dirichlet-multinomial of one trial: p(category) = 1/3.
  const std::vector<double> one = {0, 1, 0};
  EXPECT_NEAR(model.LogMarginal(one.data()), std::log(1.0 / 3.0), 1e-12);
}

TEST(LogCountTableTest, EntriesAreStdLog) {
  const LogCountTable table(1000);
  EXPECT_EQ(table(0), -std::numeric_limits<double>::infinity());
  for (int64_t n = 1; n <= 1000; ++n) {
    ASSERT_EQ(table(n), std::log(static_cast<double>(n))) << n;  // bit-identical draws
  }
  EXPECT_EQ(LogCountTable(0)(0), -std::numeric_limits<double>::infinity());
}

}  // namespace
}  // namespace sgmcmc::models
