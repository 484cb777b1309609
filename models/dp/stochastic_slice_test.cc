#include "models/dp/stochastic_slice.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <numeric>
#include <vector>

#include "absl/types/span.h"
#include "data/corpus.h"
#include "eval/ess.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "models/dp/component_model.h"
#include "models/dp/mixture_testing.h"
#include "models/dp/partition_testing.h"
#include "parallel/thread_pool.h"

namespace sgmcmc::models {
namespace {

TEST(DpStochasticSliceTest, OptionsAndNames) {
  DpStochasticOptions options;
  EXPECT_TRUE(options.Validate(5000).ok());
  EXPECT_THAT(options.Validate(10).message(), testing::HasSubstr("minibatch_size"));
  options.atom_step = 0;
  EXPECT_THAT(options.Validate().message(), testing::HasSubstr("atom_step"));
  EXPECT_EQ(ParseDpSimplexSampler("sgrld").value(), DpSimplexSampler::kSgrld);
  EXPECT_EQ(DpSimplexSamplerName(DpSimplexSampler::kScir), "scir");
  EXPECT_FALSE(ParseDpSimplexSampler("sgld").ok());
  const DpStochasticOptions sgrld = DpStochasticPaperOptions(DpSimplexSampler::kSgrld);
  EXPECT_EQ(sgrld.atom_step, 0.001);
  EXPECT_EQ(sgrld.stick_step, 0.005);
  EXPECT_EQ(sgrld.model.atom_concentration, 0.001);
  EXPECT_EQ(sgrld.model.initial_components, 30);
}

// Same seed: the same run for 1 and 3 threads, for either sampler, also when the simplex
// samplers must grow (capacity 1); invariants on the way.
TEST(DpStochasticSliceTest, DeterministicForAnyThreadCountAndInvariantsHold) {
  std::vector<int> labels;
  const data::Corpus corpus = SeparatedMixture({0.5, 0.3, 0.2}, 4, 400, 6, 7, &labels);
  parallel::ThreadPool pool(3);
  for (DpSimplexSampler kind : {DpSimplexSampler::kScir, DpSimplexSampler::kSgrld}) {
    DpStochasticOptions options;
    options.sampler = kind;
    options.minibatch_size = 50;
    options.initial_capacity = 1;
    options.model.initial_components = 2;
    options.model.seed = 9;
    auto one = DpStochasticSlice::Create(&corpus, options).value();
    auto three = DpStochasticSlice::Create(&corpus, options, &pool).value();
    for (int t = 0; t < 40; ++t) {
      one->Step();
      three->Step();
      ASSERT_THAT(three->allocations(), testing::ElementsAreArray(one->allocations()));
      ASSERT_THAT(three->weights(), testing::ElementsAreArray(one->weights()));
      ASSERT_THAT(three->log_atoms(), testing::ElementsAreArray(one->log_atoms()));
      ASSERT_EQ(three->alpha(), one->alpha());
      const double total = std::accumulate(one->weights().begin(), one->weights().end(), 0.0);
      // Σω < 1 exactly in the leftover's log; the sum itself may round to 1.
      DpMixtureDraw draw;
      one->CurrentDraw(draw);
      ASSERT_LT(draw.log_leftover, 0.0);
      ASSERT_NEAR(total + std::exp(draw.log_leftover), 1.0, 1e-12);
      std::vector<int64_t> sizes(one->component_sizes().size(), 0);
      for (int32_t z : one->allocations()) {
        ASSERT_LT(z, one->num_components());
        ++sizes[z];
      }
      ASSERT_THAT(sizes, testing::ElementsAreArray(one->component_sizes()));
    }
    EXPECT_GT(one->capacity(), 1) << DpSimplexSamplerName(kind);
    EXPECT_EQ(one->atom_sampler().rows(), one->capacity());
  }
}

// Three components on disjoint supports (1000 users, 10 tokens each, n = 100). After a
// burn-in, the average over 300 steps of the atoms matched to each true group must be within
// 0.05 of the group's empirical word frequencies (each 1/4 on its support) and the matched
// weights within 0.05 of the group's share. Tolerance: the minibatch estimate of a group's
// word frequency has sd sqrt(0.25 · 0.75 / (0.2 · 100 · 10)) = 0.031 for the smallest group;
// the sampler averages it over ~1/h = 10 steps (and the 300-step mean further), so 0.05 is
// >= 5 sd of the estimate the dynamics track; a sampler that does not converge to the groups
// (e.g. merging two) misses by >= 0.125.
void ExpectRecovery(DpSimplexSampler kind, double atom_step, double stick_step) {
  const std::vector<double> truth = {0.5, 0.3, 0.2};
  constexpr int kWidth = 4, kUsers = 1000, kTokens = 10;
  std::vector<int> labels;
  const data::Corpus corpus = SeparatedMixture(truth, kWidth, kUsers, kTokens, 3, &labels);
  const int vocab = corpus.vocabulary_size();
  DpStochasticOptions options;
  options.sampler = kind;
  options.atom_step = atom_step;
  options.stick_step = stick_step;
  options.minibatch_size = 100;
  options.model.initial_components = 5;
  options.model.seed = 17;
  auto sampler = DpStochasticSlice::Create(&corpus, options).value();
  for (int t = 0; t < 700; ++t) sampler->Step();

  std::vector<double> empirical(3 * vocab, 0.0), share(3, 0.0);
  for (int i = 0; i < kUsers; ++i) {
    share[labels[i]] += 1.0 / kUsers;
    for (int32_t w : corpus.document(i)) empirical[labels[i] * vocab + w] += 1.0;
  }
  for (int c = 0; c < 3; ++c) {
    for (int w = 0; w < vocab; ++w) empirical[c * vocab + w] /= share[c] * kUsers * kTokens;
  }
  constexpr int kDraws = 300;
  std::vector<double> mean_atoms(3 * vocab, 0.0), mean_weights(3, 0.0);
  for (int t = 0; t < kDraws; ++t) {
    sampler->Step();
    std::vector<std::vector<int>> votes(3, std::vector<int>(sampler->num_components(), 0));
    for (int i = 0; i < kUsers; ++i) ++votes[labels[i]][sampler->allocations()[i]];
    for (int c = 0; c < 3; ++c) {
      const int j = static_cast<int>(std::max_element(votes[c].begin(), votes[c].end()) -
                                     votes[c].begin());
      mean_weights[c] += sampler->weights()[j] / kDraws;
      for (int w = 0; w < vocab; ++w) {
        mean_atoms[c * vocab + w] += std::exp(sampler->log_atoms()[j * vocab + w]) / kDraws;
      }
    }
  }
  for (int c = 0; c < 3; ++c) {
    EXPECT_NEAR(mean_weights[c], share[c], 0.05) << DpSimplexSamplerName(kind) << " group " << c;
    for (int w = 0; w < vocab; ++w) {
      EXPECT_NEAR(mean_atoms[c * vocab + w], empirical[c * vocab + w], 0.05)
          << DpSimplexSamplerName(kind) << " group " << c << " word " << w;
    }
  }
}

// A run saved after 8 steps (the samplers have grown from capacity 1 by then) and restored
// into a new sampler continues as the uninterrupted run, bit for bit, also on 3 threads;
// states that do not fit are refused naming the field, leaving the sampler as it was.
TEST(DpStochasticSliceTest, RestoredStateContinuesBitIdentically) {
  std::vector<int> labels;
  const data::Corpus corpus = SeparatedMixture({0.5, 0.3, 0.2}, 4, 400, 6, 7, &labels);
  parallel::ThreadPool pool(3);
  for (DpSimplexSampler kind : {DpSimplexSampler::kScir, DpSimplexSampler::kSgrld}) {
    DpStochasticOptions options = DpStochasticPaperOptions(kind);
    options.minibatch_size = 50;
    options.initial_capacity = 1;
    options.model.initial_components = 2;
    options.model.seed = 9;
    auto full = DpStochasticSlice::Create(&corpus, options).value();
    for (int t = 0; t < 8; ++t) full->Step();
    const DpStochasticSliceState state = full->SaveState();
    EXPECT_EQ(state.steps(), 8);
    EXPECT_GT(state.sticks().rows(), 2);
    EXPECT_EQ(state.atoms().rows(), state.sticks().rows());
    for (int t = 0; t < 12; ++t) full->Step();

    auto resumed = DpStochasticSlice::Create(&corpus, options, &pool).value();
    ASSERT_TRUE(resumed->RestoreState(state).ok());
    EXPECT_EQ(resumed->capacity(), state.sticks().rows());
    EXPECT_EQ(resumed->num_components(), 0);
    for (int t = 0; t < 12; ++t) resumed->Step();
    EXPECT_EQ(resumed->steps(), 20);
    EXPECT_THAT(resumed->allocations(), testing::ElementsAreArray(full->allocations()));
    EXPECT_THAT(resumed->weights(), testing::ElementsAreArray(full->weights()));
    EXPECT_THAT(resumed->log_atoms(), testing::ElementsAreArray(full->log_atoms()));
    EXPECT_EQ(resumed->alpha(), full->alpha());
    EXPECT_EQ(resumed->SaveState().SerializeAsString(), full->SaveState().SerializeAsString());

    const std::string before = resumed->SaveState().SerializeAsString();
    DpStochasticSliceState bad = state;
    bad.mutable_allocations()->RemoveLast();
    EXPECT_THAT(resumed->RestoreState(bad).message(), testing::HasSubstr("399 allocations"));
    bad = state;
    bad.set_allocations(3, state.sticks().rows());
    EXPECT_THAT(resumed->RestoreState(bad).message(), testing::HasSubstr("allocations[3]"));
    bad = state;
    bad.set_alpha(-1);
    EXPECT_THAT(resumed->RestoreState(bad).message(), testing::HasSubstr("alpha"));
    bad = state;
    bad.set_steps(-1);
    EXPECT_THAT(resumed->RestoreState(bad).message(), testing::HasSubstr("steps"));
    bad = state;
    bad.mutable_atoms()->set_rows(state.sticks().rows() + 1);
    EXPECT_THAT(resumed->RestoreState(bad).message(), testing::HasSubstr("atoms.rows"));
    bad = state;
    bad.mutable_atoms()->set_parameterization(kind == DpSimplexSampler::kScir ? "theta"
                                                                              : "log_theta");
    EXPECT_THAT(resumed->RestoreState(bad).message(), testing::HasSubstr("atoms: "));
    bad = state;
    bad.mutable_sticks()->mutable_row_steps()->RemoveLast();
    EXPECT_THAT(resumed->RestoreState(bad).message(), testing::HasSubstr("sticks: "));
    EXPECT_EQ(resumed->SaveState().SerializeAsString(), before);
  }
}

// The options of the checks on the five-user data: the whole data as the minibatch, steps
// `step` for the atoms and the sticks, a = 0.8, random starts over 3 components, α = 1.5
// fixed (or its start).
DpStochasticOptions TinyDataOptions(DpSimplexSampler kind, double step, bool sample_alpha) {
  DpStochasticOptions options;
  options.sampler = kind;
  options.atom_step = step;
  options.stick_step = step;
  options.minibatch_size = 5;
  options.initial_capacity = 4;
  options.model.atom_concentration = 0.8;
  options.model.initial_components = 3;
  options.model.sample_alpha = sample_alpha;
  options.model.initial_alpha = 1.5;
  return options;
}

// Sticks at v = 1 and v = 0 (an SGRLD row with θ = 0, which its mirrored step can leave and
// a checkpoint restores; an SCIR row with log θ = -1e308) and an α of 5e303 made log(1 - v)
// = -inf, the α posterior's rate infinite, α = 0, and then a Gamma(0) prior stick (a CHECK
// failure): found by //fuzz:dp_checkpoint_fuzzer. (Its input, replayed by
// //fuzz:dp_checkpoint_fuzzer_test, also had a weight underflow to 0, so a slice of 0, which
// with the sticks' logs clamped alone added sticks up to the 2^24 limit.) Now every step keeps
// α finite and > 0 and the weights finite, non-negative and summing to at most 1.
TEST(DpStochasticSliceTest, SticksAtZeroOrOneKeepAlphaPositive) {
  const data::Corpus corpus = TinyPartitionCorpus();
  for (DpSimplexSampler kind : {DpSimplexSampler::kScir, DpSimplexSampler::kSgrld}) {
    DpStochasticOptions options = TinyDataOptions(kind, 0.02, /*sample_alpha=*/true);
    auto sampler = DpStochasticSlice::Create(&corpus, options).value();
    for (int t = 0; t < 3; ++t) sampler->Step();
    DpStochasticSliceState state = sampler->SaveState();
    const bool log = kind == DpSimplexSampler::kScir;
    const double zero = log ? -1e308 : 0.0, one = log ? 0.0 : 1.0;
    for (int j = 0; j < state.sticks().rows(); ++j) {
      // Stick 1 at v = 0, every other at v = 1.
      state.mutable_sticks()->set_parameters(2 * j, j == 1 ? zero : one);
      state.mutable_sticks()->set_parameters(2 * j + 1, j == 1 ? one : zero);
    }
    // An α so large that the sticks' counts swamp their rows (the fuzzer's state).
    state.set_alpha(5e303);
    ASSERT_TRUE(sampler->RestoreState(state).ok()) << DpSimplexSamplerName(kind);
    for (int t = 0; t < 5; ++t) {
      sampler->Step();
      EXPECT_TRUE(std::isfinite(sampler->alpha()) && sampler->alpha() > 0)
          << DpSimplexSamplerName(kind) << " step " << t << ": alpha " << sampler->alpha();
      double total = 0;
      for (double w : sampler->weights()) {
        EXPECT_TRUE(std::isfinite(w) && w >= 0) << DpSimplexSamplerName(kind) << " weight " << w;
        total += w;
      }
      EXPECT_LE(total, 1 + 1e-12) << DpSimplexSamplerName(kind);
    }
  }
}

// An independent reference for the SCIR path: with the whole data as the minibatch (n = N)
// and steps so long that the CIR transition forgets its start (h = 40: exp(-h) ~ 4e-18), each
// SCIR step draws its rows from the exact Gamma laws, i.e. the sticks from Beta(1 + m_j,
// α + Σ_{l>j} m_l) and the atoms from Dir(a + counts): the stochastic slice sampler is then
// the exact blocked Gibbs sampler, and its partitions must follow the enumerated posterior
// over the 52 partitions of five users (models/dp/partition_testing.h), with α fixed and
// with α ~ Gamma(1, 1). Final states of kChains independent chains (random starts over 3
// components, kSteps steps each: the exact sampler reaches the Monte Carlo floor of the TV
// within 30 steps, models/dp/mixture_test), TV within TotalVariationTolerance at a false-failure
// rate of 1e-6 per check (measured TV 0.026-0.039, tolerance 0.070). A wrong count, stick
// tail or minibatch scale in the shared model code moves the partition law by far more.
void ExpectScirMatchesEnumeratedPosterior(bool sample_alpha) {
  constexpr int kChains = 6000, kSteps = 30;
  const data::Corpus corpus = TinyPartitionCorpus();
  DpStochasticOptions options = TinyDataOptions(DpSimplexSampler::kScir, 40, sample_alpha);
  const MultinomialDirichletModel model(3, options.model.atom_concentration);
  const PartitionPosterior exact =
      sample_alpha ? PartitionPosterior(model, TinyPartitionCounts(), options.model.alpha_shape,
                                        options.model.alpha_rate)
                   : PartitionPosterior(model, TinyPartitionCounts(), options.model.initial_alpha);
  std::vector<double> counts(exact.num_partitions(), 0.0);
  for (int c = 0; c < kChains; ++c) {
    options.model.seed = c + 1;
    auto sampler = DpStochasticSlice::Create(&corpus, options).value();
    for (int t = 0; t < kSteps; ++t) sampler->Step();
    counts[exact.Index(sampler->allocations())] += 1;
  }
  const double tv = TotalVariation(exact.probabilities(), Normalised(counts));
  const double tol = TotalVariationTolerance(exact.probabilities(), kChains, 1e-6);
  EXPECT_LT(tv, tol) << "sample_alpha " << sample_alpha;
  std::cout << "SCIR (sample_alpha " << sample_alpha << "): TV " << tv << ", tolerance " << tol
            << "\n";
}

TEST(DpStochasticSliceTest, ScirWithFullBatchAndLongStepsMatchesPosteriorWithFixedAlpha) {
  ExpectScirMatchesEnumeratedPosterior(/*sample_alpha=*/false);
}

TEST(DpStochasticSliceTest, ScirWithFullBatchAndLongStepsMatchesPosteriorWithAlphaIntegratedOut) {
  ExpectScirMatchesEnumeratedPosterior(/*sample_alpha=*/true);
}

// SGRLD has no exact limit, so its reference is the same enumerated posterior with a
// discretisation allowance: the full batch (n = N, no gradient noise), steps h = 0.02 for the
// atoms and the sticks, kChains chains of kSteps steps after kBurnIn, the partitions of every
// step pooled. The draws are correlated: the tolerance is TotalVariationTolerance at a
// false-failure rate of 1e-6 with S the smallest ESS (eval/ess.h, over the chains) of the
// indicators of the partitions of probability >= 0.02, plus the allowance 0.05 for the O(h)
// bias (measured: TV 0.053, ESS 4700, tolerance 0.129). A sampler without its injected noise
// collapses onto the few most probable partitions; one at the wrong temperature or with
// wrong counts moves the law by more than the tolerance.
TEST(DpStochasticSliceTest, SgrldWithFullBatchIsNearTheEnumeratedPosterior) {
  constexpr int kChains = 16, kBurnIn = 500, kSteps = 4000;
  const data::Corpus corpus = TinyPartitionCorpus();
  DpStochasticOptions options =
      TinyDataOptions(DpSimplexSampler::kSgrld, 0.02, /*sample_alpha=*/false);
  const MultinomialDirichletModel model(3, options.model.atom_concentration);
  const PartitionPosterior exact(model, TinyPartitionCounts(), options.model.initial_alpha);
  std::vector<std::vector<int>> visits(kChains);
  std::vector<double> counts(exact.num_partitions(), 0.0);
  for (int c = 0; c < kChains; ++c) {
    options.model.seed = c + 1;
    auto sampler = DpStochasticSlice::Create(&corpus, options).value();
    for (int t = 0; t < kBurnIn + kSteps; ++t) {
      sampler->Step();
      if (t < kBurnIn) continue;
      const int index = exact.Index(sampler->allocations());
      visits[c].push_back(index);
      counts[index] += 1;
    }
  }
  double ess = kChains * kSteps;
  for (int j = 0; j < exact.num_partitions(); ++j) {
    if (exact.probabilities()[j] < 0.02) continue;
    std::vector<std::vector<double>> indicators(kChains);
    std::vector<absl::Span<const double>> chains;
    for (int c = 0; c < kChains; ++c) {
      for (const int index : visits[c]) indicators[c].push_back(index == j);
      chains.push_back(indicators[c]);
    }
    ess = std::min(ess, eval::EffectiveSampleSize(chains));
  }
  const double tv = TotalVariation(exact.probabilities(), Normalised(counts));
  const double tol =
      TotalVariationTolerance(exact.probabilities(), static_cast<int64_t>(ess), 1e-6) + 0.05;
  EXPECT_LT(tv, tol) << "ESS " << ess;
  std::cout << "SGRLD: TV " << tv << ", ESS " << ess << ", tolerance " << tol << "\n";
}

TEST(DpStochasticSliceTest, ScirRecoversSeparatedComponents) {
  ExpectRecovery(DpSimplexSampler::kScir, 0.1, 0.1);
}

TEST(DpStochasticSliceTest, SgrldRecoversSeparatedComponents) {
  ExpectRecovery(DpSimplexSampler::kSgrld, 0.01, 0.01);
}

}  // namespace
}  // namespace sgmcmc::models
