// Fuzz target: sparse tf-idf corpora (data/tfidf_reader.h), plain or gzip (first byte).
// Contract: an error naming the file, or a V x D matrix within the header bounds with one
// label per document, every column of unit l2 norm (to the reader's 1e-6) with finite values.
#include <cmath>
#include <cstdint>
#include <string>

#include "base/check.h"
#include "data/tfidf_reader.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sgmcmc;
  if (size == 0) return 0;
  static fuzz::ScratchFile* plain = new fuzz::ScratchFile("train.tfidf.data");
  static fuzz::ScratchFile* gzip = new fuzz::ScratchFile("train.tfidf.data.gz");
  const absl::string_view text = fuzz::AsText(data + 1, size - 1);
  const std::string& path = fuzz::WritePlainOrGzip(data[0], text, *plain, *gzip);
  const absl::StatusOr<data::TfidfCorpus> corpus = data::ReadTfidfCorpus(path);
  if (!corpus.ok()) {
    fuzz::CheckInputError(corpus.status(), path);
    return 0;
  }
  const Eigen::SparseMatrix<double>& x = corpus->documents;
  SGMCMC_CHECK(x.rows() >= 0 && x.rows() <= data::kMaxTfidfWords);
  SGMCMC_CHECK_EQ(static_cast<int64_t>(corpus->labels.size()), static_cast<int64_t>(x.cols()));
  for (int d = 0; d < x.cols(); ++d) {
    double norm2 = 0;
    for (Eigen::SparseMatrix<double>::InnerIterator it(x, d); it; ++it) {
      SGMCMC_CHECK(std::isfinite(it.value()));
      SGMCMC_CHECK(it.row() >= 0 && it.row() < x.rows());
      norm2 += it.value() * it.value();
    }
    SGMCMC_CHECK(std::abs(std::sqrt(norm2) - 1) <= 1e-6 + 1e-12) << "column " << d << " norm^2 "
                                                                  << norm2;
  }
  return 0;
}
