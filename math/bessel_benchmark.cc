// Measured (moved from math/bessel.h), one core, --config=bench: Debye region 110 ns
// (ν = 2499) to 210 ns (ν = 30, all 17 terms), Hankel ~40 ns, series ~85 ns, Boost region
// ~1.1 µs; VmfMeanResultantLength about 1.4x that.

#include "benchmark/benchmark.h"
#include "math/bessel.h"

namespace sgmcmc::math {
namespace {

// Args: {nu, kappa}, one point per region of LogBesselI.
void BM_BesselLogBesselI(benchmark::State& state) {
  const double nu = state.range(0);
  double kappa = state.range(1);
  for (auto _ : state) {
    benchmark::DoNotOptimize(kappa);
    benchmark::DoNotOptimize(LogBesselI(nu, kappa));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_BesselLogBesselI)
    ->Args({2499, 3000})    // Debye, few terms
    ->Args({30, 10})        // Debye, many terms
    ->Args({3, 1})          // series
    ->Args({3, 50})         // Boost
    ->Args({3, 10000});     // Hankel

void BM_BesselVmfMeanResultantLength(benchmark::State& state) {
  const int dim = state.range(0);
  double kappa = state.range(1);
  for (auto _ : state) {
    benchmark::DoNotOptimize(kappa);
    benchmark::DoNotOptimize(VmfMeanResultantLength(dim, kappa));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_BesselVmfMeanResultantLength)->Args({5000, 3000})->Args({3, 50})->Args({3, 10000});

}  // namespace
}  // namespace sgmcmc::math
