#include "models/mf/distributed_matrix_factorization.h"

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "Eigen/Dense"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "base/check.h"
#include "data/ratings.h"
#include "linalg/lbfgs.h"
#include "models/mf/matrix_factorization.h"
#include "models/mf/matrix_factorization_state.pb.h"
#include "parallel/communicator.h"
#include "parallel/failing_communicator_testing.h"
#include "rng/engine.h"
#include "rng/normal.h"

namespace sgmcmc::models {
namespace {

using ::testing::HasSubstr;

struct Data {
  data::RatingMatrix train;
  data::RatingMatrix test;
};

// A synthetic 90/10 split (every tenth rating held out).
Data MakeData(int rows, int cols, double density, const MatrixFactorizationOptions& o,
              uint64_t seed) {
  rng::Engine engine(seed, 7);
  SyntheticRatings all = GenerateSyntheticRatings(rows, cols, density, o, engine);
  Data d;
  d.train.num_rows = d.test.num_rows = rows;
  d.train.num_cols = d.test.num_cols = cols;
  for (size_t i = 0; i < all.matrix.ratings.size(); ++i) {
    (i % 10 == 9 ? d.test : d.train).ratings.push_back(all.matrix.ratings[i]);
  }
  return d;
}

MatrixFactorizationOptions SmallModel(int blocks) {
  MatrixFactorizationOptions o;
  o.rank = 3;
  o.num_blocks = blocks;
  o.sigma_x = 0.5;
  return o;
}

MfRunOptions SmallRun(MfMethod method) {
  MfRunOptions run;
  run.method = method;
  run.step_size = method == MfMethod::kSgld ? 2e-3 : method == MfMethod::kPsgld ? 1e-5 : 1;
  run.hamcmc_gamma = 2e-3;
  run.hamcmc_damping = 1000;
  run.hamcmc_warmup_step = 1e-3;
  run.seed = 3;
  return run;
}

// HAMCMC with the degree-based diagonal H^0 (gamma scales 1 / curvature per rating).
MfRunOptions DiagonalRun(MfInitialMetric metric) {
  MfRunOptions run = SmallRun(MfMethod::kHamcmc);
  run.hamcmc_initial_metric = metric;
  run.hamcmc_gamma = 0.3;
  run.hamcmc_damping = 10;
  return run;
}

// SGLD, pSGLD, HAMCMC and HAMCMC with per-block memory, each HAMCMC H^0.
std::vector<MfRunOptions> AllRuns() {
  std::vector<MfRunOptions> runs;
  for (MfMethod method : {MfMethod::kSgld, MfMethod::kPsgld, MfMethod::kHamcmc}) {
    runs.push_back(SmallRun(method));
  }
  runs.push_back(SmallRun(MfMethod::kHamcmc));
  runs.back().hamcmc_block_memory = true;
  runs.push_back(DiagonalRun(MfInitialMetric::kDiagonalDegree));
  runs.push_back(DiagonalRun(MfInitialMetric::kDiagonalDegree));
  runs.back().hamcmc_block_memory = true;
  return runs;
}

std::string Name(const MfRunOptions& run) {
  return std::string(MfMethodName(run.method)) + (run.hamcmc_block_memory ? " (block)" : "") +
         (run.method == MfMethod::kHamcmc
              ? std::string(" ") + MfInitialMetricName(run.hamcmc_initial_metric)
              : "");
}

struct RunResult {
  std::vector<double> theta;
  MfEvaluation evaluation;
  MfChainState state;  // of rank 0 at `save_at` (if > 0)
};

// Runs `iterations` steps on `ranks` thread ranks (averaging after 20), returning rank 0's
// gathered theta and evaluation. With `restore` (one per rank) the chains start from it.
RunResult RunChain(const Data& d, const MatrixFactorizationOptions& o, const MfRunOptions& run,
                   int ranks, int iterations, int save_at = 0,
                   const std::vector<MfChainState>* restore = nullptr,
                   std::vector<MfChainState>* saved = nullptr) {
  RunResult result;
  if (saved != nullptr) saved->resize(ranks);
  absl::Status status = parallel::RunOnThreads(ranks, [&](parallel::Communicator& comm) {
    absl::StatusOr<std::unique_ptr<DistributedMfChain>> chain =
        DistributedMfChain::Create(d.train, d.test, o, run, comm);
    if (!chain.ok()) return chain.status();
    if (restore != nullptr) {
      if (absl::Status s = (*chain)->RestoreState((*restore)[comm.rank()]); !s.ok()) return s;
    }
    while ((*chain)->iteration() < iterations) {
      if (absl::Status s = (*chain)->Step(); !s.ok()) return s;
      if ((*chain)->iteration() > 20) {
        if (absl::Status s = (*chain)->AddToAverage(); !s.ok()) return s;
      }
      if ((*chain)->iteration() == save_at && saved != nullptr) {
        (*saved)[comm.rank()] = (*chain)->SaveState();
      }
    }
    absl::StatusOr<std::vector<double>> theta = (*chain)->GatherTheta();
    if (!theta.ok()) return theta.status();
    absl::StatusOr<MfEvaluation> e = (*chain)->Evaluate();
    if (!e.ok()) return e.status();
    if (comm.rank() == 0) {
      result.theta = *theta;
      result.evaluation = *e;
    }
    return absl::OkStatus();
  });
  SGMCMC_CHECK(status.ok()) << status;
  return result;
}

// Random vectors: the one-pair coefficients reproduce linalg::Lbfgs's H g and S z to
// rounding (relative 1e-12: a handful of O(D) dot products in double precision).
TEST(OnePairLbfgsTest, MatchesLbfgsWithOnePair) {
  rng::Engine engine(5);
  const int dim = 9;
  for (int trial = 0; trial < 20; ++trial) {
    Eigen::VectorXd s(dim), y(dim), g(dim), z(dim);
    for (int j = 0; j < dim; ++j) {
      s[j] = rng::NormalSample(engine);
      y[j] = rng::NormalSample(engine) + 2 * s[j];  // s'y > 0 for the pair to be used
      g[j] = rng::NormalSample(engine);
      z[j] = rng::NormalSample(engine);
    }
    const double gamma = 0.3 + trial * 0.1;
    linalg::LbfgsOptions options;
    options.gamma = gamma;
    linalg::Lbfgs lbfgs(dim, options);
    ASSERT_TRUE(lbfgs.AddPair(s, y));
    Eigen::VectorXd hg(dim), sz(dim);
    lbfgs.ApplyH(g, hg);
    lbfgs.ApplySqrtH(z, sz);
    const OnePairLbfgsCoefficients c = ComputeOnePairLbfgsCoefficients(
        s.dot(g), y.dot(g), s.dot(z), y.dot(z), s.dot(y), s.dot(s), y.dot(y), gamma);
    const Eigen::VectorXd hg2 = gamma * (g - c.alpha * y) + (c.alpha - c.beta) * s;
    const Eigen::VectorXd sz2 = std::sqrt(gamma) * (z - c.z_coefficient * s);
    EXPECT_LT((hg - hg2).norm(), 1e-12 * hg.norm()) << trial;
    EXPECT_LT((sz - sz2).norm(), 1e-12 * sz.norm()) << trial;
  }
}

// With one block and one rank, the first SGLD step is x0 + sqrt(2h) z - h grad U~(x0) with z
// the first D normals of this rank's noise stream and grad U~ the model's (one subset, all
// ratings): equal to rounding (the likelihood terms are summed in another order).
TEST(DistributedMfChainTest, OneRankOneBlockSgldStepIsTheSgldUpdate) {
  const MatrixFactorizationOptions o = SmallModel(1);
  const Data d = MakeData(20, 15, 0.4, o, 1);
  const MfRunOptions run = SmallRun(MfMethod::kSgld);
  const RunResult r = RunChain(d, o, run, 1, 1);
  absl::StatusOr<std::unique_ptr<MatrixFactorization>> model =
      MatrixFactorization::Create(d.train, o);
  ASSERT_TRUE(model.ok());
  const std::vector<double> x0 = InitialMatrixFactorizationTheta(**model, run);
  std::vector<double> grad(x0.size());
  (*model)->PriorPotentialGradient(x0, absl::MakeSpan(grad));
  const std::vector<int64_t> item = {0};
  (*model)->AddLikelihoodPotentialGradient(x0, item, (*model)->num_items(),
                                           absl::MakeSpan(grad));
  rng::Engine noise(run.seed, kMfNoiseStreamBase);
  ASSERT_EQ(r.theta.size(), x0.size());
  for (size_t j = 0; j < x0.size(); ++j) {
    const double expected =
        x0[j] + std::sqrt(2 * run.step_size) * rng::NormalSample(noise) - run.step_size * grad[j];
    EXPECT_NEAR(r.theta[j], expected, 1e-12 * (1 + std::abs(grad[j]))) << j;
  }
}

// grad U(theta) of the whole data (prior included).
std::vector<double> FullGradient(const MatrixFactorization& model,
                                 const std::vector<double>& theta) {
  std::vector<double> grad(theta.size());
  model.PriorPotentialGradient(theta, absl::MakeSpan(grad));
  const std::vector<int64_t> item = {0};
  model.AddLikelihoodPotentialGradient(theta, item, model.num_items(), absl::MakeSpan(grad));
  return grad;
}

// The degree-based H^0's diagonal of `run` with one subset.
Eigen::VectorXd DegreeDiagonal(const MatrixFactorizationOptions& o,
                               const data::RatingMatrix& train, const MfRunOptions& run) {
  const int k = o.rank, rows = train.num_rows;
  Eigen::VectorXd f((train.num_rows + train.num_cols) * k);
  for (int i = 0; i < f.size(); ++i) {
    const double sigma = i < rows * k ? o.sigma_w : o.sigma_h;
    f[i] = 1 / (sigma * sigma);
  }
  // With one subset (N / |Omega| = 1) the degree is the number of ratings.
  for (const data::Rating& r : train.ratings) {
    for (int kk = 0; kk < k; ++kk) {
      f[static_cast<size_t>(r.row) * k + kk] += 1 / (o.sigma_x * o.sigma_x);
      f[static_cast<size_t>(rows + r.col) * k + kk] += 1 / (o.sigma_x * o.sigma_x);
    }
  }
  return run.hamcmc_gamma * f.cwiseInverse();
}

// With one block and one rank every subset is the whole data, so HAMCMC's trajectory can be
// recomputed from eq. 10 with linalg::Lbfgs (max_pairs 1, H^0 = gamma I or the degree-based
// diagonal, the pair damped in H^0's metric): SGLD warm-up steps for t <= 4, then theta_t = theta_{t-2} - eps H_t
// grad U(theta_{t-2}) + sqrt(2 eps) S_t z_t with the pair (theta_{t-1} - theta_{t-3},
// grad U(theta_{t-1}) - grad U(theta_{t-3})) and z_t this rank's next D normals (W block,
// then H block). Equal to rounding: relative 1e-9 after 12 steps (the sums run in another
// order, and the differences of the pair lose a few digits).
TEST(DistributedMfChainTest, OneRankOneBlockHamcmcFollowsEquation10ForEachInitialMetric) {
  const MatrixFactorizationOptions o = SmallModel(1);
  const Data d = MakeData(20, 15, 0.4, o, 1);
  absl::StatusOr<std::unique_ptr<MatrixFactorization>> model =
      MatrixFactorization::Create(d.train, o);
  ASSERT_TRUE(model.ok());
  for (MfInitialMetric metric : {MfInitialMetric::kDiagonalDegree, MfInitialMetric::kScalar}) {
    MfRunOptions run = DiagonalRun(metric);
    if (metric == MfInitialMetric::kScalar) run = SmallRun(MfMethod::kHamcmc);
    run.step_size = 0.5;
    constexpr int kSteps = 12;
    std::vector<std::vector<double>> chain_theta;
    absl::Status status = parallel::RunOnThreads(1, [&](parallel::Communicator& comm) {
      auto chain = DistributedMfChain::Create(d.train, d.test, o, run, comm);
      if (!chain.ok()) return chain.status();
      for (int t = 1; t <= kSteps; ++t) {
        if (absl::Status s = (*chain)->Step(); !s.ok()) return s;
        absl::StatusOr<std::vector<double>> theta = (*chain)->GatherTheta();
        if (!theta.ok()) return theta.status();
        chain_theta.push_back(*theta);
      }
      return absl::OkStatus();
    });
    ASSERT_TRUE(status.ok()) << status;
    const int dim = (d.train.num_rows + d.train.num_cols) * o.rank;
    const int w_size = d.train.num_rows * o.rank;
    std::vector<std::vector<double>> x = {InitialMatrixFactorizationTheta(dim, run)};
    rng::Engine noise(run.seed, kMfNoiseStreamBase);
    linalg::LbfgsOptions lbfgs_options;
    lbfgs_options.gamma = run.hamcmc_gamma;
    linalg::Lbfgs lbfgs(dim, lbfgs_options);
    for (int t = 1; t <= kSteps; ++t) {
      Eigen::VectorXd z(dim);
      rng::FillNormal(noise, absl::MakeSpan(z.data(), w_size));
      rng::FillNormal(noise, absl::MakeSpan(z.data() + w_size, dim - w_size));
      std::vector<double> next(dim);
      if (t <= 4) {
        const std::vector<double> g = FullGradient(**model, x[t - 1]);
        const double h = run.hamcmc_warmup_step;
        for (int j = 0; j < dim; ++j) next[j] = x[t - 1][j] + std::sqrt(2 * h) * z[j] - h * g[j];
      } else {
        const Eigen::Map<const Eigen::VectorXd> older(x[t - 2].data(), dim);
        const Eigen::Map<const Eigen::VectorXd> previous(x[t - 1].data(), dim);
        const Eigen::Map<const Eigen::VectorXd> third(x[t - 3].data(), dim);
        const std::vector<double> g_prev = FullGradient(**model, x[t - 1]);
        const std::vector<double> g_third = FullGradient(**model, x[t - 3]);
        lbfgs.Clear();
        if (metric != MfInitialMetric::kScalar) {
          lbfgs.SetInitialDiagonal(DegreeDiagonal(o, d.train, run));
        }
        // The chain damps in H^0's metric: y + lambda gamma (H^0)^-1 s (lambda s for gamma I).
        const Eigen::VectorXd s = previous - third;
        Eigen::VectorXd y = Eigen::Map<const Eigen::VectorXd>(g_prev.data(), dim) -
                            Eigen::Map<const Eigen::VectorXd>(g_third.data(), dim);
        y += run.hamcmc_damping * run.hamcmc_gamma *
             (lbfgs.initial_diagonal().size() > 0
                  ? Eigen::VectorXd(s.cwiseQuotient(lbfgs.initial_diagonal()))
                  : Eigen::VectorXd(s / run.hamcmc_gamma));
        lbfgs.AddPair(s, y);
        const std::vector<double> g = FullGradient(**model, x[t - 2]);
        Eigen::VectorXd hg(dim), sz(dim);
        lbfgs.ApplyH(Eigen::Map<const Eigen::VectorXd>(g.data(), dim), hg);
        lbfgs.ApplySqrtH(z, sz);
        const double eps = run.step_size;
        for (int j = 0; j < dim; ++j) next[j] = older[j] - eps * hg[j] + std::sqrt(2 * eps) * sz[j];
      }
      x.push_back(next);
      for (int j = 0; j < dim; ++j) {
        ASSERT_NEAR(chain_theta[t - 1][j], x[t][j], 1e-9 * (1 + std::abs(x[t][j])))
            << MfInitialMetricName(metric) << " t=" << t << " j=" << j;
      }
    }
  }
}

TEST(DistributedMfChainTest, DeterministicForASeedAndRankCount) {
  const MatrixFactorizationOptions o = SmallModel(4);
  const Data d = MakeData(60, 50, 0.3, o, 2);
  for (const MfRunOptions& run : AllRuns()) {
    for (int ranks : {1, 2, 4}) {
      const RunResult a = RunChain(d, o, run, ranks, 40);
      const RunResult b = RunChain(d, o, run, ranks, 40);
      EXPECT_EQ(a.theta, b.theta) << Name(run) << " " << ranks;
      EXPECT_EQ(a.evaluation.average_rmse, b.evaluation.average_rmse);
    }
  }
}

TEST(DistributedMfChainTest, RankCountsStartAtTheSamePointButDrawTheirOwnNoise) {
  const MatrixFactorizationOptions o = SmallModel(4);
  const Data d = MakeData(60, 50, 0.3, o, 2);
  const MfRunOptions run = SmallRun(MfMethod::kSgld);
  const RunResult one = RunChain(d, o, run, 1, 0);
  const RunResult two = RunChain(d, o, run, 2, 0);
  EXPECT_EQ(one.theta, two.theta);
  EXPECT_EQ(one.theta, InitialMatrixFactorizationTheta(static_cast<int64_t>(one.theta.size()), run));
  const RunResult one_step = RunChain(d, o, run, 1, 1);
  const RunResult two_step = RunChain(d, o, run, 2, 1);
  EXPECT_NE(one_step.theta, two_step.theta);
}

// Every method, 1, 2 and 4 ranks: the averaged test RMSE after 400 iterations on data with
// noise level sigma_x = 0.5. Measured over seeds 1..8 x ranks {1, 2, 4} (24 runs per method,
// all between 0.510 and 0.544), the final RMSE has sd 0.003 (SGLD), 0.009 (pSGLD), 0.007
// (HAMCMC, global or per-block memory), so the difference of two runs has sd <= 0.013: rank counts must agree within 0.05
// (about 4 sd for pSGLD, more for the others), and all reach within 30% of the noise level.
TEST(DistributedMfChainTest, RankCountsReachTheSameRmse) {
  const MatrixFactorizationOptions o = SmallModel(4);
  const Data d = MakeData(150, 120, 0.3, o, 4);
  for (const MfRunOptions& run : AllRuns()) {
    const double one = RunChain(d, o, run, 1, 400).evaluation.average_rmse;
    EXPECT_LT(one, 1.3 * o.sigma_x) << Name(run);
    for (int ranks : {2, 4}) {
      const double rmse = RunChain(d, o, run, ranks, 400).evaluation.average_rmse;
      EXPECT_NEAR(rmse, one, 0.05) << Name(run) << " " << ranks;
    }
  }
}

TEST(DistributedMfChainTest, SaveAndRestoreContinueBitIdentically) {
  const MatrixFactorizationOptions o = SmallModel(4);
  const Data d = MakeData(60, 50, 0.3, o, 2);
  for (const MfRunOptions& run : AllRuns()) {
    for (int ranks : {1, 2}) {
      std::vector<MfChainState> saved;
      const RunResult full = RunChain(d, o, run, ranks, 45, /*save_at=*/27, nullptr, &saved);
      const RunResult resumed = RunChain(d, o, run, ranks, 45, 0, &saved);
      EXPECT_EQ(full.theta, resumed.theta) << Name(run) << " " << ranks;
      EXPECT_EQ(full.evaluation.average_rmse, resumed.evaluation.average_rmse);
      EXPECT_EQ(saved[0].iteration(), 27);
    }
  }
}

TEST(DistributedMfChainTest, RestoreRejectsAStateOfAnotherRunShape) {
  const MatrixFactorizationOptions o = SmallModel(4);
  const Data d = MakeData(60, 50, 0.3, o, 2);
  std::vector<MfChainState> saved;
  RunChain(d, o, SmallRun(MfMethod::kSgld), 2, 5, 5, nullptr, &saved);
  absl::Status status = parallel::RunOnThreads(1, [&](parallel::Communicator& comm) {
    auto chain = DistributedMfChain::Create(d.train, d.test, o, SmallRun(MfMethod::kSgld), comm);
    if (!chain.ok()) return chain.status();
    return (*chain)->RestoreState(saved[0]);
  });
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(status.message()), HasSubstr("rank 0 of 2"));
  saved[0].mutable_w()->RemoveLast();
  status = parallel::RunOnThreads(2, [&](parallel::Communicator& comm) {
    auto chain = DistributedMfChain::Create(d.train, d.test, o, SmallRun(MfMethod::kSgld), comm);
    if (!chain.ok()) return chain.status();
    return (*chain)->RestoreState(saved[comm.rank()]);
  });
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
}

// Rank 2 of 4 loses its link in the middle of a HAMCMC run (between the shifts and the
// reductions): it returns the error, and every other rank's chain returns Aborted naming
// it instead of waiting.
TEST(DistributedMfChainTest, AFailingRankEndsEveryRanksChainWithAnError) {
  const MatrixFactorizationOptions o = SmallModel(4);
  const Data d = MakeData(60, 50, 0.3, o, 2);
  std::vector<absl::Status> seen(4);
  absl::Status status = parallel::RunOnThreads(4, [&](parallel::Communicator& comm) {
    parallel::FailingCommunicator failing(comm, parallel::FailingCommunicator::kShift,
                                          /*fail_rank=*/2, /*fail_at=*/5,
                                          absl::UnavailableError("injected link failure"));
    auto chain =
        DistributedMfChain::Create(d.train, d.test, o, SmallRun(MfMethod::kHamcmc), failing);
    if (!chain.ok()) return chain.status();
    for (int t = 0; t < 1000; ++t) {
      absl::Status s = (*chain)->Step();
      if (s.ok()) s = (*chain)->AddToAverage();
      if (!s.ok()) {
        seen[comm.rank()] = s;
        return s;
      }
    }
    return absl::OkStatus();
  });
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(status.message(), "injected link failure");
  for (int r : {0, 1, 3}) {
    EXPECT_EQ(seen[r].code(), absl::StatusCode::kAborted) << r;
    EXPECT_THAT(std::string(seen[r].message()), HasSubstr("rank 2 failed: injected link"));
  }
}

TEST(DistributedMfChainTest, CreateRejectsBlocksThatAreNotAMultipleOfTheRanks) {
  const MatrixFactorizationOptions o = SmallModel(3);
  const Data d = MakeData(30, 20, 0.3, o, 2);
  absl::Status status = parallel::RunOnThreads(2, [&](parallel::Communicator& comm) {
    return DistributedMfChain::Create(d.train, d.test, o, SmallRun(MfMethod::kSgld), comm)
        .status();
  });
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()), HasSubstr("multiple of the number of ranks 2"));
}

}  // namespace
}  // namespace sgmcmc::models
