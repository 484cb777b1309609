#include "eval/topic_columns.h"

#include <vector>

#include "gtest/gtest.h"
#include "rng/engine.h"
#include "rng/uniform.h"

namespace sgmcmc::eval {
namespace {

// Every copied entry is the matrix entry it stands for, for word counts around the tile width
// (0, 1, 7, 8, 9, 17) and K not a multiple of anything; the buffer's old contents do not leak.
TEST(TopicColumnsTest, GatherEqualsTheTransposeAtTheWords) {
  constexpr int K = 13, V = 40;
  rng::Engine engine(3);
  std::vector<double> topics(K * V);
  for (double& t : topics) t = rng::UniformDouble(engine);
  std::vector<double> out(5000, -1.0);
  for (int count : {0, 1, 7, 8, 9, 17}) {
    std::vector<int32_t> words;
    for (int i = 0; i < count; ++i) words.push_back((7 * i + 3) % V);
    GatherTopicColumns(topics, K, V, words, out);
    ASSERT_EQ(out.size(), static_cast<size_t>(count) * K);
    for (int i = 0; i < count; ++i) {
      for (int k = 0; k < K; ++k) {
        ASSERT_EQ(out[i * K + k], topics[k * V + words[i]]) << count << " " << i << " " << k;
      }
    }
  }
}

TEST(TopicColumnsTest, GatherIntoASpanEqualsGatherIntoAVector) {
  constexpr int K = 5, V = 11;
  std::vector<double> topics(K * V);
  for (int i = 0; i < K * V; ++i) topics[i] = 0.25 * i;
  const std::vector<int32_t> words = {10, 0, 3, 3, 7, 1, 2, 9, 4};
  std::vector<double> expected, out(words.size() * K, -1.0);
  GatherTopicColumns(topics, K, V, words, expected);
  GatherTopicColumns(topics, K, V, words, absl::MakeSpan(out));
  EXPECT_EQ(out, expected);
}

TEST(TopicColumnsTest, DistinctWordsAndLocalIds) {
  std::vector<int32_t> words = {9, 2, 9, 40, 2, 0};
  const std::vector<int32_t> distinct = DistinctWords(words);
  EXPECT_EQ(distinct, (std::vector<int32_t>{0, 2, 9, 40}));
  ToLocalIds(distinct, absl::MakeSpan(words));
  EXPECT_EQ(words, (std::vector<int32_t>{2, 1, 2, 3, 1, 0}));
}

TEST(TopicColumnsDeathTest, BadArgumentsDie) {
  std::vector<double> topics(6, 0.5), out;
  const std::vector<int32_t> outside = {3};
  EXPECT_DEATH(GatherTopicColumns(topics, 2, 3, outside, out), "outside \\[0, 3\\)");
  EXPECT_DEATH(GatherTopicColumns(topics, 2, 4, {}, out), "expected K x V = 2 x 4");
  std::vector<double> short_out(3);
  const std::vector<int32_t> two = {0, 2};
  EXPECT_DEATH(GatherTopicColumns(topics, 2, 3, two, absl::MakeSpan(short_out)),
               "out has 3 entries, expected \\|words\\| x K = 2 x 2");
  std::vector<int32_t> missing = {5};
  const std::vector<int32_t> distinct = {1, 2};
  EXPECT_DEATH(ToLocalIds(distinct, absl::MakeSpan(missing)), "not among the distinct words");
}

}  // namespace
}  // namespace sgmcmc::eval
