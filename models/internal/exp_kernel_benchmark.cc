// exp over an array of 4096 doubles in [-30, 0] (the range of log π_kw): ExpArray (AVX2 +
// FMA when available), its portable path, and glibc's std::exp; items = elements.
#include <cmath>
#include <vector>

#include "benchmark/benchmark.h"
#include "models/internal/exp_kernel.h"
#include "rng/engine.h"
#include "rng/uniform.h"

namespace sgmcmc::models_internal {
namespace {

std::vector<double> Inputs() {
  rng::Engine engine(3);
  std::vector<double> x(4096);
  for (double& v : x) v = rng::UniformDouble(engine, -30, 0);
  return x;
}

void BM_ExpArray(benchmark::State& state) {
  const std::vector<double> x = Inputs();
  std::vector<double> y(x.size());
  for (auto _ : state) {
    ExpArray(x.data(), y.data(), static_cast<int64_t>(x.size()));
    benchmark::DoNotOptimize(y.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(x.size()));
}
BENCHMARK(BM_ExpArray);

void BM_ExpArrayPortable(benchmark::State& state) {
  const std::vector<double> x = Inputs();
  std::vector<double> y(x.size());
  for (auto _ : state) {
    ExpArrayPortable(x.data(), y.data(), static_cast<int64_t>(x.size()));
    benchmark::DoNotOptimize(y.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(x.size()));
}
BENCHMARK(BM_ExpArrayPortable);

void BM_ExpArrayStdExp(benchmark::State& state) {
  const std::vector<double> x = Inputs();
  std::vector<double> y(x.size());
  for (auto _ : state) {
    for (size_t i = 0; i < x.size(); ++i) y[i] = std::exp(x[i]);
    benchmark::DoNotOptimize(y.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(x.size()));
}
BENCHMARK(BM_ExpArrayStdExp);

}  // namespace
}  // namespace sgmcmc::models_internal
