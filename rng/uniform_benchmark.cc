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
