// Measured (moved from linalg/lbfgs.h) with //linalg:lbfgs_benchmark (--config=bench,
// shared 2-core machine, so ±30%), linear in D: with 4 pairs (M = 5) ApplyH ~6 ns and
// ApplySqrtH ~4 ns per coordinate for D = 1e3 ... 1e5, 18 and 8 ns at D = 1e6 (memory-bound);
// AddPair ~20 ns per coordinate (45 ns at D = 1e6).

#include <cstdint>

#include "Eigen/Dense"
#include "absl/types/span.h"
#include "benchmark/benchmark.h"
#include "linalg/lbfgs.h"
#include "testing/random_inputs.h"

namespace sgmcmc::linalg {
namespace {

using ::sgmcmc::testing::RandomInputs;

Eigen::VectorXd RandomVector(RandomInputs& inputs, int64_t dim) {
  Eigen::VectorXd v(dim);
  inputs.FillNormal(absl::MakeSpan(v.data(), dim));
  return v;
}

// An L-BFGS memory of size M (M - 1 pairs) for a diagonal quadratic, y = d ∘ s.
Lbfgs MakeLbfgs(int64_t dim, int memory) {
  RandomInputs inputs(/*seed=*/5);
  LbfgsOptions options;
  options.max_pairs = memory - 1;
  Lbfgs lbfgs(dim, options);
  const Eigen::VectorXd diagonal = RandomVector(inputs, dim).array().abs() + 1;
  for (int i = 0; i < memory - 1; ++i) {
    const Eigen::VectorXd s = RandomVector(inputs, dim);
    lbfgs.AddPair(s, diagonal.cwiseProduct(s));
  }
  return lbfgs;
}

using ApplyMethod = void (Lbfgs::*)(const Eigen::Ref<const Eigen::VectorXd>&,
                                    Eigen::Ref<Eigen::VectorXd>) const;

// Args: {D, M}. Items are coordinates, so items/s constant in D means linear scaling.
void RunApply(benchmark::State& state, ApplyMethod apply) {
  const int64_t dim = state.range(0);
  const Lbfgs lbfgs = MakeLbfgs(dim, state.range(1));
  RandomInputs inputs(/*seed=*/6);
  const Eigen::VectorXd in = RandomVector(inputs, dim);
  Eigen::VectorXd out(dim);
  for (auto _ : state) {
    (lbfgs.*apply)(in, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * dim);
}

void BM_LbfgsApplyH(benchmark::State& state) { RunApply(state, &Lbfgs::ApplyH); }
void BM_LbfgsApplySqrtH(benchmark::State& state) { RunApply(state, &Lbfgs::ApplySqrtH); }

// AddPair rebuilds the product form, O(M² D): HAMCMC pays it once per step.
void BM_LbfgsAddPair(benchmark::State& state) {
  const int64_t dim = state.range(0);
  Lbfgs lbfgs = MakeLbfgs(dim, state.range(1));
  RandomInputs inputs(/*seed=*/6);
  const Eigen::VectorXd s = RandomVector(inputs, dim);
  const Eigen::VectorXd y = 2 * s;
  for (auto _ : state) {
    benchmark::DoNotOptimize(lbfgs.AddPair(s, y));
  }
  state.SetItemsProcessed(state.iterations() * dim);
}

void Sizes(benchmark::internal::Benchmark* benchmark) {
  for (int64_t dim : {1000, 10000, 100000, 1000000}) {
    for (int memory : {2, 3, 4, 5}) benchmark->Args({dim, memory});
  }
}

BENCHMARK(BM_LbfgsApplyH)->Apply(Sizes);
BENCHMARK(BM_LbfgsApplySqrtH)->Apply(Sizes);
BENCHMARK(BM_LbfgsAddPair)->Apply(Sizes);

}  // namespace
}  // namespace sgmcmc::linalg
