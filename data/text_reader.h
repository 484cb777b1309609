// Raw text -> bag-of-words corpus: documents are the lines of a file or the files of a
// directory; the Tokenizer (data/tokenizer.h) makes lower-case alphabetic tokens without stop
// words; then the vocabulary is either built (words in at least min_document_frequency
// documents, at most max_vocabulary_size of them, the most frequent kept) or fixed by a file;
// documents left with fewer than min_document_tokens tokens are dropped. Every drop is
// counted in TextReadSummary (tokens by reason, documents), nothing silently.
//
// The built vocabulary is sorted alphabetically, so word ids do not depend on the input order;
// a fixed vocabulary keeps the file's order (word id = line). Tokens of a document keep their
// order in the text.
//
// Cost: one pass over the text (tokenizing, one hash lookup per token) + O(V log V) + O(N).
// Measured: data/text_reader_benchmark.cc.
// Memory: the corpus plus one hash map of the distinct words.
//
// Example:
//   TextCorpusOptions options;
//   options.min_document_frequency = 5;
//   TextReadSummary summary;
//   SGMCMC_ASSIGN_OR_RETURN(Corpus corpus, ReadTextCorpus("20news-bydate-train/", options,
//                                                        &summary));
//   std::cerr << summary.BriefReport() << "\n";
#ifndef SGMCMC_DATA_TEXT_READER_H_
#define SGMCMC_DATA_TEXT_READER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "data/corpus.h"
#include "data/tokenizer.h"

namespace sgmcmc::data {

struct TextCorpusOptions {
  // Tokenization and stop words (TokenizerOptions documents its fields).
  TokenizerOptions tokenizer;
  // Keep words occurring in at least this many documents; >= 1. Default 1. Must be 1 with
  // vocabulary_path.
  int min_document_frequency = 1;
  // Keep at most this many words: the most frequent by total count (ties: alphabetical);
  // >= 0, 0 = no cap. Default 0. Must be 0 with vocabulary_path.
  int max_vocabulary_size = 0;
  // A fixed vocabulary, one word per line (a UCI vocab file works; see ReadUciVocabulary);
  // tokens outside it are dropped. Empty (default): build the vocabulary from the text.
  std::string vocabulary_path;
  // Drop documents with fewer tokens than this after all filtering; >= 0 (0 keeps empty
  // documents). Default 1.
  int min_document_tokens = 1;

  absl::Status Validate() const;
};

struct TextReadSummary {
  int64_t documents_read = 0;     // lines or files
  int64_t documents_dropped = 0;  // fewer than min_document_tokens tokens
  int64_t documents_kept = 0;
  TokenCounts tokenizer;          // candidate tokens by fate in the tokenizer
  int64_t dropped_rare = 0;       // tokens of words below min_document_frequency
  int64_t dropped_by_cap = 0;     // tokens of words beyond max_vocabulary_size
  int64_t dropped_out_of_vocabulary = 0;  // tokens not in the fixed vocabulary
  int64_t dropped_in_dropped_documents = 0;  // tokens of dropped documents
  int64_t distinct_words = 0;     // distinct tokenizer outputs before vocabulary filtering
  int64_t tokens_kept = 0;        // = corpus.num_tokens()
  int vocabulary_size = 0;

  // Two lines: documents and tokens, with every drop by reason.
  std::string BriefReport() const;
};

// A fixed vocabulary file read once: its words (id = line - 1) and the id of every word.
struct FixedVocabulary {
  std::vector<std::string> words;
  absl::flat_hash_map<std::string, int32_t> ids;
};
// Reads `path` (one word per line, as ReadUciVocabulary); InvalidArgument "path:line: word
// 'w' appears twice" for a repeated word.
absl::StatusOr<FixedVocabulary> ReadFixedVocabulary(const std::string& path);

// One document per line of `path` (plain or gzip). `summary` may be null.
absl::StatusOr<Corpus> ReadTextLines(const std::string& path, const TextCorpusOptions& options,
                                     TextReadSummary* summary = nullptr);

// One document per file (plain or gzip), in the order given.
absl::StatusOr<Corpus> ReadTextFiles(const std::vector<std::string>& paths,
                                     const TextCorpusOptions& options,
                                     TextReadSummary* summary = nullptr);

// The regular files under `directory`, recursively, sorted by path. NotFound if it is not a
// directory.
absl::StatusOr<std::vector<std::string>> ListFilesRecursively(const std::string& directory);

// ReadTextFiles(ListFilesRecursively(path)) if `path` is a directory, else ReadTextLines.
absl::StatusOr<Corpus> ReadTextCorpus(const std::string& path, const TextCorpusOptions& options,
                                      TextReadSummary* summary = nullptr);

}  // namespace sgmcmc::data

#endif  // SGMCMC_DATA_TEXT_READER_H_
