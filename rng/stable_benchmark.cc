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
