// DocumentReader: the interface of a sequential source of documents as word ids over a fixed
// vocabulary, read one document at a time and restartable, so that a corpus larger than
// memory can be streamed (data/uci_stream.h draws shuffled minibatches from any of them).
// Implementations: UciDocumentReader (a UCI docword file, plain or gzip, or standard input;
// data/uci_reader.h) and TextDocumentReader (raw text through the tokenizer with a fixed
// vocabulary; data/text_stream.h).
//
// Contract: Next() returns the documents 0, 1, ..., num_documents() - 1 in order, each once
// per pass, then false; Rewind() starts the next pass, which must return the same documents.
// Malformed input is an error status naming the file and line (or byte offset).
//
// Cost: a pass is O(bytes of the source); memory O(vocabulary + the largest document).
#ifndef SGMCMC_DATA_DOCUMENT_READER_H_
#define SGMCMC_DATA_DOCUMENT_READER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace sgmcmc::data {

class DocumentReader {
 public:
  virtual ~DocumentReader() = default;

  // Sets *document to the next document id and *tokens to its word ids (each in
  // [0, vocabulary_size())), and returns true; false after the last document of the pass.
  virtual absl::StatusOr<bool> Next(int* document, std::vector<int32_t>* tokens) = 0;
  // Restarts at document 0. FailedPrecondition for a source that cannot be re-read (standard
  // input).
  virtual absl::Status Rewind() = 0;

  // D, the documents of one pass.
  virtual int num_documents() const = 0;
  // V, the size of the vocabulary the word ids index.
  virtual int vocabulary_size() const = 0;
  // The id the next Next() returns (num_documents() once the pass is read).
  virtual int next_document() const = 0;
  // The source, for messages.
  virtual const std::string& path() const = 0;
};

}  // namespace sgmcmc::data

#endif  // SGMCMC_DATA_DOCUMENT_READER_H_
