#include "eval/topic_recovery.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "data/topic_matrix.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rng/dirichlet.h"
#include "rng/engine.h"

namespace sgmcmc::eval {
namespace {

using ::testing::HasSubstr;

// K random topics over V words, Dir(0.1) rows.
std::vector<double> RandomTopics(int num_topics, int vocabulary_size, uint64_t seed) {
  rng::Engine engine(seed);
  const std::vector<double> alpha(vocabulary_size, 0.1);
  std::vector<double> topics(static_cast<size_t>(num_topics) * vocabulary_size);
  for (int k = 0; k < num_topics; ++k) {
    rng::DirichletSample(engine, alpha,
                         absl::MakeSpan(topics).subspan(k * vocabulary_size, vocabulary_size));
  }
  return topics;
}

// Rows of `topics` in the order perm: row k of the result is row perm[k].
std::vector<double> PermuteRows(const std::vector<double>& topics, const std::vector<int>& perm,
                                int vocabulary_size) {
  std::vector<double> out;
  for (int k : perm) {
    out.insert(out.end(), topics.begin() + k * vocabulary_size,
               topics.begin() + (k + 1) * vocabulary_size);
  }
  return out;
}

double DirectHellinger(const double* p, const double* q, int v) {
  double sum = 0;
  for (int w = 0; w < v; ++w) sum += std::pow(std::sqrt(p[w]) - std::sqrt(q[w]), 2);
  return std::sqrt(0.5 * sum);
}

TEST(TopicRecoveryTest, IdenticalTopicsScoreZero) {
  const int k = 12, v = 300;
  const std::vector<double> topics = RandomTopics(k, v, /*seed=*/1);
  absl::StatusOr<TopicRecovery> score = TopicRecoveryScore(topics, k, topics, k, v);
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_EQ(score->mean_hellinger, 0);
  EXPECT_EQ(score->mean_hellinger_over_true, 0);
  ASSERT_EQ(score->matches.size(), static_cast<size_t>(k));
  for (int i = 0; i < k; ++i) {
    EXPECT_EQ(score->matches[i].true_topic, i);
    EXPECT_EQ(score->matches[i].learned_topic, i);
    EXPECT_EQ(score->matches[i].hellinger, 0);
    EXPECT_EQ(score->learned_for_true[i], i);
  }
  EXPECT_EQ(score->unmatched_true_topics, 0);
  EXPECT_EQ(score->unmatched_learned_topics, 0);
}

// Learned row j is true row perm[j], so true topic perm[j] must be matched to learned j.
TEST(TopicRecoveryTest, PermutedTopicsScoreZeroAndRecoverThePermutation) {
  const int k = 20, v = 5000;  // V spans three word blocks, the last one partial
  const std::vector<double> truth = RandomTopics(k, v, /*seed=*/2);
  std::vector<int> perm(k);
  std::iota(perm.begin(), perm.end(), 0);
  std::reverse(perm.begin(), perm.begin() + 7);
  std::rotate(perm.begin() + 7, perm.begin() + 12, perm.end());
  const std::vector<double> learned = PermuteRows(truth, perm, v);
  absl::StatusOr<TopicRecovery> score = TopicRecoveryScore(truth, k, learned, k, v);
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_EQ(score->mean_hellinger, 0);
  for (int j = 0; j < k; ++j) EXPECT_EQ(score->learned_for_true[perm[j]], j) << j;
}

// By hand, V = 2: true T0 = (1, 0), T1 = (0.36, 0.64); learned L0 = (0.75, 0.25),
// L1 = (0, 1), L2 = (0.04, 0.96). With H² = 1 − Σ √(p q):
//   H(T0, L0) = √(1 − √0.75) = 0.36603,  H(T0, L1) = 1,  H(T0, L2) = √0.8 = 0.89443,
//   H(T1, L0) = √(1 − √0.27 − 0.4) = 0.28352,  H(T1, L1) = √0.2 = 0.44721,
//   H(T1, L2) = √(1 − 0.12 − √0.6144) = 0.31010.
// The cheapest pair is (T1, L0), but taking it forces T0 onto L2 (total 1.1780); the optimum
// is T0 -> L0, T1 -> L2 (total 0.67613), and L1 is left over.
TEST(TopicRecoveryTest, SmallCaseComputedByHand) {
  const std::vector<double> truth = {1, 0, 0.36, 0.64};
  const std::vector<double> learned = {0.75, 0.25, 0, 1, 0.04, 0.96};
  absl::StatusOr<TopicRecovery> score = TopicRecoveryScore(truth, 2, learned, 3, 2);
  ASSERT_TRUE(score.ok()) << score.status();
  const double h00 = std::sqrt(1 - std::sqrt(0.75));
  const double h12 = std::sqrt(1 - 0.12 - std::sqrt(0.6144));
  EXPECT_EQ(score->learned_for_true, (std::vector<int>{0, 2}));
  ASSERT_EQ(score->matches.size(), 2u);
  EXPECT_NEAR(score->matches[0].hellinger, h00, 1e-15);
  EXPECT_NEAR(score->matches[1].hellinger, h12, 1e-15);
  EXPECT_NEAR(score->mean_hellinger, (h00 + h12) / 2, 1e-15);
  EXPECT_NEAR(score->mean_hellinger, 0.338063727613902, 1e-14);
  EXPECT_EQ(score->unmatched_true_topics, 0);
  EXPECT_EQ(score->unmatched_learned_topics, 1);

  // The other way round: 3 true topics, 2 learned; true topic 1 is left over and counts 1
  // in mean_hellinger_over_true.
  score = TopicRecoveryScore(learned, 3, truth, 2, 2);
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_EQ(score->learned_for_true, (std::vector<int>{0, -1, 1}));
  EXPECT_NEAR(score->mean_hellinger, (h00 + h12) / 2, 1e-15);
  EXPECT_NEAR(score->mean_hellinger_over_true, (h00 + h12 + 1) / 3, 1e-15);
  EXPECT_EQ(score->unmatched_true_topics, 1);
  EXPECT_EQ(score->unmatched_learned_topics, 0);
}

TEST(TopicRecoveryTest, DisjointSupportsScoreOne) {
  const int v = 10;
  // True topics live on words 0-4, learned ones on words 5-9.
  std::vector<double> truth(2 * v, 0), learned(3 * v, 0);
  truth[0] = 0.5, truth[3] = 0.5, truth[v + 1] = 0.2, truth[v + 4] = 0.8;
  learned[5] = 1, learned[v + 6] = 0.3, learned[v + 9] = 0.7;
  for (int w = 5; w < v; ++w) learned[2 * v + w] = 0.2;
  absl::StatusOr<TopicRecovery> score = TopicRecoveryScore(truth, 2, learned, 3, v);
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_NEAR(score->mean_hellinger, 1, 1e-15);
  for (const TopicMatch& m : score->matches) EXPECT_NEAR(m.hellinger, 1, 1e-15);
}

// The least total of distances[t][l] over matchings of min(K_true, K_learned) pairs, by
// recursion over the true topics (each matched to an unused learned topic, or skipped while
// enough true topics remain to fill the matching).
double BestMatchingTotal(const std::vector<std::vector<double>>& distances, int t,
                         unsigned used, int pairs_left) {
  if (pairs_left == 0) return 0;
  const int kt = distances.size(), kl = distances[0].size();
  double best = std::numeric_limits<double>::infinity();
  if (kt - t > pairs_left) best = BestMatchingTotal(distances, t + 1, used, pairs_left);
  for (int l = 0; l < kl; ++l) {
    if (used & (1u << l)) continue;
    best = std::min(best, distances[t][l] + BestMatchingTotal(distances, t + 1, used | (1u << l),
                                                               pairs_left - 1));
  }
  return best;
}

// On random matrices (V over several blocks) the matching is optimal: its mean equals the
// best mean over all matchings, found by exhaustive search with directly computed distances.
TEST(TopicRecoveryTest, MatchesExhaustiveOptimum) {
  const int v = 4500;
  for (int kt = 1; kt <= 5; ++kt) {
    for (int kl = 1; kl <= 5; ++kl) {
      const std::vector<double> truth = RandomTopics(kt, v, 100 + kt * 10 + kl);
      const std::vector<double> learned = RandomTopics(kl, v, 200 + kt * 10 + kl);
      absl::StatusOr<TopicRecovery> score = TopicRecoveryScore(truth, kt, learned, kl, v);
      ASSERT_TRUE(score.ok()) << score.status();
      std::vector<std::vector<double>> distances(kt, std::vector<double>(kl));
      for (int t = 0; t < kt; ++t) {
        for (int l = 0; l < kl; ++l) {
          distances[t][l] = DirectHellinger(&truth[t * v], &learned[l * v], v);
        }
      }
      const int pairs = std::min(kt, kl);
      EXPECT_NEAR(score->mean_hellinger, BestMatchingTotal(distances, 0, 0, pairs) / pairs,
                  1e-12)
          << kt << " x " << kl;
      for (const TopicMatch& match : score->matches) {
        EXPECT_NEAR(match.hellinger, distances[match.true_topic][match.learned_topic], 1e-14);
      }
    }
  }
}

// Rows within the tolerance are divided by their sums: a row scaled by 1 + 1e-7 is at
// distance 0 from the original.
TEST(TopicRecoveryTest, NormalisesRowsWithinTolerance) {
  const std::vector<double> truth = {0.25, 0.75};
  const std::vector<double> learned = {0.25 * (1 + 1e-7), 0.75 * (1 + 1e-7)};
  absl::StatusOr<TopicRecovery> score = TopicRecoveryScore(truth, 1, learned, 1, 2);
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_NEAR(score->mean_hellinger, 0, 1e-15);
}

TEST(TopicRecoveryTest, RejectsBadInputNamingIt) {
  const std::vector<double> good = {0.5, 0.5, 0.25, 0.75};
  auto expect_error = [](absl::StatusOr<TopicRecovery> score, const std::string& text) {
    EXPECT_EQ(score.status().code(), absl::StatusCode::kInvalidArgument) << text;
    EXPECT_THAT(std::string(score.status().message()), HasSubstr(text));
  };
  expect_error(TopicRecoveryScore({0.5, std::nan(""), 0.25, 0.75}, 2, good, 2, 2),
               "true topics: topic 0, word 1: nan is not finite");
  expect_error(TopicRecoveryScore(good, 2, {0.5, 0.5, 1.25, -0.25}, 2, 2),
               "learned topics: topic 1, word 1: -0.25 is negative");
  expect_error(TopicRecoveryScore(good, 2, {0.5, 0.5, HUGE_VAL, 0}, 2, 2),
               "learned topics: topic 1, word 0: inf is not finite");
  expect_error(TopicRecoveryScore(good, 2, {0.5, 0.5, 0.25, 0.7}, 2, 2),
               "learned topics: topic 1 sums to 0.94999999999999996, not 1 within "
               "row_sum_tolerance 1e-06");
  expect_error(TopicRecoveryScore(good, 2, good, 2, 3),
               "true topics: 4 values, expected K x V = 2 x 3 = 6");
  expect_error(TopicRecoveryScore(good, 2, {0.5, 0.5, 0.25}, 2, 2),
               "learned topics: 3 values, expected K x V = 2 x 2 = 4");
  expect_error(TopicRecoveryScore(good, 0, good, 2, 2), "true topics: K = 0, V = 2");
  TopicRecoveryOptions options;
  options.row_sum_tolerance = -1;
  expect_error(TopicRecoveryScore(good, 2, good, 2, 2, options),
               "row_sum_tolerance = -1 not in [0, 0.5)");

  data::TopicMatrix truth{2, 2, 1, good};
  data::TopicMatrix learned{1, 4, 1, {0.25, 0.25, 0.25, 0.25}};
  expect_error(TopicRecoveryScore(truth, learned),
               "true topics have V = 2, learned topics V = 4");
  learned = truth;
  absl::StatusOr<TopicRecovery> score = TopicRecoveryScore(truth, learned);
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_EQ(score->mean_hellinger, 0);
}

}  // namespace
}  // namespace sgmcmc::eval
