// Fuzz target: topic-matrix files (data/topic_matrix.h): .phi bytes (DecodeTopicMatrixPhi and
// ReadTopicMatrix), .tsv text and .f64 values, by the first byte. Contract: an error naming
// the source, or K x V values with K, V >= 1 (V as required when given); a .phi re-encodes to
// the same bytes; NormalizeTopicRows either fails naming the source or leaves rows that sum
// to 1 with non-negative entries.
#include <cmath>
#include <cstdint>
#include <string>

#include "base/check.h"
#include "data/topic_matrix.h"
#include "fuzz/fuzz_support.h"

namespace sgmcmc::fuzz {
namespace {

void CheckMatrix(data::TopicMatrix matrix, int vocabulary_size, absl::string_view source) {
  SGMCMC_CHECK_GE(matrix.num_topics, 1);
  SGMCMC_CHECK_GE(matrix.vocabulary_size, 1);
  if (vocabulary_size >= 0) SGMCMC_CHECK_EQ(matrix.vocabulary_size, vocabulary_size);
  SGMCMC_CHECK_EQ(static_cast<int64_t>(matrix.values.size()),
                  int64_t{matrix.num_topics} * matrix.vocabulary_size);
  const absl::Status normalized = data::NormalizeTopicRows(matrix, source);
  if (!normalized.ok()) {
    CheckInputError(normalized, source);
    return;
  }
  for (int k = 0; k < matrix.num_topics; ++k) {
    double sum = 0;
    for (int w = 0; w < matrix.vocabulary_size; ++w) {
      const double p = matrix.values[int64_t{k} * matrix.vocabulary_size + w];
      SGMCMC_CHECK(std::isfinite(p) && p >= 0) << p;
      sum += p;
    }
    SGMCMC_CHECK_LE(std::abs(sum - 1), 1e-9) << "row " << k;
  }
}

}  // namespace
}  // namespace sgmcmc::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sgmcmc;
  if (size == 0) return 0;
  static fuzz::ScratchFile* phi = new fuzz::ScratchFile("topics.phi");
  static fuzz::ScratchFile* tsv = new fuzz::ScratchFile("topics.tsv");
  static fuzz::ScratchFile* f64 = new fuzz::ScratchFile("topics.f64");
  const absl::string_view bytes = fuzz::AsText(data + 1, size - 1);
  const int vocabulary_size = (data[0] >> 2) == 0 ? -1 : (data[0] >> 2);
  switch (data[0] & 3) {
    case 0: {  // .phi bytes in memory, then the same bytes as a file
      const absl::StatusOr<data::TopicMatrix> decoded =
          data::DecodeTopicMatrixPhi(bytes, "fuzz.phi");
      const std::string& path = phi->Write(bytes);
      const absl::StatusOr<data::TopicMatrix> read = data::ReadTopicMatrix(path);
      SGMCMC_CHECK_EQ(read.ok(), decoded.ok()) << read.status() << " vs " << decoded.status();
      if (!decoded.ok()) {
        fuzz::CheckInputError(decoded.status(), "fuzz.phi");
        fuzz::CheckInputError(read.status(), path);
        return 0;
      }
      SGMCMC_CHECK(data::EncodeTopicMatrixPhi(decoded->values, decoded->num_topics,
                                              decoded->vocabulary_size,
                                              decoded->num_samples) == bytes)
          << "a decoded .phi does not re-encode to its bytes";
      fuzz::CheckMatrix(*decoded, -1, "fuzz.phi");
      break;
    }
    case 1:
    case 2: {
      fuzz::ScratchFile* file = (data[0] & 3) == 1 ? tsv : f64;
      const std::string& path = file->Write(bytes);
      const absl::StatusOr<data::TopicMatrix> read =
          data::ReadTopicMatrix(path, file == f64 && vocabulary_size < 0 ? 3 : vocabulary_size);
      if (!read.ok()) {
        fuzz::CheckInputError(read.status(), path);
        return 0;
      }
      fuzz::CheckMatrix(*read, file == f64 && vocabulary_size < 0 ? 3 : vocabulary_size, path);
      break;
    }
    default: {  // .phi with a required vocabulary size
      const std::string& path = phi->Write(bytes);
      const absl::StatusOr<data::TopicMatrix> read = data::ReadTopicMatrix(path, vocabulary_size);
      if (!read.ok()) {
        fuzz::CheckInputError(read.status(), path);
        return 0;
      }
      fuzz::CheckMatrix(*read, vocabulary_size, path);
      break;
    }
  }
  return 0;
}
