#include "models/lda/topics.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace sgmcmc::models {
namespace {

TEST(SummarizeTopicsTest, TopWordsMassAndSparsity) {
  // V = 5. Topic 0: concentrated; topic 1: uniform; topic 2: ties broken by word id.
  const std::vector<double> topics = {
      0.0, 0.7, 0.25, 0.05, 0.0,  //
      0.2, 0.2, 0.2,  0.2,  0.2,  //
      0.5, 0.0, 0.0,  0.5,  0.0};
  const std::vector<TopicSummary> s = SummarizeTopics(topics, 3, 5, 3);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].top_words, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(s[0].top_probabilities, (std::vector<double>{0.7, 0.25, 0.05}));
  EXPECT_EQ(s[0].mass_90_words, 2);  // 0.7 + 0.25 >= 0.9
  EXPECT_DOUBLE_EQ(s[0].sparsity, 2.0 / 5);  // two exact zeros below 0.01 / 5
  EXPECT_EQ(s[1].top_words, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(s[1].mass_90_words, 5);
  EXPECT_EQ(s[1].sparsity, 0.0);
  EXPECT_EQ(s[2].top_words, (std::vector<int>{0, 3, 1}));
  EXPECT_EQ(s[2].mass_90_words, 2);
  EXPECT_DOUBLE_EQ(s[2].sparsity, 3.0 / 5);
}

// The summary reads a row sorted only as far as it needs: the same words, probabilities and
// mass_90_words as from the whole row sorted, for peaked rows (90% of the mass in a few words),
// flat rows (the prefix doubles up to most of V) and rows with ties and zeros.
TEST(SummarizeTopicsTest, SameAsSortingTheWholeRow) {
  constexpr int V = 5000, K = 4, kTop = 12;
  std::vector<double> topics(static_cast<size_t>(K) * V);
  uint64_t state = 12345;
  auto uniform = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) * 0x1.0p-53;
  };
  for (int w = 0; w < V; ++w) {
    topics[w] = std::pow(uniform(), 400.0);                   // peaked
    topics[V + w] = 1.0 + 0.01 * uniform();                   // flat
    topics[2 * V + w] = static_cast<double>(w % 7);           // ties and zeros
    topics[3 * V + w] = w < 300 ? uniform() : 1e-9 * uniform();  // mass in the first 300
  }
  for (int k = 0; k < K; ++k) {
    double sum = 0;
    for (int w = 0; w < V; ++w) sum += topics[k * V + w];
    for (int w = 0; w < V; ++w) topics[k * V + w] /= sum;
  }
  const std::vector<TopicSummary> s = SummarizeTopics(topics, K, V, kTop);
  for (int k = 0; k < K; ++k) {
    const double* row = topics.data() + static_cast<size_t>(k) * V;
    std::vector<int> order(V);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [row](int a, int b) { return row[a] != row[b] ? row[a] > row[b] : a < b; });
    double total = 0;
    for (int w = 0; w < V; ++w) total += row[w];
    int mass_90 = V;
    double mass = 0;
    for (int i = 0; i < V; ++i) {
      mass += row[order[i]];
      if (mass >= 0.9 * total) {
        mass_90 = i + 1;
        break;
      }
    }
    EXPECT_EQ(s[k].top_words, std::vector<int>(order.begin(), order.begin() + kTop)) << k;
    EXPECT_EQ(s[k].mass_90_words, mass_90) << k;
    for (int i = 0; i < kTop; ++i) EXPECT_EQ(s[k].top_probabilities[i], row[order[i]]);
  }
  EXPECT_LT(s[0].mass_90_words, 256);  // found in the first prefix
  EXPECT_GT(s[1].mass_90_words, 4000);  // found after several doublings
}

TEST(SummarizeTopicsTest, TopNCappedAtVocabulary) {
  const std::vector<double> topics = {0.4, 0.6};
  const std::vector<TopicSummary> s = SummarizeTopics(topics, 1, 2, 10);
  EXPECT_EQ(s[0].top_words, (std::vector<int>{1, 0}));
}

TEST(FormatTopicsTest, OneLinePerTopic) {
  const std::vector<double> topics = {0.9, 0.1, 0.0, 0.5, 0.5, 0.0};
  const std::vector<std::string> vocabulary = {"apple", "pear", "plum"};
  const std::string text = FormatTopics(SummarizeTopics(topics, 2, 3, 2), vocabulary);
  EXPECT_EQ(text,
            "topic 0 (90% mass in 1 words, sparsity 0.333): apple 0.9000 pear 0.1000\n"
            "topic 1 (90% mass in 2 words, sparsity 0.333): apple 0.5000 pear 0.5000\n");
}

TEST(SummarizeTopicsDeathTest, BadSizesDie) {
  const std::vector<double> topics = {0.5, 0.5, 1.0};
  EXPECT_DEATH(SummarizeTopics(topics, 2, 2, 1), "SummarizeTopics: topics has 3 values");
  EXPECT_DEATH(SummarizeTopics(topics, 1, 3, 0), "top_n must be >= 1");
}

}  // namespace
}  // namespace sgmcmc::models
