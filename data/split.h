// Held-out splits for LDA evaluation: seeded test documents, and the document-completion
// split of each test document (Wallach et al. 2009, "Evaluation methods for topic models";
// Patterson & Teh 2013, §5.1 eqs. 12-15; docs/ALGORITHMS.md, "Evaluation protocol shared by
// all LDA samplers").
//
// Within a test document, token position i (0-based, in corpus order) is a test token when
// i % holdout_period == 0 (every 10th token by default, as the papers' code does) and is
// observed otherwise. The observed part is what Gibbs sampling sees to estimate the
// document's topic proportions; the held-out part is what perplexity scores. Every sampler and
// peer must use the same split: build it once, with the same engine seed.
//
// Cost: O(D) for ChooseTestDocuments, O(N) for the corpus copies.
//
// Example:
//   rng::Engine engine(seed, /*stream=*/kSplitStream);
//   SGMCMC_ASSIGN_OR_RETURN(HeldOutSplit split, SplitCorpus(corpus, HeldOutOptions(), engine));
//   // train on split.train; evaluate on split.test.observed / split.test.held_out
#ifndef SGMCMC_DATA_SPLIT_H_
#define SGMCMC_DATA_SPLIT_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "data/corpus.h"
#include "rng/engine.h"

namespace sgmcmc::data {

// A stream id for the engine that draws the split, distinct from the streams a run uses for
// sampling (so the same seed can drive both without reusing random numbers).
inline constexpr uint64_t kSplitStream = 0x53504c4954;  // "SPLIT"

struct HeldOutOptions {
  // Number of test documents, in [1, D - 1]. 0 (default): round(test_fraction * D), clamped
  // to [1, D - 1].
  int num_test_documents = 0;
  // Fraction of the documents held out when num_test_documents is 0; in (0, 1). Default 0.1.
  double test_fraction = 0.1;
  // Token i of a test document is held out iff i % holdout_period == 0; >= 2. Default 10.
  int holdout_period = 10;

  absl::Status Validate() const;
};

// The two parts of a set of test documents; document j of `observed` and of `held_out` is the
// same test document.
struct DocumentCompletionSplit {
  Corpus observed;  // tokens at positions i % period != 0, in order
  Corpus held_out;  // tokens at positions i % period == 0, in order
};

struct HeldOutSplit {
  std::vector<int> train_ids;  // ascending ids into the input corpus
  std::vector<int> test_ids;   // ascending ids into the input corpus
  Corpus train;                // documents train_ids, in that order
  DocumentCompletionSplit test;  // documents test_ids, in that order
};

// `num_test` distinct ids drawn uniformly from [0, num_documents), ascending.
// 0 <= num_test <= num_documents (checked).
std::vector<int> ChooseTestDocuments(int num_documents, int num_test, rng::Engine& engine);

// Splits every document of `test_documents` for document completion; period >= 2 (checked).
// Both parts share the vocabulary of `test_documents`.
DocumentCompletionSplit SplitForDocumentCompletion(const Corpus& test_documents,
                                                   int holdout_period = 10);

// Draws the test documents with `engine` and splits the corpus. InvalidArgument naming the
// option if the options are invalid or the corpus has fewer than 2 documents.
absl::StatusOr<HeldOutSplit> SplitCorpus(const Corpus& corpus, const HeldOutOptions& options,
                                         rng::Engine& engine);

}  // namespace sgmcmc::data

#endif  // SGMCMC_DATA_SPLIT_H_
