// Measured (moved from rng/generalized_gamma.h):
// Cost: a LogGammaSample plus an exp, ~50 ns (see //rng:generalized_gamma_benchmark).

#include "benchmark/benchmark.h"
#include "rng/generalized_gamma.h"

namespace sgmcmc::rng {
namespace {

void BM_GeneralizedGammaSample(benchmark::State& state) {
  Engine engine(1);
  double acc = 0;
  for (auto _ : state) acc += GeneralizedGammaSample(engine, 2.0, 3.0, 1.5);
  benchmark::DoNotOptimize(acc);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_GeneralizedGammaSample);

}  // namespace
}  // namespace sgmcmc::rng
