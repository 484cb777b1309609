#include "data/embedded_msweb.h"

#include <sys/stat.h>
#include <unistd.h>

#include <memory>

#include "absl/strings/str_cat.h"
#include "tools/cpp/runfiles/runfiles.h"

namespace sgmcmc::data {
namespace {

using ::bazel::tools::cpp::runfiles::Runfiles;

constexpr char kTrain[] = "sgmcmc/data/msweb/msweb_train_subset.data.gz";
constexpr char kTest[] = "sgmcmc/data/msweb/msweb_test_subset.test.gz";

bool IsFile(const std::string& path) {
  struct stat info;
  return !path.empty() && stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

std::string SelfExecutable() {
  char buffer[4096];
  const ssize_t length = readlink("/proc/self/exe", buffer, sizeof(buffer) - 1);
  return length > 0 ? std::string(buffer, length) : std::string();
}

}  // namespace

absl::StatusOr<EmbeddedMsweb> LoadEmbeddedMsweb(const std::string& argv0) {
  std::string error;
  std::unique_ptr<Runfiles> runfiles(argv0.empty() ? Runfiles::CreateForTest(&error)
                                                   : Runfiles::Create(argv0, &error));
  if (runfiles == nullptr && argv0.empty()) {
    runfiles.reset(Runfiles::Create(SelfExecutable(), &error));
  }
  if (runfiles == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("embedded msweb: no runfiles found for '", argv0, "': ", error));
  }
  const std::string train_path = runfiles->Rlocation(kTrain);
  const std::string test_path = runfiles->Rlocation(kTest);
  for (const std::string* path : {&train_path, &test_path}) {
    if (!IsFile(*path)) {
      return absl::NotFoundError(absl::StrCat("embedded msweb: '", *path,
                                              "' is not a file; does the target depend on "
                                              "//data:embedded_msweb?"));
    }
  }
  EmbeddedMsweb msweb;
  absl::StatusOr<MswebData> train = ReadMsweb(train_path);
  if (!train.ok()) return train.status();
  msweb.train = std::move(*train);
  absl::StatusOr<MswebData> test = ReadMsweb(test_path, &msweb.train.vroots);
  if (!test.ok()) return test.status();
  msweb.test = std::move(*test);
  return msweb;
}

}  // namespace sgmcmc::data
