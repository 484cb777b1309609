// Measured (moved from linalg/sphere.h): GeodesicFlow ~1 ns per coordinate at d = 1000.

#include <cstdint>

#include "Eigen/Dense"
#include "absl/types/span.h"
#include "benchmark/benchmark.h"
#include "linalg/sphere.h"
#include "testing/random_inputs.h"

namespace sgmcmc::linalg {
namespace {

// One geodesic step of (x, v) on S^{d-1}; items are coordinates.
void BM_SphereGeodesicFlow(benchmark::State& state) {
  const int64_t dim = state.range(0);
  testing::RandomInputs inputs(/*seed=*/3);
  Eigen::VectorXd x(dim), v(dim);
  inputs.FillNormal(absl::MakeSpan(x.data(), dim));
  NormalizeToSphere(x);
  inputs.FillNormal(absl::MakeSpan(v.data(), dim));
  ProjectToTangent(x, v);
  for (auto _ : state) {
    GeodesicFlow(1e-3, x, v);
    benchmark::DoNotOptimize(x.data());
  }
  state.SetItemsProcessed(state.iterations() * dim);
}
BENCHMARK(BM_SphereGeodesicFlow)->RangeMultiplier(10)->Range(10, 1000000);

// K = 100 topics on S^{V-1}, V = 5000 (SAM's size): one flow of the product of spheres.
void BM_SphereGeodesicFlowColumns(benchmark::State& state) {
  const int64_t dim = state.range(0), k = state.range(1);
  testing::RandomInputs inputs(/*seed=*/3);
  Eigen::MatrixXd x(dim, k), v(dim, k);
  inputs.FillNormal(absl::MakeSpan(x.data(), x.size()));
  NormalizeColumnsToSphere(x);
  inputs.FillNormal(absl::MakeSpan(v.data(), v.size()));
  ProjectColumnsToTangent(x, v);
  for (auto _ : state) {
    GeodesicFlowColumns(1e-3, x, v);
    benchmark::DoNotOptimize(x.data());
  }
  state.SetItemsProcessed(state.iterations() * dim * k);
}
BENCHMARK(BM_SphereGeodesicFlowColumns)->Args({5000, 100});

}  // namespace
}  // namespace sgmcmc::linalg
