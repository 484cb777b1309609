// LogGammaTable::Sample at fixed shapes, beside rng::LogGammaSample at the same shape.
// Argument: 1e4 x shape.
//
// Measured (moved from rng/log_gamma_table.h):
// Cost: Create 5 ms at a = 0.01, 13 ms at 0.49 (20 bisection steps on v, each building both
// sides by bisections; 4 KB of slots, 12 KB with the exact-test data; Shared() builds one per
// shape per process). Sample: one engine word, one 16-byte table load, a multiply and a
// compare in the common case (inlined; the rest out of line). Measured by
// //rng:log_gamma_table_benchmark (--config=bench, one core pinned, idle machine, median of
// 3): Sample 6.6 ns at a = 0.01, 7.2 ns at 0.1 and 0.49, Fill 6.6 ns per draw (the previous
// strip table, two engine words and an alias table: 11-13 ns under load);
// rng::LogGammaSample on the same run: 23 ns at 0.01.
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
