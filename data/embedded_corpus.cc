#include "data/embedded_corpus.h"

#include <sys/stat.h>
#include <unistd.h>

#include <memory>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "tools/cpp/runfiles/runfiles.h"

namespace sgmcmc::data {
namespace {

using ::bazel::tools::cpp::runfiles::Runfiles;

constexpr char kKosDocword[] = "sgmcmc/data/kos/docword.kos.txt.gz";
constexpr char kKosVocab[] = "sgmcmc/data/kos/vocab.kos.txt";

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

absl::StatusOr<UciCorpusPaths> EmbeddedKosPaths(const std::string& argv0) {
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
        absl::StrCat("embedded KOS corpus: no runfiles found for '", argv0, "': ", error));
  }
  UciCorpusPaths paths{runfiles->Rlocation(kKosDocword), runfiles->Rlocation(kKosVocab)};
  for (const std::string* path : {&paths.docword, &paths.vocab}) {
    if (!IsFile(*path)) {
      return absl::NotFoundError(absl::StrCat(
          "embedded KOS corpus: '", *path, "' is not a file (runfiles of '", argv0,
          "'); does the target depend on //data:embedded_corpus?"));
    }
  }
  return paths;
}

absl::StatusOr<Corpus> LoadEmbeddedKos(const std::string& argv0, UciReadSummary* summary) {
  SGMCMC_ASSIGN_OR_RETURN(const UciCorpusPaths paths, EmbeddedKosPaths(argv0));
  return ReadUciCorpus(paths.docword, paths.vocab, summary);
}

}  // namespace sgmcmc::data
