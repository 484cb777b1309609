// One SCIR step over a K x W topic-like matrix with 99% zero counts (issue 5's benchmark;
// target <= 25 ns per coordinate on one core). Items = coordinates updated. The second
// argument of the Alpha case is 1000 x α: the zero-count cost depends on the prior's shape
// (0.01: the brief's β; 0.5: SCIR's LDA β, Baker et al. Table 2).
#include "benchmark/benchmark.h"
#include "samplers/count_model.h"
#include "samplers/scir.h"
#include "samplers/simplex_testing.h"

namespace sgmcmc::samplers {
namespace {

void BM_ScirStepSparse(benchmark::State& state) {
  const int rows = static_cast<int>(state.range(0));
  const int cols = static_cast<int>(state.range(1));
  const double alpha = state.range(2) / 1000.0;
  const SimplexCounts counts = RandomSparseCounts(rows, cols, /*density=*/0.01, /*seed=*/1);
  Scir scir = *Scir::Create(SimplexSamplerOptions{rows, cols, {alpha}, /*seed=*/2});
  for (int m = 0; m < 20; ++m) scir.Step(counts, 0.5);  // reach the stationary regime
  for (auto _ : state) {
    scir.Step(counts, 0.5);
    benchmark::DoNotOptimize(scir.log_normalizer(0));
  }
  state.SetItemsProcessed(state.iterations() * rows * cols);
}
BENCHMARK(BM_ScirStepSparse)
    ->Args({100, 10000, 10})
    ->Args({100, 10000, 100})
    ->Args({100, 10000, 500})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace sgmcmc::samplers
