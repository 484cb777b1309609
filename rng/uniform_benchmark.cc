#include "benchmark/benchmark.h"
#include "rng/uniform.h"

namespace sgmcmc::rng {
namespace {

void BM_UniformDouble(benchmark::State& state) {
  Engine engine(1);
  double acc = 0;
  for (auto _ : state) acc += UniformDouble(engine);
  benchmark::DoNotOptimize(acc);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_UniformDouble);

void BM_UniformInt(benchmark::State& state) {
  Engine engine(1);
  const uint64_t n = state.range(0);
  uint64_t acc = 0;
  for (auto _ : state) acc += UniformInt(engine, n);
  benchmark::DoNotOptimize(acc);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_UniformInt)->Arg(10)->Arg(1000000);

}  // namespace
}  // namespace sgmcmc::rng
