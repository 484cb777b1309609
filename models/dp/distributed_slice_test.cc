#include "models/dp/distributed_slice.h"

#include <vector>

#include "absl/status/status.h"
#include "base/status_macros.h"
#include "gtest/gtest.h"
#include "models/dp/component_model.h"
#include "models/dp/partition_testing.h"
#include "parallel/communicator.h"
#include "rng/engine.h"
#include "rng/uniform.h"

namespace sgmcmc::models {
namespace {

// The allocations after `steps` steps on `workers` threads, and the test log predictive.
std::vector<int32_t> RunSlice(const CountMatrix& data, const DpDistributedSliceOptions& options,
                         int workers, int steps, absl::Span<const int32_t> initial,
                         double* test_ll = nullptr) {
  std::vector<int32_t> result;
  const absl::Status status =
      parallel::RunOnThreads(workers, [&](parallel::Communicator& comm) -> absl::Status {
        MultinomialDirichletModel model(data.dimension, 1.0);
        SGMCMC_ASSIGN_OR_RETURN(
            auto slice, DpDistributedSlice::Create(&comm, &model, &data, options, initial));
        for (int t = 0; t < steps; ++t) SGMCMC_RETURN_IF_ERROR(slice->Step());
        SGMCMC_ASSIGN_OR_RETURN(std::vector<int32_t> z, slice->GatherAllocations());
        SGMCMC_ASSIGN_OR_RETURN(double ll, slice->TestLogPredictive(data));
        if (comm.rank() == 0) {
          result = z;
          if (test_ll != nullptr) *test_ll = ll;
        }
        return absl::OkStatus();
      });
  EXPECT_TRUE(status.ok()) << status;
  return result;
}

TEST(DpDistributedSliceTest, MatchesEnumeratedPosteriorOnTwoWorkers) {
  const CountMatrix data{3, {5, 0, 1, 4, 1, 0, 0, 5, 1, 1, 4, 0, 2, 2, 2}};
  const MultinomialDirichletModel model(3, 1.0);
  const PartitionPosterior exact(model, data, /*alpha=*/1.0);
  constexpr int kChains = 4000;
  std::vector<double> counts(exact.num_partitions(), 0.0);
  for (int c = 0; c < kChains; ++c) {
    DpDistributedSliceOptions options;
    options.concentration.sample_alpha = false;
    options.seed = c + 1;
    rng::Engine engine(c + 1, 99);
    std::vector<int32_t> initial(5);
    for (int32_t& l : initial) l = static_cast<int32_t>(rng::UniformInt(engine, 3));
    counts[exact.Index(RunSlice(data, options, 2, 40, initial))] += 1;
  }
  // Independent chains: the derived tolerance at a false-failure rate of 1e-6.
  EXPECT_LT(TotalVariation(exact.probabilities(), Normalised(counts)),
            TotalVariationTolerance(exact.probabilities(), kChains, 1e-6));
}

TEST(DpDistributedSliceTest, ResultsDoNotDependOnTheWorkerCount) {
  const CountMatrix data = SyntheticMultinomialMixture({200}, 8, 50, 4, 1.0, 5)[0];
  DpDistributedSliceOptions options;
  double ll1 = 0, ll3 = 0;
  const std::vector<int32_t> one = RunSlice(data, options, 1, 30, {}, &ll1);
  const std::vector<int32_t> three = RunSlice(data, options, 3, 30, {}, &ll3);
  EXPECT_EQ(one, three);
  EXPECT_EQ(ll1, ll3);
}

// A run saved after 10 steps on 3 workers and restored on 2 (the state does not depend on the
// worker count) continues bit-identically: the allocations and the test log predictive after
// 25 steps equal the uninterrupted run's. A state with an allocation out of range is refused.
TEST(DpDistributedSliceTest, SaveAndRestoreContinuesBitIdentically) {
  const CountMatrix data = SyntheticMultinomialMixture({120}, 8, 50, 4, 1.0, 5)[0];
  DpDistributedSliceOptions options;
  double whole_ll = 0;
  const std::vector<int32_t> whole = RunSlice(data, options, 1, 25, {}, &whole_ll);
  DpDistributedSliceState state;
  absl::Status status = parallel::RunOnThreads(3, [&](parallel::Communicator& comm) {
    MultinomialDirichletModel model(data.dimension, 1.0);
    SGMCMC_ASSIGN_OR_RETURN(auto slice, DpDistributedSlice::Create(&comm, &model, &data, options));
    for (int t = 0; t < 10; ++t) SGMCMC_RETURN_IF_ERROR(slice->Step());
    SGMCMC_ASSIGN_OR_RETURN(DpDistributedSliceState s, slice->SaveState());
    if (comm.rank() == 0) state = s;
    return absl::OkStatus();
  });
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(state.steps(), 10);
  std::vector<int32_t> resumed;
  double resumed_ll = 0;
  status = parallel::RunOnThreads(2, [&](parallel::Communicator& comm) {
    MultinomialDirichletModel model(data.dimension, 1.0);
    SGMCMC_ASSIGN_OR_RETURN(auto slice, DpDistributedSlice::Create(&comm, &model, &data, options));
    SGMCMC_RETURN_IF_ERROR(slice->RestoreState(state));
    for (int t = 10; t < 25; ++t) SGMCMC_RETURN_IF_ERROR(slice->Step());
    SGMCMC_ASSIGN_OR_RETURN(std::vector<int32_t> z, slice->GatherAllocations());
    SGMCMC_ASSIGN_OR_RETURN(double ll, slice->TestLogPredictive(data));
    if (comm.rank() == 0) {
      resumed = z;
      resumed_ll = ll;
    }
    DpDistributedSliceState bad = state;
    bad.set_allocations(3, -1);
    const absl::Status refused = slice->RestoreState(bad);
    EXPECT_EQ(refused.message(), "DpDistributedSliceState.allocations[3] = -1 is not in [0, "
                                 "16777216)");
    return absl::OkStatus();
  });
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(resumed, whole);
  EXPECT_EQ(resumed_ll, whole_ll);
}

}  // namespace
}  // namespace sgmcmc::models
