// Measured (moved from samplers/sgnht.h):
// Cost per iteration: one stochastic gradient plus one normal draw and ~8 flops per
// coordinate: ~8 ns per coordinate, 0.8 ms at D = 10^5 (//samplers:sgnht_benchmark).

#include <vector>

#include "benchmark/benchmark.h"
#include "samplers/internal/isotropic_gaussian_testing.h"
#include "samplers/sgnht.h"

namespace sgmcmc::samplers {
namespace {

// One iteration at dimension D = range(0) on a model whose gradient is one copy of theta
// (see BM_IsotropicGaussianGradient in //samplers:sgld_benchmark for that copy alone).
void BM_SgnhtStep(benchmark::State& state) {
  const int d = static_cast<int>(state.range(0));
  const samplers_internal::IsotropicGaussian model(d);
  SgnhtOptions options;
  options.chain.step_size = StepSizeOptions::Constant(1e-3);
  options.chain.seed = 1;
  auto sampler = *Sgnht::Create(model, std::vector<double>(d, 0.0), options);
  for (auto _ : state) sampler->Step();
  benchmark::DoNotOptimize(sampler->theta().data());
  state.SetItemsProcessed(state.iterations() * d);
}
BENCHMARK(BM_SgnhtStep)->Arg(1000)->Arg(100000)->Arg(1000000);

}  // namespace
}  // namespace sgmcmc::samplers
