// Measured (moved from samplers/step_size.h):
// Cost: one pow() per call (~20 ns) for the decaying schedules, nothing for kConstant.

#include "benchmark/benchmark.h"
#include "samplers/step_size.h"

namespace sgmcmc::samplers {
namespace {

void BM_StepSize(benchmark::State& state) {
  const StepSizeOptions options[] = {
      StepSizeOptions::Constant(0.1), StepSizeOptions::PolynomialDecay(0.5, 10, 0.33),
      StepSizeOptions::Hamcmc(0.1), StepSizeOptions::Polynomial(0.2, 3, 0.55)};
  const StepSize step_size = *StepSize::Create(options[state.range(0)]);
  state.SetLabel(step_size.options().ToString());
  int64_t m = 0;
  double acc = 0;
  for (auto _ : state) acc += step_size(m++);
  benchmark::DoNotOptimize(acc);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_StepSize)->DenseRange(0, 3);

}  // namespace
}  // namespace sgmcmc::samplers
