// Measured (moved from rng/categorical.h):
// Cost (//rng:categorical_benchmark, CPU time on the shared 2-core dev VM): scan with the
// total ~25 ns + 0.35 ns per weight scanned (K = 1000: 200 ns); without it add ~0.5 ns per
// weight for the sum (K = 100: 100-125 ns); log weights ~12 ns per weight (one exp each).
// AliasTable construction ~27 ns per weight; Sample one engine word plus one 16-byte load,
// branch-free: ~4-5 ns while the table is in cache (K <= 1000), 15-40 ns at K = 1e6.

#include <cstdint>
#include <numeric>
#include <vector>

#include "benchmark/benchmark.h"
#include "rng/categorical.h"
#include "rng/uniform.h"

namespace sgmcmc::rng {
namespace {

// ns per draw = 1e9 / items_per_second; the argument is K.
std::vector<double> Weights(int k) {
  Engine engine(99);
  std::vector<double> weights(k);
  for (double& w : weights) w = UniformDouble(engine);
  return weights;
}

void BM_CategoricalSample(benchmark::State& state) {
  const std::vector<double> weights = Weights(state.range(0));
  Engine engine(1);
  int64_t acc = 0;
  for (auto _ : state) acc += CategoricalSample(engine, weights);
  benchmark::DoNotOptimize(acc);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CategoricalSample)->Arg(10)->Arg(100)->Arg(1000);

void BM_CategoricalSampleWithTotal(benchmark::State& state) {
  const std::vector<double> weights = Weights(state.range(0));
  const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
  Engine engine(1);
  int64_t acc = 0;
  for (auto _ : state) acc += CategoricalSample(engine, weights, total);
  benchmark::DoNotOptimize(acc);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CategoricalSampleWithTotal)->Arg(10)->Arg(100)->Arg(1000);

void BM_CategoricalLogSample(benchmark::State& state) {
  std::vector<double> log_weights = Weights(state.range(0));
  for (double& w : log_weights) w = -50 * w;
  Engine engine(1);
  int64_t acc = 0;
  for (auto _ : state) acc += LogCategoricalSample(engine, log_weights);
  benchmark::DoNotOptimize(acc);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CategoricalLogSample)->Arg(10)->Arg(100);

void BM_CategoricalAliasSample(benchmark::State& state) {
  const AliasTable table = *AliasTable::Create(Weights(state.range(0)));
  Engine engine(1);
  int64_t acc = 0;
  for (auto _ : state) acc += table.Sample(engine);
  benchmark::DoNotOptimize(acc);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CategoricalAliasSample)->Arg(10)->Arg(1000)->Arg(1000000);

// Construction cost per weight.
void BM_CategoricalAliasCreate(benchmark::State& state) {
  const std::vector<double> weights = Weights(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(AliasTable::Create(weights));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_CategoricalAliasCreate)->Arg(1000);

}  // namespace
}  // namespace sgmcmc::rng
