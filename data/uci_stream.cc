#include "data/uci_stream.h"

#include <algorithm>
#include <numeric>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "base/status_macros.h"
#include "data/line_reader.h"
#include "rng/uniform.h"

namespace sgmcmc::data {

absl::Status UciStreamOptions::Validate() const {
  if (batch_size < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("UciStreamOptions.batch_size must be >= 1, got ", batch_size));
  }
  if (shuffle_buffer_documents < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "UciStreamOptions.shuffle_buffer_documents must be >= 1, got ",
        shuffle_buffer_documents));
  }
  if (max_epochs < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("UciStreamOptions.max_epochs must be >= 0, got ", max_epochs));
  }
  return absl::OkStatus();
}

absl::StatusOr<UciMinibatchStream> UciMinibatchStream::Open(const std::string& docword_path,
                                                            const UciStreamOptions& options) {
  SGMCMC_RETURN_IF_ERROR(options.Validate());
  SGMCMC_ASSIGN_OR_RETURN(UciDocumentReader reader,
                          UciDocumentReader::Open(docword_path, options.limits));
  return Open(std::make_unique<UciDocumentReader>(std::move(reader)), options);
}

absl::StatusOr<UciMinibatchStream> UciMinibatchStream::Open(
    std::unique_ptr<DocumentReader> reader, const UciStreamOptions& options) {
  SGMCMC_CHECK(reader != nullptr) << "UciMinibatchStream::Open: null reader";
  SGMCMC_RETURN_IF_ERROR(options.Validate());
  const std::string& docword_path = reader->path();
  if (docword_path == kStandardInput && options.max_epochs != 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "UciStreamOptions.max_epochs must be 1 for standard input (it cannot be rewound), got ",
        options.max_epochs));
  }
  const int num_documents = reader->num_documents();
  std::vector<bool> excluded(num_documents, false);
  int num_excluded = 0;
  for (int id : options.excluded_documents) {
    if (id < 0 || id >= num_documents) {
      return absl::InvalidArgumentError(absl::StrCat(
          "UciStreamOptions.excluded_documents: id ", id, " is outside [0, D = ", num_documents,
          ") of ", docword_path));
    }
    if (!excluded[id]) ++num_excluded;
    excluded[id] = true;
  }
  if (num_excluded == num_documents) {
    return absl::InvalidArgumentError(
        absl::StrCat(docword_path, ": every document is excluded; nothing to stream"));
  }
  return UciMinibatchStream(std::move(reader), options, std::move(excluded),
                            num_documents - num_excluded);
}

UciMinibatchStream::UciMinibatchStream(std::unique_ptr<DocumentReader> reader,
                                       const UciStreamOptions& options,
                                       std::vector<bool> excluded, int num_streamed_documents)
    : reader_(std::move(reader)),
      options_(options),
      excluded_(std::move(excluded)),
      num_streamed_documents_(num_streamed_documents) {
  options_.excluded_documents.clear();  // kept as the bitmap
  buffer_.reserve(options_.shuffle_buffer_documents);
}

absl::StatusOr<bool> UciMinibatchStream::ReadDocument(BufferedDocument* doc) {
  while (!source_done_) {
    SGMCMC_ASSIGN_OR_RETURN(const bool more, reader_->Next(&doc->id, &doc->tokens));
    if (!more) {
      ++passes_completed_;
      if (options_.max_epochs > 0 && passes_completed_ >= options_.max_epochs) {
        source_done_ = true;
        break;
      }
      SGMCMC_RETURN_IF_ERROR(reader_->Rewind());
      continue;
    }
    if (!excluded_[doc->id]) return true;
  }
  return false;
}

absl::StatusOr<bool> UciMinibatchStream::Next(rng::Engine& engine, DocumentMinibatch* out) {
  out->ids.clear();
  Corpus& documents = out->documents;
  documents.vocabulary.clear();
  documents.tokens.clear();
  documents.doc_offsets.assign(1, 0);
  while (static_cast<int>(out->ids.size()) < options_.batch_size) {
    // Top the buffer up, then emit a uniformly chosen document and refill its slot.
    while (static_cast<int>(buffer_.size()) < options_.shuffle_buffer_documents) {
      SGMCMC_ASSIGN_OR_RETURN(const bool read, ReadDocument(&incoming_));
      if (!read) break;
      buffer_.push_back(std::move(incoming_));
      incoming_ = BufferedDocument();
    }
    if (buffer_.empty()) break;
    const size_t j = static_cast<size_t>(rng::UniformInt(engine, buffer_.size()));
    BufferedDocument& chosen = buffer_[j];
    out->ids.push_back(chosen.id);
    documents.tokens.insert(documents.tokens.end(), chosen.tokens.begin(), chosen.tokens.end());
    documents.doc_offsets.push_back(documents.num_tokens());
    ++documents_emitted_;
    // Refill the slot from the file, or close the gap once the file is exhausted.
    SGMCMC_ASSIGN_OR_RETURN(const bool read, ReadDocument(&incoming_));
    if (read) {
      std::swap(chosen, incoming_);
    } else {
      std::swap(chosen, buffer_.back());
      buffer_.pop_back();
    }
  }
  return !out->ids.empty();
}

