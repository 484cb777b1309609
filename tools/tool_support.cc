#include "tools/tool_support.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <system_error>

#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/read_file.h"

namespace sgmcmc::tools {

std::string FromWorkingDirectory(const std::string& path) {
  const char* working = std::getenv("BUILD_WORKING_DIRECTORY");
  if (path.empty() || path[0] == '/' || working == nullptr) return path;
  return absl::StrCat(working, "/", path);
}

absl::Status CreateOutputDirectory(const std::string& dir, absl::string_view what) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) {
    return absl::UnavailableError(
        absl::StrCat(what, ": cannot create ", dir, ": ", error.message()));
  }
  return absl::OkStatus();
}

absl::Status CheckThreadCount(absl::string_view flag, int threads) {
  if (threads >= 1 && threads <= kMaxThreads) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(flag, " must be in [1, ", kMaxThreads, "], got ", threads));
}

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  return base::ReadFileBytes(path);
}

absl::Status WriteFile(const std::string& path, absl::string_view contents) {
  const absl::string_view pieces[] = {contents};
  return WriteFilePieces(path, pieces);
}

absl::Status WriteFilePieces(const std::string& path, absl::Span<const absl::string_view> pieces) {
  return WriteFileWith(path, [&](std::ostream& out) {
    for (absl::string_view piece : pieces) {
      out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
    }
    return true;
  });
}

absl::Status WriteFileWith(const std::string& path, absl::FunctionRef<bool(std::ostream&)> write) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary);
    const bool written = write(out);
    out.close();
    if (!written || !out) return absl::UnavailableError(absl::StrCat("cannot write ", temporary));
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) {
    return absl::UnavailableError(absl::StrCat("cannot write ", path, ": ", error.message()));
  }
  return absl::OkStatus();
}

absl::Status WriteFiles(const std::string& dir, const OutputFiles& files) {
  for (const auto& [name, contents] : files) {
    const absl::Status status = WriteFile(absl::StrCat(dir, "/", name), contents);
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

std::string HumanRate(double per_second) {
  if (per_second >= 1e6) return absl::StrFormat("%.2fM", per_second / 1e6);
  if (per_second >= 1e3) return absl::StrFormat("%.1fk", per_second / 1e3);
  return absl::StrFormat("%.0f", per_second);
}

std::string HumanSeconds(double seconds) {
  if (seconds >= 3600) return absl::StrFormat("%.1fh", seconds / 3600);
  if (seconds >= 60) return absl::StrFormat("%.1fmin", seconds / 60);
  return absl::StrFormat("%.0fs", seconds);
}

std::string RateAndEta(int64_t done, int64_t total, double elapsed_seconds,
                       absl::string_view unit) {
  const double rate = done / std::max(elapsed_seconds, 1e-9);
  const double eta = rate > 0 ? (total - done) / rate : 0.0;
  return absl::StrCat(HumanRate(rate), " ", unit, "/s  ETA ", HumanSeconds(eta));
}

absl::Status AsFlagError(const absl::Status& status) {
  if (status.ok()) return status;
  return absl::Status(status.code(), absl::StrCat("--", status.message()));
}

namespace {

bool IsWordChar(char c) { return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Whether message[i] continues a word: a word character, or a '.' followed by one.
bool ContinuesWord(absl::string_view message, size_t i) {
  if (i >= message.size()) return false;
  if (IsWordChar(message[i])) return true;
  return message[i] == '.' && i + 1 < message.size() && IsWordChar(message[i + 1]);
}

}  // namespace

absl::Status NameFlags(const absl::Status& status, std::initializer_list<FlagName> names) {
  if (status.ok()) return status;
  const absl::string_view message = status.message();
  std::string renamed;
  bool changed = false;
  size_t i = 0;
  while (i < message.size()) {
    // A word starts here unless the previous character continues one ('-' too: "--step").
    const bool at_start =
        i == 0 || !(ContinuesWord(message, i - 1) || message[i - 1] == '-' ||
                    message[i - 1] == '.');
    const FlagName* match = nullptr;
    if (at_start) {
      for (const FlagName& name : names) {
        if (!name.field.empty() && absl::StartsWith(message.substr(i), name.field) &&
            !ContinuesWord(message, i + name.field.size())) {
          match = &name;
          break;
        }
      }
    }
    if (match != nullptr) {
      absl::StrAppend(&renamed, match->flag);
      i += match->field.size();
      changed = true;
    } else {
      renamed.push_back(message[i]);
      ++i;
    }
  }
  if (!changed) return status;
  absl::Status result(status.code(), renamed);
  status.ForEachPayload([&result](absl::string_view url, const absl::Cord& payload) {
    result.SetPayload(url, payload);
  });
  return result;
}

int ReportToolStatus(const char* argv0, const absl::Status& status) {
  if (status.ok()) return 0;
  // One string, one write: stderr is unbuffered, and each << would be a write of its own.
  std::cerr << absl::StrCat(std::filesystem::path(argv0).filename().string(), ": ",
                            status.ToString(), "\n")
            << std::flush;
  return 1;
}

namespace {

// Sets the usage message and --help's flag files, and parses the flags.
void ParseToolFlags(int argc, char** argv, const char* usage) {
  absl::SetProgramUsageMessage(usage);
  // --help lists every flag defined under tools/ (Abseil's default shows only those of the
  // file named after the binary, hiding e.g. tools/matrix_factorization_flags.cc's).
  absl::FlagsUsageConfig config;
  config.contains_help_flags = [](absl::string_view file) {
    return absl::StrContains(file, "tools/");
  };
  config.contains_helpshort_flags = config.contains_help_flags;
  absl::SetFlagsUsageConfig(config);
  absl::ParseCommandLine(argc, argv);
}

}  // namespace

int ToolMain(int argc, char** argv, const char* usage,
             absl::FunctionRef<absl::Status(const char* argv0)> body) {
  ParseToolFlags(argc, argv, usage);
  return ReportToolStatus(argv[0], body(argv[0]));
}

int MpiToolMain(int argc, char** argv, const char* usage, int rank,
                absl::FunctionRef<absl::Status(const char* argv0)> body) {
  ParseToolFlags(argc, argv, usage);
  const absl::Status status = body(argv[0]);
  if (rank == 0) return ReportToolStatus(argv[0], status);
  return status.ok() ? 0 : 1;
}

}  // namespace sgmcmc::tools
