// Measured (moved from rng/multinomial.h):
// Cost: O(K) plus one BinomialSample per category until the count is exhausted (60-160 ns
// each, independent of n; //rng:multinomial_benchmark: K = 10, n = 100: ~1.1 us); no
// allocation for K <= 63.

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "benchmark/benchmark.h"
#include "rng/multinomial.h"
#include "rng/uniform.h"

namespace sgmcmc::rng {
namespace {

// ns per multinomial vector = 1e9 / items_per_second. Args: K, n.
void BM_MultinomialSample(benchmark::State& state) {
  const int k = state.range(0);
  const int64_t n = state.range(1);
  Engine setup(99);
  std::vector<double> probs(k);
  for (double& p : probs) p = UniformDouble(setup);
  std::vector<int64_t> counts(k);
  Engine engine(1);
  for (auto _ : state) {
    MultinomialSample(engine, n, probs, absl::MakeSpan(counts));
    benchmark::DoNotOptimize(counts.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_MultinomialSample)->Args({10, 100})->Args({10, 1000000})->Args({100, 1000});

}  // namespace
}  // namespace sgmcmc::rng
