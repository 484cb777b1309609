// Measured (moved from rng/dirichlet.h):
// Cost: K gamma draws, ~28 ns per component for alpha >= 1 and ~70-90 ns per component in
// log space (see //rng:dirichlet_benchmark).

#include <vector>

#include "benchmark/benchmark.h"
#include "rng/dirichlet.h"

namespace sgmcmc::rng {
namespace {

// Per vector of K = range(0) components with alpha_i = alpha; items are vectors.
void BM_DirichletSample(benchmark::State& state, double alpha) {
  Engine engine(1);
  const std::vector<double> alphas(state.range(0), alpha);
  std::vector<double> out(alphas.size());
  for (auto _ : state) {
    DirichletSample(engine, alphas, absl::MakeSpan(out));
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(BM_DirichletSample, alpha_2, 2.0)->Arg(10)->Arg(1000);
BENCHMARK_CAPTURE(BM_DirichletSample, alpha_0p1, 0.1)->Arg(10)->Arg(1000);

void BM_DirichletLogSample(benchmark::State& state, double alpha) {
  Engine engine(1);
  const std::vector<double> alphas(state.range(0), alpha);
  std::vector<double> out(alphas.size());
  for (auto _ : state) {
    LogDirichletSample(engine, alphas, absl::MakeSpan(out));
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(BM_DirichletLogSample, alpha_0p001, 0.001)->Arg(10);

}  // namespace
}  // namespace sgmcmc::rng
