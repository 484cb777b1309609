// One SGRLD step over a K x W topic-like matrix with 99% zero counts (issue 5's benchmark;
// target <= 10 ns per coordinate on one core). Items = coordinates updated.
//
// Measured (moved from samplers/sgrld.h):
// Cost: O(W) per row per step: one normal (rng::FillNormal, ~4-6 ns) plus ~3 ns of vectorised
// arithmetic per coordinate. Measured by //samplers:sgrld_benchmark (100 x 10,000 matrix, 99%
// zero counts, --config=bench, one core of a loaded 2-core VM): 8.2-8.8 ns CPU per coordinate
// (target <= 10 ns).
// Dense counts (BM_SgrldStepDense, same matrix): 6.6-6.7 ms per step, of which the
// every-build validity check of the counts (one vectorised reduction per row,
// SimplexSampler::CheckDenseCounts) is ~0.35 ms, ~0.35 ns per entry (6.2-6.4 ms without it;
// the same loaded VM). Sparse counts (LDA) are checked on SimplexCounts::Append instead.
#include <vector>

#include "benchmark/benchmark.h"
#include "samplers/count_model.h"
#include "samplers/sgrld.h"
#include "samplers/simplex_testing.h"

namespace sgmcmc::samplers {
namespace {

// Times Sgrld::Step (alpha 0.01, seed 2, h 0.01) on the rows x cols `counts`, after 20 steps
// that leave the initial state. Items = coordinates updated.
template <typename Counts>
void TimeSgrldSteps(benchmark::State& state, int rows, int cols, const Counts& counts) {
  Sgrld sgrld = *Sgrld::Create(SimplexSamplerOptions{rows, cols, {0.01}, /*seed=*/2});
  for (int m = 0; m < 20; ++m) sgrld.Step(counts, 0.01);
  for (auto _ : state) {
    sgrld.Step(counts, 0.01);
    benchmark::DoNotOptimize(sgrld.row_sum(0));
  }
  state.SetItemsProcessed(state.iterations() * rows * cols);
}

void BM_SgrldStepSparse(benchmark::State& state) {
  const int rows = static_cast<int>(state.range(0));
  const int cols = static_cast<int>(state.range(1));
  const SimplexCounts counts = RandomSparseCounts(rows, cols, /*density=*/0.01, /*seed=*/1);
  TimeSgrldSteps(state, rows, cols, counts);
}
BENCHMARK(BM_SgrldStepSparse)->Args({100, 10000})->Unit(benchmark::kMillisecond);

// The same step fed dense counts (DenseCountsView): includes the validity check of the counts
// that StepRows makes in every build (one vectorised sum and min over the rows in range).
void BM_SgrldStepDense(benchmark::State& state) {
  const int rows = static_cast<int>(state.range(0));
  const int cols = static_cast<int>(state.range(1));
  const SimplexCounts sparse = RandomSparseCounts(rows, cols, /*density=*/0.01, /*seed=*/1);
  std::vector<double> dense(static_cast<size_t>(rows) * cols);
  sparse.ToDense(absl::MakeSpan(dense));
  const DenseCountsView counts{rows, cols, dense};
  TimeSgrldSteps(state, rows, cols, counts);
}
BENCHMARK(BM_SgrldStepDense)->Args({100, 10000})->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace sgmcmc::samplers
