// Measured (moved from rng/exponential.h):
// Cost: ~4-6 ns per draw on one core including the engine (see //rng:exponential_benchmark).

#include "benchmark/benchmark.h"
#include "rng/exponential.h"

namespace sgmcmc::rng {
namespace {

void BM_ExponentialSample(benchmark::State& state) {
  Engine engine(1);
  double acc = 0;
  for (auto _ : state) acc += ExponentialSample(engine);
  benchmark::DoNotOptimize(acc);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ExponentialSample);

}  // namespace
}  // namespace sgmcmc::rng
