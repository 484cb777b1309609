// The built-in English stop-word list of the text tokenizer: the 318 words of
// data/english_stop_words.txt (scikit-learn's ENGLISH_STOP_WORDS, from the Glasgow
// Information Retrieval Group's list; BSD-3-Clause), compiled in by a genrule so no runtime
// file is needed.
//
// Cost: a static array; no initialisation.
//
// Example:
//   for (const char* word : EnglishStopWords()) stop_words.insert(word);
#ifndef SGMCMC_DATA_ENGLISH_STOP_WORDS_H_
#define SGMCMC_DATA_ENGLISH_STOP_WORDS_H_

#include "absl/types/span.h"

namespace sgmcmc::data {

// The words, lower-case, sorted.
absl::Span<const char* const> EnglishStopWords();

}  // namespace sgmcmc::data

#endif  // SGMCMC_DATA_ENGLISH_STOP_WORDS_H_
