// Measured (moved from rng/binomial.h):
// Cost (//rng:binomial_benchmark, CPU time on the shared 2-core dev VM): 60-70 ns per draw
// for inversion (a log1p and an exp dominate), 70-160 ns for BTRS (slowest just above the
// switch, n p' ~ 10-50, where ~40% of trials need the exact log-pmf test).

#include <cstdint>
#include <string>

#include "benchmark/benchmark.h"
#include "rng/binomial.h"

namespace sgmcmc::rng {
namespace {

// ns per draw = 1e9 / items_per_second. Args: n, p in thousandths.
void BM_BinomialSample(benchmark::State& state) {
  Engine engine(1);
  const int64_t n = state.range(0);
  const double p = state.range(1) / 1000.0;
  int64_t acc = 0;
  for (auto _ : state) acc += BinomialSample(engine, n, p);
  benchmark::DoNotOptimize(acc);
  state.SetItemsProcessed(state.iterations());
  state.SetLabel("n=" + std::to_string(n) + " p=" + std::to_string(p));
}
BENCHMARK(BM_BinomialSample)
    ->Args({10, 300})           // inversion, n p = 3
    ->Args({100, 50})           // inversion, n p = 5
    ->Args({100, 500})          // BTRS, n p = 50
    ->Args({1000, 990})         // BTRS on the mirrored side
    ->Args({1000000000, 300});  // BTRS, n = 1e9

void BM_BinomialLogPmf(benchmark::State& state) {
  int64_t k = 0;
  double acc = 0;
  for (auto _ : state) {
    acc += BinomialLogPmf(k, 1000, 0.3);
    k = (k + 7) % 1000;
  }
  benchmark::DoNotOptimize(acc);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_BinomialLogPmf);

}  // namespace
}  // namespace sgmcmc::rng
