#include <cstdint>

#include "Eigen/Dense"
#include "absl/types/span.h"
#include "benchmark/benchmark.h"
#include "linalg/sphere.h"
#include "rng/engine.h"
#include "rng/normal.h"

namespace sgmcmc::linalg {
namespace {

// One geodesic step of (x, v) on S^{d-1}; items are coordinates.
void BM_SphereGeodesicFlow(benchmark::State& state) {
  const int64_t dim = state.range(0);
  rng::Engine engine(/*seed=*/3);
  Eigen::VectorXd x(dim), v(dim);
  rng::FillNormal(engine, absl::MakeSpan(x.data(), dim));
  NormalizeToSphere(x);
  RandomTangentVector(engine, x, v);
  for (auto _ : state) {
    GeodesicFlow(1e-3, x, v);
    benchmark::DoNotOptimize(x.data());
  }
  state.SetItemsProcessed(state.iterations() * dim);
}
BENCHMARK(BM_SphereGeodesicFlow)->RangeMultiplier(10)->Range(10, 1000000);

void BM_SphereRandomTangentVector(benchmark::State& state) {
  const int64_t dim = state.range(0);
  rng::Engine engine(/*seed=*/3);
  Eigen::VectorXd x(dim), out(dim);
  rng::FillNormal(engine, absl::MakeSpan(x.data(), dim));
  NormalizeToSphere(x);
  for (auto _ : state) {
    RandomTangentVector(engine, x, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * dim);
}
BENCHMARK(BM_SphereRandomTangentVector)->RangeMultiplier(10)->Range(10, 100000);

// K = 100 topics on S^{V-1}, V = 5000 (SAM's size): one flow of the product of spheres.
void BM_SphereGeodesicFlowColumns(benchmark::State& state) {
  const int64_t dim = state.range(0), k = state.range(1);
  rng::Engine engine(/*seed=*/3);
  Eigen::MatrixXd x(dim, k), v(dim, k);
  rng::FillNormal(engine, absl::MakeSpan(x.data(), x.size()));
  NormalizeColumnsToSphere(x);
  RandomTangentColumns(engine, x, v);
  for (auto _ : state) {
    GeodesicFlowColumns(1e-3, x, v);
    benchmark::DoNotOptimize(x.data());
  }
  state.SetItemsProcessed(state.iterations() * dim * k);
}
BENCHMARK(BM_SphereGeodesicFlowColumns)->Args({5000, 100});

}  // namespace
}  // namespace sgmcmc::linalg
