// Throughput of Bayesian matrix factorisation on one core: ratings per second of an SGLD step
// (one Fig. 4 subset's gradient + O(D) prior, noise and update) at K = 10 and K = 100, the
// HAMCMC (M = 2) step for its overhead over SGLD, and the bare subset gradient.
//
// Data: synthetic, MovieLens-100k-like shape (943 x 1682, ~100k ratings, 6.3% dense), P = 4
// blocks per side, so one step processes ~25k ratings. items_per_second = ratings / s.
//
// Measured with `bazel run -c opt //models/mf:matrix_factorization_benchmark` on the 2-core
// build machine shared with other builds (2026-11-25), items/s by CPU time (wall time was
// about 2x longer because of the sharing):
//   BM_MfSgldStep/10        51 M ratings/s     BM_MfSgldStep/100       5.6 M ratings/s
//   BM_MfPsgldStep/10       47 M ratings/s     BM_MfPsgldStep/100      4.9 M ratings/s
//   BM_MfHamcmcStep/10      24 M ratings/s     BM_MfHamcmcStep/100     2.3 M ratings/s
//   BM_MfSubsetGradient/10  74 M ratings/s     BM_MfSubsetGradient/100 8.1 M ratings/s
// HAMCMC costs ~2.1x an SGLD iteration (two subset gradients plus the L-BFGS products).
// The distributed chain on one rank (same machine, later the same day, load ~15, wall ~4x
// CPU): BM_MfDistributedStep/10/{0,1,2} (SGLD, pSGLD, HAMCMC) 56 M, 49 M, 27 M ratings/s;
// /100/{0,1,2} 5.8 M, 4.9 M, 2.3 M ratings/s, i.e. the same as the replicated model.
#include <memory>
#include <vector>

#include "benchmark/benchmark.h"
#include "data/ratings.h"
#include "models/mf/distributed_matrix_factorization.h"
#include "models/mf/matrix_factorization.h"
#include "parallel/communicator.h"
#include "rng/engine.h"
#include "samplers/sampler.h"

namespace sgmcmc::models {
namespace {

struct Setup {
  std::unique_ptr<MatrixFactorization> model;
  std::vector<double> theta;
};

Setup MakeSetup(int rank, int blocks) {
  MatrixFactorizationOptions o;
  o.rank = rank;
  o.num_blocks = blocks;
  rng::Engine engine(1);
  const SyntheticRatings data = GenerateSyntheticRatings(943, 1682, 0.063, o, engine);
  Setup s;
  s.model = std::move(*MatrixFactorization::Create(data.matrix, o));
  MfRunOptions run;
  s.theta = InitialMatrixFactorizationTheta(*s.model, run);
  return s;
}

void StepBenchmark(benchmark::State& state, MfMethod method) {
  const Setup s = MakeSetup(static_cast<int>(state.range(0)), 4);
  MfRunOptions run;
  run.method = method;
  run.step_size = method == MfMethod::kHamcmc ? 0.3 : 1e-5;
  run.hamcmc_gamma = 1e-4;
  run.hamcmc_damping = 300;
  run.hamcmc_warmup_step = 1e-5;
  auto sampler = std::move(*MakeMatrixFactorizationSampler(*s.model, s.theta, run));
  for (auto _ : state) sampler->Step();
  benchmark::DoNotOptimize(sampler->theta().data());
  // One subset (on average N / P ratings) per iteration.
  state.SetItemsProcessed(state.iterations() * s.model->num_items() / s.model->num_blocks());
}

void BM_MfSgldStep(benchmark::State& state) { StepBenchmark(state, MfMethod::kSgld); }
BENCHMARK(BM_MfSgldStep)->Arg(10)->Arg(100);

void BM_MfPsgldStep(benchmark::State& state) { StepBenchmark(state, MfMethod::kPsgld); }
BENCHMARK(BM_MfPsgldStep)->Arg(10)->Arg(100);

void BM_MfHamcmcStep(benchmark::State& state) { StepBenchmark(state, MfMethod::kHamcmc); }
BENCHMARK(BM_MfHamcmcStep)->Arg(10)->Arg(100);

// The likelihood gradient of one subset alone (no prior, noise or update).
void BM_MfSubsetGradient(benchmark::State& state) {
  const Setup s = MakeSetup(static_cast<int>(state.range(0)), 4);
  std::vector<double> grad(s.theta.size());
  const int64_t batch[] = {0};
  for (auto _ : state) {
    s.model->AddLikelihoodPotentialGradient(s.theta, batch, 1.0, absl::MakeSpan(grad));
  }
  benchmark::DoNotOptimize(grad.data());
  state.SetItemsProcessed(state.iterations() * s.model->subset_size(0));
}
BENCHMARK(BM_MfSubsetGradient)->Arg(10)->Arg(100);

// models::DistributedMfChain::Step on one rank (the tools' chain; method = range(1): 0 SGLD,
// 1 pSGLD, 2 HAMCMC), including the H-block moves between subsets (a local Shift).
void BM_MfDistributedStep(benchmark::State& state) {
  MatrixFactorizationOptions o;
  o.rank = static_cast<int>(state.range(0));
  rng::Engine engine(1);
  const SyntheticRatings data = GenerateSyntheticRatings(943, 1682, 0.063, o, engine);
  data::RatingMatrix test;
  test.num_rows = data.matrix.num_rows;
  test.num_cols = data.matrix.num_cols;
  MfRunOptions run;
  run.method = static_cast<MfMethod>(state.range(1));
  run.step_size = run.method == MfMethod::kHamcmc ? 0.3 : 1e-5;
  run.hamcmc_gamma = 1e-4;
  run.hamcmc_damping = 300;
  run.hamcmc_warmup_step = 1e-5;
  std::unique_ptr<parallel::Communicator> comm = parallel::MakeSingleProcessCommunicator();
  if (state.range(2) == 1) {
    run.hamcmc_initial_metric = MfInitialMetric::kDiagonalDegree;
    run.step_size = 1;
    run.hamcmc_gamma = 0.25;
    run.hamcmc_damping = 10;
  }
  auto chain = std::move(*DistributedMfChain::Create(data.matrix, test, o, run, *comm));
  for (auto _ : state) benchmark::DoNotOptimize(chain->Step());
  state.SetItemsProcessed(state.iterations() * chain->num_train() / o.num_blocks);
}
// Third argument: HAMCMC's H^0, 0 = gamma I, 1 = the degree-based diagonal.
BENCHMARK(BM_MfDistributedStep)
    ->ArgsProduct({{10, 100}, {0, 1, 2}, {0}})
    ->Args({10, 2, 1})
    ->Args({100, 2, 1});

}  // namespace
}  // namespace sgmcmc::models
