// Measured (moved from rng/gamma.h): the switch from the boost to Liu, Martin & Syring at
// shape 0.25 is where the latter stops beating the boost
//    (//rng:gamma_benchmark LogGammaSample: ~18 ns at 0.01, ~26 ns at 0.1, ~48 ns at 0.3,
//    versus ~50 ns for the boost at any shape < 1).
//
// Measured (moved from rng/gamma.h):
// Cost (one core, noisy shared VM, see //rng:gamma_benchmark): ~20-25 ns per draw for
// shape >= 1; ~50 ns for 0.25 <= shape < 1 (a second uniform, a log and an exp);
// LogGammaSample adds a log there (~30 ns, ~50 ns); ~15-25 ns below shape 0.25 (both).

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
