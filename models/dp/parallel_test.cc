#include "models/dp/parallel.h"

#include <atomic>
#include <cmath>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "base/status_macros.h"
#include "gtest/gtest.h"
#include "models/dp/component_model.h"
#include "models/dp/logistic_normal_model.h"
#include "models/dp/partition_testing.h"
#include "models/simplex/logistic_normal_multinomial.h"
#include "parallel/communicator.h"
#include "parallel/failing_communicator_testing.h"
#include "rng/engine.h"
#include "rng/uniform.h"

namespace sgmcmc::models {
namespace {

CountMatrix TinyData() {
  return CountMatrix{3, {5, 0, 1, 4, 1, 0, 0, 5, 1, 1, 4, 0, 2, 2, 2}};
}

// The final partition of a chain of `iterations` iterations on `workers` threads (1: the
// single-process communicator), from random labels.
std::vector<int32_t> FinalAllocations(const CountMatrix& data,
                                      const DpParallelOptions& options, int workers,
                                      int iterations) {
  rng::Engine engine(options.seed, 99);
  std::vector<int32_t> initial(data.rows());
  for (int32_t& l : initial) l = static_cast<int32_t>(rng::UniformInt(engine, 3));
  std::vector<int32_t> result;
  auto body = [&](parallel::Communicator& comm) -> absl::Status {
    MultinomialDirichletModel model(3, 1.0);  // one per worker
    SGMCMC_ASSIGN_OR_RETURN(auto sampler,
                            DpParallelSampler::Create(&comm, &model, &data, options, initial));
    for (int t = 0; t < iterations; ++t) SGMCMC_RETURN_IF_ERROR(sampler->Iterate());
    SGMCMC_ASSIGN_OR_RETURN(std::vector<int32_t> z, sampler->GatherAllocations());
    if (comm.rank() == 0) result = z;
    return absl::OkStatus();
  };
  absl::Status status;
  if (workers == 1) {
    auto comm = parallel::MakeSingleProcessCommunicator();
    status = body(*comm);
  } else {
    status = parallel::RunOnThreads(workers, body);
  }
  EXPECT_TRUE(status.ok()) << status;
  return result;
}

// Independent chains (seeds 1..chains) of the exact stage; the TV between their final
// partitions and the enumerated posterior must be below TotalVariationTolerance at a
// false-failure rate of 1e-6.
void ExpectHybridMatchesEnumeration(int workers, int chains, bool sample_alpha) {
  const MultinomialDirichletModel model(3, 1.0);
  const CountMatrix data = TinyData();
  const PartitionPosterior exact =
      sample_alpha ? PartitionPosterior(model, data, 1.0, 1.0) : PartitionPosterior(model, data, 1.0);
  std::vector<double> counts(exact.num_partitions(), 0.0);
  for (int c = 0; c < chains; ++c) {
    DpParallelOptions options;
    options.concentration.sample_alpha = sample_alpha;
    options.accelerated_iterations = 0;  // the exact stage alone
    options.sync_every = 2;
    options.num_auxiliary = 2;
    options.seed = c + 1;
    counts[exact.Index(FinalAllocations(data, options, workers, 40))] += 1;
  }
  const std::vector<double> empirical = Normalised(counts);
  EXPECT_LT(TotalVariation(exact.probabilities(), empirical),
            TotalVariationTolerance(exact.probabilities(), chains, 1e-6))
      << workers << " workers";
}

TEST(DpParallelTest, HybridOnOneWorkerMatchesEnumeratedPosterior) {
  ExpectHybridMatchesEnumeration(/*workers=*/1, /*chains=*/8000, /*sample_alpha=*/false);
}

TEST(DpParallelTest, HybridOnTwoWorkersMatchesEnumeratedPosterior) {
  ExpectHybridMatchesEnumeration(/*workers=*/2, /*chains=*/5000, /*sample_alpha=*/false);
}

TEST(DpParallelTest, HybridWithWestAlphaOnThreeWorkersMatchesEnumeratedPosterior) {
  ExpectHybridMatchesEnumeration(/*workers=*/3, /*chains=*/4000, /*sample_alpha=*/true);
}

// 300 rows of dimension 12 from 4 multinomials with disjoint supports.
CountMatrix SeparatedCounts(int rows, uint64_t seed) {
  rng::Engine engine(seed);
  CountMatrix data{12, {}};
  for (int i = 0; i < rows; ++i) {
    const int c = static_cast<int>(rng::UniformInt(engine, 4));
    std::vector<double> row(12, 0.0);
    for (int t = 0; t < 30; ++t) row[3 * c + rng::UniformInt(engine, 3)] += 1;
    data.values.insert(data.values.end(), row.begin(), row.end());
  }
  return data;
}

struct RunTrace {
  std::vector<int32_t> allocations;
  std::vector<int> features;
  std::vector<double> alphas, predictive;
};

RunTrace RunSampler(int workers, const CountMatrix& data, const CountMatrix& test) {
  DpParallelOptions options;
  options.accelerated_iterations = 12;
  options.sync_every = 4;
  options.seed = 17;
  RunTrace trace;
  absl::Status status = parallel::RunOnThreads(workers, [&](parallel::Communicator& comm) {
    RunTrace local;
    MultinomialDirichletModel model(12, 1.0);
    SGMCMC_ASSIGN_OR_RETURN(auto sampler,
                            DpParallelSampler::Create(&comm, &model, &data, options));
    for (int t = 0; t < 24; ++t) {
      SGMCMC_RETURN_IF_ERROR(sampler->Iterate());
      if (!sampler->just_synchronised()) continue;
      local.features.push_back(sampler->num_features());
      local.alphas.push_back(sampler->alpha());
      SGMCMC_ASSIGN_OR_RETURN(double lp, sampler->TestLogPredictive(test));
      local.predictive.push_back(lp);
    }
    SGMCMC_ASSIGN_OR_RETURN(local.allocations, sampler->GatherAllocations());
    if (comm.rank() == 0) trace = local;
    return absl::OkStatus();
  });
  EXPECT_TRUE(status.ok()) << status;
  return trace;
}

TEST(DpParallelTest, AcceleratedStageFindsTheComponentsAndRunsAreReproducible) {
  const CountMatrix data = SeparatedCounts(300, 1), test = SeparatedCounts(40, 2);
  const RunTrace a = RunSampler(3, data, test), b = RunSampler(3, data, test);
  EXPECT_EQ(a.allocations, b.allocations);
  EXPECT_EQ(a.predictive, b.predictive);
  EXPECT_EQ(a.alphas, b.alphas);
  ASSERT_EQ(a.features.size(), 6u);  // syncs at 4, 8, 12 (end of acceleration), 16, 20, 24
  // From one feature to at least the four generating ones, with the predictive improving.
  EXPECT_GE(a.features.back(), 4);
  EXPECT_GT(a.predictive.back(), a.predictive.front());
  // A different worker count is a different (approximate-stage) run.
  const RunTrace c = RunSampler(2, data, test);
  EXPECT_GE(c.features.back(), 4);
}

// A run saved at its synchronisation after 8 iterations (inside the accelerated stage) and at
// 16 (in the exact stage), restored into fresh samplers and models on as many workers,
// continues bit-identically to the uninterrupted run: the same allocations, features, α and
// predictive at every later synchronisation, for the Dirichlet model and for the
// logistic-normal one, whose base moves at each synchronisation (its global state). A state of
// another worker count or with a broken count is refused, naming the field.
void ExpectRestoredRunContinues(bool logistic_normal) {
  const CountMatrix data = SeparatedCounts(90, 1), test = SeparatedCounts(20, 2);
  DpParallelOptions options;
  options.accelerated_iterations = 12;
  options.sync_every = 4;
  options.seed = 17;
  auto make_model = [&]() -> std::unique_ptr<DpComponentModel> {
    if (!logistic_normal) return std::make_unique<MultinomialDirichletModel>(12, 1.0);
    LogisticNormalMultinomialOptions lnm;
    lnm.dimension = 12;
    lnm.rank = 2;
    rng::Engine engine(3, 0);
    return std::make_unique<DpLogisticNormalModel>(
        LogisticNormalMultinomial::Create(lnm, engine).value(), DpLogisticNormalOptions{});
  };
  for (const int saved_at : {8, 16}) {
    const absl::Status status = parallel::RunOnThreads(3, [&](parallel::Communicator& comm) {
      std::unique_ptr<DpComponentModel> model = make_model(), fresh_model = make_model();
      SGMCMC_ASSIGN_OR_RETURN(auto whole,
                              DpParallelSampler::Create(&comm, model.get(), &data, options));
      DpParallelState state;
      for (int t = 0; t < saved_at; ++t) SGMCMC_RETURN_IF_ERROR(whole->Iterate());
      SGMCMC_ASSIGN_OR_RETURN(state, whole->SaveState());
      SGMCMC_ASSIGN_OR_RETURN(
          auto restored, DpParallelSampler::Create(&comm, fresh_model.get(), &data, options));
      SGMCMC_RETURN_IF_ERROR(restored->RestoreState(state));
      for (int t = saved_at; t < 28; ++t) {
        SGMCMC_RETURN_IF_ERROR(whole->Iterate());
        SGMCMC_RETURN_IF_ERROR(restored->Iterate());
        EXPECT_EQ(whole->just_synchronised(), restored->just_synchronised());
        if (!whole->just_synchronised()) continue;
        SGMCMC_ASSIGN_OR_RETURN(const double a, whole->TestLogPredictive(test));
        SGMCMC_ASSIGN_OR_RETURN(const double b, restored->TestLogPredictive(test));
        EXPECT_EQ(a, b) << "iteration " << t + 1 << ", saved at " << saved_at;
        EXPECT_EQ(whole->alpha(), restored->alpha());
        EXPECT_EQ(std::vector<double>(whole->atoms().begin(), whole->atoms().end()),
                  std::vector<double>(restored->atoms().begin(), restored->atoms().end()));
        SGMCMC_ASSIGN_OR_RETURN(const std::vector<int32_t> za, whole->GatherAllocations());
        SGMCMC_ASSIGN_OR_RETURN(const std::vector<int32_t> zb, restored->GatherAllocations());
        EXPECT_EQ(za, zb);
      }
      DpParallelState bad = state;
      bad.set_workers(2);
      EXPECT_TRUE(absl::StartsWith(restored->RestoreState(bad).message(),
                                   "DpParallelState.workers = 2, but the sampler has 3"));
      bad = state;
      bad.set_log_pi(0, std::nan(""));
      EXPECT_TRUE(absl::StartsWith(restored->RestoreState(bad).message(),
                                   "DpParallelState.log_pi[0] = nan"));
      bad = state;
      bad.set_counts(0, bad.counts(0) + 1);
      EXPECT_TRUE(absl::StartsWith(restored->RestoreState(bad).message(),
                                   "DpParallelState.counts[0] = "));
      if (logistic_normal) {
        bad = state;
        bad.mutable_model_global()->RemoveLast();
        EXPECT_TRUE(absl::StartsWith(restored->RestoreState(bad).message(),
                                     "DpParallelState.model_global: logistic-normal base"));
      }
      return absl::OkStatus();
    });
    EXPECT_TRUE(status.ok()) << status;
  }
}

TEST(DpParallelTest, SaveAndRestoreContinuesBitIdentically) {
  ExpectRestoredRunContinues(/*logistic_normal=*/false);
}

TEST(DpParallelTest, SaveAndRestoreContinuesBitIdenticallyWithAMovingBase) {
  ExpectRestoredRunContinues(/*logistic_normal=*/true);
}

TEST(DpParallelTest, AFailingWorkerEndsEveryWorkerWithAnError) {
  const CountMatrix data = SeparatedCounts(60, 3);
  DpParallelOptions options;
  options.sync_every = 1;
  std::atomic<int> aborted{0};
  const absl::Status status = parallel::RunOnThreads(3, [&](parallel::Communicator& inner) {
    parallel::FailingCommunicator comm(inner, parallel::FailingCommunicator::kAllReduceSum,
                                       /*fail_rank=*/1, /*fail_at=*/7,
                                       absl::DataLossError("deliberate failure for the test"));
    MultinomialDirichletModel model(12, 1.0);
    absl::Status s = [&]() -> absl::Status {
      SGMCMC_ASSIGN_OR_RETURN(auto sampler,
                              DpParallelSampler::Create(&comm, &model, &data, options));
      for (int t = 0; t < 100; ++t) SGMCMC_RETURN_IF_ERROR(sampler->Iterate());
      return absl::OkStatus();
    }();
    if (absl::IsAborted(s)) ++aborted;
    return s;
  });
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
  EXPECT_TRUE(absl::StrContains(status.message(), "deliberate failure")) << status;
  EXPECT_EQ(aborted.load(), 2);  // the other two ranks were released with Aborted
}

TEST(DpParallelTest, RejectsBadOptionsAndLabels) {
  MultinomialDirichletModel model(3, 1.0);
  const CountMatrix data = TinyData();
  auto comm = parallel::MakeSingleProcessCommunicator();
  DpParallelOptions options;
  options.sync_every = 0;
  EXPECT_TRUE(absl::IsInvalidArgument(
      DpParallelSampler::Create(comm.get(), &model, &data, options).status()));
  const std::vector<int32_t> labels = {0, 1, -2, 0, 1};
  EXPECT_TRUE(absl::IsInvalidArgument(
      DpParallelSampler::Create(comm.get(), &model, &data, DpParallelOptions{}, labels)
          .status()));
}

}  // namespace
}  // namespace sgmcmc::models
