#include "data/split.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "base/status_macros.h"
#include "data/shuffle.h"

namespace sgmcmc::data {

absl::Status HeldOutOptions::Validate() const {
  if (num_test_documents < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "HeldOutOptions.num_test_documents must be >= 0, got ", num_test_documents));
  }
  if (!(test_fraction > 0 && test_fraction < 1)) {
    return absl::InvalidArgumentError(
        absl::StrCat("HeldOutOptions.test_fraction must be in (0, 1), got ", test_fraction));
  }
  if (holdout_period < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("HeldOutOptions.holdout_period must be >= 2, got ", holdout_period));
  }
  return absl::OkStatus();
}

std::vector<int> ChooseTestDocuments(int num_documents, int num_test, rng::Engine& engine) {
  SGMCMC_CHECK(num_test >= 0 && num_test <= num_documents)
      << "ChooseTestDocuments: num_test must be in [0, " << num_documents << "], got "
      << num_test;
  std::vector<int> ids(num_documents);
  std::iota(ids.begin(), ids.end(), 0);
  PartialShuffle(engine, absl::MakeSpan(ids), num_test);
  ids.resize(num_test);
  std::sort(ids.begin(), ids.end());
  return ids;
}

DocumentCompletionSplit SplitForDocumentCompletion(const Corpus& test_documents,
                                                   int holdout_period) {
  SGMCMC_CHECK(holdout_period >= 2)
      << "SplitForDocumentCompletion: holdout_period must be >= 2, got " << holdout_period;
  DocumentCompletionSplit split;
  split.observed.vocabulary = test_documents.vocabulary;
  split.held_out.vocabulary = test_documents.vocabulary;
  split.observed.doc_offsets.assign(1, 0);
  split.held_out.doc_offsets.assign(1, 0);
  for (int d = 0; d < test_documents.num_documents(); ++d) {
    const absl::Span<const int32_t> doc = test_documents.document(d);
    for (size_t i = 0; i < doc.size(); ++i) {
      (i % holdout_period == 0 ? split.held_out : split.observed).tokens.push_back(doc[i]);
    }
    split.observed.doc_offsets.push_back(split.observed.num_tokens());
    split.held_out.doc_offsets.push_back(split.held_out.num_tokens());
  }
  return split;
}

absl::StatusOr<HeldOutSplit> SplitCorpus(const Corpus& corpus, const HeldOutOptions& options,
                                         rng::Engine& engine) {
  SGMCMC_RETURN_IF_ERROR(options.Validate());
  const int num_documents = corpus.num_documents();
  if (num_documents < 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "SplitCorpus: need at least 2 documents to hold some out, got ", num_documents));
  }
  int num_test = options.num_test_documents;
  if (num_test == 0) {
    num_test = std::clamp(static_cast<int>(std::lround(options.test_fraction * num_documents)),
                          1, num_documents - 1);
  } else if (num_test >= num_documents) {
    return absl::InvalidArgumentError(
        absl::StrCat("HeldOutOptions.num_test_documents must be < the number of documents (",
                     num_documents, "), got ", num_test));
  }
  HeldOutSplit split;
  split.test_ids = ChooseTestDocuments(num_documents, num_test, engine);
  split.train_ids.reserve(num_documents - num_test);
  for (int d = 0, t = 0; d < num_documents; ++d) {
    if (t < num_test && split.test_ids[t] == d) {
      ++t;
    } else {
      split.train_ids.push_back(d);
    }
  }
  split.train = SelectDocuments(corpus, split.train_ids);
  split.test = SplitForDocumentCompletion(SelectDocuments(corpus, split.test_ids),
                                          options.holdout_period);
  return split;
}

}  // namespace sgmcmc::data
