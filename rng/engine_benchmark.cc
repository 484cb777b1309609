#include "benchmark/benchmark.h"
#include "rng/engine.h"

namespace sgmcmc::rng {
namespace {

void BM_EngineNext(benchmark::State& state) {
  Engine engine(1);
  uint64_t acc = 0;
  for (auto _ : state) acc += engine();
  benchmark::DoNotOptimize(acc);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EngineNext);

void BM_EngineCreateStream(benchmark::State& state) {
  uint64_t stream = 0;
  for (auto _ : state) {
    Engine engine(1, stream++);
    benchmark::DoNotOptimize(engine());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EngineCreateStream);

}  // namespace
}  // namespace sgmcmc::rng
