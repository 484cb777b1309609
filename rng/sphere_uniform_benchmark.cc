#include <cstdint>

#include "Eigen/Dense"
#include "absl/types/span.h"
#include "benchmark/benchmark.h"
#include "rng/engine.h"
#include "rng/normal.h"
#include "rng/sphere_uniform.h"

namespace sgmcmc::rng {
namespace {

void BM_SphereUniformRandomTangentVector(benchmark::State& state) {
  const int64_t dim = state.range(0);
  Engine engine(/*seed=*/3);
  Eigen::VectorXd x(dim), out(dim);
  FillNormal(engine, absl::MakeSpan(x.data(), dim));
  x.normalize();
  for (auto _ : state) {
    RandomTangentVector(engine, x, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * dim);
}
BENCHMARK(BM_SphereUniformRandomTangentVector)->RangeMultiplier(10)->Range(10, 100000);

}  // namespace
}  // namespace sgmcmc::rng
