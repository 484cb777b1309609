#include "models/distributed_matrix_factorization.h"

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
#include "models/matrix_factorization.h"
#include "models/matrix_factorization_state.pb.h"
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

// SGLD, pSGLD, HAMCMC and HAMCMC with per-block memory.
std::vector<MfRunOptions> AllRuns() {
  std::vector<MfRunOptions> runs;
  for (MfMethod method : {MfMethod::kSgld, MfMethod::kPsgld, MfMethod::kHamcmc}) {
    runs.push_back(SmallRun(method));
  }
  runs.push_back(SmallRun(MfMethod::kHamcmc));
  runs.back().hamcmc_block_memory = true;
  return runs;
}

std::string Name(const MfRunOptions& run) {
  return std::string(MfMethodName(run.method)) + (run.hamcmc_block_memory ? " (block)" : "");
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
