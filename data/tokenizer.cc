#include "data/tokenizer.h"

#include <memory>
#include <string>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "data/english_stop_words.h"
#include "data/line_reader.h"

namespace sgmcmc::data {

absl::Status TokenizerOptions::Validate() const {
  if (min_token_length < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("TokenizerOptions.min_token_length must be >= 1, got ", min_token_length));
  }
  if (max_token_length < min_token_length || max_token_length > 64) {
    return absl::InvalidArgumentError(absl::StrCat(
        "TokenizerOptions.max_token_length must be in [min_token_length = ", min_token_length,
        ", 64], got ", max_token_length));
  }
  return absl::OkStatus();
}

void TokenCounts::Add(const TokenCounts& other) {
  kept += other.kept;
  stop_words += other.stop_words;
  too_short += other.too_short;
  too_long += other.too_long;
  non_ascii += other.non_ascii;
}

absl::StatusOr<Tokenizer> Tokenizer::Create(const TokenizerOptions& options) {
  SGMCMC_RETURN_IF_ERROR(options.Validate());
  if (options.stop_words_path.empty()) {
    // Built on first use (thread-safe static initialisation) and shared by every tokenizer.
    static const auto* const kEnglish = new std::shared_ptr<const StopWordSet>(
        std::make_shared<const StopWordSet>(EnglishStopWords().begin(), EnglishStopWords().end()));
    return Tokenizer(options, *kEnglish);
  }
  auto stop_words = std::make_shared<StopWordSet>();
  SGMCMC_ASSIGN_OR_RETURN(LineReader reader, LineReader::Open(options.stop_words_path));
  absl::string_view line;
  while (reader.Next(&line)) {
    const absl::string_view word = absl::StripAsciiWhitespace(line);
    if (word.empty() || word[0] == '#') continue;
    for (char c : word) {
      if (!IsAsciiLetter(static_cast<unsigned char>(c)) || absl::ascii_isupper(c)) {
        return reader.Error(absl::StrCat(
            "a stop word must be lower-case ASCII letters (tokens never contain anything "
            "else), got '",
            word, "'"));
      }
    }
    stop_words->insert(std::string(word));
  }
  SGMCMC_RETURN_IF_ERROR(reader.status());
  return Tokenizer(options, std::move(stop_words));
}

}  // namespace sgmcmc::data
