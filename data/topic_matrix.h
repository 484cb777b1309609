// Topic-matrix files: the K x V topic matrices φ (rows on the simplex) that the `lda` tool
// writes (last sample and posterior mean) and that lda_transform / lda_evaluate read, also
// from peers (bench/lda_vs_sklearn.py).
//
// Formats, chosen by the file name's ending:
//   .tsv  K lines of V numbers separated by tabs, spaces or commas (the tool writes "%.9g"
//         with tabs: 9 significant digits, not bit-exact); K from the number of lines.
//   .phi  binary, bit-exact, self-describing (the tool's format):
//           bytes  0-7   magic "SGMCPHI1"
//           bytes  8-11  K, uint32 little-endian
//           bytes 12-15  V, uint32 little-endian
//           bytes 16-23  number of samples averaged into the matrix, uint64 little-endian
//                        (1 for a single sample, S for a posterior mean over S samples)
//           bytes 24-    K * V IEEE-754 binary64 values, little-endian, row-major
//         so a file is exactly 24 + 8 K V bytes (numpy: np.fromfile(f, "<f8", offset=24)).
//   .f64  K * V little-endian binary64 values, row-major, no header; K from the size and V
//         (which the reader must be given).
//
// Cost: O(K V) to read, write or normalise.
//
// Example:
//   const std::string bytes = EncodeTopicMatrixPhi(topics, K, V, /*num_samples=*/1);
//   ... write `bytes` to "topic_matrix_scir.phi" ...
//   SGMCMC_ASSIGN_OR_RETURN(TopicMatrix phi, ReadTopicMatrix("topic_matrix_mean_scir.phi"));
#ifndef SGMCMC_DATA_TOPIC_MATRIX_H_
#define SGMCMC_DATA_TOPIC_MATRIX_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace sgmcmc::data {

inline constexpr char kTopicMatrixMagic[] = "SGMCPHI1";  // 8 bytes, no terminator stored
inline constexpr int kTopicMatrixHeaderBytes = 24;

struct TopicMatrix {
  int num_topics = 0;       // K
  int vocabulary_size = 0;  // V
  uint64_t num_samples = 1;  // samples averaged into it (.phi only; 1 otherwise)
  std::vector<double> values;  // K x V row-major
};

// The .tsv text of a K x V matrix ("%.9g", tab-separated, one row per line).
std::string FormatTopicMatrixTsv(absl::Span<const double> values, int num_topics,
                                 int vocabulary_size);
// The .phi bytes of a K x V matrix (values.size() == K V, checked).
std::string EncodeTopicMatrixPhi(absl::Span<const double> values, int num_topics,
                                 int vocabulary_size, uint64_t num_samples);
// The same bytes in pieces, for a writer that streams a matrix row by row without holding it:
// EncodeTopicMatrixPhiHeader(K, V, S) followed by AppendTopicMatrixPhiValues of the rows in
// order equals EncodeTopicMatrixPhi(values, K, V, S).
std::string EncodeTopicMatrixPhiHeader(int num_topics, int vocabulary_size,
                                       uint64_t num_samples);
void AppendTopicMatrixPhiValues(absl::Span<const double> values, std::string& out);
// EncodeTopicMatrixPhi's bytes written to `out` in chunks of 2^16 values, without holding them
// (400 MB at K = 1000, V = 50,000). The same CHECKs.
void WriteTopicMatrixPhi(absl::Span<const double> values, int num_topics, int vocabulary_size,
                         uint64_t num_samples, std::ostream& out);
// Parses .phi bytes; `source` names them in errors (bad magic, sizes, truncation).
absl::StatusOr<TopicMatrix> DecodeTopicMatrixPhi(absl::string_view bytes,
                                                 absl::string_view source);

// Reads a .tsv, .phi or .f64 file (by its ending; others are read as .tsv). If
// vocabulary_size >= 0 the matrix must have V = vocabulary_size columns (required for
// .f64). Errors name the file, and for text the line: "phi.tsv:3: 5 values, expected V = 6",
// "phi.tsv:2: not a number: 'x'".
absl::StatusOr<TopicMatrix> ReadTopicMatrix(const std::string& path, int vocabulary_size = -1);

// Divides every row by its sum. InvalidArgument naming `source`, the row and column if an
// entry is negative or not finite, or naming the row if it sums to 0.
absl::Status NormalizeTopicRows(TopicMatrix& matrix, absl::string_view source);

}  // namespace sgmcmc::data

#endif  // SGMCMC_DATA_TOPIC_MATRIX_H_
