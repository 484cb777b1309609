#include "eval/cmdstan_csv_reader.h"

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "eval/cmdstan_csv.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sgmcmc::eval {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

TEST(CmdStanCsvReaderTest, ReadsWhatTheWriterWrites) {
  std::ostringstream out;
  CmdStanCsvOptions options;
  options.algorithm = "sgld";
  options.num_samples = 2;
  options.seed = 7;
  options.significant_digits = 17;
  absl::StatusOr<CmdStanCsvWriter> writer =
      CmdStanCsvWriter::Create(&out, VectorParameterNames("theta", 2), options);
  ASSERT_TRUE(writer.ok()) << writer.status();
  ASSERT_TRUE(writer->WriteDraw(-1.5, std::vector<double>{0.1, 1.0 / 3}).ok());
  ASSERT_TRUE(writer->WriteDraw(-2.5, std::vector<double>{-1e-300, 2}).ok());
  ASSERT_TRUE(writer->Finish(0.5, 1.5).ok());

  absl::StatusOr<CmdStanCsv> csv = ParseCmdStanCsv(out.str(), "draws.csv");
  ASSERT_TRUE(csv.ok()) << csv.status();
  EXPECT_THAT(csv->columns, ElementsAre("lp__", "theta.1", "theta.2"));
  EXPECT_EQ(csv->num_draws(), 2);
  // 17 significant digits round-trip every double exactly.
  EXPECT_THAT(csv->values, ElementsAre(-1.5, 0.1, 1.0 / 3, -2.5, -1e-300, 2));
  EXPECT_EQ(csv->ConfigValue("algorithm"), "sgld");
  EXPECT_EQ(csv->ConfigValue("seed"), "7");
  EXPECT_EQ(csv->ConfigValue("absent"), "");
  EXPECT_EQ(csv->ColumnIndex("theta.2"), 2);
  EXPECT_EQ(csv->ColumnIndex("theta.3"), -1);
  EXPECT_EQ(csv->value(1, 1), -1e-300);
}

TEST(CmdStanCsvReaderTest, ReadsCmdStansOwnLayout) {
  // Sampler statistics, adaptation comments between header and draws, CRLF, non-finite
  // values and the footer.
  const std::string text =
      "# stan_version_major = 2\r\n"
      "#   sample\n"
      "#     num_samples = 2\n"
      "lp__,accept_stat__,stepsize__,mu\n"
      "# Adaptation terminated\n"
      "# Step size = 0.9\n"
      "-7.1,0.9,0.8,1.5\n"
      "\n"
      "-inf,1,0.8,nan\n"
      "# \n"
      "#  Elapsed Time: 0.01 seconds (Warm-up)\n";
  absl::StatusOr<CmdStanCsv> csv = ParseCmdStanCsv(text, "cmdstan.csv");
  ASSERT_TRUE(csv.ok()) << csv.status();
  EXPECT_THAT(csv->config, ElementsAre(Pair("stan_version_major", "2"), Pair("num_samples", "2")));
  EXPECT_EQ(csv->num_draws(), 2);
  EXPECT_EQ(csv->value(0, 3), 1.5);
  EXPECT_TRUE(std::isinf(csv->value(1, 0)));
  EXPECT_TRUE(std::isnan(csv->value(1, 3)));
}

TEST(CmdStanCsvReaderTest, ErrorsNameTheFileAndLine) {
  auto error = [](const std::string& text) {
    absl::StatusOr<CmdStanCsv> csv = ParseCmdStanCsv(text, "f.csv");
    EXPECT_FALSE(csv.ok());
    EXPECT_EQ(csv.status().code(), absl::StatusCode::kInvalidArgument);
    return std::string(csv.status().message());
  };
  EXPECT_EQ(error("# only = comments\n"), "f.csv: no header row");
  EXPECT_EQ(error("lp__,a\n1,2\n3\n"), "f.csv:3: expected 2 values, got 1");
  EXPECT_EQ(error("lp__,a\n1,x2\n"), "f.csv:2: column 2 (a): \"x2\" is not a number");
  EXPECT_EQ(error("lp__,a,a\n"), "f.csv:1: column name \"a\" is repeated");
  EXPECT_EQ(error("#c = 1\nlp__,,b\n"), "f.csv:2: column 2 has no name");
}

TEST(CmdStanCsvReaderTest, ReadsFilesAndReportsMissingOnes) {
  const std::string path = std::string(getenv("TEST_TMPDIR")) + "/draws.csv";
  std::ofstream(path) << "lp__,x\n0,1\n0,2\n";
  absl::StatusOr<CmdStanCsv> csv = ReadCmdStanCsv(path);
  ASSERT_TRUE(csv.ok()) << csv.status();
  EXPECT_THAT(csv->values, ElementsAre(0, 1, 0, 2));
  absl::StatusOr<CmdStanCsv> missing = ReadCmdStanCsv(path + ".absent");
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(missing.status().message()), HasSubstr("draws.csv.absent: cannot open"));
}

}  // namespace
}  // namespace sgmcmc::eval
