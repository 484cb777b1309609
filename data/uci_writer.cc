#include "data/uci_writer.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "base/status_macros.h"
#include "zlib.h"

namespace sgmcmc::data {
namespace {

// Buffered writer over zlib's gzFile ("wb" compresses, "wT" writes plain text).
class GzWriter {
 public:
  explicit GzWriter(std::string path) : path_(std::move(path)) {
    file_ = gzopen(path_.c_str(), absl::EndsWith(path_, ".gz") ? "wb6" : "wT");
    if (file_ == nullptr) {
      status_ = absl::PermissionDeniedError(
          absl::StrCat(path_, ": cannot open for writing: ", std::strerror(errno)));
    }
  }
  GzWriter(const GzWriter&) = delete;
  GzWriter& operator=(const GzWriter&) = delete;
  ~GzWriter() {
    if (file_ != nullptr) gzclose(file_);
  }

  void Append(absl::string_view text) {
    buffer_.append(text.data(), text.size());
    if (buffer_.size() >= (1 << 20)) Flush();
  }

  const absl::Status& status() const { return status_; }
  const std::string& path() const { return path_; }

  absl::Status Close() {
    Flush();
    if (file_ != nullptr) {
      if (gzclose(file_) != Z_OK && status_.ok()) {
        status_ = absl::DataLossError(absl::StrCat(path_, ": error closing the file"));
      }
      file_ = nullptr;
    }
    return status_;
  }

 private:
  void Flush() {
    if (status_.ok() && !buffer_.empty() &&
        gzwrite(file_, buffer_.data(), static_cast<unsigned>(buffer_.size())) !=
            static_cast<int>(buffer_.size())) {
      int code = 0;
      status_ = absl::DataLossError(
          absl::StrCat(path_, ": write error: ", gzerror(file_, &code)));
    }
    buffer_.clear();
  }

  std::string path_;
  gzFile file_ = nullptr;
  std::string buffer_;
  absl::Status status_;
};

}  // namespace

class UciDocwordWriter::Output : public GzWriter {
 public:
  using GzWriter::GzWriter;
};

absl::StatusOr<std::unique_ptr<UciDocwordWriter>> UciDocwordWriter::Open(
    const std::string& path, int64_t num_documents, int32_t vocabulary_size,
    int64_t num_entries) {
  if (num_documents < 0 || vocabulary_size < 1 || num_entries < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": bad UCI header D = ", num_documents, ", W = ", vocabulary_size,
        ", NNZ = ", num_entries, " (need D >= 0, W >= 1, NNZ >= 0)"));
  }
  auto output = std::make_unique<Output>(path);
  SGMCMC_RETURN_IF_ERROR(output->status());
  std::unique_ptr<UciDocwordWriter> writer(
      new UciDocwordWriter(std::move(output), num_documents, vocabulary_size, num_entries));
  const std::string header =
      absl::StrCat(num_documents, "\n", vocabulary_size, "\n", num_entries, "\n");
  writer->output_->Append(header);
  writer->text_bytes_ += header.size();
  return writer;
}

UciDocwordWriter::UciDocwordWriter(std::unique_ptr<Output> output, int64_t num_documents,
                                   int32_t vocabulary_size, int64_t num_entries)
    : output_(std::move(output)),
      num_documents_(num_documents),
      num_entries_(num_entries),
      vocabulary_size_(vocabulary_size) {}

UciDocwordWriter::~UciDocwordWriter() = default;

void UciDocwordWriter::AddDocument(absl::Span<const WordCount> entries) {
  ++documents_added_;
  line_buffer_.clear();
  int32_t previous = -1;
  for (const WordCount& entry : entries) {
    SGMCMC_CHECK(entry.word > previous && entry.word < vocabulary_size_ && entry.count >= 1)
        << "UciDocwordWriter::AddDocument: document " << documents_added_ << ": word "
        << entry.word << " count " << entry.count << " after word " << previous
        << " (words ascending in [0, " << vocabulary_size_ << "), counts >= 1)";
    previous = entry.word;
    absl::StrAppend(&line_buffer_, documents_added_, " ", entry.word + 1, " ", entry.count,
                    "\n");
  }
  entries_added_ += entries.size();
  text_bytes_ += line_buffer_.size();
  output_->Append(line_buffer_);
}

absl::Status UciDocwordWriter::Close() {
  SGMCMC_RETURN_IF_ERROR(output_->Close());
  if (documents_added_ != num_documents_ || entries_added_ != num_entries_) {
    return absl::FailedPreconditionError(absl::StrCat(
        output_->path(), ": the header says D = ", num_documents_, ", NNZ = ", num_entries_,
        " but ", documents_added_, " documents with ", entries_added_,
        " entries were written"));
  }
  return absl::OkStatus();
}

absl::Status WriteUciCorpus(const Corpus& corpus, const std::string& docword_path,
                            const std::string& vocab_path) {
  SGMCMC_RETURN_IF_ERROR(corpus.Validate());
  // Each document as (word, count) entries in ascending word order.
  std::vector<int32_t> sorted;
  std::vector<WordCount> entries;
  auto document_entries = [&](int d) {
    sorted.assign(corpus.document(d).begin(), corpus.document(d).end());
    std::sort(sorted.begin(), sorted.end());
    entries.clear();
    for (size_t i = 0; i < sorted.size();) {
      size_t j = i;
      while (j < sorted.size() && sorted[j] == sorted[i]) ++j;
      entries.push_back({sorted[i], static_cast<int32_t>(j - i)});
      i = j;
    }
  };
  // First pass: the number of distinct (document, word) pairs for the NNZ header line.
  int64_t num_entries = 0;
  for (int d = 0; d < corpus.num_documents(); ++d) {
    document_entries(d);
    num_entries += entries.size();
  }
  SGMCMC_ASSIGN_OR_RETURN(
      std::unique_ptr<UciDocwordWriter> docword,
      UciDocwordWriter::Open(docword_path, corpus.num_documents(), corpus.vocabulary_size(),
                             num_entries));
  for (int d = 0; d < corpus.num_documents(); ++d) {
    document_entries(d);
    docword->AddDocument(entries);
  }
  SGMCMC_RETURN_IF_ERROR(docword->Close());
  GzWriter vocab(vocab_path);
  for (const std::string& word : corpus.vocabulary) vocab.Append(absl::StrCat(word, "\n"));
  return vocab.Close();
}

}  // namespace sgmcmc::data
