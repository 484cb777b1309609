#include "models/dp/mixture.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "data/corpus.h"
#include "eval/ess.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "models/dp/collapsed_gibbs_testing.h"
#include "models/dp/mixture_testing.h"
#include "parallel/thread_pool.h"

namespace sgmcmc::models {
namespace {

TEST(DpMixtureOptionsTest, ValidateNamesTheField) {
  DpMixtureOptions options;
  EXPECT_TRUE(options.Validate().ok());
  options.atom_concentration = 0;
  EXPECT_THAT(options.Validate().message(), testing::HasSubstr("atom_concentration"));
  options = DpMixtureOptions();
  options.alpha_rate = std::nan("");
  EXPECT_THAT(options.Validate().message(), testing::HasSubstr("alpha_rate"));
  options = DpMixtureOptions();
  options.initial_components = 0;
  EXPECT_THAT(options.Validate().message(), testing::HasSubstr("initial_components"));
}

TEST(DpMixtureTest, StickBreakingWeightsAndLeftover) {
  const std::vector<double> v = {0.5, 0.25, 0.1};
  std::vector<double> log_v, log1m_v, weights(3);
  for (double x : v) {
    log_v.push_back(std::log(x));
    log1m_v.push_back(std::log1p(-x));
  }
  const double log_left = StickBreakingWeights(log_v, log1m_v, absl::MakeSpan(weights));
  EXPECT_NEAR(weights[0], 0.5, 1e-15);
  EXPECT_NEAR(weights[1], 0.125, 1e-15);
  EXPECT_NEAR(weights[2], 0.0375, 1e-15);
  EXPECT_NEAR(std::exp(log_left), 1 - 0.6625, 1e-15);
}

TEST(DpSliceGibbsTest, CreateRejectsBadInput) {
  data::Corpus empty;
  empty.vocabulary = {"a", "b"};
  EXPECT_FALSE(DpSliceGibbs::Create(&empty, DpMixtureOptions()).ok());
  std::vector<int> labels;
  data::Corpus corpus = SeparatedMixture({0.5, 0.5}, 2, 10, 3, 1, &labels);
  DpMixtureOptions options;
  options.initial_alpha = -1;
  EXPECT_FALSE(DpSliceGibbs::Create(&corpus, options).ok());
}

TEST(DpSliceGibbsTest, InvariantsHoldAndThreadsDoNotChangeTheRun) {
  std::vector<int> labels;
  const data::Corpus corpus = SeparatedMixture({0.5, 0.3, 0.2}, 4, 200, 6, 7, &labels);
  DpMixtureOptions options;
  options.seed = 11;
  auto one = DpSliceGibbs::Create(&corpus, options).value();
  parallel::ThreadPool pool(3);
  auto three = DpSliceGibbs::Create(&corpus, options, &pool).value();
  for (int t = 0; t < 30; ++t) {
    one->Step();
    three->Step();
    const double total = std::accumulate(one->weights().begin(), one->weights().end(), 0.0);
    ASSERT_LT(total, 1.0);
    DpMixtureDraw draw;
    one->CurrentDraw(draw);
    ASSERT_NEAR(std::exp(draw.log_leftover), 1 - total, 1e-12);
    ASSERT_EQ(one->component_sizes().size(), one->num_components());
    std::vector<int64_t> sizes(one->num_components(), 0);
    for (int32_t z : one->allocations()) {
      ASSERT_GE(z, 0);
      ASSERT_LT(z, one->num_components());
      ++sizes[z];
    }
    ASSERT_THAT(sizes, testing::ElementsAreArray(one->component_sizes()));
    for (int j = 0; j < one->num_components(); ++j) {
      double row = 0;
      for (int w = 0; w < corpus.vocabulary_size(); ++w) {
        row += std::exp(one->log_atoms()[j * corpus.vocabulary_size() + w]);
      }
      ASSERT_NEAR(row, 1.0, 1e-12);
    }
    ASSERT_THAT(three->allocations(), testing::ElementsAreArray(one->allocations()));
    ASSERT_THAT(three->weights(), testing::ElementsAreArray(one->weights()));
    ASSERT_EQ(three->alpha(), one->alpha());
  }
}

TEST(DpSliceGibbsTest, RestoredStateContinuesBitIdentically) {
  std::vector<int> labels;
  const data::Corpus corpus = SeparatedMixture({0.6, 0.4}, 3, 100, 5, 2, &labels);
  DpMixtureOptions options;
  options.seed = 4;
  auto full = DpSliceGibbs::Create(&corpus, options).value();
  for (int t = 0; t < 10; ++t) full->Step();
  const DpSliceGibbsState state = full->SaveState();
  EXPECT_EQ(state.steps(), 10);
  for (int t = 0; t < 10; ++t) full->Step();

  auto resumed = DpSliceGibbs::Create(&corpus, options).value();
  ASSERT_TRUE(resumed->RestoreState(state).ok());
  EXPECT_EQ(resumed->num_components(), 0);
  for (int t = 0; t < 10; ++t) resumed->Step();
  EXPECT_EQ(resumed->steps(), 20);
  EXPECT_THAT(resumed->allocations(), testing::ElementsAreArray(full->allocations()));
  EXPECT_THAT(resumed->weights(), testing::ElementsAreArray(full->weights()));
  EXPECT_THAT(resumed->log_atoms(), testing::ElementsAreArray(full->log_atoms()));
  EXPECT_EQ(resumed->alpha(), full->alpha());

  DpSliceGibbsState bad = state;
  bad.mutable_allocations()->RemoveLast();
  EXPECT_THAT(resumed->RestoreState(bad).message(), testing::HasSubstr("99 allocations"));
  bad = state;
  bad.set_allocations(3, -1);
  EXPECT_THAT(resumed->RestoreState(bad).message(), testing::HasSubstr("allocations[3] = -1"));
  bad = state;
  bad.set_alpha(0);
  EXPECT_THAT(resumed->RestoreState(bad).message(), testing::HasSubstr("alpha"));
}

// Three components with disjoint supports of 4 words each, 10 tokens per user: a user's bag
// identifies its component, so after burn-in the posterior puts (almost) every user with its
// true companions and the matched atoms' posterior means equal the empirical word
// frequencies of the true groups up to (i) the prior's pull, at most a V / n_c = 0.5 * 12 /
// 600 = 0.01 for the smallest group (~60 users, 600 tokens), and (ii) Monte Carlo error of
// the mean of 100 draws, posterior sd <= sqrt(0.25 * 0.75 / 600) = 0.018 per entry, i.e.
// 6 sd / sqrt(100) = 0.011 for independent draws (the atoms are redrawn given z every step and
// z is frozen, so the draws are independent). Tolerance 0.01 + 0.011 -> 0.025.
TEST(DpSliceGibbsTest, RecoversSeparatedComponents) {
  const std::vector<double> truth = {0.5, 0.3, 0.2};
  constexpr int kWidth = 4, kUsers = 300, kTokens = 10;
  std::vector<int> labels;
  const data::Corpus corpus = SeparatedMixture(truth, kWidth, kUsers, kTokens, 3, &labels);
  const int vocab = corpus.vocabulary_size();
  DpMixtureOptions options;
  options.seed = 5;
  options.initial_components = 5;
  auto gibbs = DpSliceGibbs::Create(&corpus, options).value();
  for (int t = 0; t < 100; ++t) gibbs->Step();

  // Empirical word frequencies and sizes of the true groups.
  std::vector<double> empirical(3 * vocab, 0.0), group_size(3, 0.0);
  for (int i = 0; i < kUsers; ++i) {
    group_size[labels[i]] += 1;
    for (int32_t w : corpus.document(i)) empirical[labels[i] * vocab + w] += 1.0 / kTokens;
  }
  for (int c = 0; c < 3; ++c) {
    for (int w = 0; w < vocab; ++w) empirical[c * vocab + w] /= group_size[c];
  }

  constexpr int kDraws = 100;
  std::vector<double> mean_atoms(3 * vocab, 0.0), mean_weights(3, 0.0);
  for (int t = 0; t < kDraws; ++t) {
    gibbs->Step();
    // Group c maps to the component holding most of its users; the others are in singletons
    // the posterior allows (a fresh prior atom can fit one user's 10 tokens), at most 2%.
    std::vector<int> component_of(3);
    std::vector<std::vector<int>> votes(3, std::vector<int>(gibbs->num_components(), 0));
    for (int i = 0; i < kUsers; ++i) ++votes[labels[i]][gibbs->allocations()[i]];
    for (int c = 0; c < 3; ++c) {
      component_of[c] = static_cast<int>(
          std::max_element(votes[c].begin(), votes[c].end()) - votes[c].begin());
    }
    ASSERT_NE(component_of[0], component_of[1]);
    ASSERT_NE(component_of[0], component_of[2]);
    ASSERT_NE(component_of[1], component_of[2]);
    int misplaced = 0;
    for (int i = 0; i < kUsers; ++i) misplaced += gibbs->allocations()[i] != component_of[labels[i]];
    ASSERT_LE(misplaced, kUsers / 50) << "step " << t << " sizes "
                                      << testing::PrintToString(gibbs->component_sizes());
    for (int c = 0; c < 3; ++c) {
      mean_weights[c] += gibbs->weights()[component_of[c]] / kDraws;
      for (int w = 0; w < vocab; ++w) {
        mean_atoms[c * vocab + w] +=
            std::exp(gibbs->log_atoms()[component_of[c] * vocab + w]) / kDraws;
      }
    }
  }
  for (int c = 0; c < 3; ++c) {
    for (int w = 0; w < vocab; ++w) {
      EXPECT_NEAR(mean_atoms[c * vocab + w], empirical[c * vocab + w], 0.025)
          << "component " << c << " word " << w;
    }
    // ω_c | z ≈ Beta-like with sd <= sqrt(0.25 / 300) = 0.029; the mean of 100 draws with
    // the stick order frozen is within 6 sd / sqrt(100) = 0.017 plus the prior's pull
    // (α + 1) / N <= 0.02 for α <= 5 of the group's share: tolerance 0.04. The truth itself
    // is within 6 sqrt(0.25 / 300) = 0.17 of the share, so checking the share is the sharper test.
    EXPECT_NEAR(mean_weights[c], group_size[c] / kUsers, 0.04) << "component " << c;
    EXPECT_NEAR(mean_weights[c], truth[c], 0.17) << "component " << c;
  }
}

// The number of occupied clusters on a tiny data set: the slice sampler against Neal's
// Algorithm 3 (collapsed Gibbs, a different exact sampler), both with α ~ Gamma(1, 1), and
// both at a fixed α = 0.7.
// For each count k of the histogram, p_slice(k) − p_collapsed(k) is compared with its
// standard error sqrt(p(1−p)/ESS_slice + p(1−p)/ESS_collapsed), the ESS of the indicator
// series 1(K_t = k) from eval/ess.h; counts with fewer than 200 pooled visits are merged
// into the last bin. Threshold z = 5.3: two-sided 1.2e-7 per bin, below a 1e-6 false-failure
// rate over at most 8 bins (Bonferroni).
void ExpectClusterCountsMatch(bool sample_alpha, double initial_alpha) {
  data::Corpus corpus;
  corpus.vocabulary = {"a", "b", "c", "d"};
  for (const std::vector<int32_t>& bag : std::vector<std::vector<int32_t>>{
           {0, 0, 1}, {0, 1, 0}, {0, 0}, {2, 3, 3}, {3, 2}, {2, 2, 3}, {1, 2}, {0, 3, 1}}) {
    corpus.AddDocument(bag);
  }
  DpMixtureOptions options;
  options.atom_concentration = 0.5;
  options.seed = 21;
  options.initial_components = 2;
  options.sample_alpha = sample_alpha;
  options.initial_alpha = initial_alpha;
  constexpr int kBurnIn = 1000, kSteps = 60000;
  constexpr int kMaxBin = 8;

  auto slice = DpSliceGibbs::Create(&corpus, options).value();
  CollapsedDpGibbs collapsed(&corpus, options);
  std::vector<int> slice_k, collapsed_k;
  for (int t = 0; t < kBurnIn + kSteps; ++t) {
    slice->Step();
    collapsed.Sweep();
    if (t < kBurnIn) continue;
    slice_k.push_back(slice->num_occupied());
    collapsed_k.push_back(collapsed.num_clusters());
  }
  // Bins 1.. : merge the sparse tail.
  std::vector<int> pooled(kMaxBin + 1, 0);
  for (int k : slice_k) ++pooled[std::min(k, kMaxBin)];
  for (int k : collapsed_k) ++pooled[std::min(k, kMaxBin)];
  int last_bin = kMaxBin;
  while (last_bin > 1 && pooled[last_bin] < 200) --last_bin;
  auto bin = [&](int k) { return std::min(k, last_bin); };

  double total_variation = 0;
  for (int b = 1; b <= last_bin; ++b) {
    std::vector<double> in_slice, in_collapsed;
    for (int k : slice_k) in_slice.push_back(bin(k) == b);
    for (int k : collapsed_k) in_collapsed.push_back(bin(k) == b);
    const double p_slice = std::accumulate(in_slice.begin(), in_slice.end(), 0.0) / kSteps;
    const double p_collapsed =
        std::accumulate(in_collapsed.begin(), in_collapsed.end(), 0.0) / kSteps;
    const double p = 0.5 * (p_slice + p_collapsed);
    const double ess_slice = eval::EffectiveSampleSize(in_slice);
    const double ess_collapsed = eval::EffectiveSampleSize(in_collapsed);
    const double se = std::sqrt(p * (1 - p) / ess_slice + p * (1 - p) / ess_collapsed);
    total_variation += 0.5 * std::abs(p_slice - p_collapsed);
    EXPECT_LT(std::abs(p_slice - p_collapsed), 5.3 * se)
        << "sample_alpha " << sample_alpha << ", K " << (b == last_bin ? ">= " : "") << b
        << ": slice " << p_slice << " (ESS "
        << ess_slice << "), collapsed " << p_collapsed << " (ESS " << ess_collapsed << ")";
  }
  std::cerr << "total variation between the K histograms (sample_alpha " << sample_alpha
            << "): " << total_variation << "\n";
}

TEST(DpSliceGibbsTest, ClusterCountPosteriorMatchesCollapsedGibbs) {
  ExpectClusterCountsMatch(/*sample_alpha=*/true, /*initial_alpha=*/1.0);
}

TEST(DpSliceGibbsTest, ClusterCountPosteriorMatchesCollapsedGibbsAtFixedAlpha) {
  ExpectClusterCountsMatch(/*sample_alpha=*/false, /*initial_alpha=*/0.7);
}

}  // namespace
}  // namespace sgmcmc::models
