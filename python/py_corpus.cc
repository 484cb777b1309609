#include "python/py_corpus.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "absl/strings/str_cat.h"
#include "data/uci_reader.h"

namespace sgmcmc::python {

absl::StatusOr<data::Corpus> CorpusFromCsr(absl::Span<const int64_t> indptr,
                                           absl::Span<const int64_t> indices,
                                           absl::Span<const double> counts, int num_words) {
  if (num_words < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("X must have at least one column (word), got ", num_words));
  }
  if (indptr.empty() || indptr.front() != 0 || indptr.back() != static_cast<int64_t>(indices.size()) ||
      indices.size() != counts.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "X is not a valid CSR matrix: indptr has ", indptr.size(), " entries from ",
        indptr.empty() ? 0 : indptr.front(), " to ", indptr.empty() ? 0 : indptr.back(),
        ", indices ", indices.size(), ", data ", counts.size()));
  }
  const int num_documents = static_cast<int>(indptr.size()) - 1;
  // Every entry is checked, and the tokens counted, before anything is allocated: a few
  // entries of 1e9 must be an error, not an allocation that exhausts memory.
  const int64_t max_tokens = data::UciLimits().max_tokens;
  int64_t num_tokens = 0;
  for (int d = 0; d < num_documents; ++d) {
    if (indptr[d + 1] < indptr[d]) {
      return absl::InvalidArgumentError(
          absl::StrCat("X is not a valid CSR matrix: indptr decreases at row ", d));
    }
    int64_t document_tokens = 0;
    for (int64_t e = indptr[d]; e < indptr[d + 1]; ++e) {
      const int64_t w = indices[e];
      const double count = counts[e];
      if (w < 0 || w >= num_words) {
        return absl::InvalidArgumentError(
            absl::StrCat("X row ", d, " has column index ", w, " outside [0, ", num_words, ")"));
      }
      if (!(count >= 0) || count != std::floor(count)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "X[", d, ", ", w, "] = ", count, " is not a non-negative integer count: LDA needs "
            "integer word counts (use CountVectorizer)"));
      }
      if (count > 2147483647.0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "X[", d, ", ", w, "] = ", count, " is larger than the largest count of one entry, ",
            "2147483647 (2^31 - 1)"));
      }
      num_tokens += static_cast<int64_t>(count);
      // The samplers index a document's tokens with int (a longer row ended in
      // std::length_error, an abort).
      document_tokens += static_cast<int64_t>(count);
      if (document_tokens > 2147483647) {
        return absl::InvalidArgumentError(absl::StrCat(
            "X row ", d, " holds more than 2147483647 (2^31 - 1) tokens (the sum of its "
            "counts), the most one document may have"));
      }
      if (num_tokens > max_tokens) {
        return absl::InvalidArgumentError(absl::StrCat(
            "X holds more than ", max_tokens, " tokens (the sum of its counts, 4 bytes each in "
            "memory; data::UciLimits::max_tokens) by row ", d));
      }
    }
  }
  data::Corpus corpus;
  corpus.vocabulary.resize(num_words);
  corpus.tokens.reserve(static_cast<size_t>(num_tokens));
  corpus.doc_offsets.reserve(static_cast<size_t>(num_documents) + 1);
  corpus.doc_offsets.push_back(0);
  for (int d = 0; d < num_documents; ++d) {
    for (int64_t e = indptr[d]; e < indptr[d + 1]; ++e) {
      corpus.tokens.insert(corpus.tokens.end(), static_cast<size_t>(counts[e]),
                           static_cast<int32_t>(indices[e]));
    }
    corpus.doc_offsets.push_back(corpus.num_tokens());
  }
  return corpus;
}

CsrCounts CorpusToCsr(const data::Corpus& corpus) {
  CsrCounts csr;
  csr.num_words = corpus.vocabulary_size();
  csr.indptr.push_back(0);
  std::map<int32_t, int64_t> counts;
  for (int d = 0; d < corpus.num_documents(); ++d) {
    counts.clear();
    for (int32_t w : corpus.document(d)) ++counts[w];
    for (const auto& [w, count] : counts) {
      csr.indices.push_back(w);
      csr.data.push_back(static_cast<double>(count));
    }
    csr.indptr.push_back(static_cast<int64_t>(csr.indices.size()));
  }
  return csr;
}

}  // namespace sgmcmc::python
