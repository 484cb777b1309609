// What every command-line tool in tools/ repeats: paths relative to where `bazel run` was
// started, creating the output directory, writing an output file with an error that names it,
// the main() that parses the flags and reports a failed run, and the rates, durations and ETAs
// of the progress lines.
//
// Cost: negligible next to the experiments (one rename per written file).
//
// Example:
//   absl::Status Run(const char* argv0) {
//     const std::string dir = FromWorkingDirectory(absl::GetFlag(FLAGS_output_dir));
//     SGMCMC_RETURN_IF_ERROR(CreateOutputDirectory(dir, "--output_dir"));
//     return WriteFile(dir + "/result.csv", "x\n1\n");
//   }
//   int main(int argc, char** argv) { return ToolMain(argc, argv, "Does x.", Run); }
#ifndef SGMCMC_TOOLS_TOOL_SUPPORT_H_
#define SGMCMC_TOOLS_TOOL_SUPPORT_H_

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "base/seconds_since.h"

namespace sgmcmc::tools {

// `path` unchanged if absolute, empty or outside `bazel run`; else relative to the directory
// `bazel run` was started in (BUILD_WORKING_DIRECTORY).
std::string FromWorkingDirectory(const std::string& path);

// Creates `dir` and its missing parents. Unavailable, naming `what` (the flag or config field
// that gave the directory) and `dir`, if it cannot: "--output_dir: cannot create /x: ...".
absl::Status CreateOutputDirectory(const std::string& dir, absl::string_view what);

// The bytes of the file `path` (base::ReadFileBytes): NotFound ("<path>: cannot open: ..."),
// InvalidArgument for a directory or DataLoss ("<path>: read error: ...") naming it otherwise.
absl::StatusOr<std::string> ReadFile(const std::string& path);

// Replaces the file `path` by `contents`, atomically (written to `path`.tmp, then renamed),
// so an interrupted run never leaves a truncated file. Unavailable naming the path on error.
absl::Status WriteFile(const std::string& path, absl::string_view contents);
// The same for the concatenation of `pieces`, written one after the other (no joined copy).
absl::Status WriteFilePieces(const std::string& path, absl::Span<const absl::string_view> pieces);
// The same for what `write` writes to the stream it is given (false, or a stream error:
// Unavailable naming the temporary file, and `path` is left as it was).
absl::Status WriteFileWith(const std::string& path, absl::FunctionRef<bool(std::ostream&)> write);

// Output files of an experiment: (file name, contents), in writing order.
using OutputFiles = std::vector<std::pair<std::string, std::string>>;

// WriteFile of every file of `files` into the directory `dir`; stops at the first error.
absl::Status WriteFiles(const std::string& dir, const OutputFiles& files);

// A rate with an SI suffix for progress lines: "950", "12.3k", "2.35M" (per second).
std::string HumanRate(double per_second);

// A duration for progress lines: "42s", "3.5min", "1.2h".
std::string HumanSeconds(double seconds);

// "<rate> <unit>/s  ETA <duration>" after `done` of `total` units in `elapsed_seconds`, e.g.
// RateAndEta(500, 1000, 2, "it") == "250 it/s  ETA 2s" (ETA 0s before any progress).
std::string RateAndEta(int64_t done, int64_t total, double elapsed_seconds, absl::string_view unit);

// Most threads (or thread ranks) a tool starts: far above any machine's cores, and below the
// count where starting them fails (std::system_error, an abort) on common limits.
inline constexpr int kMaxThreads = 1024;

// InvalidArgument "<flag> must be in [1, kMaxThreads], got <threads>" unless it is.
absl::Status CheckThreadCount(absl::string_view flag, int threads);

// FNV-1a over the little-endian bytes of 64-bit values: the data fingerprint that a tool's
// checkpoint keeps, so that a resume on other data is refused; over raw bytes (MixBytes): the
// checksum of a checkpoint file (tools/checkpoint_file.h).
class Fnv1a {
 public:
  void Mix(uint64_t value) {
    for (int byte = 0; byte < 8; ++byte) MixByte((value >> (8 * byte)) & 0xff);
  }
  void MixBytes(absl::string_view bytes) {
    for (const char c : bytes) MixByte(static_cast<unsigned char>(c));
  }
  uint64_t value() const { return hash_; }

 private:
  void MixByte(uint64_t byte) {
    hash_ ^= byte;
    hash_ *= 0x100000001b3u;
  }

  uint64_t hash_ = 0xcbf29ce484222325u;
};

// `status` with "--" before its message: an options struct's Validate() error, which names
// the field ("num_seeds must be >= 1"), as the error of the tool's flag of the same name. OK
// stays OK.
absl::Status AsFlagError(const absl::Status& status);

// One name the user did not write, as an error message has it ("StepSizeOptions.h": an options
// struct's field), and the one they wrote for it ("--step": the flag, or a config field).
struct FlagName {
  absl::string_view field;
  absl::string_view flag;
};

// `status` naming what the user wrote: every whole-word occurrence of a `names` field in its
// message is replaced by that entry's flag (a word: letters, digits, '_', and a '.' followed
// by one of them; so "h" does not match inside "StepSizeOptions.h", nor "step" in "--step" or
// "gmc_step"). Code and payloads are kept; OK stays OK; a message with none of them is
// unchanged. Use it where a library's or an options struct's Validate() error reaches a user:
//   NameFlags(samplers::StepSizeOptions::Constant(h).Validate(), {{"StepSizeOptions.h", "--step"}})
//   == "--step must be finite and > 0, got 0".
// Cost: O(|message| x |names|).
absl::Status NameFlags(const absl::Status& status, std::initializer_list<FlagName> names);

// The exit code of a tool whose run ended with `status`: 0 if OK, else 1 after printing
// "<program>: <status>" to stderr as one whole line in one write (so that the lines of
// processes sharing the terminal, e.g. under mpirun, do not interleave mid-line), <program>
// being the file name of `argv0`.
int ReportToolStatus(const char* argv0, const absl::Status& status);

// A tool's whole main(): sets the usage message, parses the flags, runs `body(argv[0])` and
// returns ReportToolStatus of its result. Call once per process.
int ToolMain(int argc, char** argv, const char* usage,
             absl::FunctionRef<absl::Status(const char* argv0)> body);

// ToolMain for a tool run as several processes on the same flags (mpirun), this one being
// `rank`: a failed body's error is printed once, by rank 0, and every rank returns 1. The
// body's errors must be the same on every rank: checked alike on every rank (flags), or agreed
// (parallel::Communicator::AgreeOnStatus); a rank's own failure ends the job through
// Communicator::Fail, which prints it with its rank.
int MpiToolMain(int argc, char** argv, const char* usage, int rank,
                absl::FunctionRef<absl::Status(const char* argv0)> body);

}  // namespace sgmcmc::tools

#endif  // SGMCMC_TOOLS_TOOL_SUPPORT_H_
