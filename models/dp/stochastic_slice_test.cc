#include "models/dp/stochastic_slice.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "data/corpus.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "models/dp/mixture_testing.h"
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

TEST(DpStochasticSliceTest, ScirRecoversSeparatedComponents) {
  ExpectRecovery(DpSimplexSampler::kScir, 0.1, 0.1);
}

TEST(DpStochasticSliceTest, SgrldRecoversSeparatedComponents) {
  ExpectRecovery(DpSimplexSampler::kSgrld, 0.01, 0.01);
}

}  // namespace
}  // namespace sgmcmc::models
