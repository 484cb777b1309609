// Readers for the UCI "Bag of Words" format (docword + vocab files, plain or gzip).
//
// Format (https://archive.ics.uci.edu/dataset/164/bag+of+words, also data/kos/README.md):
//   docword.NAME.txt[.gz]: line 1 D (documents), line 2 W (vocabulary size), line 3 NNZ
//                          (entries), then NNZ lines "docID wordID count", 1-based ids,
//                          sorted by docID (then wordID).
//   vocab.NAME.txt:        W lines; line k is word k.
// ReadUciCorpus expands every entry into `count` tokens, in file order, and keeps documents
// without entries as empty documents so document d of the corpus is docID d + 1. Malformed
// input (bad header, ids out of range, non-numeric or missing fields, docIDs out of order,
// a (docID, wordID) pair repeated within a document, more or fewer than NNZ entries,
// a truncated gzip stream, a vocabulary of the wrong length) is an InvalidArgument or DataLoss
// status "path:line: what was expected, what was found". Nothing is dropped silently: entries
// with count 0 (which contribute no token), blank lines and empty documents are counted in
// UciReadSummary.
//
// UciDocumentReader reads a docword file one document at a time with the same checks; the
// in-memory reader and the streaming minibatch reader (//data:uci_stream) are built on it.
//
// Limits: a docword file cannot make a reader allocate without bound. The header's D, W and
// NNZ are checked against UciLimits before anything sized by them is allocated, and the
// running token total (the sum of the counts, per pass) against UciLimits::max_tokens as
// entries are read; exceeding one is InvalidArgument "path:line: ... UciLimits.<field> ...".
// Capacity reserved from the header is capped as well, so the memory in use grows with the
// tokens actually read, not with what the header promises.
//
// Cost: one pass, O(NNZ + N) time. Measured: data/uci_reader_benchmark.cc.
//
// Example:
//   UciReadSummary summary;
//   SGMCMC_ASSIGN_OR_RETURN(Corpus corpus,
//       ReadUciCorpus("docword.kos.txt.gz", "vocab.kos.txt", &summary));
//   std::cerr << summary.BriefReport() << "\n";
#ifndef SGMCMC_DATA_UCI_READER_H_
#define SGMCMC_DATA_UCI_READER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "data/corpus.h"
#include "data/document_reader.h"
#include "data/line_reader.h"

namespace sgmcmc::data {

// Caps on what a docword file may make the readers allocate. The defaults admit every UCI Bag
// of Words corpus with room to spare (the largest, PubMed: D = 8.2 M, W = 141 k, NNZ = 484 M,
// N = 730 M tokens) while keeping a three-line header from asking for many GB.
struct UciLimits {
  // Most tokens (sum of the counts) in one pass over a file, i.e. in a corpus read into
  // memory (4 bytes each); also the largest NNZ a header may declare. >= 1. Default 2^32.
  int64_t max_tokens = int64_t{1} << 32;
  // Largest D a header may declare (8 bytes of document offsets each in memory). >= 0.
  // Default 2^27.
  int max_documents = 1 << 27;
  // Largest W a header may declare (4 bytes each in every reader). >= 1. Default 2^25.
  int max_vocabulary_size = 1 << 25;

  // InvalidArgument naming the field if a value is out of range.
  absl::Status Validate() const;
};

// What a read found, for the log. Every field is filled by ReadUciCorpus.
struct UciReadSummary {
  std::string docword_path;
  std::string vocab_path;
  int num_documents = 0;           // D from the header (documents, empty ones included)
  int vocabulary_size = 0;         // W from the header
  int64_t num_entries = 0;         // NNZ from the header (= entries read)
  int64_t num_tokens = 0;          // sum of the counts
  int num_empty_documents = 0;     // docIDs in [1, D] with no token (kept, empty)
  int64_t num_zero_count_entries = 0;  // entries "d w 0": valid, but contribute no token
  int64_t num_blank_lines = 0;     // blank lines skipped (docword and vocab)
  int64_t uncompressed_bytes = 0;  // bytes of docword text parsed
  double seconds = 0;              // wall time of the read

