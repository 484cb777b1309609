#include "models/lda/topics.h"

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
