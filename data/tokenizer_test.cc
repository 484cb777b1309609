#include "data/tokenizer.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/file_testing.h"

namespace sgmcmc::data {
namespace {

using ::sgmcmc::testing::WriteTestFile;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<std::string> Tokens(const Tokenizer& tokenizer, absl::string_view text,
                                TokenCounts* counts) {
  std::vector<std::string> tokens;
  tokenizer.Tokenize(text, &tokens, counts);
  return tokens;
}

TEST(TokenizerTest, LowerCaseAlphabeticRunsWithoutStopWords) {
  const absl::StatusOr<Tokenizer> tokenizer = Tokenizer::Create(TokenizerOptions());
  ASSERT_TRUE(tokenizer.ok()) << tokenizer.status();
  EXPECT_EQ(tokenizer->num_stop_words(), 318);
  TokenCounts counts;
  EXPECT_THAT(Tokens(*tokenizer, "The Cat's 2 HATS, mp3-players;\tx café end", &counts),
              ElementsAre("cat", "hats", "mp", "players", "end"));
  EXPECT_EQ(counts.kept, 5);
  EXPECT_EQ(counts.stop_words, 1);  // the
  EXPECT_EQ(counts.too_short, 2);   // s, x
  EXPECT_EQ(counts.non_ascii, 1);   // café
  EXPECT_EQ(counts.too_long, 0);
  EXPECT_EQ(counts.candidates(), 9);
}

TEST(TokenizerTest, LengthLimitsAndNoStopWordRemoval) {
  TokenizerOptions options;
  options.min_token_length = 1;
  options.max_token_length = 5;
  options.remove_stop_words = false;
  const absl::StatusOr<Tokenizer> tokenizer = Tokenizer::Create(options);
  ASSERT_TRUE(tokenizer.ok());
  TokenCounts counts;
  EXPECT_THAT(Tokens(*tokenizer, "a the abcdef abcde", &counts), ElementsAre("a", "the", "abcde"));
  EXPECT_EQ(counts.too_long, 1);
}

TEST(TokenizerTest, EmptyAndSeparatorOnlyText) {
  const absl::StatusOr<Tokenizer> tokenizer = Tokenizer::Create(TokenizerOptions());
  ASSERT_TRUE(tokenizer.ok());
  TokenCounts counts;
  EXPECT_TRUE(Tokens(*tokenizer, "", &counts).empty());
  EXPECT_TRUE(Tokens(*tokenizer, "123 -- !!", &counts).empty());
  EXPECT_EQ(counts.candidates(), 0);
}

TEST(TokenizerTest, StopWordFile) {
  TokenizerOptions options;
  options.stop_words_path = WriteTestFile("stop.txt", "# comment\nfoo\n\n  bar \n");
  const absl::StatusOr<Tokenizer> tokenizer = Tokenizer::Create(options);
  ASSERT_TRUE(tokenizer.ok()) << tokenizer.status();
  EXPECT_EQ(tokenizer->num_stop_words(), 2);
  TokenCounts counts;
  EXPECT_THAT(Tokens(*tokenizer, "Foo the BAR baz", &counts), ElementsAre("the", "baz"));
  EXPECT_EQ(counts.stop_words, 2);
}

TEST(TokenizerTest, BadStopWordFile) {
  TokenizerOptions options;
  options.stop_words_path = WriteTestFile("badstop.txt", "foo\nBar\n");
  const absl::StatusOr<Tokenizer> tokenizer = Tokenizer::Create(options);
  ASSERT_FALSE(tokenizer.ok());
  EXPECT_THAT(std::string(tokenizer.status().message()),
              HasSubstr(options.stop_words_path + ":2: a stop word must be lower-case ASCII"));
  options.stop_words_path = "/no/such/stop.txt";
  EXPECT_EQ(Tokenizer::Create(options).status().code(), absl::StatusCode::kNotFound);
}

TEST(TokenizerTest, OptionsValidate) {
  TokenizerOptions options;
  options.min_token_length = 0;
  EXPECT_THAT(std::string(options.Validate().message()),
              HasSubstr("min_token_length must be >= 1, got 0"));
  options.min_token_length = 3;
  options.max_token_length = 2;
  EXPECT_THAT(std::string(options.Validate().message()),
              HasSubstr("max_token_length must be in [min_token_length = 3, 64], got 2"));
  options.max_token_length = 65;
  EXPECT_FALSE(options.Validate().ok());
}

}  // namespace
}  // namespace sgmcmc::data
