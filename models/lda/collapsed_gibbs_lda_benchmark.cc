// Token updates per second of the exact collapsed Gibbs sampler on the embedded KOS corpus
// (467,714 tokens per sweep), K = 50 and 100.
//
// Measured (moved from models/lda/collapsed_gibbs_lda.h):
// Cost: O(K) per token update (a dense scan; counts stored word-major so n_·w is contiguous):
// ~7 M token updates/s at K = 50 and ~3.9 M at K = 100 on one core, i.e. ~67 ms per sweep of
// KOS at K = 50 (//models/lda:collapsed_gibbs_lda_benchmark); memory O(N + (D + V) K) 32-bit
// counts.
#include "base/check.h"
#include "benchmark/benchmark.h"
#include "models/lda/collapsed_gibbs_lda.h"
#include "models/lda/testing.h"

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
