// The embedded default corpus (UCI KOS blog entries, //data/kos, CC BY 4.0): locates its files
// in the runfiles of the running binary or test and loads it.
//
// Targets that call these functions get the files as runfiles through this library's `data`
// dependency; `bazel run`, `bazel test` and running bazel-bin/<binary> directly all work
// (Bazel's C++ runfiles library: manifest or <argv0>.runfiles directory). The runfiles path is
// "sgmcmc/data/kos/...", which is also valid in a workspace that depends on @sgmcmc.
//
// Cost: a few stat calls; loading KOS is O(N) (data/uci_reader.h).
//
// Example (in main):
//   SGMCMC_ASSIGN_OR_RETURN(data::Corpus kos, data::LoadEmbeddedKos(argv[0]));
#ifndef SGMCMC_DATA_EMBEDDED_CORPUS_H_
#define SGMCMC_DATA_EMBEDDED_CORPUS_H_

#include <string>

#include "absl/status/statusor.h"
#include "data/corpus.h"
#include "data/uci_reader.h"

namespace sgmcmc::data {

// Paths of a UCI corpus: the docword file (plain or gzip) and its vocabulary.
struct UciCorpusPaths {
  std::string docword;
  std::string vocab;
};

// Sizes of the embedded KOS corpus, for checks and documentation.
inline constexpr int kKosNumDocuments = 3430;
inline constexpr int kKosVocabularySize = 6906;
inline constexpr int64_t kKosNumTokens = 467714;

// Finds the KOS files. `argv0` is the program's argv[0]; pass "" from a test or benchmark (then
// the test's runfiles environment is used, or else the runfiles of /proc/self/exe). NotFound, listing what was tried, if they are missing (the
// target must depend on //data:embedded_corpus).
absl::StatusOr<UciCorpusPaths> EmbeddedKosPaths(const std::string& argv0 = "");

// EmbeddedKosPaths + ReadUciCorpus. `summary` may be null.
absl::StatusOr<Corpus> LoadEmbeddedKos(const std::string& argv0 = "",
                                       UciReadSummary* summary = nullptr);

}  // namespace sgmcmc::data

#endif  // SGMCMC_DATA_EMBEDDED_CORPUS_H_
