// Speed of the generic DP mixture samplers on the synthetic data of Zhang et al. §4.1
// (multinomial-Dirichlet, 10 generating components, N_i = 100 counts per row):
//   - BM_Neal8TwentySweeps: the authors' anchor, 800 rows, D = 20, 20 collapsed (Algorithm
//     8) iterations from one cluster; their released Python takes 7.2 s for this on one of
//     the project's machines, so the target is < 0.144 s (50x) on one core.
//   - BM_Accelerated / BM_Hybrid: strong scaling of 20 iterations (L = 10) of the parallel
//     sampler's two stages on 8,000 rows, D = 20, over 1, 2 and 4 worker threads, from the
//     same k = 20 random start.
// Run: ./bazelw run --config=bench //models:dp_neal8_benchmark
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "base/check.h"
#include "benchmark/benchmark.h"
#include "models/dp_component_model.h"
#include "models/dp_neal8.h"
#include "models/dp_parallel.h"
#include "parallel/communicator.h"

namespace sgmcmc::models {
namespace {

const CountMatrix& Rows(int rows) {
  static auto* cache = new std::vector<std::pair<int, CountMatrix>>();
  for (const auto& [n, m] : *cache) {
    if (n == rows) return m;
  }
  cache->emplace_back(rows, SyntheticMultinomialMixture({rows}, 20, 100, 10, 1.0, 1)[0]);
  return cache->back().second;
}

void BM_Neal8TwentySweeps(benchmark::State& state) {
  const CountMatrix& data = Rows(800);
  const MultinomialDirichletModel model(20, 1.0);
  int clusters = 0;
  for (auto _ : state) {
    DpNeal8 sampler(&model, &data, DpNeal8Options{});
    for (int t = 0; t < 20; ++t) sampler.Sweep();
    clusters = sampler.num_clusters();
  }
  state.counters["clusters"] = clusters;
}
BENCHMARK(BM_Neal8TwentySweeps)->Unit(benchmark::kMillisecond);

void RunParallel(benchmark::State& state, int accelerated_iterations) {
  const CountMatrix& data = Rows(8000);
  const int workers = static_cast<int>(state.range(0));
  std::vector<int32_t> initial(data.rows());
  for (size_t i = 0; i < initial.size(); ++i) initial[i] = static_cast<int32_t>(i % 20);
  DpParallelOptions options;
  options.accelerated_iterations = accelerated_iterations;
  int features = 0;
  for (auto _ : state) {
    const absl::Status status =
        parallel::RunOnThreads(workers, [&](parallel::Communicator& comm) -> absl::Status {
          MultinomialDirichletModel model(20, 1.0);
          auto sampler = DpParallelSampler::Create(&comm, &model, &data, options, initial);
          if (!sampler.ok()) return sampler.status();
          for (int t = 0; t < 20; ++t) {
            if (absl::Status s = (*sampler)->Iterate(); !s.ok()) return s;
          }
          if (comm.rank() == 0) features = (*sampler)->num_features();
          return absl::OkStatus();
        });
    SGMCMC_CHECK(status.ok()) << status;
  }
  state.counters["features"] = features;
}

void BM_Accelerated(benchmark::State& state) { RunParallel(state, 20); }
void BM_Hybrid(benchmark::State& state) { RunParallel(state, 0); }
BENCHMARK(BM_Accelerated)->Arg(1)->Arg(2)->Arg(4)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Hybrid)->Arg(1)->Arg(2)->Arg(4)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace sgmcmc::models
