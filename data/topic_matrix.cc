#include "data/topic_matrix.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/check.h"
#include "base/read_file.h"
#include "data/line_reader.h"

namespace sgmcmc::data {
namespace {

void AppendLittleEndian(uint64_t value, int bytes, std::string& out) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

uint64_t LoadLittleEndian(const char* p, int bytes) {
  uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) {
    value |= static_cast<uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
  }
  return value;
}

// Doubles from little-endian binary64 bytes.
void DecodeDoubles(const char* p, size_t count, std::vector<double>& out) {
  out.resize(count);
  for (size_t i = 0; i < count; ++i) {
    const uint64_t bits = LoadLittleEndian(p + 8 * i, 8);
    std::memcpy(&out[i], &bits, 8);
  }
}

absl::StatusOr<TopicMatrix> ReadTsv(const std::string& path) {
  absl::StatusOr<LineReader> reader = LineReader::Open(path);
  if (!reader.ok()) return reader.status();
  TopicMatrix matrix;
  matrix.vocabulary_size = -1;
  absl::string_view line;
  while (reader->Next(&line)) {
    if (absl::StripAsciiWhitespace(line).empty()) continue;
    const size_t before = matrix.values.size();
    for (absl::string_view field :
         absl::StrSplit(line, absl::ByAnyChar(" \t,"), absl::SkipEmpty())) {
      double x;
      if (!absl::SimpleAtod(field, &x)) {
        return reader->Error(absl::StrCat("not a number: '", field, "'"));
      }
      matrix.values.push_back(x);
    }
    const int row_size = static_cast<int>(matrix.values.size() - before);
    // Found by //fuzz:topic_matrix_fuzzer: a line of separators only (",") made a K x 0 matrix.
    if (row_size == 0) {
      return reader->Error("no values on this row, only separators");
    }
    if (matrix.vocabulary_size < 0) {
      matrix.vocabulary_size = row_size;
    } else if (row_size != matrix.vocabulary_size) {
      return reader->Error(absl::StrCat(row_size, " values, expected V = ",
                                        matrix.vocabulary_size, " as on the first row"));
    }
    ++matrix.num_topics;
  }
  if (!reader->status().ok()) return reader->status();
  if (matrix.num_topics == 0) return absl::InvalidArgumentError(absl::StrCat(path, ": no rows"));
  return matrix;
}

}  // namespace

std::string FormatTopicMatrixTsv(absl::Span<const double> values, int num_topics,
                                 int vocabulary_size) {
  SGMCMC_CHECK(values.size() == static_cast<size_t>(num_topics) * vocabulary_size)
      << "FormatTopicMatrixTsv: " << values.size() << " values for " << num_topics << " x "
      << vocabulary_size;
  std::string out;
  out.reserve(values.size() * 12);
  // Each value as printf's "%.9g" writes it: std::to_chars with a precision is specified to
  // give exactly those characters, without a temporary string per value (a K = 1000,
  // V = 50,000 matrix is 5 x 10^7 values).
  char buffer[64];
  for (int k = 0; k < num_topics; ++k) {
    for (int w = 0; w < vocabulary_size; ++w) {
      if (w > 0) out += '\t';
      const std::to_chars_result r =
          std::to_chars(buffer, buffer + sizeof(buffer),
                        values[static_cast<size_t>(k) * vocabulary_size + w],
                        std::chars_format::general, 9);
      out.append(buffer, r.ptr);
    }
    out += '\n';
  }
  return out;
}

std::string EncodeTopicMatrixPhi(absl::Span<const double> values, int num_topics,
                                 int vocabulary_size, uint64_t num_samples) {
  SGMCMC_CHECK(num_topics >= 1 && vocabulary_size >= 1 &&
               values.size() == static_cast<size_t>(num_topics) * vocabulary_size)
      << "EncodeTopicMatrixPhi: " << values.size() << " values for " << num_topics << " x "
      << vocabulary_size;
  std::string out = EncodeTopicMatrixPhiHeader(num_topics, vocabulary_size, num_samples);
  out.reserve(kTopicMatrixHeaderBytes + 8 * values.size());
  AppendTopicMatrixPhiValues(values, out);
  return out;
}

void WriteTopicMatrixPhi(absl::Span<const double> values, int num_topics, int vocabulary_size,
                         uint64_t num_samples, std::ostream& out) {
  SGMCMC_CHECK(num_topics >= 1 && vocabulary_size >= 1 &&
               values.size() == static_cast<size_t>(num_topics) * vocabulary_size)
      << "WriteTopicMatrixPhi: " << values.size() << " values for " << num_topics << " x "
      << vocabulary_size;
  constexpr size_t kChunkValues = size_t{1} << 16;
  std::string chunk = EncodeTopicMatrixPhiHeader(num_topics, vocabulary_size, num_samples);
  chunk.reserve(kTopicMatrixHeaderBytes + 8 * kChunkValues);
  for (size_t begin = 0; begin < values.size(); begin += kChunkValues) {
    AppendTopicMatrixPhiValues(values.subspan(begin, kChunkValues), chunk);
    out.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    chunk.clear();
  }
}

