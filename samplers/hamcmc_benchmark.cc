// Measured (moved from samplers/hamcmc.h): at D = 10^5 an
// iteration takes ~1.7 ms with M = 2 (~2.5x SGLD's 0.7 ms, gradients excluded), ~2.6 ms with
// M = 3 and ~5.4 ms with M = 5, most of it in the L-BFGS products (//samplers:hamcmc_benchmark).

#include <vector>

#include "benchmark/benchmark.h"
#include "samplers/hamcmc.h"
#include "samplers/internal/isotropic_gaussian_testing.h"

namespace sgmcmc::samplers {
namespace {

// One HAMCMC iteration (past the 2M warm-up) at dimension D = range(0) with memory
// M = range(1), on a model whose gradient is one copy of theta (HAMCMC takes two per
// iteration; BM_IsotropicGaussianGradient in //samplers:sgld_benchmark times one). Compare
// with BM_SgldStep at the same D for the cost ratio, gradient excluded.
void BM_HamcmcStep(benchmark::State& state) {
  const int d = static_cast<int>(state.range(0));
  const int memory = static_cast<int>(state.range(1));
  const samplers_internal::IsotropicGaussian model(d);
  HamcmcOptions options;
  options.chain.step_size = StepSizeOptions::Constant(1e-3);
  options.chain.seed = 1;
  options.memory = memory;
  auto sampler = *Hamcmc::Create(model, std::vector<double>(d, 0.0), options);
  for (int t = 0; t < 2 * memory + 1; ++t) sampler->Step();
  for (auto _ : state) sampler->Step();
  benchmark::DoNotOptimize(sampler->theta().data());
  state.SetItemsProcessed(state.iterations() * d);
}
BENCHMARK(BM_HamcmcStep)
    ->Args({1000, 2})
    ->Args({100000, 2})
    ->Args({100000, 3})
    ->Args({100000, 5})
    ->Args({1000000, 2});

}  // namespace
}  // namespace sgmcmc::samplers
