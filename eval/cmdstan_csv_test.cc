#include "eval/cmdstan_csv.h"

#include <cmath>
#include <sstream>

#include "gtest/gtest.h"

namespace sgmcmc::eval {
namespace {

TEST(CmdStanCsvTest, ExactLayout) {
  std::ostringstream out;
  CmdStanCsvOptions options;
  options.model = "linear_regression";
  options.algorithm = "hamcmc";
  options.num_samples = 2;
  options.num_warmup = 10;
  options.seed = 42;
  options.chain_id = 3;
  options.output_file = "out/draws.csv";
  options.extra = {{"step_size", "(0.1 / t)^0.51"}};
  absl::StatusOr<CmdStanCsvWriter> writer =
      CmdStanCsvWriter::Create(&out, VectorParameterNames("theta", 2), options);
  ASSERT_TRUE(writer.ok()) << writer.status();
  ASSERT_TRUE(writer->WriteDraw(-12.3456789, std::vector<double>{0.5, -1e-7}).ok());
  ASSERT_TRUE(writer->WriteDraw(-1, std::vector<double>{123456789.0, 1.0 / 3}).ok());
  ASSERT_TRUE(writer->Finish(0.25, 1.5).ok());
  EXPECT_EQ(writer->draws_written(), 2);
  EXPECT_EQ(out.str(),
            "# model = linear_regression\n"
            "# method = sample\n"
            "#   sample\n"
            "#     num_samples = 2\n"
            "#     num_warmup = 10\n"
            "#     save_warmup = 0\n"
            "#     thin = 1\n"
            "#     algorithm = hamcmc\n"
            "# id = 3\n"
            "# random\n"
            "#   seed = 42\n"
            "# output\n"
            "#   file = out/draws.csv\n"
            "#   sig_figs = 6\n"
            "# step_size = (0.1 / t)^0.51\n"
            "lp__,theta.1,theta.2\n"
            "-12.3457,0.5,-1e-07\n"
            "-1,1.23457e+08,0.333333\n"
            "# \n"
            "#  Elapsed Time: 0.25 seconds (Warm-up)\n"
            "#                1.5 seconds (Sampling)\n"
            "#                1.75 seconds (Total)\n"
            "# \n");
}

TEST(CmdStanCsvTest, SignificantDigits) {
  std::ostringstream out;
  CmdStanCsvOptions options;
  options.significant_digits = 17;
  CmdStanCsvWriter writer = *CmdStanCsvWriter::Create(&out, {"x"}, options);
  ASSERT_TRUE(writer.WriteDraw(0.1, std::vector<double>{2.0 / 3}).ok());
  EXPECT_NE(out.str().find("\n0.10000000000000001,0.66666666666666663\n"), std::string::npos)
      << out.str();
}

TEST(CmdStanCsvTest, VectorNames) {
  EXPECT_EQ(VectorParameterNames("beta", 3),
            (std::vector<std::string>{"beta.1", "beta.2", "beta.3"}));
}

TEST(CmdStanCsvTest, Errors) {
  std::ostringstream out;
  CmdStanCsvOptions options;
  EXPECT_FALSE(CmdStanCsvWriter::Create(&out, {"a", "a"}, options).ok());
  EXPECT_FALSE(CmdStanCsvWriter::Create(&out, {"energy__"}, options).ok());
  EXPECT_FALSE(CmdStanCsvWriter::Create(&out, {"lp__"}, options).ok());
  EXPECT_FALSE(CmdStanCsvWriter::Create(&out, {"a,b"}, options).ok());
  options.model = "two words";
  EXPECT_NE(CmdStanCsvWriter::Create(&out, {"a"}, options).status().message().find("model"),
            std::string::npos);
  options = CmdStanCsvOptions();
  options.significant_digits = 0;
  EXPECT_NE(options.Validate().message().find("significant_digits"), std::string::npos);
  options = CmdStanCsvOptions();
  options.thin = 0;
  EXPECT_FALSE(options.Validate().ok());

  CmdStanCsvWriter writer = *CmdStanCsvWriter::Create(&out, {"a", "b"}, CmdStanCsvOptions());
  EXPECT_EQ(writer.WriteDraw(0, std::vector<double>{1}).code(), absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE(writer.Finish(0, 0).ok());
  EXPECT_EQ(writer.WriteDraw(0, std::vector<double>{1, 2}).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(writer.Finish(0, 0).code(), absl::StatusCode::kFailedPrecondition);
}

TEST(CmdStanCsvTest, StreamFailureIsDataLoss) {
  std::ostringstream out;
  out.setstate(std::ios::badbit);
  CmdStanCsvOptions options;
  options.output_file = "x.csv";
  const absl::Status status = CmdStanCsvWriter::Create(&out, {"a"}, options).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(status.message().find("x.csv"), std::string::npos);
}

}  // namespace
}  // namespace sgmcmc::eval
