// Tokenizer: raw text -> lower-case alphabetic tokens, minus stop words.
//
// A candidate token is a maximal run of ASCII letters and non-ASCII bytes (every other byte
// - digits, punctuation, whitespace, control - separates tokens). A run containing a
// non-ASCII byte (accented or non-Latin text, or binary junk) is dropped whole rather than cut
// into misleading fragments; so are runs shorter than min_token_length or longer than
// max_token_length, and stop words (after lower-casing). Nothing is dropped silently: every
// drop is counted by reason in TokenCounts.
//
// Cost: one pass over the bytes plus one hash lookup per candidate token.
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(Tokenizer tokenizer, Tokenizer::Create(TokenizerOptions()));
//   std::vector<std::string> tokens;
//   TokenCounts counts;
//   tokenizer.Tokenize("The cat's 2 hats!", &tokens, &counts);  // {"cat", "hats"}
#ifndef SGMCMC_DATA_TOKENIZER_H_
#define SGMCMC_DATA_TOKENIZER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace sgmcmc::data {

struct TokenizerOptions {
  // Shortest token kept, in letters; >= 1. Default 2 (as scikit-learn's default pattern).
  int min_token_length = 2;
  // Longest token kept; >= min_token_length. Default 40 (longer runs are junk, e.g. base64).
  int max_token_length = 40;
  // Drop stop words. Default true.
  bool remove_stop_words = true;
  // File of stop words (one per line, lower-case; blank lines and lines starting with '#'
  // ignored). Empty (default): the built-in English list (data/english_stop_words.h).
  std::string stop_words_path;

  absl::Status Validate() const;
};

// Candidate tokens by fate. kept + stop_words + too_short + too_long + non_ascii = candidates.
struct TokenCounts {
  int64_t kept = 0;
  int64_t stop_words = 0;
  int64_t too_short = 0;
  int64_t too_long = 0;
  int64_t non_ascii = 0;

  int64_t candidates() const { return kept + stop_words + too_short + too_long + non_ascii; }
  void Add(const TokenCounts& other);
};

class Tokenizer {
 public:
  // InvalidArgument naming the option, or the stop-word file's error ("path: ...").
  static absl::StatusOr<Tokenizer> Create(const TokenizerOptions& options);

  // Calls emit(token) for every kept token of `text`, in order (the view is valid only during
  // the call), and adds the fates of all candidates to *counts.
  template <typename Emit>
  void ForEachToken(absl::string_view text, TokenCounts* counts, Emit emit) const;

  // Appends the kept tokens of `text` to *tokens.
  void Tokenize(absl::string_view text, std::vector<std::string>* tokens,
                TokenCounts* counts) const {
    ForEachToken(text, counts, [&](absl::string_view token) { tokens->emplace_back(token); });
  }

  bool IsStopWord(absl::string_view word) const { return stop_words_->contains(word); }
  int num_stop_words() const { return static_cast<int>(stop_words_->size()); }

 private:
  using StopWordSet = absl::flat_hash_set<std::string>;

  Tokenizer(const TokenizerOptions& options, std::shared_ptr<const StopWordSet> stop_words)
      : options_(options), stop_words_(std::move(stop_words)) {}

  static bool IsAsciiLetter(unsigned char c) { return ((c | 0x20) - 'a') < 26u; }

  TokenizerOptions options_;
  // Immutable and shared by copies; the built-in English list is built once per process.
  std::shared_ptr<const StopWordSet> stop_words_;
};

template <typename Emit>
void Tokenizer::ForEachToken(absl::string_view text, TokenCounts* counts, Emit emit) const {
  char buffer[64];  // the lower-cased token; Validate() keeps max_token_length <= 64
  const unsigned char* p = reinterpret_cast<const unsigned char*>(text.data());
  const unsigned char* const end = p + text.size();
  while (p < end) {
    if (!IsAsciiLetter(*p) && *p < 0x80) {
      ++p;
      continue;
    }
    const unsigned char* start = p;
    bool non_ascii = false;
    while (p < end && (IsAsciiLetter(*p) || *p >= 0x80)) non_ascii |= *p++ >= 0x80;
    const size_t length = p - start;
    if (non_ascii) {
      ++counts->non_ascii;
    } else if (length < static_cast<size_t>(options_.min_token_length)) {
      ++counts->too_short;
    } else if (length > static_cast<size_t>(options_.max_token_length)) {
      ++counts->too_long;
    } else {
      for (size_t i = 0; i < length; ++i) buffer[i] = static_cast<char>(start[i] | 0x20);
      const absl::string_view token(buffer, length);
      if (options_.remove_stop_words && IsStopWord(token)) {
        ++counts->stop_words;
      } else {
        ++counts->kept;
        emit(token);
      }
    }
  }
}

}  // namespace sgmcmc::data

#endif  // SGMCMC_DATA_TOKENIZER_H_
