// Measured (moved from rng/normal.h):
// Cost: ~4-6 ns per draw on one core including the engine (see //rng:normal_benchmark).

#include <vector>

#include "benchmark/benchmark.h"
#include "rng/normal.h"

namespace sgmcmc::rng {
namespace {

void BM_NormalSample(benchmark::State& state) {
  Engine engine(1);
  double acc = 0;
  for (auto _ : state) acc += NormalSample(engine);
  benchmark::DoNotOptimize(acc);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_NormalSample);

void BM_NormalSampleMeanSd(benchmark::State& state) {
  Engine engine(1);
  double acc = 0;
  for (auto _ : state) acc += NormalSample(engine, 1.0, 2.0);
  benchmark::DoNotOptimize(acc);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_NormalSampleMeanSd);

void BM_NormalFill(benchmark::State& state) {
  Engine engine(1);
  std::vector<double> out(state.range(0));
  for (auto _ : state) {
    FillNormal(engine, absl::MakeSpan(out));
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * out.size());
}
BENCHMARK(BM_NormalFill)->Range(64, 4096);

}  // namespace
}  // namespace sgmcmc::rng
