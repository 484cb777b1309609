// One elliptical slice step (samplers/elliptical_slice.h) under a rank-5-plus-diagonal prior
// with an isotropic Gaussian log-likelihood, D = 10^2 .. 10^4; items = coordinates, so
// ns per coordinate per step = 1e9 / items_per_second (the noise draw, ~3 proposals and
// their likelihood evaluations).
// Measured 2026-11-25 on the shared 2-core development machine (load ~9; CPU time, wall time
// ~2.5x higher), --benchmark_repetitions=3 medians:
//   ./bazelw run --config=bench //samplers:elliptical_slice_benchmark
//   D        ns/step   ns/coordinate
//   10^2     2,270     22.7
//   10^3     22,600    22.6
//   10^4     264,000   26.4
#include <vector>

#include "benchmark/benchmark.h"
#include "rng/engine.h"
#include "rng/normal.h"
#include "samplers/elliptical_slice.h"

namespace sgmcmc::samplers {
namespace {

void BM_EllipticalSliceStep(benchmark::State& state) {
  const int d = static_cast<int>(state.range(0));
  constexpr int kRank = 5;
  rng::Engine engine(1);
  std::vector<double> factor(d * kRank), sd(d, 0.5), x(d, 0.0);
  rng::FillNormal(engine, absl::MakeSpan(factor));
  const LowRankGaussianView prior{{}, factor, kRank, sd};
  auto log_lik = [](absl::Span<const double> y) {
    double sum = 0;
    for (double v : y) sum += (v - 1) * (v - 1);
    return -0.5 * sum;
  };
  EllipticalSlice slice;
  double ll = log_lik(x);
  for (auto _ : state) {
    ll = slice.Step(prior, log_lik, ll, absl::MakeSpan(x), engine).log_likelihood;
  }
  state.SetItemsProcessed(state.iterations() * d);
}
BENCHMARK(BM_EllipticalSliceStep)->RangeMultiplier(10)->Range(100, 10000);

}  // namespace
}  // namespace sgmcmc::samplers
