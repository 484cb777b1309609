// Measured (moved from math/bessel.h), one core, --config=bench: Debye region 110 ns
// (ν = 2499) to 210 ns (ν = 30, all 17 terms), Hankel ~40 ns, series ~85 ns, Boost region
// ~1.1 µs; VmfMeanResultantLength about 1.4x that.

#include "benchmark/benchmark.h"
#include "math/bessel.h"

namespace sgmcmc::math {
namespace {

// Times function(range(0), kappa = range(1)); kappa passes through DoNotOptimize on every
// call so that nothing is hoisted out of the loop.
template <typename First, typename Function>
void TimeAtKappa(benchmark::State& state, Function function) {
  const First first = static_cast<First>(state.range(0));
  double kappa = state.range(1);
  for (auto _ : state) {
    benchmark::DoNotOptimize(kappa);
    benchmark::DoNotOptimize(function(first, kappa));
  }
  state.SetItemsProcessed(state.iterations());
}

// Args: {nu, kappa}, one point per region of LogBesselI.
void BM_BesselLogBesselI(benchmark::State& state) {
  TimeAtKappa<double>(state, [](double nu, double kappa) { return LogBesselI(nu, kappa); });
}
BENCHMARK(BM_BesselLogBesselI)
    ->Args({2499, 3000})    // Debye, few terms
    ->Args({30, 10})        // Debye, many terms
    ->Args({3, 1})          // series
    ->Args({3, 50})         // Boost
    ->Args({3, 10000});     // Hankel

// Args: {dim, kappa}.
void BM_BesselVmfMeanResultantLength(benchmark::State& state) {
  TimeAtKappa<int>(state,
                   [](int dim, double kappa) { return VmfMeanResultantLength(dim, kappa); });
}
BENCHMARK(BM_BesselVmfMeanResultantLength)->Args({5000, 3000})->Args({3, 50})->Args({3, 10000});

}  // namespace
}  // namespace sgmcmc::math
