// Measured (moved from rng/von_mises_fisher.h):
// Cost: one Beta and one uniform per trial (1 to ~1.5 trials per draw on average over
// d = 2..10000, kappa = 0..1e5; most at large kappa, small d), plus d - 1 normals and two
// O(d) passes. CPU time on the shared 2-core dev VM (//rng:von_mises_fisher_benchmark):
// ~0.2 us at d = 3, ~1.2 us at d = 100, ~110 us at d = 10000.

#include <cmath>
#include <vector>

#include "absl/types/span.h"
#include "benchmark/benchmark.h"
#include "rng/von_mises_fisher.h"

namespace sgmcmc::rng {
namespace {

// ns per d-dimensional draw = 1e9 / items_per_second. Args: dimension d, kappa.
void BM_VonMisesFisherSample(benchmark::State& state) {
  const int d = state.range(0);
  const double kappa = state.range(1);
  std::vector<double> mu(d, 1 / std::sqrt(static_cast<double>(d))), x(d);
  Engine engine(1);
  for (auto _ : state) {
    VonMisesFisherSample(engine, mu, kappa, absl::MakeSpan(x));
    benchmark::DoNotOptimize(x.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_VonMisesFisherSample)
    ->Args({3, 1})
    ->Args({3, 100})
    ->Args({100, 100})
    ->Args({10000, 100})
    ->Args({10000, 10000});

}  // namespace
}  // namespace sgmcmc::rng
