// LoadCorpusAndSplit: the training corpus and the document-completion test documents of a
// data::CorpusConfig (data/corpus_config.proto), as every LDA tool reads them: the embedded
// KOS corpus, a UCI corpus or raw text, with either a separate UCI test corpus or test
// documents held out by data::SplitCorpus with rng::Engine(seed, kSplitStream) (data/split.h).
// The same config and seed give the same split everywhere.
//
// Cost: reading the corpus (see the readers) plus O(N) for the split.
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(CorpusAndSplit data,
//                           LoadCorpusAndSplit(config, HeldOutOptions(), /*seed=*/1, argv[0]));
//   // train on data.train; evaluate on data.test
#ifndef SGMCMC_DATA_CORPUS_LOADER_H_
#define SGMCMC_DATA_CORPUS_LOADER_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "data/corpus.h"
#include "data/corpus_config.pb.h"
#include "data/split.h"

namespace sgmcmc::data {

struct CorpusAndSplit {
  Corpus train;
  DocumentCompletionSplit test;
  std::string description;  // what was read and how it was split, for the log
};

// Reads the corpus of `config` (`argv0` locates the embedded one) and its test documents:
// those of config.test_uci when set, else `held_out` and `seed` split the corpus. Paths are
// used as given. Errors name the field, e.g. "corpus.uci.docword and corpus.uci.vocab are both
// required", "corpus: <reader error>" (the reader's code kept) or "test_documents: ...".
absl::StatusOr<CorpusAndSplit> LoadCorpusAndSplit(const CorpusConfig& config,
                                                  const HeldOutOptions& held_out, uint64_t seed,
                                                  const std::string& argv0);

}  // namespace sgmcmc::data

#endif  // SGMCMC_DATA_CORPUS_LOADER_H_
