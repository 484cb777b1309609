// The tf-idf transform of a bag-of-words corpus, as the 20news-diff data set defines it
// (../shared/data/20news-diff/README.md): tf-idf(d, v) = tf(d, v) · log(D / (1 + df(v))),
// each document vector l2-normalised, so documents lie on S^{V−1} for the spherical admixture
// model (models/sam/sam.h). tf is the count of v in d, df(v) the number of training documents
// containing v, D the number of training documents.
//
// ChooseTfidfVocabulary keeps the `max_words` words with the largest df (ties: smaller id)
// whose idf is positive, and fixes idf on the training corpus; TfidfTransform maps any corpus
// over the same vocabulary (training or held-out) with it, dropping documents whose vector is
// zero (no kept word).
//
// Cost: O(tokens + V log V) for the vocabulary, O(tokens) per transform.
//
// Example:
//   TfidfVocabulary vocab = ChooseTfidfVocabulary(train, /*max_words=*/5000);
//   TfidfDocuments train_tfidf = TfidfTransform(train, vocab);
#ifndef SGMCMC_DATA_TFIDF_H_
#define SGMCMC_DATA_TFIDF_H_

#include <cstdint>
#include <vector>

#include "Eigen/SparseCore"
#include "data/corpus.h"

namespace sgmcmc::data {

struct TfidfVocabulary {
  std::vector<int32_t> words;  // corpus word id of each tf-idf row
  std::vector<double> idf;     // log(D / (1 + df)) of each row, > 0
};

struct TfidfDocuments {
  Eigen::SparseMatrix<double> documents;  // rows: vocabulary rows; columns: unit documents
  std::vector<int> source_documents;      // corpus document id of each column
};

// max_words >= 1 (checked); the corpus must have at least one document (checked).
TfidfVocabulary ChooseTfidfVocabulary(const Corpus& train, int max_words);

TfidfDocuments TfidfTransform(const Corpus& corpus, const TfidfVocabulary& vocabulary);

}  // namespace sgmcmc::data

#endif  // SGMCMC_DATA_TFIDF_H_
