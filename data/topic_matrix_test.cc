#include "data/topic_matrix.h"

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/file_testing.h"

namespace sgmcmc::data {
namespace {

using ::sgmcmc::testing::WriteRawTestFile;
using ::sgmcmc::testing::WriteTestFile;
using ::testing::HasSubstr;

TEST(TopicMatrixTest, PhiRoundTripIsBitExactWithTheDocumentedLayout) {
  const std::vector<double> values = {0.1, 1.0 / 3, std::numeric_limits<double>::denorm_min(),
                                      0.25, 0.5, 0.25};
  const std::string bytes = EncodeTopicMatrixPhi(values, 2, 3, 7);
  ASSERT_EQ(bytes.size(), 24u + 8 * 6);
  EXPECT_EQ(bytes.substr(0, 8), "SGMCPHI1");
  EXPECT_EQ(bytes[8], 2);
  EXPECT_EQ(bytes[12], 3);
  EXPECT_EQ(bytes[16], 7);
  // 0.25 = 0x3FD0000000000000, little-endian: the last byte of the value is 0x3F.
  EXPECT_EQ(static_cast<unsigned char>(bytes[24 + 8 * 3 + 7]), 0x3F);
  EXPECT_EQ(static_cast<unsigned char>(bytes[24 + 8 * 3 + 6]), 0xD0);
  const std::string path = WriteRawTestFile("m.phi", bytes);
  absl::StatusOr<TopicMatrix> read = ReadTopicMatrix(path, 3);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->num_topics, 2);
  EXPECT_EQ(read->vocabulary_size, 3);
  EXPECT_EQ(read->num_samples, 7u);
  EXPECT_EQ(read->values, values);
}

TEST(TopicMatrixTest, PhiInPiecesEqualsPhiWhole) {
  const std::vector<double> values = {0.1, 0.2, 0.7, 0.25, 0.5, 0.25};
  std::string pieces = EncodeTopicMatrixPhiHeader(2, 3, 1);
  EXPECT_EQ(pieces.size(), static_cast<size_t>(kTopicMatrixHeaderBytes));
  AppendTopicMatrixPhiValues(absl::MakeConstSpan(values).subspan(0, 3), pieces);
  AppendTopicMatrixPhiValues(absl::MakeConstSpan(values).subspan(3), pieces);
  EXPECT_EQ(pieces, EncodeTopicMatrixPhi(values, 2, 3, 1));
}

// Written to a stream in chunks of 2^16 values: the same bytes, for a matrix of less than one
// chunk and one of several (3 x 50,000 values, the last chunk partial).
TEST(TopicMatrixTest, PhiWrittenToAStreamEqualsPhiWhole) {
  for (const auto& [k, v] : {std::pair<int, int>{2, 3}, std::pair<int, int>{3, 50000}}) {
    std::vector<double> values(static_cast<size_t>(k) * v);
    for (size_t i = 0; i < values.size(); ++i) values[i] = 1.0 / (1.0 + static_cast<double>(i));
    std::ostringstream out;
    WriteTopicMatrixPhi(values, k, v, 7, out);
    EXPECT_EQ(out.str(), EncodeTopicMatrixPhi(values, k, v, 7)) << k << " x " << v;
  }
}

TEST(TopicMatrixTest, TsvAndF64) {
  const std::vector<double> values = {0.125, 0.875, 0.5, 0.5};
  const std::string tsv = FormatTopicMatrixTsv(values, 2, 2);
  EXPECT_EQ(tsv, "0.125\t0.875\n0.5\t0.5\n");
  absl::StatusOr<TopicMatrix> read = ReadTopicMatrix(WriteTestFile("m.tsv", tsv));
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->num_topics, 2);
  EXPECT_EQ(read->values, values);
  std::string raw = EncodeTopicMatrixPhi(values, 2, 2, 1).substr(24);
  read = ReadTopicMatrix(WriteRawTestFile("m.f64", raw), 2);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->num_topics, 2);
  EXPECT_EQ(read->values, values);
}

// The TSV writes each value as printf's "%.9g" does (absl::StrFormat here): zeros, subnormals,
// the extremes, values that round up to a new power of ten, and random probabilities.
TEST(TopicMatrixTest, TsvValuesAreNineSignificantDigitsAsPrintfWritesThem) {
  std::vector<double> values = {0.0,
                                -0.0,
                                1.0,
                                0.1,
                                1.0 / 3,
                                9.9999999995e-5,
                                99999.99995,
                                123456789.0,
                                1234567890.0,
                                1e-5,
                                1e-4,
                                5e-324,
                                2.2250738585072014e-308,
                                std::numeric_limits<double>::max(),
                                std::numeric_limits<double>::denorm_min() * 12345};
  uint64_t state = 7;
  while (values.size() < 2000) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const double u = static_cast<double>(state >> 11) * 0x1.0p-53;
    values.push_back(std::pow(u, 1 + static_cast<double>(values.size() % 60)));
  }
  const int V = 20;
  const int K = static_cast<int>(values.size()) / V;
  values.resize(static_cast<size_t>(K) * V);
  std::string expected;
  for (int k = 0; k < K; ++k) {
    for (int w = 0; w < V; ++w) {
      absl::StrAppend(&expected, w == 0 ? "" : "\t",
                      absl::StrFormat("%.9g", values[static_cast<size_t>(k) * V + w]));
    }
    expected += "\n";
  }
  EXPECT_EQ(FormatTopicMatrixTsv(values, K, V), expected);
}

