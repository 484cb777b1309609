// Measured (moved from rng/chi_squared.h):
// Cost: one gamma draw, ~20 ns for df >= 2 and ~45 ns below (see //rng:chi_squared_benchmark).

#include "benchmark/benchmark.h"
#include "rng/chi_squared.h"

namespace sgmcmc::rng {
namespace {

void BM_ChiSquaredSample(benchmark::State& state, double df) {
  Engine engine(1);
  double acc = 0;
  for (auto _ : state) acc += ChiSquaredSample(engine, df);
  benchmark::DoNotOptimize(acc);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(BM_ChiSquaredSample, df_1, 1.0);
BENCHMARK_CAPTURE(BM_ChiSquaredSample, df_5, 5.0);

}  // namespace
}  // namespace sgmcmc::rng
