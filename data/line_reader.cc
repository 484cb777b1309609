#include "data/line_reader.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "zlib.h"

namespace sgmcmc::data {
namespace {

// The largest block read at once (and zlib's input buffer for files of 128 KiB and more).
constexpr size_t kBlockSize = size_t{1} << 20;
constexpr unsigned kGzBufferSize = 1u << 17;
// The first block of an input of unknown size (standard input) and the smallest first block.
constexpr size_t kUnknownSizeBlock = size_t{1} << 16;
constexpr size_t kMinBlockSize = size_t{1} << 12;

// The size of the file at `path` if it is a regular file, else -1 (standard input, a pipe).
int64_t RegularFileSize(const std::string& path) {
  struct stat info;
  if (path == kStandardInput || stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) {
    return -1;
  }
  return static_cast<int64_t>(info.st_size);
}

}  // namespace

struct LineReader::GzFile {
  explicit GzFile(gzFile f) : file(f) {}
  ~GzFile() { gzclose(file); }
  gzFile file;
};

absl::StatusOr<LineReader> LineReader::Open(const std::string& path) {
  // "-" is standard input (a duplicate of the descriptor, so closing the reader leaves it).
  gzFile file = path == kStandardInput ? gzdopen(dup(STDIN_FILENO), "rb")
                                       : gzopen(path.c_str(), "rb");
  if (file == nullptr) {
    return absl::NotFoundError(
        absl::StrCat(path, ": cannot open: ", std::strerror(errno)));
  }
  // Buffers sized to the input (a small file costs a few KiB, not zlib's 3 x 128 KiB and a
  // 1 MiB block); a file of 1 MiB or more reads 1 MiB blocks from the first, as before. The
  // size of a gzip file is the compressed one, so its blocks grow (doubling) as it is read.
  const int64_t size = RegularFileSize(path);
  const size_t first_block =
      size < 0 ? kUnknownSizeBlock
               : std::clamp(static_cast<size_t>(size) + 1, kMinBlockSize, kBlockSize);
  const unsigned gz_buffer =
      size < 0 ? kGzBufferSize
               : static_cast<unsigned>(std::min<int64_t>(kGzBufferSize, size + 1));
  gzbuffer(file, std::max(gz_buffer, 64u));
  return LineReader(path, std::make_unique<GzFile>(file), first_block);
}

LineReader::LineReader(std::string path, std::unique_ptr<GzFile> file, size_t first_block)
    : path_(std::move(path)), file_(std::move(file)), block_size_(first_block) {}
LineReader::LineReader(LineReader&&) noexcept = default;
LineReader& LineReader::operator=(LineReader&&) noexcept = default;
LineReader::~LineReader() = default;

bool LineReader::Fill() {
  if (eof_ || !status_.ok()) return false;
  const size_t unread = end_ - begin_;
  if (begin_ > 0 && unread > 0) std::memmove(&buffer_[0], &buffer_[begin_], unread);
  begin_ = 0;
  end_ = unread;
  if (buffer_.size() < unread + block_size_) buffer_.resize(unread + block_size_);
  const int read = gzread(file_->file, &buffer_[end_], static_cast<unsigned>(block_size_));
  if (read < 0) {
    int code = 0;
    const char* message = gzerror(file_->file, &code);
    status_ = absl::DataLossError(absl::StrCat(path_, ": read error after line ",
                                               line_number_, ": ", message));
    return false;
  }
  if (read == 0) {
    // gzread returns 0 both at the end and on a truncated stream; gzerror tells them apart.
    int code = Z_OK;
    const char* message = gzerror(file_->file, &code);
    if (code != Z_OK) {
      status_ = absl::DataLossError(absl::StrCat(path_, ": truncated or corrupt input after line ",
                                                 line_number_, ": ", message));
    }
    eof_ = true;
    return false;
  }
  end_ += static_cast<size_t>(read);
  // A full block: more may follow (a gzip file, or one that grew), so read twice as much next.
  if (static_cast<size_t>(read) == block_size_) block_size_ = std::min(2 * block_size_, kBlockSize);
  return true;
}

bool LineReader::Next(absl::string_view* line) {
  size_t search_from = begin_;
  while (true) {
    const void* newline =
        std::memchr(buffer_.data() + search_from, '\n', end_ - search_from);
    if (newline != nullptr) {
      const size_t pos = static_cast<const char*>(newline) - buffer_.data();
      size_t length = pos - begin_;
      bytes_consumed_ += length + 1;
      if (length > 0 && buffer_[begin_ + length - 1] == '\r') --length;
      *line = absl::string_view(buffer_.data() + begin_, length);
      begin_ = pos + 1;
      ++line_number_;
      return true;
    }
    const size_t scanned = end_ - begin_;
    if (!Fill()) break;
    search_from = begin_ + scanned;
  }
  if (!status_.ok() || begin_ == end_) return false;
  // Last line without a newline.
  size_t length = end_ - begin_;
  bytes_consumed_ += length;
  if (buffer_[begin_ + length - 1] == '\r') --length;
  *line = absl::string_view(buffer_.data() + begin_, length);
  begin_ = end_;
  ++line_number_;
  return true;
}

absl::Status LineReader::Rewind() {
  if (!status_.ok()) return status_;
  if (path_ == kStandardInput) {
    // gzrewind would fail on a pipe; say why instead.
    status_ = absl::FailedPreconditionError(
        "standard input (\"-\") can be read once only: it cannot be rewound for a second pass "
        "or a resume; give a file instead");
    return status_;
  }
  if (gzrewind(file_->file) != 0) {
    status_ = absl::DataLossError(absl::StrCat(path_, ": cannot rewind"));
    return status_;
  }
  begin_ = end_ = 0;
  eof_ = false;
  line_number_ = 0;
  bytes_consumed_ = 0;
  return absl::OkStatus();
}

absl::Status LineReader::Error(absl::string_view message) const {
  return absl::InvalidArgumentError(absl::StrCat(path_, ":", line_number_, ": ", message));
}

}  // namespace sgmcmc::data
