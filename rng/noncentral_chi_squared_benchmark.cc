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