  // One line: "path: D documents (e empty), W words, NNZ entries, N tokens, ... in s".
  std::string BriefReport() const;
};

// Reads a docword file (plain or gzip) and its vocabulary file into a corpus. `summary` may
// be null.
absl::StatusOr<Corpus> ReadUciCorpus(const std::string& docword_path,
                                     const std::string& vocab_path,
                                     UciReadSummary* summary = nullptr,
                                     const UciLimits& limits = UciLimits());

// Reads a vocabulary file: one word per line, surrounding whitespace stripped; trailing blank
// lines are ignored (counted in *num_blank_lines if given). A blank line before the last word
// is an error (it would shift every later word id). `expected_size` >= 0 requires exactly
// that many words ("path: has 6905 words, the docword header says W = 6906"); -1 accepts any.
absl::StatusOr<std::vector<std::string>> ReadUciVocabulary(const std::string& path,
                                                           int expected_size = -1,
                                                           int64_t* num_blank_lines = nullptr);

// The three header lines of a docword file.
struct UciHeader {
  int num_documents = 0;    // D >= 0
  int vocabulary_size = 0;  // W >= 1
  int64_t num_entries = 0;  // NNZ >= 0
};

// One entry line, with 0-based ids.
struct UciEntry {
  int document = 0;  // docID - 1, in [0, D)
  int word = 0;      // wordID - 1, in [0, W)
  int64_t count = 0;  // >= 0
};

// Reads the three header lines from a reader positioned at the start of a docword file and
// checks D, W and NNZ against `limits`.
absl::StatusOr<UciHeader> ReadUciHeader(LineReader& reader,
                                        const UciLimits& limits = UciLimits());

// Parses `line` (the line last returned by `reader`, used for the error position) as an
// entry "docID wordID count" valid for `header`. Does not check the order of entries.
absl::Status ParseUciEntry(const LineReader& reader, absl::string_view line,
                           const UciHeader& header, UciEntry* entry);

// True if `line` holds only spaces, tabs or carriage returns.
bool IsBlankLine(absl::string_view line);

// Reads a docword file document by document, in docID order, with every check of
// ReadUciCorpus; memory O(W + the largest document).
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(UciDocumentReader reader, UciDocumentReader::Open(path));
//   int d;
//   std::vector<int32_t> tokens;
//   while (true) {
//     SGMCMC_ASSIGN_OR_RETURN(const bool more, reader.Next(&d, &tokens));
//     if (!more) break;
//     ...
//   }
class UciDocumentReader final : public DocumentReader {
 public:
  // Opens the file and reads its header; InvalidArgument for invalid `limits` or a header
  // beyond them.
  static absl::StatusOr<UciDocumentReader> Open(const std::string& docword_path,
                                                const UciLimits& limits = UciLimits());

  // Sets *document to the next document id (0, 1, ..., D - 1: documents without entries come
  // as empty documents) and *tokens to its tokens (counts expanded, in file order); returns
  // true. After document D - 1 returns false, once the file is checked to end after exactly
  // NNZ entries. Malformed input, or more than UciLimits::max_tokens tokens in the pass:
  // InvalidArgument / DataLoss "path:line: ...".
  absl::StatusOr<bool> Next(int* document, std::vector<int32_t>* tokens) override;

  // Restarts at document 0 (re-reading the header, which must not have changed). The
  // counters below keep accumulating.
  absl::Status Rewind() override;

  const UciHeader& header() const { return header_; }
  const std::string& path() const override { return reader_.path(); }
  int num_documents() const override { return header_.num_documents; }
  int vocabulary_size() const override { return header_.vocabulary_size; }
  // The id the next Next() returns: the documents [0, next_document()) of the current pass
  // have been read (D once they all have).
  int next_document() const override { return next_document_; }
  int64_t num_blank_lines() const { return num_blank_lines_; }
  int64_t num_zero_count_entries() const { return num_zero_count_entries_; }
  // Uncompressed bytes parsed in the current pass.
  int64_t bytes_consumed() const { return reader_.bytes_consumed(); }

 private:
  UciDocumentReader(LineReader reader, const UciHeader& header, const UciLimits& limits);
  // Reads the next entry into pending_; false at the end of the file (after checking that
  // NNZ entries were read).
  absl::StatusOr<bool> ReadEntry();

  LineReader reader_;
  UciHeader header_;
  UciLimits limits_;
  std::vector<int> last_document_of_word_;  // for repeated (docID, wordID) pairs
  UciEntry pending_;
  bool has_pending_ = false;
  bool at_end_ = false;        // the file has been read to its end
  int next_document_ = 0;
  int last_document_seen_ = 0;
  int64_t entries_read_ = 0;
  int64_t tokens_read_ = 0;  // in the current pass
  int64_t num_blank_lines_ = 0;
  int64_t num_zero_count_entries_ = 0;
};

}  // namespace sgmcmc::data

#endif  // SGMCMC_DATA_UCI_READER_H_
