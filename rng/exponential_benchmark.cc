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
