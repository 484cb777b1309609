#include "models/dp/parallel.h"

#include <atomic>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "base/status_macros.h"
#include "gtest/gtest.h"
#include "models/dp/component_model.h"
#include "models/dp/partition_testing.h"
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
