#include "fuzz/fuzz_support.h"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdlib>
#include <filesystem>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/check.h"

namespace sgmcmc::fuzz {

ScratchFile::ScratchFile(absl::string_view name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  std::string pattern =
      absl::StrCat(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp", "/sgmcmc_fuzz_XXXXXX");
  SGMCMC_CHECK(mkdtemp(pattern.data()) != nullptr) << "mkdtemp " << pattern;
  directory_ = pattern;
  path_ = absl::StrCat(directory_, "/", name);
}

ScratchFile::~ScratchFile() {
  std::error_code ignored;
  std::filesystem::remove_all(directory_, ignored);
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
