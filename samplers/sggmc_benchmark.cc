// One SGGMC / gSGNHT iteration (L = 1: two geodesic half-flows, two B scalings, one O step
// with d normal draws and a tangent projection) on S^{V-1} with the vMF target, whose
// gradient is one O(V) fill; V = 10^3 .. 10^6. items_per_second counts coordinates, so
// ns per coordinate = 1e9 / items_per_second. The geodesic flow alone is
// //linalg:sphere_benchmark (BM_SphereGeodesicFlow).
//
// Measured 2026-11-25 on the shared 2-core development machine (CPU time; wall time was up to
// 1.6x higher under load), vMF target, L = 1:
//   V        SGGMC ns/coord   gSGNHT ns/coord   (linalg GeodesicFlow alone)
//   10^3     8.1              8.6               0.59
//   10^4     8.5              8.8               0.63
//   10^5     9.1              9.4               0.65
//   10^6     11.2             12.8              0.94
// i.e. the step is dominated by the V normal draws of the O step (~5-6 ns each), not by the
// geodesic flow.

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
