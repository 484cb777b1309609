#include "tools/matrix_factorization_experiment.h"

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "models/matrix_factorization.h"
#include "parallel/communicator.h"
#include "testing/file_testing.h"

namespace sgmcmc::tools {
namespace {

using ::testing::HasSubstr;

MatrixFactorizationExperimentOptions Small() {
  MatrixFactorizationExperimentOptions o;
  o.synthetic_rows = 150;
  o.synthetic_cols = 120;
  o.synthetic_density = 0.3;
  o.model.rank = 3;
  o.model.sigma_x = 0.5;
  o.sgld_step = 2e-3;
  o.psgld_step = 1e-5;
  o.hamcmc_step = 1;
  o.hamcmc_gamma = 2e-3;
  o.hamcmc_warmup_step = 1e-3;
  o.iterations = 300;
  o.record_every = 10;
  return o;
}

TEST(MatrixFactorizationExperimentTest, SyntheticRunApproachesTheNoiseLevelForEveryMethod) {
  std::unique_ptr<parallel::Communicator> comm = parallel::MakeSingleProcessCommunicator();
  absl::StatusOr<MatrixFactorizationResult> r =
      RunMatrixFactorizationExperiment(Small(), *comm);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->noise_level, 0.5);
  EXPECT_EQ(r->num_rows, 150);
  ASSERT_EQ(r->methods.size(), 3u);
  for (const MatrixFactorizationMethodResult& m : r->methods) {
    EXPECT_EQ(m.trace.size(), 30u);
    EXPECT_LT(m.trace.back().average_rmse, 1.3 * r->noise_level)
        << models::MfMethodName(m.method);
    EXPECT_GT(m.ratings_per_second_per_rank, 0);
  }
  const std::string csv = MatrixFactorizationTraceCsv(*r);
  const std::vector<std::string> lines = absl::StrSplit(csv, '\n', absl::SkipEmpty());
  EXPECT_EQ(lines.size(), 1u + 3 * 30);
  EXPECT_EQ(lines[0], "method,iteration,seconds,sample_rmse,average_rmse");
  EXPECT_THAT(MatrixFactorizationSummary(*r), HasSubstr("hamcmc  final averaged test RMSE"));
}

TEST(MatrixFactorizationExperimentTest, ThreadRanksGiveTheSameTraces) {
  MatrixFactorizationExperimentOptions o = Small();
  o.iterations = 60;
  std::unique_ptr<parallel::Communicator> comm = parallel::MakeSingleProcessCommunicator();
  absl::StatusOr<MatrixFactorizationResult> one = RunMatrixFactorizationExperiment(o, *comm);
  ASSERT_TRUE(one.ok());
  std::vector<MatrixFactorizationResult> results(4);
  absl::Status status = parallel::RunOnThreads(4, [&](parallel::Communicator& c) {
    absl::StatusOr<MatrixFactorizationResult> r = RunMatrixFactorizationExperiment(o, c);
    if (r.ok()) results[c.rank()] = *r;
    return r.status();
  });
  ASSERT_TRUE(status.ok()) << status;
  for (const MatrixFactorizationResult& r : results) {
    EXPECT_EQ(r.num_ranks, 4);
    ASSERT_EQ(r.methods.size(), one->methods.size());
    for (size_t m = 0; m < r.methods.size(); ++m) {
      EXPECT_EQ(r.methods[m].trace.back().average_rmse,
                one->methods[m].trace.back().average_rmse);
    }
  }
}

TEST(MatrixFactorizationExperimentTest, ReadsARatingsFileAndReportsBadRowsOnEveryRank) {
  std::string contents;
  for (int u = 1; u <= 12; ++u) {
    for (int i = 1; i <= 10; ++i) {
      absl::StrAppend(&contents, u, "\t", i, "\t", (u * i) % 5 + 1, "\t0\n");
    }
  }
  MatrixFactorizationExperimentOptions o = Small();
  o.ratings_path = sgmcmc::testing::WriteTestFile("u.data", contents);
  o.iterations = 60;
  o.methods = {models::MfMethod::kSgld};
  std::unique_ptr<parallel::Communicator> comm = parallel::MakeSingleProcessCommunicator();
  absl::StatusOr<MatrixFactorizationResult> r = RunMatrixFactorizationExperiment(o, *comm);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->num_train + r->num_test, 120);
  EXPECT_EQ(r->num_test, 12);
  EXPECT_TRUE(std::isnan(r->noise_level));

  o.ratings_path = sgmcmc::testing::WriteTestFile("bad.data", contents + "1\t2\n");
  std::vector<absl::Status> seen(2);
  absl::Status status = parallel::RunOnThreads(2, [&](parallel::Communicator& c) {
    seen[c.rank()] = RunMatrixFactorizationExperiment(o, c).status();
    return absl::OkStatus();
  });
  ASSERT_TRUE(status.ok());
  for (const absl::Status& s : seen) {
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(s.message()), HasSubstr("bad.data:121: expected user"));
  }
}

TEST(MatrixFactorizationExperimentTest, ValidateNamesTheField) {
  MatrixFactorizationExperimentOptions o = Small();
  o.record_every = 0;
  EXPECT_THAT(std::string(o.Validate().message()), HasSubstr("record_every"));
  o = Small();
  o.methods.clear();
  EXPECT_THAT(std::string(o.Validate().message()), HasSubstr("methods"));
}

}  // namespace
}  // namespace sgmcmc::tools
