// Measured (moved from rng/uniform.h):
// Cost: one engine word per draw (UniformInt rejects with probability < n / 2^64).
// //rng:uniform_benchmark --config=bench, CPU time, one core of the shared 2-core VM at load
// ~4, median of 7 runs: UniformDouble 2.8 ns (3.2 ns with the int-to-double conversion),
// UniformInt 2.5-3.0 ns; one engine word alone is ~2.5 ns (//rng:engine_benchmark).
// FillUniformDouble (whole Philox batches written straight into the output, no per-word
// buffer check): 2.5-3.2 ns per draw for 64-1024 draws at load ~3 (median 2.8), i.e. the
// Philox kernel's cost; it is no faster than the UniformDouble loop on this VM.

#include <vector>

#include "absl/types/span.h"
#include "benchmark/benchmark.h"
#include "rng/uniform.h"

namespace sgmcmc::rng {
namespace {

void BM_UniformDouble(benchmark::State& state) {
  Engine engine(1);
  double acc = 0;
  for (auto _ : state) acc += UniformDouble(engine);
  benchmark::DoNotOptimize(acc);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_UniformDouble);

// ns per draw = 1e9 / items_per_second.
void BM_UniformDoubleFill(benchmark::State& state) {
  Engine engine(1);
  std::vector<double> out(state.range(0));
  for (auto _ : state) {
    FillUniformDouble(engine, absl::MakeSpan(out));
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * out.size());
}
BENCHMARK(BM_UniformDoubleFill)->Arg(64)->Arg(1024);

void BM_UniformInt(benchmark::State& state) {
  Engine engine(1);
  const uint64_t n = state.range(0);
  uint64_t acc = 0;
  for (auto _ : state) acc += UniformInt(engine, n);
  benchmark::DoNotOptimize(acc);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_UniformInt)->Arg(10)->Arg(1000000);

}  // namespace
}  // namespace sgmcmc::rng
