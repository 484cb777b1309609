#include "data/runfiles_path.h"

#include <sys/stat.h>
#include <unistd.h>

#include <memory>

#include "absl/strings/str_cat.h"
#include "tools/cpp/runfiles/runfiles.h"

namespace sgmcmc::data {
namespace {

using ::bazel::tools::cpp::runfiles::Runfiles;

bool IsFile(const std::string& path) {
  struct stat info;
  return !path.empty() && stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

// The path of the running executable, or "" if /proc is unavailable.
std::string SelfExecutable() {
  char buffer[4096];
  const ssize_t length = readlink("/proc/self/exe", buffer, sizeof(buffer) - 1);
  return length > 0 ? std::string(buffer, length) : std::string();
}

}  // namespace

absl::StatusOr<std::vector<std::string>> RunfilesPaths(
    const std::string& argv0, std::initializer_list<absl::string_view> rlocations,
    absl::string_view what, absl::string_view missing_hint) {
  std::string error;
  std::unique_ptr<Runfiles> runfiles(argv0.empty() ? Runfiles::CreateForTest(&error)
                                                   : Runfiles::Create(argv0, &error));
  if (runfiles == nullptr && argv0.empty()) {
    // Not under `bazel test` (e.g. a benchmark run from bazel-bin): the executable's own
    // <path>.runfiles directory.
    runfiles.reset(Runfiles::Create(SelfExecutable(), &error));
  }
  if (runfiles == nullptr) {
    return absl::NotFoundError(
        absl::StrCat(what, ": no runfiles found for '", argv0, "': ", error));
  }
  std::vector<std::string> paths;
  paths.reserve(rlocations.size());
  for (absl::string_view rlocation : rlocations) {
    paths.push_back(runfiles->Rlocation(std::string(rlocation)));
  }
  for (const std::string& path : paths) {
    if (!IsFile(path)) {
      return absl::NotFoundError(absl::StrCat(what, ": '", path, "' is not a file", missing_hint));
    }
  }
  return paths;
}

}  // namespace sgmcmc::data
