#include "data/english_stop_words.h"

#include <algorithm>
#include <string>

#include "gtest/gtest.h"

namespace sgmcmc::data {
namespace {

TEST(EnglishStopWordsTest, TheWholeListSortedAndLowerCase) {
  const absl::Span<const char* const> words = EnglishStopWords();
  ASSERT_EQ(words.size(), 318u);
  EXPECT_EQ(std::string(words.front()), "a");
  EXPECT_EQ(std::string(words.back()), "yourselves");
  for (size_t i = 1; i < words.size(); ++i) {
    EXPECT_LT(std::string(words[i - 1]), std::string(words[i]));
  }
  for (const char* word : words) {
    for (const char* c = word; *c != '\0'; ++c) EXPECT_TRUE(*c >= 'a' && *c <= 'z') << word;
  }
  auto contains = [&](const std::string& w) {
    return std::binary_search(words.begin(), words.end(), w,
                              [](const auto& a, const auto& b) { return std::string(a) < std::string(b); });
  };
  EXPECT_TRUE(contains("the"));
  EXPECT_TRUE(contains("because"));
  EXPECT_FALSE(contains("topic"));
}

}  // namespace
}  // namespace sgmcmc::data