std::string EncodeTopicMatrixPhiHeader(int num_topics, int vocabulary_size,
                                       uint64_t num_samples) {
  SGMCMC_CHECK(num_topics >= 1 && vocabulary_size >= 1)
      << "EncodeTopicMatrixPhiHeader: " << num_topics << " x " << vocabulary_size;
  std::string out(kTopicMatrixMagic, 8);
  AppendLittleEndian(static_cast<uint32_t>(num_topics), 4, out);
  AppendLittleEndian(static_cast<uint32_t>(vocabulary_size), 4, out);
  AppendLittleEndian(num_samples, 8, out);
  return out;
}

void AppendTopicMatrixPhiValues(absl::Span<const double> values, std::string& out) {
  for (double x : values) {
    uint64_t bits;
    std::memcpy(&bits, &x, 8);
    AppendLittleEndian(bits, 8, out);
  }
}

absl::StatusOr<TopicMatrix> DecodeTopicMatrixPhi(absl::string_view bytes,
                                                 absl::string_view source) {
  if (bytes.size() < static_cast<size_t>(kTopicMatrixHeaderBytes) ||
      bytes.substr(0, 8) != absl::string_view(kTopicMatrixMagic, 8)) {
    return absl::InvalidArgumentError(
        absl::StrCat(source, ": not a .phi topic matrix (no \"SGMCPHI1\" header)"));
  }
  const uint64_t K = LoadLittleEndian(bytes.data() + 8, 4);
  const uint64_t V = LoadLittleEndian(bytes.data() + 12, 4);
  if (K < 1 || V < 1 || K >= (uint64_t{1} << 31) || V >= (uint64_t{1} << 31)) {
    return absl::InvalidArgumentError(
        absl::StrCat(source, ": header gives K = ", K, ", V = ", V, ", expected both >= 1"));
  }
  // K V < 2^62, but 8 K V may wrap around 2^64 (to the size of a small file, whose K V
  // doubles were then decoded): compare the payload's doubles with K V instead.
  const uint64_t payload = bytes.size() - kTopicMatrixHeaderBytes;
  if (payload % 8 != 0 || payload / 8 != K * V) {
    const std::string expected =
        K * V <= (std::numeric_limits<uint64_t>::max() - kTopicMatrixHeaderBytes) / 8
            ? absl::StrCat(kTopicMatrixHeaderBytes + 8 * K * V)
            : absl::StrCat("more than 2^64 (K V = ", K * V, ")");
    return absl::InvalidArgumentError(absl::StrCat(source, ": ", bytes.size(),
                                                   " bytes, expected 24 + 8 K V = ", expected,
                                                   " for K = ", K, ", V = ", V));
  }
  TopicMatrix matrix;
  matrix.num_topics = static_cast<int>(K);
  matrix.vocabulary_size = static_cast<int>(V);
  matrix.num_samples = LoadLittleEndian(bytes.data() + 16, 8);
  DecodeDoubles(bytes.data() + kTopicMatrixHeaderBytes, K * V, matrix.values);
  return matrix;
}

absl::StatusOr<TopicMatrix> ReadTopicMatrix(const std::string& path, int vocabulary_size) {
  absl::StatusOr<TopicMatrix> matrix;
  if (absl::EndsWith(path, ".phi") || absl::EndsWith(path, ".f64")) {
    absl::StatusOr<std::string> bytes = base::ReadFileBytes(path);
    if (!bytes.ok()) return bytes.status();
    if (absl::EndsWith(path, ".phi")) {
      matrix = DecodeTopicMatrixPhi(*bytes, path);
    } else {
      if (vocabulary_size < 1) {
        return absl::InvalidArgumentError(
            absl::StrCat(path, ": a .f64 matrix needs the vocabulary size"));
      }
      const size_t row_bytes = 8 * static_cast<size_t>(vocabulary_size);
      if (bytes->empty() || bytes->size() % row_bytes != 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            path, ": ", bytes->size(), " bytes is not a whole number of rows of V = ",
            vocabulary_size, " doubles"));
      }
      matrix = TopicMatrix();
      matrix->num_topics = static_cast<int>(bytes->size() / row_bytes);
      matrix->vocabulary_size = vocabulary_size;
      DecodeDoubles(bytes->data(), bytes->size() / 8, matrix->values);
    }
  } else {
    matrix = ReadTsv(path);
  }
  if (!matrix.ok()) return matrix.status();
  if (vocabulary_size >= 0 && matrix->vocabulary_size != vocabulary_size) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", matrix->vocabulary_size,
                                                   " columns, expected V = ", vocabulary_size));
  }
  return matrix;
}

absl::Status NormalizeTopicRows(TopicMatrix& matrix, absl::string_view source) {
  const size_t V = static_cast<size_t>(matrix.vocabulary_size);
  for (int k = 0; k < matrix.num_topics; ++k) {
    double* row = matrix.values.data() + k * V;
    double sum = 0;
    for (size_t w = 0; w < V; ++w) {
      if (!(row[w] >= 0) || !std::isfinite(row[w])) {
        return absl::InvalidArgumentError(absl::StrCat(source, ": row ", k + 1, " column ",
                                                       w + 1, " is ", row[w],
                                                       ", expected finite and >= 0"));
      }
      sum += row[w];
    }
    if (!(sum > 0) || !std::isfinite(sum)) {
      return absl::InvalidArgumentError(
          absl::StrCat(source, ": row ", k + 1, " sums to ", sum, ", expected > 0"));
    }
    for (size_t w = 0; w < V; ++w) row[w] /= sum;
  }
  return absl::OkStatus();
}

}  // namespace sgmcmc::data
