// Measured (moved from rng/beta.h):
// Cost: two gamma draws, ~45 ns for a, b >= 1 and ~120 ns in log space (see
// //rng:beta_benchmark).

#include "benchmark/benchmark.h"
#include "rng/beta.h"

namespace sgmcmc::rng {
namespace {

void BM_BetaSample(benchmark::State& state, double a, double b) {
  Engine engine(1);
  double acc = 0;
  for (auto _ : state) acc += BetaSample(engine, a, b);
  benchmark::DoNotOptimize(acc);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(BM_BetaSample, a_2_b_3, 2.0, 3.0);
BENCHMARK_CAPTURE(BM_BetaSample, a_0p5_b_0p5, 0.5, 0.5);

}  // namespace
}  // namespace sgmcmc::rng
