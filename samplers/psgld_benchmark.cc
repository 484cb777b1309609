// Measured (moved from samplers/psgld.h):
// Cost per iteration: one stochastic gradient plus, per coordinate, one normal draw, two
// square roots and ~10 flops: ~15 ns per coordinate, 1.5 ms at D = 10^5
// (//samplers:psgld_benchmark).

#include <vector>

#include "benchmark/benchmark.h"
#include "samplers/internal/isotropic_gaussian_testing.h"
#include "samplers/psgld.h"

namespace sgmcmc::samplers {
namespace {

// One iteration at dimension D = range(0) on a model whose gradient is one copy of theta
// (see BM_IsotropicGaussianGradient in //samplers:sgld_benchmark for that copy alone).
void BM_PsgldStep(benchmark::State& state) {
  const int d = static_cast<int>(state.range(0));
  const samplers_internal::IsotropicGaussian model(d);
  PsgldOptions options;
  options.chain.step_size = StepSizeOptions::Constant(1e-3);
  options.chain.seed = 1;
  auto sampler = *Psgld::Create(model, std::vector<double>(d, 0.0), options);
  for (auto _ : state) sampler->Step();
  benchmark::DoNotOptimize(sampler->theta().data());
  state.SetItemsProcessed(state.iterations() * d);
}
BENCHMARK(BM_PsgldStep)->Arg(1000)->Arg(100000)->Arg(1000000);

}  // namespace
}  // namespace sgmcmc::samplers
