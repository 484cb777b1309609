// Measured (moved from rng/noncentral_chi_squared.h):
// Cost (//rng:noncentral_chi_squared_benchmark --config=bench, CPU time, one core of the
// shared 2-core VM at load ~4, median of 7 runs): df >= 1: a normal and a gamma draw, ~10 ns
// at df = 1 (no gamma) and ~33 ns at df = 5, lambda = 1e6 (log space: ~20 ns at df = 1);
// df < 1: one Poisson and one gamma draw, ~62 ns for the SCIR-like df = 0.002, lambda = 5
// (log space ~68 ns). The Poisson mixture used for every df took 67-91 ns.

#include "benchmark/benchmark.h"
#include "rng/noncentral_chi_squared.h"

namespace sgmcmc::rng {
namespace {

// ns per draw = 1e9 / items_per_second. Args: df and noncentrality in thousandths.
template <double (*Sample)(Engine&, double, double)>
void BM_NoncentralChiSquared(benchmark::State& state) {
  Engine engine(1);
  const double df = state.range(0) / 1000.0;
  const double noncentrality = state.range(1) / 1000.0;
  double acc = 0;
  for (auto _ : state) acc += Sample(engine, df, noncentrality);
  benchmark::DoNotOptimize(acc);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_TEMPLATE(BM_NoncentralChiSquared, NoncentralChiSquaredSample)
    ->Args({2, 5000})  // SCIR-like: tiny df, moderate noncentrality
    ->Args({1000, 10000})
    ->Args({5000, 1000000});
BENCHMARK_TEMPLATE(BM_NoncentralChiSquared, LogNoncentralChiSquaredSample)
    ->Args({2, 5000})
    ->Args({1000, 10000});

}  // namespace
}  // namespace sgmcmc::rng
