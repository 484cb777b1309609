#include "fuzz/fuzz_support.h"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/check.h"

namespace sgmcmc::fuzz {

namespace {

// $SGMCMC_FUZZ_TMPDIR, else tmpfs (/dev/shm: 40x the executions per second of a disk-backed
// /tmp on the development machine), else $TEST_TMPDIR, else /tmp.
std::string ScratchDirectory() {
  const char* value = std::getenv("SGMCMC_FUZZ_TMPDIR");
  if (value != nullptr && *value != '\0') return value;
  if (access("/dev/shm", W_OK) == 0) return "/dev/shm";
  const char* test_tmpdir = std::getenv("TEST_TMPDIR");
  if (test_tmpdir != nullptr && *test_tmpdir != '\0') return test_tmpdir;
  return "/tmp";
}

// The directories of the live ScratchFiles; removed at exit too, since the targets keep their
// ScratchFiles in function-local statics that are never destroyed.
std::set<std::string>& LiveDirectories() {
  static auto* directories = new std::set<std::string>;
  return *directories;
}

void RemoveDirectory(const std::string& directory) {
  std::error_code ignored;
  std::filesystem::remove_all(directory, ignored);
}

}  // namespace

ScratchFile::ScratchFile(absl::string_view name) {
  // mkdtemp's template: a fixed prefix and the six characters it replaces.
  constexpr int kTemplateLength = 6;
  std::string pattern =
      absl::StrCat(ScratchDirectory(), "/sgmcmc_fuzz_", std::string(kTemplateLength, 'X'));
  SGMCMC_CHECK(mkdtemp(pattern.data()) != nullptr) << "mkdtemp " << pattern;
  directory_ = pattern;
  path_ = absl::StrCat(directory_, "/", name);
  static const bool registered = [] {
    std::atexit([] {
      for (const std::string& directory : LiveDirectories()) RemoveDirectory(directory);
    });
    return true;
  }();
  (void)registered;
  LiveDirectories().insert(directory_);
}

ScratchFile::~ScratchFile() {
  RemoveDirectory(directory_);
  LiveDirectories().erase(directory_);
}

const std::string& ScratchFile::Write(absl::string_view bytes) {
  const int fd = open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  SGMCMC_CHECK(fd >= 0) << "open " << path_;
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    SGMCMC_CHECK(n > 0) << "write " << path_;
    done += static_cast<size_t>(n);
  }
  SGMCMC_CHECK(close(fd) == 0) << "close " << path_;
  return path_;
}

std::string Gzip(absl::string_view bytes) {
  z_stream stream{};
  // 15 + 16: a gzip header and trailer instead of zlib's.
  SGMCMC_CHECK(deflateInit2(&stream, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&stream, bytes.size()) + 32, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  stream.avail_in = static_cast<uInt>(bytes.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  SGMCMC_CHECK(deflate(&stream, Z_FINISH) == Z_STREAM_END);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

const std::string& WritePlainOrGzip(uint8_t mode, absl::string_view text, ScratchFile& plain,
                                    ScratchFile& gzip) {
  return (mode & 1) ? gzip.Write(Gzip(text)) : plain.Write(text);
}

void CheckInputError(const absl::Status& status, absl::string_view source) {
  SGMCMC_CHECK(!status.ok());
  const absl::StatusCode code = status.code();
  SGMCMC_CHECK(code == absl::StatusCode::kInvalidArgument ||
               code == absl::StatusCode::kDataLoss || code == absl::StatusCode::kOutOfRange ||
               code == absl::StatusCode::kFailedPrecondition)
      << "unexpected error code for bad input: " << status;
  SGMCMC_CHECK(absl::StrContains(status.message(), source))
      << "the error does not name its source '" << source << "': " << status;
}

}  // namespace sgmcmc::fuzz
