// What the fuzz targets of //fuzz share: the input as a file for readers that take a path,
// gzip compression of it, and the checks of a reader's error contract.
//
// Every target defines LLVMFuzzerTestOneInput (fuzz/README.md). A target asserts the reader's
// contract with SGMCMC_CHECK (an abort, which libFuzzer and the replay test report as a
// finding): on bad bytes an error status naming its source, on good ones a value that passes
// the reader's own validation and agrees with every other way of reading the same bytes.
//
// Cost: ScratchFile::Write is one write(2) of the input to a file on tmpfs (/dev/shm, see
// ScratchFile), a few microseconds.
#ifndef SGMCMC_FUZZ_FUZZ_SUPPORT_H_
#define SGMCMC_FUZZ_FUZZ_SUPPORT_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace sgmcmc::fuzz {

// A file named `name` in a directory private to this process, rewritten by every Write: under
// $SGMCMC_FUZZ_TMPDIR if set, else /dev/shm if writable, else $TEST_TMPDIR, else /tmp. The
// directory and its files are removed by the destructor, or at exit.
class ScratchFile {
 public:
  explicit ScratchFile(absl::string_view name);
  ~ScratchFile();
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;

  // Replaces the file's contents with `bytes` (CHECKs that the write succeeded) and returns
  // its path.
  const std::string& Write(absl::string_view bytes);
  const std::string& path() const { return path_; }

 private:
  std::string directory_;
  std::string path_;
};

// `bytes` as a gzip stream (zlib, level 1: the fuzzer spends its time in the reader).
std::string Gzip(absl::string_view bytes);

// CHECKs that `status` is an error whose message names `source` (a reader's error contract:
// "path:line: ..." or "path: ..."), and that its code is one of the codes readers of bad
// input return (InvalidArgument, DataLoss, OutOfRange, FailedPrecondition).
void CheckInputError(const absl::Status& status, absl::string_view source);

// The bytes as a string_view.
inline absl::string_view AsText(const uint8_t* data, size_t size) {
  return absl::string_view(reinterpret_cast<const char*>(data), size);
}

// For the targets whose first input byte picks a mode: fn(mode, the rest) for a non-empty
// input; returns 0 (LLVMFuzzerTestOneInput's value).
template <typename Fn>
int WithModeByte(const uint8_t* data, size_t size, Fn fn) {
  if (size > 0) fn(data[0], std::string(AsText(data + 1, size - 1)));
  return 0;
}

// Writes `text` to `plain`, or gzip-compressed to `gzip` if bit 0 of `mode` is set; returns
// the path written.
const std::string& WritePlainOrGzip(uint8_t mode, absl::string_view text, ScratchFile& plain,
                                    ScratchFile& gzip);

}  // namespace sgmcmc::fuzz

#endif  // SGMCMC_FUZZ_FUZZ_SUPPORT_H_
