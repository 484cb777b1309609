#include "benchmark/benchmark.h"
#include "rng/gamma.h"

namespace sgmcmc::rng {
namespace {

void BM_GammaSample(benchmark::State& state, double shape) {
  Engine engine(1);
  double acc = 0;
  for (auto _ : state) acc += GammaSample(engine, shape);
  benchmark::DoNotOptimize(acc);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(BM_GammaSample, shape_0p1, 0.1);
BENCHMARK_CAPTURE(BM_GammaSample, shape_1, 1.0);
BENCHMARK_CAPTURE(BM_GammaSample, shape_5, 5.0);
BENCHMARK_CAPTURE(BM_GammaSample, shape_100, 100.0);

// SCIR-style use: a different shape on every call.
void BM_GammaSampleVaryingShape(benchmark::State& state) {
  Engine engine(1);
  double acc = 0, shape = 1;
  for (auto _ : state) {
    acc += GammaSample(engine, shape);
    shape = shape < 50 ? shape * 1.1 : 1;
  }
  benchmark::DoNotOptimize(acc);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_GammaSampleVaryingShape);

void BM_GammaLogSample(benchmark::State& state, double shape) {
  Engine engine(1);
  double acc = 0;
  for (auto _ : state) acc += LogGammaSample(engine, shape);
  benchmark::DoNotOptimize(acc);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(BM_GammaLogSample, shape_1em300, 1e-300);
BENCHMARK_CAPTURE(BM_GammaLogSample, shape_0p01, 0.01);
BENCHMARK_CAPTURE(BM_GammaLogSample, shape_0p1, 0.1);
BENCHMARK_CAPTURE(BM_GammaLogSample, shape_0p3, 0.3);
BENCHMARK_CAPTURE(BM_GammaLogSample, shape_0p5, 0.5);
BENCHMARK_CAPTURE(BM_GammaLogSample, shape_0p9, 0.9);
BENCHMARK_CAPTURE(BM_GammaLogSample, shape_5, 5.0);

}  // namespace
}  // namespace sgmcmc::rng
