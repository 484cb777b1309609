// Corpus: a bag-of-words corpus held in memory as a flat token array.
//
// Every document is the contiguous run tokens[doc_offsets[d], doc_offsets[d + 1]) of word ids
// in [0, vocabulary_size()). Bag-of-words inputs (UCI "docID wordID count") are expanded into
// `count` consecutive copies of the word id, in the order of the input file, so the token
// positions used by the document-completion split (docs/ALGORITHMS.md, "Evaluation protocol
// shared by all LDA samplers") are well defined and reproducible.
//
// Cost: 4 bytes per token plus 8 bytes per document; document(d) is O(1).
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(data::Corpus corpus, data::ReadUciCorpus(docword, vocab));
//   for (int d = 0; d < corpus.num_documents(); ++d)
//     for (int32_t w : corpus.document(d)) ++word_counts[w];
#ifndef SGMCMC_DATA_CORPUS_H_
#define SGMCMC_DATA_CORPUS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"

namespace sgmcmc::data {

struct Corpus {
  std::vector<std::string> vocabulary;   // word id -> word
  std::vector<int64_t> doc_offsets;      // size num_documents() + 1, offsets into tokens
                                         // (empty or {0}: no documents)
  std::vector<int32_t> tokens;           // word id of every token, documents contiguous

  int num_documents() const {
    return doc_offsets.empty() ? 0 : static_cast<int>(doc_offsets.size()) - 1;
  }
  int vocabulary_size() const { return static_cast<int>(vocabulary.size()); }
  int64_t num_tokens() const { return static_cast<int64_t>(tokens.size()); }

  // Word ids of document d, 0 <= d < num_documents() (checked).
  absl::Span<const int32_t> document(int d) const;
  // Number of tokens of document d.
  int64_t document_size(int d) const { return doc_offsets[d + 1] - doc_offsets[d]; }

  // Appends a document made of `word_ids` (each in [0, vocabulary_size()), DCHECKed);
  // starts doc_offsets at {0} first if it is empty.
  void AddDocument(absl::Span<const int32_t> word_ids);

  // Checks the invariants above: offsets are empty or start at 0, are non-decreasing and end at
  // num_tokens(); every token is a valid word id. Returns InvalidArgument naming the first
  // violation. O(num_tokens()).
  absl::Status Validate() const;
};

// The corpus made of documents `doc_ids` of `corpus` (in that order), sharing its vocabulary.
// Every id must be in [0, corpus.num_documents()) (checked).
Corpus SelectDocuments(const Corpus& corpus, absl::Span<const int> doc_ids);

}  // namespace sgmcmc::data

#endif  // SGMCMC_DATA_CORPUS_H_
