// Token updates per second of the exact collapsed Gibbs sampler on the embedded KOS corpus
// (467,714 tokens per sweep), K = 50 and 100.
#include "base/check.h"
#include "benchmark/benchmark.h"
#include "models/collapsed_gibbs_lda.h"
#include "models/lda_testing.h"

namespace sgmcmc::models {
namespace {

void BM_CollapsedGibbsLdaSweepKos(benchmark::State& state) {
  CollapsedGibbsLdaOptions options;
  options.num_topics = static_cast<int>(state.range(0));
  auto lda = CollapsedGibbsLda::Create(EmbeddedKos(), options);
  SGMCMC_CHECK(lda.ok()) << lda.status();
  lda->Sweep();  // leave the uniform initial state
  for (auto _ : state) lda->Sweep();
  state.SetItemsProcessed(state.iterations() * lda->num_tokens());
}
BENCHMARK(BM_CollapsedGibbsLdaSweepKos)->Arg(50)->Arg(100)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace sgmcmc::models
