#include "data/corpus.h"

#include "absl/strings/str_cat.h"
#include "base/check.h"

namespace sgmcmc::data {

absl::Span<const int32_t> Corpus::document(int d) const {
  SGMCMC_CHECK(d >= 0 && d < num_documents())
      << "Corpus::document: d must be in [0, " << num_documents() << "), got " << d;
  return absl::MakeConstSpan(tokens.data() + doc_offsets[d],
                             static_cast<size_t>(doc_offsets[d + 1] - doc_offsets[d]));
}

void Corpus::AddDocument(absl::Span<const int32_t> word_ids) {
  for (int32_t w : word_ids) {
    SGMCMC_DCHECK(w >= 0 && w < vocabulary_size()) << "Corpus::AddDocument: word id " << w;
  }
  if (doc_offsets.empty()) doc_offsets.push_back(0);
  tokens.insert(tokens.end(), word_ids.begin(), word_ids.end());
  doc_offsets.push_back(num_tokens());
}

absl::Status Corpus::Validate() const {
  if (doc_offsets.empty()) {
    return tokens.empty() ? absl::OkStatus()
                          : absl::InvalidArgumentError("Corpus: tokens without doc_offsets");
  }
  if (doc_offsets.front() != 0) {
    return absl::InvalidArgumentError("Corpus: doc_offsets must start with 0");
  }
  for (int d = 0; d < num_documents(); ++d) {
    if (doc_offsets[d + 1] < doc_offsets[d]) {
      return absl::InvalidArgumentError(
          absl::StrCat("Corpus: doc_offsets decrease at document ", d));
    }
  }
  if (doc_offsets.back() != num_tokens()) {
    return absl::InvalidArgumentError(absl::StrCat("Corpus: doc_offsets end at ",
                                                   doc_offsets.back(), " but there are ",
                                                   num_tokens(), " tokens"));
  }
  for (int64_t i = 0; i < num_tokens(); ++i) {
    if (tokens[i] < 0 || tokens[i] >= vocabulary_size()) {
      return absl::InvalidArgumentError(absl::StrCat("Corpus: token ", i, " has word id ",
                                                     tokens[i], ", outside [0, ",
                                                     vocabulary_size(), ")"));
    }
  }
  return absl::OkStatus();
}

Corpus SelectDocuments(const Corpus& corpus, absl::Span<const int> doc_ids) {
  Corpus out;
  out.vocabulary = corpus.vocabulary;
  int64_t total = 0;
  for (int d : doc_ids) total += corpus.document(d).size();
  out.tokens.reserve(total);
  out.doc_offsets.reserve(doc_ids.size() + 1);
  out.doc_offsets.push_back(0);
  for (int d : doc_ids) out.AddDocument(corpus.document(d));
  return out;
}

}  // namespace sgmcmc::data
