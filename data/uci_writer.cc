#include "data/uci_writer.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
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

absl::Status WriteUciCorpus(const Corpus& corpus, const std::string& docword_path,
                            const std::string& vocab_path) {
  SGMCMC_RETURN_IF_ERROR(corpus.Validate());
  // First pass: the number of distinct (document, word) pairs for the NNZ header line.
  std::vector<int32_t> sorted;
  int64_t num_entries = 0;
  for (int d = 0; d < corpus.num_documents(); ++d) {
    sorted.assign(corpus.document(d).begin(), corpus.document(d).end());
    std::sort(sorted.begin(), sorted.end());
    num_entries += std::unique(sorted.begin(), sorted.end()) - sorted.begin();
  }
  GzWriter docword(docword_path);
  docword.Append(absl::StrCat(corpus.num_documents(), "\n", corpus.vocabulary_size(), "\n",
                              num_entries, "\n"));
  for (int d = 0; d < corpus.num_documents(); ++d) {
    sorted.assign(corpus.document(d).begin(), corpus.document(d).end());
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 0; i < sorted.size();) {
      size_t j = i;
      while (j < sorted.size() && sorted[j] == sorted[i]) ++j;
      docword.Append(absl::StrCat(d + 1, " ", sorted[i] + 1, " ", j - i, "\n"));
      i = j;
    }
  }
  SGMCMC_RETURN_IF_ERROR(docword.Close());
  GzWriter vocab(vocab_path);
  for (const std::string& word : corpus.vocabulary) vocab.Append(absl::StrCat(word, "\n"));
  return vocab.Close();
}

}  // namespace sgmcmc::data
