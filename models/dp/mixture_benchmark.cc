// DP mixture slice-sampler iteration costs on the embedded msweb subset (4,000 users, 12,350
// visits, 294 Vroots; //data/msweb), after 200 warm-up iterations so the number of components
// is near its equilibrium:
//  - BM_DpSliceGibbsStep/threads: one exact Gibbs slice iteration (models/dp/mixture.h) over all
//    users; items = users, so ns per user per iteration = 1e9 / items_per_second;
//  - BM_DpStochasticSliceStep/sampler/threads (sampler 0 = SCIR, 1 = SGRLD, Table 3 settings,
//    n = 1000): one stochastic slice iteration (models/dp/stochastic_slice.h); items = the
//    minibatch's users.
// Counters: occupied and instantiated components at the end, and ns per user per component
// (the allocation cost scales with the components above each user's slice).
#include <memory>

#include "base/check.h"
#include "benchmark/benchmark.h"
#include "data/embedded_msweb.h"
#include "models/dp/mixture.h"
#include "models/dp/stochastic_slice.h"
#include "parallel/thread_pool.h"

namespace sgmcmc::models {
namespace {

constexpr int kWarmUp = 200;

const data::EmbeddedMsweb& Msweb() {
  static const data::EmbeddedMsweb* msweb = [] {
    absl::StatusOr<data::EmbeddedMsweb> loaded = data::LoadEmbeddedMsweb();
    SGMCMC_CHECK(loaded.ok()) << loaded.status();
    return new data::EmbeddedMsweb(std::move(*loaded));
  }();
  return *msweb;
}

template <typename Sampler>
void ReportCounters(benchmark::State& state, const Sampler& sampler, int64_t users) {
  state.SetItemsProcessed(state.iterations() * users);
  state.counters["occupied"] = sampler.num_occupied();
  state.counters["components"] = sampler.num_components();
  state.counters["ns_per_user_component"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * users * sampler.num_components(),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_DpSliceGibbsStep(benchmark::State& state) {
  const data::Corpus& corpus = Msweb().train.corpus;
  const int threads = static_cast<int>(state.range(0));
  std::unique_ptr<parallel::ThreadPool> pool;
  if (threads > 1) pool = std::make_unique<parallel::ThreadPool>(threads);
  DpMixtureOptions options;
  auto sampler = DpSliceGibbs::Create(&corpus, options, pool.get()).value();
  for (int t = 0; t < kWarmUp; ++t) sampler->Step();
  for (auto _ : state) sampler->Step();
  ReportCounters(state, *sampler, corpus.num_documents());
}
BENCHMARK(BM_DpSliceGibbsStep)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_DpStochasticSliceStep(benchmark::State& state) {
  const data::Corpus& corpus = Msweb().train.corpus;
  const DpSimplexSampler kind =
      state.range(0) == 0 ? DpSimplexSampler::kScir : DpSimplexSampler::kSgrld;
  const int threads = static_cast<int>(state.range(1));
  std::unique_ptr<parallel::ThreadPool> pool;
  if (threads > 1) pool = std::make_unique<parallel::ThreadPool>(threads);
  const DpStochasticOptions options = DpStochasticPaperOptions(kind);
  auto sampler = DpStochasticSlice::Create(&corpus, options, pool.get()).value();
  for (int t = 0; t < kWarmUp; ++t) sampler->Step();
  for (auto _ : state) sampler->Step();
  ReportCounters(state, *sampler, options.minibatch_size);
}
BENCHMARK(BM_DpStochasticSliceStep)
    ->ArgsProduct({{0, 1}, {1, 2}})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

}  // namespace
}  // namespace sgmcmc::models