UciMinibatchStream::State UciMinibatchStream::state() const {
  State state;
  state.buffer_ids.reserve(buffer_.size());
  for (const BufferedDocument& doc : buffer_) state.buffer_ids.push_back(doc.id);
  state.next_document = reader_->next_document();
  state.passes_completed = passes_completed_;
  state.documents_emitted = documents_emitted_;
  return state;
}

absl::Status UciMinibatchStream::ValidateState(const State& state) const {
  const int num_documents = reader_->num_documents();
  if (static_cast<int64_t>(state.buffer_ids.size()) > options_.shuffle_buffer_documents) {
    return absl::InvalidArgumentError(absl::StrCat(
        "UciMinibatchStream::Restore: State.buffer_ids has ", state.buffer_ids.size(),
        " ids, more than shuffle_buffer_documents = ", options_.shuffle_buffer_documents));
  }
  for (size_t i = 0; i < state.buffer_ids.size(); ++i) {
    const int id = state.buffer_ids[i];
    if (id < 0 || id >= num_documents || excluded_[id]) {
      return absl::InvalidArgumentError(
          absl::StrCat("UciMinibatchStream::Restore: State.buffer_ids[", i, "] = ", id,
                       " is not a streamed document of ", reader_->path()));
    }
  }
  if (state.next_document < 0 || state.next_document > num_documents) {
    return absl::InvalidArgumentError(
        absl::StrCat("UciMinibatchStream::Restore: State.next_document must be in [0, D = ",
                     num_documents, "], got ", state.next_document));
  }
  if (state.passes_completed < 0 ||
      (options_.max_epochs > 0 && state.passes_completed > options_.max_epochs)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "UciMinibatchStream::Restore: State.passes_completed must be in [0, max_epochs = ",
        options_.max_epochs, "] (any >= 0 if 0), got ", state.passes_completed));
  }
  if (state.documents_emitted < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("UciMinibatchStream::Restore: State.documents_emitted must be >= 0, got ",
                     state.documents_emitted));
  }
  return absl::OkStatus();
}

absl::Status UciMinibatchStream::Restore(const State& state) {
  SGMCMC_RETURN_IF_ERROR(ValidateState(state));
  // The buffered documents' tokens, from one pass: slots visited in document order (a
  // document buffered in several slots, from several passes, fills each of them).
  std::vector<BufferedDocument> buffer(state.buffer_ids.size());
  std::vector<size_t> slots(buffer.size());
  std::iota(slots.begin(), slots.end(), size_t{0});
  std::stable_sort(slots.begin(), slots.end(), [&](size_t a, size_t b) {
    return state.buffer_ids[a] < state.buffer_ids[b];
  });
  SGMCMC_RETURN_IF_ERROR(reader_->Rewind());
  BufferedDocument doc;
  for (size_t k = 0; k < slots.size();) {
    SGMCMC_ASSIGN_OR_RETURN(const bool more, reader_->Next(&doc.id, &doc.tokens));
    if (!more) break;  // unreachable: every buffered id is < D
    for (; k < slots.size() && state.buffer_ids[slots[k]] == doc.id; ++k) {
      buffer[slots[k]] = doc;
    }
  }
  // The reader back at the saved place of the current pass.
  SGMCMC_RETURN_IF_ERROR(reader_->Rewind());
  while (reader_->next_document() < state.next_document) {
    SGMCMC_ASSIGN_OR_RETURN(const bool more, reader_->Next(&doc.id, &doc.tokens));
    if (!more) break;  // unreachable: next_document <= D
  }
  buffer_ = std::move(buffer);
  buffer_.reserve(options_.shuffle_buffer_documents);
  incoming_ = BufferedDocument();
  source_done_ = options_.max_epochs > 0 && state.passes_completed >= options_.max_epochs;
  passes_completed_ = state.passes_completed;
  documents_emitted_ = state.documents_emitted;
  return absl::OkStatus();
}

}  // namespace sgmcmc::data
