#include "tools/lda_transform_run.h"

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "data/topic_matrix.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/file_testing.h"

namespace sgmcmc::tools {
namespace {

using ::sgmcmc::testing::ReadTestFile;
using ::sgmcmc::testing::WriteRawTestFile;
using ::sgmcmc::testing::WriteTestFile;
using ::testing::HasSubstr;
using ::testing::Not;

// K = 2 topics over V = 4 words: topic 0 on words 0-1, topic 1 on words 2-3.
const std::vector<double> kPhi = {0.5, 0.5, 0.0, 0.0,  //
                                  0.0, 0.0, 0.5, 0.5};

std::vector<std::vector<double>> ReadMatrix(const std::string& path) {
  std::vector<std::vector<double>> rows;
  for (absl::string_view line : absl::StrSplit(ReadTestFile(path), '\n', absl::SkipEmpty())) {
    std::vector<double> row;
    for (absl::string_view field : absl::StrSplit(line, '\t')) {
      row.push_back(std::stod(std::string(field)));
    }
    rows.push_back(row);
  }
  return rows;
}

LdaTransformOptions Options(const std::string& name) {
  LdaTransformOptions options;
  options.topics = {WriteRawTestFile(name + ".phi", data::EncodeTopicMatrixPhi(kPhi, 2, 4, 1))};
  options.vocab = WriteTestFile(name + "_vocab.txt", "apple\nbanana\ncar\ndoor\n");
  options.output = WriteTestFile(name + "_theta.tsv", "");
  options.fold_in.alpha = 0.5;
  return options;
}

TEST(LdaTransformTest, UciDocumentsGiveTheClosedFormProportions) {
  LdaTransformOptions options = Options("uci");
  // Doc 1: 3 tokens of topic 0, 1 of topic 1; doc 2: 2 of topic 1. With disjoint topics the
  // fold-in is exact: θ_k = (n_k + α) / (n + K α).
  options.docword = WriteTestFile("uci_docword.txt", "2\n4\n4\n1 1 2\n1 2 1\n1 4 1\n2 3 2\n");
  std::ostringstream log;
  const absl::Status status = RunLdaTransform(options, log);
  ASSERT_TRUE(status.ok()) << status << log.str();
  const auto theta = ReadMatrix(options.output);
  ASSERT_EQ(theta.size(), 2u);
  EXPECT_NEAR(theta[0][0], 3.5 / 5, 1e-8);
  EXPECT_NEAR(theta[0][1], 1.5 / 5, 1e-8);
  EXPECT_NEAR(theta[1][0], 0.5 / 3, 1e-8);
  EXPECT_NEAR(theta[1][1], 2.5 / 3, 1e-8);
  EXPECT_THAT(log.str(), HasSubstr("folded in 2 documents"));
  EXPECT_THAT(log.str(), Not(HasSubstr("default for K")));

  // α = 0: the lda tool's default for the topics' K (models::DefaultLdaAlpha: 0.1 at K = 2).
  options.fold_in.alpha = 0;
  ASSERT_TRUE(RunLdaTransform(options, log).ok()) << log.str();
  const auto by_k = ReadMatrix(options.output);
  EXPECT_NEAR(by_k[0][0], 3.1 / 4.2, 1e-8);
  EXPECT_NEAR(by_k[1][1], 2.1 / 2.2, 1e-8);
  EXPECT_THAT(log.str(), HasSubstr("alpha 0.1 (default for K = 2: models::DefaultLdaAlpha"));
}

TEST(LdaTransformTest, TextLinesAndAveragedSamples) {
  LdaTransformOptions options = Options("text");
  options.text = WriteTestFile("text.txt", "apple apple banana zebra\n\ndoor car car\n");
  // A second sample with the topics swapped: the average of the two fold-ins is symmetric.
  const std::vector<double> swapped = {0.0, 0.0, 0.5, 0.5, 0.5, 0.5, 0.0, 0.0};
  options.topics.push_back(WriteTestFile("swapped.tsv", data::FormatTopicMatrixTsv(swapped, 2, 4)));
  std::ostringstream log;
  const absl::Status status = RunLdaTransform(options, log);
  ASSERT_TRUE(status.ok()) << status << log.str();
  const auto theta = ReadMatrix(options.output);
  ASSERT_EQ(theta.size(), 3u);  // the empty line is a document too
  for (const auto& row : theta) {
    EXPECT_NEAR(row[0], 0.5, 1e-8);
    EXPECT_NEAR(row[1], 0.5, 1e-8);
  }
  options.topics.pop_back();
  ASSERT_TRUE(RunLdaTransform(options, log).ok()) << log.str();
  const auto single = ReadMatrix(options.output);
  EXPECT_NEAR(single[0][0], 3.5 / 4, 1e-8);  // "zebra" is not in the vocabulary
  EXPECT_NEAR(single[2][1], 3.5 / 4, 1e-8);
}

TEST(LdaTransformTest, ErrorsNameTheFileAndLine) {
  std::ostringstream log;
  LdaTransformOptions options = Options("err");
  options.docword = WriteTestFile("bad_docword.txt", "1\n4\n2\n1 1 2\n1 x 1\n");
  EXPECT_THAT(RunLdaTransform(options, log).message(), HasSubstr("bad_docword.txt:5"));

  options = Options("err2");
  options.docword = WriteTestFile("good_docword.txt", "1\n4\n1\n1 1 2\n");
  options.topics = {WriteTestFile("ragged.tsv", "0.5 0.5 0 0\n0 0.5\n")};
  EXPECT_THAT(RunLdaTransform(options, log).message(),
              HasSubstr("ragged.tsv:2: 2 values, expected V = 4"));
  options.topics = {WriteTestFile("narrow.tsv", "0.5 0.5 0\n0 0.5 0.5\n")};
  EXPECT_THAT(RunLdaTransform(options, log).message(), HasSubstr("the topic matrix"));
  options.topics = {WriteTestFile("negative.tsv", "0.5 0.5 0 0\n0 0.5 -1 0.5\n")};
  EXPECT_THAT(RunLdaTransform(options, log).message(),
              HasSubstr("negative.tsv: row 2 column 3 is -1"));
  options.topics = {Options("x").topics[0], WriteTestFile("three.tsv", "1 1 1 1\n1 1 1 1\n1 1 1 1\n")};
  EXPECT_THAT(RunLdaTransform(options, log).message(), HasSubstr("three.tsv: is 3 x 4"));

  options = Options("err_alpha");
  options.docword = WriteTestFile("alpha_docword.txt", "1\n4\n1\n1 1 2\n");
  for (const double alpha : {-1.0, std::nan(""), HUGE_VAL}) {
    options.fold_in.alpha = alpha;
    EXPECT_THAT(RunLdaTransform(options, log).message(),
                HasSubstr("--alpha must be finite and > 0 (0: the default for K), got"))
        << alpha;
  }

  options = Options("err3");
  EXPECT_THAT(RunLdaTransform(options, log).message(), HasSubstr("exactly one of --docword"));
  options.docword = "/nonexistent/docword.txt";
  EXPECT_EQ(RunLdaTransform(options, log).code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace sgmcmc::tools
