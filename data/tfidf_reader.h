// Reader of the sparse tf-idf format of the SGGMC paper's 20News-different data
// (../shared/data/20news-diff, README there): plain or gzip text,
//   V D
//   n y w1:t1 w2:t2 ... wn:tn        (one line per document: n distinct 0-based word ids w
//   ...                               with tf-idf values t, label y; l2-normalised)
//   [K]                               (optional last line: the number of labels)
// into the V×D sparse matrix whose columns are the documents, the input of the spherical
// admixture model (models/sam/sam.h).
//
// Checks (InvalidArgument "path:line: ..."): the header (V and D within the bounds below);
// per document, n matches the pairs, ids in [0, V) and distinct, values finite, and the
// vector unit to 1e-6 (an empty document is rejected: it has no direction); exactly D
// documents.
//
// Cost: O(bytes + nnz log n) (ids are sorted per document).
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(TfidfCorpus train,
//       ReadTfidfCorpus("../shared/data/20news-diff/diff.train.tfidf1.data.gz"));
#ifndef SGMCMC_DATA_TFIDF_READER_H_
#define SGMCMC_DATA_TFIDF_READER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "Eigen/SparseCore"
#include "absl/status/statusor.h"

namespace sgmcmc::data {

struct TfidfCorpus {
  // V×D; column d is document d, unit l2 norm.
  Eigen::SparseMatrix<double> documents;
  // Label y of each document.
  std::vector<int> labels;
};

// Bounds on the header: a larger V or D is refused as corrupt (V·K dense topics, and Eigen's
// int indices, could not hold it); nothing is allocated from D before its documents are read.
inline constexpr int64_t kMaxTfidfWords = int64_t{1} << 24;
inline constexpr int64_t kMaxTfidfDocuments = (int64_t{1} << 31) - 1;

absl::StatusOr<TfidfCorpus> ReadTfidfCorpus(const std::string& path);

}  // namespace sgmcmc::data

#endif  // SGMCMC_DATA_TFIDF_READER_H_
