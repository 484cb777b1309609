// Measured (moved from rng/poisson.h):
// Cost (//rng:poisson_benchmark --config=bench, CPU time, one core of the shared 2-core VM at
// load ~3.3, median of 3 runs; one engine word is ~2.5 ns): ~15-18 ns per draw for mean <= 1,
// 20-28 ns for mean 2-10 (2.9: 25 ns, 3: 22, 5: 20, 9.9: 28; means varying over [0, 10):
// 24 ns; the sequential search alone was 35 ns at 5 and 43 ns at 9.9); PTRS 40-75 ns
// (mean 30: 72 ns; 1e3-1e6: 43-49 ns).

#include <cstdint>

#include "benchmark/benchmark.h"
#include "rng/poisson.h"

namespace sgmcmc::rng {
namespace {

// ns per draw = 1e9 / items_per_second. Arg is the mean times 10 (so 0.5 is expressible).
void BM_PoissonSample(benchmark::State& state) {
  Engine engine(1);
  const double mean = state.range(0) / 10.0;
  int64_t acc = 0;
  for (auto _ : state) acc += PoissonSample(engine, mean);
  benchmark::DoNotOptimize(acc);
  state.SetItemsProcessed(state.iterations());
  state.SetLabel("mean=" + std::to_string(mean));
}
// 2.9 / 3.0 straddle the switch from sequential search to branch-free inversion.
BENCHMARK(BM_PoissonSample)
    ->Arg(1)
    ->Arg(10)
    ->Arg(20)
    ->Arg(29)
    ->Arg(30)
    ->Arg(35)
    ->Arg(40)
    ->Arg(45)
    ->Arg(50)
    ->Arg(75)
    ->Arg(85)
    ->Arg(99)
    ->Arg(300)
    ->Arg(10000)
    ->Arg(10000000);

// A varying mean, as in a Gibbs sweep or the SCIR step (no per-mean caching possible).
void BM_PoissonSampleVaryingMean(benchmark::State& state) {
  Engine engine(1);
  const double max_mean = state.range(0);
  double mean = 0;
  int64_t acc = 0;
  for (auto _ : state) {
    mean += 0.618034 * max_mean;
    if (mean >= max_mean) mean -= max_mean;
    acc += PoissonSample(engine, mean);
  }
  benchmark::DoNotOptimize(acc);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PoissonSampleVaryingMean)->Arg(10)->Arg(1000);

void BM_PoissonLogPmf(benchmark::State& state) {
  int64_t k = 0;
  double acc = 0;
  for (auto _ : state) {
    acc += PoissonLogPmf(k, 1000.0);
    k = (k + 7) % 2000;
  }
  benchmark::DoNotOptimize(acc);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PoissonLogPmf);

}  // namespace
}  // namespace sgmcmc::rng
