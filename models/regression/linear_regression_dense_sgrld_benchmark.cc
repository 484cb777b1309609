// Measured (moved from samplers/dense_sgrld.h): an iteration takes
// ~0.4 ms at D = 100, ~9 ms at D = 300
// (//models/regression:linear_regression_dense_sgrld_benchmark).

#include <vector>

#include "benchmark/benchmark.h"
#include "models/regression/linear_regression.h"
#include "rng/engine.h"
#include "samplers/dense_sgrld.h"

namespace sgmcmc::samplers {
namespace {

// One iteration at D = range(0) on the HAMCMC paper's linear regression (N = 1000,
// n = 10): dominated by the two D x D Cholesky factorisations and the inverse.
void BM_DenseSgrldStep(benchmark::State& state) {
  const int d = static_cast<int>(state.range(0));
  rng::Engine engine(1);
  models::CorrelatedDataOptions data_options;
  data_options.dimension = d;
  data_options.num_items = 1000;
  const models::LinearRegression model =
      *models::LinearRegression::Create(*models::GenerateCorrelatedData(engine, data_options));
  DenseSgrldOptions options;
  options.chain.step_size = StepSizeOptions::Constant(1e-3);
  options.chain.batch_size = 10;
  auto sampler = *DenseSgrld::Create(model, std::vector<double>(d, 0.0), options);
  for (auto _ : state) sampler->Step();
  benchmark::DoNotOptimize(sampler->theta().data());
  state.SetItemsProcessed(state.iterations() * d);
}
BENCHMARK(BM_DenseSgrldStep)->Arg(10)->Arg(100)->Arg(300);

}  // namespace
}  // namespace sgmcmc::samplers
