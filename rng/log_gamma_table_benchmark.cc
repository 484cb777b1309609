// LogGammaTable::Sample at fixed shapes, beside rng::LogGammaSample at the same shape.
// Argument: 1e4 x shape.
#include "absl/types/span.h"
#include "benchmark/benchmark.h"
#include "rng/engine.h"
#include "rng/gamma.h"
#include "rng/log_gamma_table.h"

namespace sgmcmc::rng {
namespace {

void BM_LogGammaTableSample(benchmark::State& state) {
  const LogGammaTable table = *LogGammaTable::Create(state.range(0) / 1e4);
  Engine engine(1);
  for (auto _ : state) benchmark::DoNotOptimize(table.Sample(engine));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_LogGammaTableSample)->Arg(1)->Arg(100)->Arg(1000)->Arg(4900)->Arg(30000);

// Fill of 256 draws per iteration (the SCIR block size); items = draws.
void BM_LogGammaTableFill(benchmark::State& state) {
  const LogGammaTable table = *LogGammaTable::Create(state.range(0) / 1e4);
  Engine engine(1);
  double out[256];
  for (auto _ : state) {
    table.Fill(engine, absl::MakeSpan(out));
    benchmark::DoNotOptimize(out);
  }
  state.SetItemsProcessed(state.iterations() * 256);
}
BENCHMARK(BM_LogGammaTableFill)->Arg(100)->Arg(4900);

// Building a table (once per sampler): items = tables.
void BM_LogGammaTableCreate(benchmark::State& state) {
  const double shape = state.range(0) / 1e4;
  for (auto _ : state) benchmark::DoNotOptimize(LogGammaTable::Create(shape));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_LogGammaTableCreate)->Arg(100)->Arg(4900)->Unit(benchmark::kMillisecond);

void BM_LogGammaTableLogGammaSampleBaseline(benchmark::State& state) {
  const double shape = state.range(0) / 1e4;
  Engine engine(1);
  for (auto _ : state) benchmark::DoNotOptimize(LogGammaSample(engine, shape));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_LogGammaTableLogGammaSampleBaseline)->Arg(1)->Arg(100)->Arg(1000)->Arg(4900);

}  // namespace
}  // namespace sgmcmc::rng
