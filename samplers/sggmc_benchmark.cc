// One SGGMC / gSGNHT iteration (L = 1: two geodesic half-flows, two B scalings, one O step
// with d normal draws and a tangent projection) on S^{V-1} with the vMF target, whose
// gradient is one O(V) fill; V = 10^3 .. 10^6. items_per_second counts coordinates, so
// ns per coordinate = 1e9 / items_per_second. The geodesic flow alone is
// //linalg:sphere_benchmark (BM_SphereGeodesicFlow).
//
// Measured: see the report in docs/ALGORITHMS.md ("Sphere samplers").

#include <memory>

#include "Eigen/Dense"
#include "benchmark/benchmark.h"
#include "rng/engine.h"
#include "rng/sphere_uniform.h"
#include "samplers/sggmc.h"
#include "samplers/sphere_testing.h"

namespace sgmcmc::samplers {
namespace {

template <typename S>
void BM_GeodesicStep(benchmark::State& state) {
  const int v = static_cast<int>(state.range(0));
  rng::Engine engine(3);
  Eigen::VectorXd mu(v), x0(v);
  rng::SphereUniformSample(engine, mu);
  rng::SphereUniformSample(engine, x0);
  const VmfTarget model(mu, 100.0);
  GeodesicSamplerOptions options;
  options.chain.step_size = StepSizeOptions::Constant(1e-3);
  std::unique_ptr<S> sampler = *S::Create(model, x0, options);
  for (auto _ : state) sampler->Step();
  benchmark::DoNotOptimize(sampler->x().data());
  state.SetItemsProcessed(state.iterations() * v);
}
BENCHMARK_TEMPLATE(BM_GeodesicStep, Sggmc)->RangeMultiplier(10)->Range(1000, 1000000);
BENCHMARK_TEMPLATE(BM_GeodesicStep, Gsgnht)->RangeMultiplier(10)->Range(1000, 1000000);

}  // namespace
}  // namespace sgmcmc::samplers
