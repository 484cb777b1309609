// Bag-of-words corpora between SciPy's CSR layout and data::Corpus (data/corpus.h), for the
// _sgmcmc extension.
//
// A CSR count matrix X (documents x words: indptr, indices, data) becomes a Corpus whose
// document d lists, for each stored entry of row d in storage order, `count` copies of the
// word id: the expansion data/uci_reader.h applies to a UCI file. CorpusToCsr is its inverse
// on corpora whose documents hold each word's copies consecutively in increasing word order
// (UCI files sorted by word, as KOS is), so a round trip keeps every token position.
//
// Cost: O(nnz + tokens) each way.
//
// Example:
//   data::Corpus corpus = ValueOrThrow(CorpusFromCsr(indptr, indices, counts, num_words));
#ifndef SGMCMC_PYTHON_PY_CORPUS_H_
#define SGMCMC_PYTHON_PY_CORPUS_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "data/corpus.h"

namespace sgmcmc::python {

struct CsrCounts {
  std::vector<int64_t> indptr;   // documents + 1 offsets into indices and data
  std::vector<int32_t> indices;  // word ids, increasing within a document
  std::vector<double> data;      // counts >= 1
  int num_words = 0;             // columns
};

// InvalidArgument naming the entry ("X[3, 17] = 1.5 is not a non-negative integer count: LDA
// needs integer word counts (use CountVectorizer)") if a count is negative or not an integer,
// or larger than 2^31 - 1 (the message states that limit), a row sums to more than 2^31 - 1
// tokens, a word id is outside [0, num_words),
// or indptr is not a valid non-decreasing offset array; also if num_words < 1, or if the
// counts sum to more than data::UciLimits::max_tokens (2^32) tokens (checked before any
// allocation).
absl::StatusOr<data::Corpus> CorpusFromCsr(absl::Span<const int64_t> indptr,
                                           absl::Span<const int64_t> indices,
                                           absl::Span<const double> counts, int num_words);

// The counts of every document, words in increasing order.
CsrCounts CorpusToCsr(const data::Corpus& corpus);

}  // namespace sgmcmc::python

#endif  // SGMCMC_PYTHON_PY_CORPUS_H_