TEST(TopicMatrixTest, ErrorsNameFileAndLine) {
  const std::string ragged = WriteTestFile("ragged.tsv", "1 2 3\n4 5\n");
  EXPECT_THAT(ReadTopicMatrix(ragged).status().message(),
              HasSubstr("ragged.tsv:2: 2 values, expected V = 3"));
  const std::string word = WriteTestFile("word.tsv", "1 2\n3 x\n");
  EXPECT_THAT(ReadTopicMatrix(word).status().message(), HasSubstr("word.tsv:2: not a number: 'x'"));
  // Found by //fuzz:topic_matrix_fuzzer: "," alone was a 1 x 0 matrix.
  const std::string commas = WriteTestFile("commas.tsv", ",\n");
  EXPECT_THAT(ReadTopicMatrix(commas).status().message(),
              HasSubstr("commas.tsv:1: no values on this row, only separators"));
  const std::string narrow = WriteTestFile("narrow.tsv", "1 2\n");
  EXPECT_THAT(ReadTopicMatrix(narrow, 3).status().message(),
              HasSubstr("narrow.tsv: 2 columns, expected V = 3"));
  EXPECT_THAT(ReadTopicMatrix(WriteTestFile("empty.tsv", "\n")).status().message(),
              HasSubstr("empty.tsv: no rows"));
  EXPECT_THAT(ReadTopicMatrix(WriteRawTestFile("bad.phi", "hello")).status().message(),
              HasSubstr("bad.phi: not a .phi topic matrix"));
  const std::string truncated = EncodeTopicMatrixPhi({1, 2, 3, 4}, 2, 2, 1);
  EXPECT_THAT(
      ReadTopicMatrix(WriteRawTestFile("cut.phi", truncated.substr(0, 40))).status().message(),
      HasSubstr("cut.phi: 40 bytes, expected 24 + 8 K V = 56"));
  // K = 2147352580, V = 1073807362: 8 K V = 2^64 + 64 wrapped to the 64 bytes after the header
  // and K V doubles were decoded (std::length_error, abort).
  std::string wrapped = EncodeTopicMatrixPhi(std::vector<double>(8, 0.0), 1, 8, 1);
  for (const auto& [offset, value] : {std::pair{8, uint32_t{2147352580}}, {12, 1073807362u}}) {
    for (int byte = 0; byte < 4; ++byte) wrapped[offset + byte] = (value >> (8 * byte)) & 0xff;
  }
  EXPECT_THAT(ReadTopicMatrix(WriteRawTestFile("wrapped.phi", wrapped)).status().message(),
              HasSubstr("wrapped.phi: 88 bytes, expected 24 + 8 K V = more than 2^64 "
                        "(K V = 2305843009213693960) for K = 2147352580, V = 1073807362"));
  EXPECT_THAT(ReadTopicMatrix(WriteRawTestFile("odd.f64", std::string(12, '\0')), 1)
                  .status()
                  .message(),
              HasSubstr("odd.f64: 12 bytes is not a whole number of rows"));
  EXPECT_EQ(ReadTopicMatrix("/nonexistent/m.tsv").status().code(), absl::StatusCode::kNotFound);
  // A directory named like a binary matrix threw std::ios_failure from the stream buffer
  // (uncaught: abort).
  const std::string dir = ::testing::TempDir() + "/a_directory.phi";
  std::filesystem::create_directories(dir);
  EXPECT_THAT(ReadTopicMatrix(dir).status().message(),
              HasSubstr("a_directory.phi: is a directory, not a file"));
}

TEST(TopicMatrixTest, NormalizeRows) {
  TopicMatrix m{2, 2, 1, {1, 3, 2, 2}};
  ASSERT_TRUE(NormalizeTopicRows(m, "m").ok());
  EXPECT_EQ(m.values, (std::vector<double>{0.25, 0.75, 0.5, 0.5}));
  TopicMatrix negative{1, 2, 1, {1, -1}};
  EXPECT_THAT(NormalizeTopicRows(negative, "n.tsv").message(),
              HasSubstr("n.tsv: row 1 column 2 is -1"));
  TopicMatrix zero{1, 2, 1, {0, 0}};
  EXPECT_THAT(NormalizeTopicRows(zero, "z.tsv").message(), HasSubstr("z.tsv: row 1 sums to 0"));
}

}  // namespace
}  // namespace sgmcmc::data
