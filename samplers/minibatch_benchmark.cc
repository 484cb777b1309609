#include "benchmark/benchmark.h"
#include "rng/engine.h"
#include "samplers/minibatch.h"

namespace sgmcmc::samplers {
namespace {

// Arguments: N, n.
void BM_MinibatchDraw(benchmark::State& state) {
  Minibatch minibatch = *Minibatch::Create(state.range(0), state.range(1));
  rng::Engine engine(1);
  for (auto _ : state) benchmark::DoNotOptimize(minibatch.Draw(engine).data());
  state.SetItemsProcessed(state.iterations() * state.range(1));
}
BENCHMARK(BM_MinibatchDraw)->Args({10000, 100})->Args({1000000, 10000})->Args({1000, 1000});

}  // namespace
}  // namespace sgmcmc::samplers
