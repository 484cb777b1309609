// Fuzz target: the tokenizer (data/tokenizer.h) and its stop-word file. The first byte picks
// the options (token lengths, stop words on or off, the stop words read from the input
// itself); the rest is the text. Contract: Create fails with an error naming the stop-word
// file or succeeds; the tokens equal those of a direct transcription of the documented rule
// (maximal runs of ASCII letters and non-ASCII bytes; runs with a non-ASCII byte, too short,
// too long or stop words dropped; lower-cased) and every drop is counted by its reason.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "base/check.h"
#include "data/tokenizer.h"
#include "fuzz/fuzz_support.h"

namespace sgmcmc::fuzz {
namespace {

void FuzzOne(uint8_t mode, absl::string_view text) {
  static ScratchFile* stop_words_file = new ScratchFile("stop_words.txt");
  data::TokenizerOptions options;
  options.min_token_length = 1 + (mode & 3);
  options.max_token_length = options.min_token_length + ((mode >> 2) & 7) * 5;
  options.remove_stop_words = (mode & 0x20) != 0;
  if (mode & 0x40) options.stop_words_path = stop_words_file->Write(text);
  absl::StatusOr<data::Tokenizer> tokenizer = data::Tokenizer::Create(options);
  if (!tokenizer.ok()) {
    SGMCMC_CHECK(!options.stop_words_path.empty()) << tokenizer.status();
    CheckInputError(tokenizer.status(), options.stop_words_path);
    return;
  }
  std::vector<std::string> tokens;
  data::TokenCounts counts;
  tokenizer->Tokenize(text, &tokens, &counts);

  // The documented rule, written out directly.
  std::vector<std::string> expected;
  data::TokenCounts expected_counts;
  size_t i = 0;
  const auto in_run = [&](size_t k) {
    const unsigned char c = static_cast<unsigned char>(text[k]);
    return absl::ascii_isalpha(c) || c >= 0x80;
  };
  while (i < text.size()) {
    if (!in_run(i)) {
      ++i;
      continue;
    }
    size_t j = i;
    bool non_ascii = false;
    while (j < text.size() && in_run(j)) non_ascii |= static_cast<unsigned char>(text[j++]) >= 0x80;
    const std::string run = absl::AsciiStrToLower(text.substr(i, j - i));
    i = j;
    if (non_ascii) {
      ++expected_counts.non_ascii;
    } else if (static_cast<int>(run.size()) < options.min_token_length) {
      ++expected_counts.too_short;
    } else if (static_cast<int>(run.size()) > options.max_token_length) {
      ++expected_counts.too_long;
    } else if (options.remove_stop_words && tokenizer->IsStopWord(run)) {
      ++expected_counts.stop_words;
    } else {
      ++expected_counts.kept;
      expected.push_back(run);
    }
  }
  SGMCMC_CHECK(tokens == expected) << tokens.size() << " tokens, expected " << expected.size();
  SGMCMC_CHECK_EQ(counts.kept, expected_counts.kept);
  SGMCMC_CHECK_EQ(counts.non_ascii, expected_counts.non_ascii);
  SGMCMC_CHECK_EQ(counts.too_short, expected_counts.too_short);
  SGMCMC_CHECK_EQ(counts.too_long, expected_counts.too_long);
  SGMCMC_CHECK_EQ(counts.stop_words, expected_counts.stop_words);
}

}  // namespace
}  // namespace sgmcmc::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  sgmcmc::fuzz::FuzzOne(data[0], sgmcmc::fuzz::AsText(data + 1, size - 1));
  return 0;
}
