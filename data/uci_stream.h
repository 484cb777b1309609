// UciMinibatchStream: minibatches of documents streamed from a UCI docword file on disk (or
// standard input), or from any DocumentReader (data/document_reader.h; raw text through
// data/text_stream.h), so a corpus larger than memory can be processed online (Hoffman et al. 2010 style; the SG-MCMC
// LDA of Patterson & Teh 2013, §5, streams Wikipedia the same way).
//
// Semantics: the source is read sequentially (for a docword file UciDocumentReader: same checks
// and errors as ReadUciCorpus), one pass after another (rewinding at the end, up to max_epochs passes, or
// forever). Documents pass through a shuffle buffer of shuffle_buffer_documents documents:
// each output document is drawn uniformly from the buffer (with the caller's engine) and its
// slot is refilled with the next document read, as in tf.data's shuffle. So every document
// is emitted exactly once per pass; with a buffer of at least D documents a single pass is a
// uniformly random permutation, with a buffer of 1 the order is the file's, and in between a
// document moves by about a buffer's length. Documents listed in excluded_documents (e.g. the
// held-out test documents) are read and checked but never emitted. Empty documents (docIDs
// without entries) are emitted like the in-memory reader keeps them.
//
// Checkpoints: state() is the stream's position (the ids in the buffer, the reader's place in
// the current pass, the counters); a stream opened on the same file with the same options and
// restored from it, driven by the caller's engine restored to the same position, yields
// bit-identical minibatches to the uninterrupted stream. Restore re-reads the buffered
// documents' tokens from the file (at most two passes over it).
//
// Memory: the buffer's documents plus O(W) plus D bits (the excluded ids); independent of N.
// Standard input ("-") streams one pass only (max_epochs = 1) and cannot be restored.
// Cost: parsing as ReadUciCorpus plus O(1) per document. Measured:
// data/uci_stream_benchmark.cc.
//
// Example:
//   UciStreamOptions options;
//   options.batch_size = 50;
//   options.excluded_documents = split_test_ids;
//   SGMCMC_ASSIGN_OR_RETURN(UciMinibatchStream stream,
//                           UciMinibatchStream::Open("docword.nytimes.txt.gz", options));
//   DocumentMinibatch batch;
//   while (true) {
//     SGMCMC_ASSIGN_OR_RETURN(const bool more, stream.Next(engine, &batch));
//     if (!more) break;
//     ... scale by stream.num_streamed_documents() / batch.ids.size() ...
//   }
//   // Checkpoint: save stream.state() and engine.position(); to resume, Open the same file
//   // with the same options, Restore(state) and Seek the engine.
#ifndef SGMCMC_DATA_UCI_STREAM_H_
#define SGMCMC_DATA_UCI_STREAM_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "base/check.h"
#include "data/document_reader.h"
#include "data/minibatch.h"
#include "data/uci_reader.h"
#include "rng/engine.h"

namespace sgmcmc::data {

struct UciStreamOptions {
  // Documents per minibatch; >= 1. Default 50.
  int batch_size = 50;
  // Documents held in the shuffle buffer; >= 1 (1 = file order). Default 1000.
  int shuffle_buffer_documents = 1000;
  // 0-based ids (docID - 1) never emitted; any order, duplicates allowed; each must be in
  // [0, D) (checked against the header by Open).
  std::vector<int> excluded_documents;
  // Passes over the file; >= 0, 0 = unlimited. Default 0.
  int max_epochs = 0;
  // Caps on the docword file's header and on its tokens per pass (data/uci_reader.h); raise
  // limits.max_tokens to stream a file of more than 2^32 tokens.
  UciLimits limits;

  absl::Status Validate() const;
};

class UciMinibatchStream {
 public:
  // Opens the docword file (kStandardInput "-" for standard input, which needs max_epochs =
  // 1) and reads its header. InvalidArgument naming the option or the file position.
  static absl::StatusOr<UciMinibatchStream> Open(const std::string& docword_path,
                                                 const UciStreamOptions& options);
  // Streams the documents of `reader` (not null); options.limits is not used.
  static absl::StatusOr<UciMinibatchStream> Open(std::unique_ptr<DocumentReader> reader,
                                                 const UciStreamOptions& options);

  // Fills *out with the next minibatch and returns true; `out->ids` are 0-based document ids
  // and `out->documents` their tokens (vocabulary empty). Every batch has batch_size documents
  // except possibly the last one before the stream ends (after max_epochs passes), which has
  // the rest; returns false once nothing is left. Malformed input is an error status naming
  // the file and line.
  absl::StatusOr<bool> Next(rng::Engine& engine, DocumentMinibatch* out);

  // Documents per minibatch from the next Next() on; >= 1 (CHECKed).
  void set_batch_size(int batch_size) {
    SGMCMC_CHECK(batch_size >= 1) << "UciMinibatchStream::set_batch_size: got " << batch_size;
    options_.batch_size = batch_size;
  }

  // The source (its D, V and path).
  const DocumentReader& reader() const { return *reader_; }
  // Documents emitted per pass: D minus the distinct excluded ids (the N of the N/n scaling).
  int num_streamed_documents() const { return num_streamed_documents_; }
  // Passes over the file finished by the reader (documents of a finished pass may still wait
  // in the buffer).
  int64_t passes_completed() const { return passes_completed_; }
  int64_t documents_emitted() const { return documents_emitted_; }

  // The stream's position, for checkpoints. Save the engine passed to Next() alongside.
  struct State {
    std::vector<int> buffer_ids;    // ids of the buffered documents, in buffer slot order
    int next_document = 0;          // UciDocumentReader::next_document() in the current pass
    int64_t passes_completed = 0;   // passes_completed()
    int64_t documents_emitted = 0;  // documents_emitted()
  };
  State state() const;
  // Resumes from `state`, saved by a stream on the same file with the same options: the next
  // Next() calls (with the engine restored as well) return what the saved stream's would
  // have. InvalidArgument naming the field if `state` cannot come from such a stream; read
  // errors as Next(). After an error the stream is unusable: open a new one.
  absl::Status Restore(const State& state);

 private:
  struct BufferedDocument {
    int id = 0;
    std::vector<int32_t> tokens;
  };

  UciMinibatchStream(std::unique_ptr<DocumentReader> reader, const UciStreamOptions& options,
                     std::vector<bool> excluded, int num_streamed_documents);
  // OK if `state` fits this file and these options.
  absl::Status ValidateState(const State& state) const;
  // Reads the next non-excluded document into *doc, rewinding between passes; false when the
  // last pass is over.
  absl::StatusOr<bool> ReadDocument(BufferedDocument* doc);

  std::unique_ptr<DocumentReader> reader_;
  UciStreamOptions options_;
  std::vector<bool> excluded_;
  int num_streamed_documents_;
  std::vector<BufferedDocument> buffer_;
  BufferedDocument incoming_;
  bool source_done_ = false;
  int64_t passes_completed_ = 0;
  int64_t documents_emitted_ = 0;
};

}  // namespace sgmcmc::data

#endif  // SGMCMC_DATA_UCI_STREAM_H_
