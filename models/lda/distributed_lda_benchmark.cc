// DistributedLda iteration costs (models/lda/distributed_lda.h):
//  - BM_DistributedLdaStep/K/ranks/threads: StepOn on minibatches of 1000 documents of a
//    synthetic corpus (V = 10,000, 100 tokens per document, 5 topics each, sgrld_fast with 20
//    sweeps), `ranks` thread ranks of an in-process Communicator, each with a pool of
//    `threads` (1: none). Manual time: rank 0's wall seconds of 4 steps (after one warm-up
//    step), per step. Counters (the last repetition's): tokens/s of the minibatches, and ms per step of rank 0's
//    sweeps, communication and topic update.
// The 16-core figures of the lda_distributed tool are in bench/README.md ("Distributed LDA").
#include <chrono>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "base/check.h"
#include "benchmark/benchmark.h"
#include "models/lda/distributed_lda.h"
#include "models/lda/testing.h"
#include "parallel/communicator.h"
#include "parallel/thread_pool.h"

namespace sgmcmc::models {
namespace {

constexpr int kDocuments = 1000;
constexpr int kSteps = 4;

const SyntheticLda& Corpus() {
  static const SyntheticLda* lda = new SyntheticLda(MakeSyntheticLda(
      {.num_topics = 100, .vocabulary_size = 10000, .num_documents = (kSteps + 1) * kDocuments,
       .length = 100, .topics_per_document = 5, .focus = 200, .seed = 3}));
  return *lda;
}

data::Corpus Batch(int step) {
  const data::Corpus& corpus = Corpus().corpus;
  data::Corpus out;
  out.vocabulary.resize(corpus.vocabulary_size());
  for (int d = step * kDocuments; d < (step + 1) * kDocuments; ++d) {
    const absl::Span<const int32_t> doc = corpus.document(d);
    out.AddDocument(std::vector<int32_t>(doc.begin(), doc.end()));
  }
  return out;
}

void BM_DistributedLdaStep(benchmark::State& state) {
  const int K = static_cast<int>(state.range(0));
  const int ranks = static_cast<int>(state.range(1));
  const int threads = static_cast<int>(state.range(2));
  std::vector<data::Corpus> batches;
  for (int step = 0; step <= kSteps; ++step) batches.push_back(Batch(step));
  DistributedLdaOptions options;
  options.lda = LdaPresetOptions(LdaPreset::kSgrldFast);
  options.lda.num_topics = K;
  options.lda.corpus_documents = 1000000;
  DistributedLda::Timings timings;
  double seconds = 0;
  for (auto _ : state) {
    const absl::Status status =
        parallel::RunOnThreads(ranks, [&](parallel::Communicator& comm) -> absl::Status {
          std::unique_ptr<parallel::ThreadPool> pool;
          if (threads > 1) pool = std::make_unique<parallel::ThreadPool>(threads);
          auto lda = DistributedLda::Create(10000, options, &comm, pool.get());
          if (!lda.ok()) return lda.status();
          if (absl::Status s = (*lda)->StepOn(batches[0]); !s.ok()) return s;
          const DistributedLda::Timings warm = (*lda)->timings();
          const auto start = std::chrono::steady_clock::now();
          for (int step = 1; step <= kSteps; ++step) {
            if (absl::Status s = (*lda)->StepOn(batches[step]); !s.ok()) return s;
          }
          if (comm.rank() == 0) {
            seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
                          .count();
            timings = (*lda)->timings();
            timings.sweep_seconds -= warm.sweep_seconds;
            timings.communication_seconds -= warm.communication_seconds;
            timings.topic_update_seconds -= warm.topic_update_seconds;
            timings.tokens -= warm.tokens;
          }
          return absl::OkStatus();
        });
    SGMCMC_CHECK(status.ok()) << status;
    state.SetIterationTime(seconds / kSteps);
  }
  // The last iteration's.
  state.counters["tokens_per_s"] = static_cast<double>(timings.tokens) / seconds;
  state.counters["sweep_ms"] = 1e3 * timings.sweep_seconds / kSteps;
  state.counters["comm_ms"] = 1e3 * timings.communication_seconds / kSteps;
  state.counters["update_ms"] = 1e3 * timings.topic_update_seconds / kSteps;
}
BENCHMARK(BM_DistributedLdaStep)
    ->ArgsProduct({{100, 1000}, {1, 2, 4}, {1}})
    ->Args({100, 1, 2})
    ->Args({1000, 1, 2})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace sgmcmc::models

BENCHMARK_MAIN();
