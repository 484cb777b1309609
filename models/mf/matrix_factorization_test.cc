#include "models/mf/matrix_factorization.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <map>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "base/check.h"
#include "data/ratings.h"
#include "parallel/communicator.h"
#include "rng/engine.h"
#include "rng/normal.h"
#include "samplers/gradient_model.h"
#include "samplers/sampler.h"

namespace sgmcmc::models {
namespace {

MatrixFactorizationOptions SmallOptions(int rank, int blocks) {
  MatrixFactorizationOptions o;
  o.rank = rank;
  o.num_blocks = blocks;
  o.sigma_w = 1.3;
  o.sigma_h = 0.8;
  o.sigma_x = 0.7;
  return o;
}

std::unique_ptr<MatrixFactorization> MustCreate(const data::RatingMatrix& m,
                                                const MatrixFactorizationOptions& o,
                                                parallel::Communicator* comm = nullptr) {
  absl::StatusOr<std::unique_ptr<MatrixFactorization>> model =
      MatrixFactorization::Create(m, o, comm);
  SGMCMC_CHECK(model.ok()) << model.status();
  return std::move(*model);
}

std::vector<double> FullGradient(const MatrixFactorization& model,
                                 const std::vector<double>& theta) {
  std::vector<double> grad(theta.size());
  model.PriorPotentialGradient(theta, absl::MakeSpan(grad));
  std::vector<int64_t> all(model.num_items());
  for (int64_t i = 0; i < model.num_items(); ++i) all[i] = i;
  model.AddLikelihoodPotentialGradient(theta, all, 1.0, absl::MakeSpan(grad));
  return grad;
}

// U = -LogJoint is quartic in theta: central differences with h = 1e-5 have truncation error
// ~ h^2 |U'''| ~ 1e-10 * 1e2 and rounding ~ 1e-16 |U| / h ~ 1e-8, far below the 1e-5 tolerance.
TEST(MatrixFactorizationTest, GradientMatchesFiniteDifferences) {
  for (uint64_t seed : {1, 2}) {
    for (int blocks : {1, 2, 3}) {
      rng::Engine engine(seed);
      const MatrixFactorizationOptions o = SmallOptions(3, blocks);
      const SyntheticRatings data = GenerateSyntheticRatings(7, 5, 0.6, o, engine);
      const auto model = MustCreate(data.matrix, o);
      std::vector<double> theta(model->dimension());
      rng::FillNormal(engine, absl::MakeSpan(theta));
      const std::vector<double> grad = FullGradient(*model, theta);
      for (size_t j = 0; j < theta.size(); ++j) {
        const double h = 1e-5;
        std::vector<double> plus = theta, minus = theta;
        plus[j] += h;
        minus[j] -= h;
        const double fd = -(model->LogJoint(plus) - model->LogJoint(minus)) / (2 * h);
        EXPECT_NEAR(grad[j], fd, 1e-5 * std::max(1.0, std::abs(fd)))
            << "seed " << seed << " blocks " << blocks << " j " << j;
      }
    }
  }
}

TEST(MatrixFactorizationTest, SubsetsPartitionTheMatrixIntoRowAndColumnDisjointBlocks) {
  rng::Engine engine(3);
  const MatrixFactorizationOptions o = SmallOptions(2, 4);
  const SyntheticRatings data = GenerateSyntheticRatings(13, 9, 0.7, o, engine);
  const auto model = MustCreate(data.matrix, o);
  int64_t total = 0;
  for (int s = 0; s < 4; ++s) {
    total += model->subset_size(s);
  }
  EXPECT_EQ(total, static_cast<int64_t>(data.matrix.ratings.size()));
  // Within a subset a row (column) meets one column (row) block only: a row's ratings in
  // subset s all lie in one column range, and each column range is used by one row range.
  for (int s = 0; s < 4; ++s) {
    std::map<int, int> col_owner;  // column -> row block (row / ceil)
    for (int64_t id = 0; id < model->num_items(); ++id) {
      if (model->SubsetOfItem(id) != s) continue;
      const data::Rating& r = model->ratings()[id];
      // Row r is in block b iff floor(13 b / 4) <= r < floor(13 (b + 1) / 4).
      int b = 0;
      while (b + 1 < 4 && 13 * (b + 1) / 4 <= r.row) ++b;
      auto [it, inserted] = col_owner.emplace(r.col, b);
      if (!inserted) EXPECT_EQ(it->second, b) << "column " << r.col << " in two blocks";
    }
  }
}

TEST(MatrixFactorizationTest, SubsetEstimateIsUnbiasedUnderSizeProportionalChoice) {
  rng::Engine engine(4);
  const MatrixFactorizationOptions o = SmallOptions(3, 3);
  const SyntheticRatings data = GenerateSyntheticRatings(9, 8, 0.5, o, engine);
  const auto model = MustCreate(data.matrix, o);
  std::vector<double> theta(model->dimension());
  rng::FillNormal(engine, absl::MakeSpan(theta));
  const std::vector<double> full = FullGradient(*model, theta);
  // Item i (one per rating, drawn uniformly) selects its subset: sum_i (1/N) grad_i = full.
  std::vector<double> mean(theta.size(), 0.0), grad(theta.size());
  const double n = static_cast<double>(model->num_items());
  for (int64_t i = 0; i < model->num_items(); ++i) {
    const int64_t batch[] = {i};
    samplers::StochasticPotentialGradient(*model, theta, batch, absl::MakeSpan(grad));
    for (size_t j = 0; j < grad.size(); ++j) mean[j] += grad[j] / n;
  }
  for (size_t j = 0; j < full.size(); ++j) {
    EXPECT_NEAR(mean[j], full[j], 1e-9 * std::max(1.0, std::abs(full[j])));
  }
}

TEST(MatrixFactorizationTest, CreateRejectsBadInput) {
  data::RatingMatrix m;
  m.num_rows = 2;
  m.num_cols = 2;
  m.ratings = {{0, 0, 1.0f}, {1, 1, 2.0f}};
  MatrixFactorizationOptions o;
  o.num_blocks = 3;
  EXPECT_FALSE(MatrixFactorization::Create(m, o).ok());
  o.num_blocks = 2;
  o.rank = 0;
  EXPECT_FALSE(MatrixFactorization::Create(m, o).ok());
  o.rank = 2;
  o.sigma_x = 0;
  EXPECT_FALSE(MatrixFactorization::Create(m, o).ok());
  o.sigma_x = 1;
  m.ratings.push_back({2, 0, 1.0f});
  EXPECT_FALSE(MatrixFactorization::Create(m, o).ok());
}

TEST(PredictionAverageTest, AveragesPredictionsBeforeTheRmse) {
  data::RatingMatrix m;
  m.num_rows = 1;
  m.num_cols = 2;
  m.ratings = {{0, 0, 1.0f}, {0, 1, 2.0f}};
  MatrixFactorizationOptions o;
  o.rank = 1;
  o.num_blocks = 1;
  const auto model = MustCreate(m, o);
  PredictionAverage average(*model, m);
  EXPECT_TRUE(std::isnan(average.Rmse()));
  // theta = [w | h1 h2]; predictions w h.
  const std::vector<double> a = {1, 0, 4};  // predicts (0, 4): errors (-1, 2)
  const std::vector<double> b = {1, 2, 0};  // predicts (2, 0): errors (1, -2)
  EXPECT_DOUBLE_EQ(average.SampleRmse(a), std::sqrt(2.5));
  average.Add(a);
  average.Add(b);
  EXPECT_EQ(average.num_samples(), 2);
  // Averages (1, 2) are exact.
  EXPECT_DOUBLE_EQ(average.Rmse(), 0.0);
}

struct Problem {
  data::RatingMatrix train, test;
  double sigma_x;
};

Problem MakeProblem(const MatrixFactorizationOptions& o) {
  rng::Engine engine(11);
  SyntheticRatings data = GenerateSyntheticRatings(120, 100, 0.3, o, engine);
  rng::Engine split_engine(12);
  absl::StatusOr<data::RatingSplit> split = data::SplitRatings(data.matrix, 0.1, split_engine);
  SGMCMC_CHECK(split.ok());
  return {split->train, split->test, o.sigma_x};
}

MfRunOptions RunOptions(MfMethod method) {
  MfRunOptions run;
  run.method = method;
  run.iterations = 400;
  run.burn_in = 50;
  run.seed = 5;
  run.step_size = method == MfMethod::kSgld    ? 2e-3
                  : method == MfMethod::kPsgld ? 1e-5
                                               : 1.0;
  run.hamcmc_warmup_step = 1e-3;
  run.hamcmc_gamma = 2e-3;
  run.hamcmc_damping = 300;
  return run;
}

// The model of the run tests: rank 3, noise sigma_x = 0.5, 4 blocks; and the methods they run.
MatrixFactorizationOptions RunTestOptions() {
  MatrixFactorizationOptions o;
  o.rank = 3;
  o.sigma_x = 0.5;
  o.num_blocks = 4;
  return o;
}
constexpr MfMethod kRunTestMethods[] = {MfMethod::kSgld, MfMethod::kPsgld, MfMethod::kHamcmc};

// On data generated from the model the averaged predictions approach the noise level
// sigma_x = 0.5 (predicting 0 scores about sqrt(K sigma_w^2 sigma_h^2 + sigma_x^2) = 1.8).
TEST(MatrixFactorizationRunTest, AveragedRmseApproachesTheNoiseLevel) {
  const MatrixFactorizationOptions o = RunTestOptions();
  const Problem p = MakeProblem(o);
  const auto model = MustCreate(p.train, o);
  for (MfMethod method : kRunTestMethods) {
    absl::StatusOr<std::vector<MfTracePoint>> trace =
        RunMatrixFactorization(*model, p.test, RunOptions(method), 50);
    ASSERT_TRUE(trace.ok()) << trace.status();
    const double rmse = trace->back().average_rmse;
    EXPECT_LT(rmse, 1.25 * p.sigma_x) << MfMethodName(method);
    EXPECT_GT(rmse, 0.8 * p.sigma_x) << MfMethodName(method);
  }
}

TEST(MatrixFactorizationRunTest, DeterministicForASeedAndIdenticalAcrossThreadRankCounts) {
  const MatrixFactorizationOptions o = RunTestOptions();
  const Problem p = MakeProblem(o);
  for (MfMethod method : kRunTestMethods) {
    MfRunOptions run = RunOptions(method);
    run.iterations = 30;
    run.burn_in = 5;
    const auto model = MustCreate(p.train, o);
    auto a = RunMatrixFactorization(*model, p.test, run);
    auto b = RunMatrixFactorization(*model, p.test, run);
    ASSERT_TRUE(a.ok()) << a.status();
    ASSERT_TRUE(b.ok()) << b.status();
    for (size_t t = 0; t < a->size(); ++t) {
      EXPECT_EQ((*a)[t].sample_rmse, (*b)[t].sample_rmse);
    }
    for (int ranks : {2, 3, 4}) {
      std::vector<std::vector<MfTracePoint>> traces(ranks);
      absl::Status status =
          parallel::RunOnThreads(ranks, [&](parallel::Communicator& comm) -> absl::Status {
            absl::StatusOr<std::unique_ptr<MatrixFactorization>> m =
                MatrixFactorization::Create(p.train, o, &comm);
            if (!m.ok()) return m.status();
            auto trace = RunMatrixFactorization(**m, p.test, run);
            if (!trace.ok()) return trace.status();
            traces[comm.rank()] = *trace;
            return absl::OkStatus();
          });
      ASSERT_TRUE(status.ok()) << status;
      for (int r = 0; r < ranks; ++r) {
        ASSERT_EQ(traces[r].size(), a->size());
        for (size_t t = 0; t < a->size(); ++t) {
          EXPECT_EQ(traces[r][t].sample_rmse, (*a)[t].sample_rmse)
              << MfMethodName(method) << " ranks " << ranks << " rank " << r << " t " << t;
          if (!std::isnan((*a)[t].average_rmse)) {
            EXPECT_EQ(traces[r][t].average_rmse, (*a)[t].average_rmse);
          } else {
            EXPECT_TRUE(std::isnan(traces[r][t].average_rmse));
          }
        }
      }
    }
  }
}

// The samplers' checkpoints (samplers/sampler.h SaveState / RestoreState) resume a chain on
// this model bit-identically, HAMCMC's L-BFGS memory and pSGLD's second moments included.
TEST(MatrixFactorizationRunTest, SamplerCheckpointResumesBitIdentically) {
  const MatrixFactorizationOptions o = RunTestOptions();
  const Problem p = MakeProblem(o);
  const auto model = MustCreate(p.train, o);
  for (MfMethod method : kRunTestMethods) {
    const MfRunOptions run = RunOptions(method);
    const std::vector<double> theta0 = InitialMatrixFactorizationTheta(*model, run);
    auto first = std::move(*MakeMatrixFactorizationSampler(*model, theta0, run));
    for (int t = 0; t < 13; ++t) first->Step();
    const samplers::SamplerState state = first->SaveState();
    for (int t = 0; t < 17; ++t) first->Step();
    auto second = std::move(*MakeMatrixFactorizationSampler(*model, theta0, run));
    ASSERT_TRUE(second->RestoreState(state).ok()) << MfMethodName(method);
    for (int t = 0; t < 17; ++t) second->Step();
    EXPECT_EQ(second->iteration(), 30);
    const absl::Span<const double> a = first->theta(), b = second->theta();
    ASSERT_EQ(a.size(), b.size());
    for (size_t j = 0; j < a.size(); ++j) {
      ASSERT_EQ(a[j], b[j]) << MfMethodName(method) << " j " << j;
    }
  }
}

TEST(MatrixFactorizationRunTest, InitialMetricNamesAndTheReplicatedSamplersScalarOnlyRule) {
  for (MfInitialMetric metric : {MfInitialMetric::kScalar, MfInitialMetric::kDiagonalDegree}) {
    absl::StatusOr<MfInitialMetric> parsed = ParseMfInitialMetric(MfInitialMetricName(metric));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, metric);
  }
  EXPECT_EQ(ParseMfInitialMetric("fisher").status().message(),
            "hamcmc_initial_metric must be scalar or diagonal_degree, got \"fisher\"");
  const MatrixFactorizationOptions o = RunTestOptions();
  const Problem p = MakeProblem(o);
  const auto model = MustCreate(p.train, o);
  MfRunOptions run = RunOptions(MfMethod::kHamcmc);
  run.hamcmc_initial_metric = MfInitialMetric::kDiagonalDegree;
  const std::vector<double> theta0 = InitialMatrixFactorizationTheta(*model, run);
  EXPECT_EQ(MakeMatrixFactorizationSampler(*model, theta0, run).status().message(),
            "hamcmc_initial_metric diagonal_degree is supported by models::DistributedMfChain "
            "only");
}

}  // namespace
}  // namespace sgmcmc::models
