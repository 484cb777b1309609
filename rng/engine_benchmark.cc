// Measured (moved from rng/engine.h):
// Cost: about 1-2 ns per 64-bit word on one core (see //rng:engine_benchmark).
//
// Measured (moved from rng/internal/philox_batch.h):
// Cost (one core, 8 blocks = 16 words): AVX2 ~21-22 ns (1.4 ns per word; ~210 vector ops,
// bound by the 4 vector pipes of the test VM's Zen 3), portable ~85 ns.

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
