#include "data/embedded_corpus.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "data/runfiles_path.h"

namespace sgmcmc::data {
namespace {

constexpr char kKosDocword[] = "sgmcmc/data/kos/docword.kos.txt.gz";
constexpr char kKosVocab[] = "sgmcmc/data/kos/vocab.kos.txt";

}  // namespace

absl::StatusOr<UciCorpusPaths> EmbeddedKosPaths(const std::string& argv0) {
  SGMCMC_ASSIGN_OR_RETURN(
      std::vector<std::string> paths,
      RunfilesPaths(argv0, {kKosDocword, kKosVocab}, "embedded KOS corpus",
                    absl::StrCat(" (runfiles of '", argv0,
                                 "'); does the target depend on //data:embedded_corpus?")));
  return UciCorpusPaths{std::move(paths[0]), std::move(paths[1])};
}

absl::StatusOr<Corpus> LoadEmbeddedKos(const std::string& argv0, UciReadSummary* summary) {
  SGMCMC_ASSIGN_OR_RETURN(const UciCorpusPaths paths, EmbeddedKosPaths(argv0));
  return ReadUciCorpus(paths.docword, paths.vocab, summary);
}

}  // namespace sgmcmc::data
