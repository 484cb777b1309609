// Measured (moved from samplers/sgld.h):
// Cost per iteration: one stochastic gradient plus D normal draws and 2 flops per
// coordinate: ~6-7 ns per coordinate on one core, 0.6-0.7 ms at D = 10^5
// (//samplers:sgld_benchmark).

#include <vector>

#include "benchmark/benchmark.h"
#include "samplers/internal/isotropic_gaussian_testing.h"
#include "samplers/sgld.h"

namespace sgmcmc::samplers {
namespace {

// One iteration at dimension D = range(0) on a model whose gradient is one copy of theta
// (see BM_IsotropicGaussianGradient in //samplers:sgld_benchmark for that copy alone).
void BM_SgldStep(benchmark::State& state) {
  const int d = static_cast<int>(state.range(0));
  const samplers_internal::IsotropicGaussian model(d);
  SgldOptions options;
  options.chain.step_size = StepSizeOptions::Constant(1e-3);
  options.chain.seed = 1;
  auto sampler = *Sgld::Create(model, std::vector<double>(d, 0.0), options);
  for (auto _ : state) sampler->Step();
  benchmark::DoNotOptimize(sampler->theta().data());
  state.SetItemsProcessed(state.iterations() * d);
}
BENCHMARK(BM_SgldStep)->Arg(1000)->Arg(100000)->Arg(1000000);

// The gradient the Step benchmarks include: StochasticPotentialGradient of the model.
void BM_IsotropicGaussianGradient(benchmark::State& state) {
  const int d = static_cast<int>(state.range(0));
  const samplers_internal::IsotropicGaussian model(d);
  const std::vector<double> theta(d, 0.5);
  std::vector<double> grad(d);
  const int64_t batch[] = {0};
  for (auto _ : state) {
    StochasticPotentialGradient(model, theta, batch, absl::MakeSpan(grad));
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * d);
}
BENCHMARK(BM_IsotropicGaussianGradient)->Arg(1000)->Arg(100000)->Arg(1000000);

}  // namespace
}  // namespace sgmcmc::samplers
