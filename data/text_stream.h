// TextDocumentReader: raw text read one document at a time through the tokenizer
// (data/tokenizer.h) with a fixed vocabulary, as a DocumentReader (data/document_reader.h),
// so data/uci_stream.h can stream a text corpus larger than memory into online LDA
// (Patterson & Teh 2013, §5: Wikipedia articles over a fixed vocabulary).
//
// The source is a file with one document per line (plain or gzip) or a directory with one
// document per regular file (recursively, sorted by path; lines of a file are tokenized
// separately), as ReadTextCorpus reads them; every line or file is a document, one with no
// token of the vocabulary included (an empty document), so document ids are line or file
// numbers. Tokens outside the vocabulary are dropped and counted.
//
// Cost: Open counts the documents (one pass over a file's lines; a directory listing);
// a pass is O(bytes) of tokenization plus one hash lookup per token. Memory: the vocabulary
// and one document (one line, or one file).
//
// Example:
//   TextCorpusOptions options;
//   options.vocabulary_path = "vocab.txt";
//   SGMCMC_ASSIGN_OR_RETURN(std::unique_ptr<TextDocumentReader> reader,
//                           TextDocumentReader::Open("articles.txt.gz", options));
//   SGMCMC_ASSIGN_OR_RETURN(UciMinibatchStream stream,
//                           UciMinibatchStream::Open(std::move(reader), stream_options));
#ifndef SGMCMC_DATA_TEXT_STREAM_H_
#define SGMCMC_DATA_TEXT_STREAM_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "data/document_reader.h"
#include "data/line_reader.h"
#include "data/text_reader.h"
#include "data/tokenizer.h"

namespace sgmcmc::data {

class TextDocumentReader final : public DocumentReader {
 public:
  // `path`: a text file (one document per line) or a directory (one per file). `options`
  // must name vocabulary_path (the fixed vocabulary, one word per line); its
  // min_document_tokens is ignored (every line or file is a document). InvalidArgument
  // naming the option, NotFound for a path that cannot be opened; standard input is not a
  // text source (its documents cannot be counted before streaming: convert it to UCI).
  static absl::StatusOr<std::unique_ptr<TextDocumentReader>> Open(
      const std::string& path, const TextCorpusOptions& options);

  absl::StatusOr<bool> Next(int* document, std::vector<int32_t>* tokens) override;
  absl::Status Rewind() override;
  int num_documents() const override { return num_documents_; }
  int vocabulary_size() const override { return static_cast<int>(vocabulary_.words.size()); }
  int next_document() const override { return next_document_; }
  const std::string& path() const override { return path_; }

  const std::vector<std::string>& vocabulary() const { return vocabulary_.words; }
  // Tokens of the vocabulary emitted, and tokenizer outputs outside it, over all passes.
  int64_t tokens_kept() const { return tokens_kept_; }
  int64_t tokens_out_of_vocabulary() const { return tokens_out_of_vocabulary_; }

 private:
  TextDocumentReader(std::string path, Tokenizer tokenizer, FixedVocabulary vocabulary,
                     std::vector<std::string> files, std::optional<LineReader> lines,
                     int num_documents);
  // Appends the vocabulary ids of the tokens of `text` to *tokens.
  void AddText(absl::string_view text, std::vector<int32_t>* tokens);

  std::string path_;
  Tokenizer tokenizer_;
  FixedVocabulary vocabulary_;
  std::vector<std::string> files_;   // a directory's files; empty for a file of lines
  std::optional<LineReader> lines_;  // a file of lines
  int num_documents_ = 0;
  int next_document_ = 0;
  int64_t tokens_kept_ = 0;
  int64_t tokens_out_of_vocabulary_ = 0;
  TokenCounts token_counts_;
};

}  // namespace sgmcmc::data

#endif  // SGMCMC_DATA_TEXT_STREAM_H_
