// One SCIR step over a K x W topic-like matrix with 99% zero counts (issue 5's benchmark;
// target <= 25 ns per coordinate on one core). Items = coordinates updated. The second
// argument of the Alpha case is 1000 x α: the zero-count cost depends on the prior's shape
// (0.01: the brief's β; 0.5: SCIR's LDA β, Baker et al. Table 2).
//
// Measured (moved from samplers/scir.h) on an idle machine (2026-11-22 05:29 UTC, load 0.4;
// --config=bench, one core pinned, median of 5 runs):
//   //samplers:scir_benchmark (100 x 10,000, 99% zero counts, h = 0.5), ns per coordinate:
//     α = 0.01: 20.6 (27.1 with the strip table and per-entry uniforms; originally ~60);
//     α = 0.1:  34.8 (the Poisson events and bulk uniforms of scir.cc; the sparse Dirichlet
//       tool's α);
//     α = 0.5:  15.0 (originally ~100); SGRLD beside it (//samplers:sgrld_benchmark): 8.0.
//   Session 21 (2026-11-29 15:10 UTC, quiet, CPU 1, 3 alternating runs each, M coordinates/s):
//   LogGammaTable::kSlotBits 8 -> 10: α = 0.01 59.3-60.3 -> 66.6-67.6 (16.7 -> 14.9 ns per
//   coordinate); α = 0.1 35.8-37.7 against 32.3-37.6 and α = 0.5 71.9-76.7 against 61.2-75.5,
//   unchanged within the noise (α = 0.5 draws no table gamma for zero counts).
//   //models/lda:lda_benchmark, K = 100 (median of 3):
//     BM_LdaTopicUpdateScir/100000 (β = 0.5, V = 1e5): 14.2 ns per entry, 142 ms per
//       iteration; 84 ms on 2 threads (1.68x). SGRLD: 7.7 ns, 77 ms; 42 ms on 2 threads.
//     BM_LdaTopicUpdateScirKos (β = 0.1, trained KOS topics, the lda tool's regime): 40.7 ns
//       per entry, 28.1 ms per iteration; 14.9 ms on 2 threads (1.89x). Trained rows hold many
//       large θ (frequent words), each a Poisson and a gamma draw (~60 ns together).
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
