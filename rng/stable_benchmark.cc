// Measured (moved from rng/stable.h):
// Cost: two engine words and a few transcendental functions: ~60 ns for alpha = 1, ~120-140 ns
// otherwise (see //rng:stable_benchmark).

#include "benchmark/benchmark.h"
#include "rng/stable.h"

namespace sgmcmc::rng {
namespace {

void BM_StableSample(benchmark::State& state, double alpha, double beta) {
  Engine engine(1);
  double acc = 0;
  for (auto _ : state) acc += StableSample(engine, alpha, beta);
  benchmark::DoNotOptimize(acc);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(BM_StableSample, alpha_1p5_beta_0, 1.5, 0.0);
BENCHMARK_CAPTURE(BM_StableSample, alpha_1p5_beta_0p5, 1.5, 0.5);
BENCHMARK_CAPTURE(BM_StableSample, alpha_1_beta_0p5, 1.0, 0.5);

}  // namespace
}  // namespace sgmcmc::rng
