#include "data/uci_stream.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
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
  SGMCMC_ASSIGN_OR_RETURN(UciDocumentReader reader, UciDocumentReader::Open(docword_path));
  const int num_documents = reader.header().num_documents;
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

UciMinibatchStream::UciMinibatchStream(UciDocumentReader reader,
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
    SGMCMC_ASSIGN_OR_RETURN(const bool more, reader_.Next(&doc->id, &doc->tokens));
    if (!more) {
      ++passes_completed_;
      if (options_.max_epochs > 0 && passes_completed_ >= options_.max_epochs) {
        source_done_ = true;
        break;
      }
      SGMCMC_RETURN_IF_ERROR(reader_.Rewind());
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

}  // namespace sgmcmc::data
