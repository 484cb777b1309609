// WriteUciCorpus: writes a corpus in the UCI "Bag of Words" format (see data/uci_reader.h).
// UciDocwordWriter: writes a docword file one document at a time, for corpora that are never
// held in memory (tools/lda_generate_corpus.cc).
//
// Each document's tokens are counted per word and written as "docID wordID count" lines sorted
// by docID then wordID (1-based ids), as the format requires; empty documents have no lines
// but count in D. Reading the files back with ReadUciCorpus gives the same documents with each
// document's tokens grouped by ascending word id (so a corpus read from a UCI file survives
// a write/read round trip unchanged). A docword path ending in ".gz" is gzip-compressed.
//
// Cost: O(N log n_d) (a sort of each document's word ids) plus the output size; the
// streaming writer O(1) memory (a 1 MiB buffer) and the output size.
//
// Example:
//   SGMCMC_RETURN_IF_ERROR(WriteUciCorpus(corpus, "docword.ap.txt.gz", "vocab.ap.txt"));
//
//   SGMCMC_ASSIGN_OR_RETURN(auto writer, UciDocwordWriter::Open("d.txt.gz", D, W, nnz));
//   for (...) writer->AddDocument(entries);  // D times, nnz entries in all
//   SGMCMC_RETURN_IF_ERROR(writer->Close());
#ifndef SGMCMC_DATA_UCI_WRITER_H_
#define SGMCMC_DATA_UCI_WRITER_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "data/corpus.h"

namespace sgmcmc::data {

// Writes `corpus` (which must pass Corpus::Validate()) to `docword_path` and its vocabulary,
// one word per line, to `vocab_path`. Fails with the path on an I/O error.
absl::Status WriteUciCorpus(const Corpus& corpus, const std::string& docword_path,
                            const std::string& vocab_path);

// One line of a docword file: a word (0-based here, written 1-based) and its count.
struct WordCount {
  int32_t word = 0;
  int32_t count = 0;

  bool operator==(const WordCount& other) const {
    return word == other.word && count == other.count;
  }
  bool operator!=(const WordCount& other) const { return !(*this == other); }
};

// A docword file written document by document. The header (D, W, NNZ) comes first in the
// format, so the caller must know it before the documents (e.g. from a first pass over
// counter-based random streams); Close() checks that exactly D documents with NNZ entries in
// all were added, so a wrong header is an error, never a silently inconsistent file.
class UciDocwordWriter {
 public:
  // Opens `path` for writing (gzip if it ends in ".gz") and writes the header. D >= 0,
  // W >= 1 and NNZ >= 0, else InvalidArgument; PermissionDenied naming the path if it cannot
  // be opened.
  static absl::StatusOr<std::unique_ptr<UciDocwordWriter>> Open(const std::string& path,
                                                                int64_t num_documents,
                                                                int32_t vocabulary_size,
                                                                int64_t num_entries);
  ~UciDocwordWriter();
  UciDocwordWriter(const UciDocwordWriter&) = delete;
  UciDocwordWriter& operator=(const UciDocwordWriter&) = delete;

  // Appends the next document (docID = number of documents added so far + 1). Entries must
  // have strictly ascending words in [0, W) and counts >= 1 (checked: a caller's bug); an
  // empty span is an empty document (no lines).
  void AddDocument(absl::Span<const WordCount> entries);

  // Flushes and closes. DataLoss naming the path on a write error; FailedPrecondition if the
  // documents or entries added differ from the header's D and NNZ.
  absl::Status Close();

  // Bytes of text written so far (before compression), header included.
  int64_t text_bytes() const { return text_bytes_; }

 private:
  class Output;
  UciDocwordWriter(std::unique_ptr<Output> output, int64_t num_documents,
                   int32_t vocabulary_size, int64_t num_entries);

  std::unique_ptr<Output> output_;
  int64_t num_documents_, num_entries_;
  int32_t vocabulary_size_;
  int64_t documents_added_ = 0, entries_added_ = 0, text_bytes_ = 0;
  std::string line_buffer_;
};

}  // namespace sgmcmc::data

#endif  // SGMCMC_DATA_UCI_WRITER_H_
