#include "tools/gnuplot.h"

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <ostream>

#include "absl/strings/str_cat.h"
#include "tools/cpp/runfiles/runfiles.h"

namespace sgmcmc::tools {

absl::StatusOr<std::string> FindRunfile(const std::string& argv0, absl::string_view runfile) {
  std::string error;
  std::unique_ptr<bazel::tools::cpp::runfiles::Runfiles> runfiles(
      bazel::tools::cpp::runfiles::Runfiles::Create(argv0, &error));
  const std::string path = runfiles == nullptr ? "" : runfiles->Rlocation(std::string(runfile));
  if (path.empty() || !std::filesystem::exists(path)) {
    return absl::FailedPreconditionError(
        absl::StrCat(runfile, " not found in the runfiles of ", argv0, " ", error));
  }
  return path;
}

absl::Status RunGnuplotScript(const std::string& argv0, absl::string_view runfile,
                              const std::string& output_dir) {
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) {
    return absl::FailedPreconditionError("gnuplot is not on PATH");
  }
  absl::StatusOr<std::string> found = FindRunfile(argv0, runfile);
  if (!found.ok()) return found.status();
  const std::string& script = *found;
  for (const std::string& path : {output_dir, script}) {
    if (path.find_first_of("'\"$`\\") != std::string::npos) {
      return absl::FailedPreconditionError(
          absl::StrCat("path ", path, " has quote or shell characters"));
    }
  }
  const std::string command = absl::StrCat("gnuplot -e \"dir='", output_dir, "'\" '", script, "'");
  if (std::system(command.c_str()) != 0) {
    return absl::InternalError(absl::StrCat("gnuplot failed: ", command));
  }
  return absl::OkStatus();
}

void DrawFigure(const std::string& argv0, absl::string_view runfile,
                const std::string& output_dir, absl::string_view figure, std::ostream& out) {
  const absl::Status plot = RunGnuplotScript(argv0, runfile, output_dir);
  out << (plot.ok() ? absl::StrCat("figure: ", output_dir, "/", figure)
                    : absl::StrCat("figure skipped: ", plot.message()))
      << "\n";
}

}  // namespace sgmcmc::tools
