// LDA iteration costs, 1 and 2 threads (the second argument):
//  - BM_LdaScaledCounts/K/threads: the Gibbs half of an iteration (table build, 20 sweeps of
//    50 documents of 150 tokens, count assembly) with the generating topics of a synthetic
//    corpus (the trained-model regime); items = token updates (tokens x 21).
//  - BM_LdaTopicUpdateScir/V/threads, BM_LdaTopicUpdateSgrld/V/threads: one topic update of
//    all K = 100 x V entries with the scaled counts of a 50-document minibatch (7,500 tokens,
//    ~99.99% zero counts at V = 100,000), rows split over the threads as Lda::Step does;
//    items = entries, so ns per entry = 1e9 / items_per_second.
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "benchmark/benchmark.h"
#include "models/lda.h"
#include "models/lda_testing.h"
#include "parallel/thread_pool.h"
#include "rng/uniform.h"
#include "samplers/count_model.h"
#include "samplers/scir.h"
#include "samplers/sgrld.h"

namespace sgmcmc::models {
namespace {

void BM_LdaScaledCounts(benchmark::State& state) {
  const int num_topics = static_cast<int>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  SyntheticLdaOptions options;
  options.num_topics = num_topics;
  options.num_documents = 1000;
  const SyntheticLda lda = MakeSyntheticLda(options);
  samplers::SimplexSamplerOptions so;
  so.rows = num_topics;
  so.cols = options.vocabulary_size;
  so.alpha = {0.5};
  samplers::Scir scir = *samplers::Scir::Create(so);
  std::vector<double> log_row(options.vocabulary_size);
  for (int k = 0; k < num_topics; ++k) {
    for (int w = 0; w < options.vocabulary_size; ++w) {
      log_row[w] = std::log(lda.topics[static_cast<size_t>(k) * options.vocabulary_size + w]);
    }
    if (!scir.SetLogTheta(k, log_row).ok()) state.SkipWithError("SetLogTheta failed");
  }
  parallel::ThreadPool pool(threads);
  auto model = LdaCountModel::Create(&lda.corpus, num_topics, 0.1, 0.5, 20, &pool);
  samplers::Minibatch minibatch = *samplers::Minibatch::Create(options.num_documents, 50);
  rng::Engine engine(8);
  samplers::SimplexCounts counts;
  int64_t updates = 0;
  double gibbs_seconds = 0, table_seconds = 0, alpha_fraction = 0, tables_built = 0;
  for (auto _ : state) {
    (*model)->ScaledCounts(engine, minibatch.Draw(engine), scir, counts);
    const LdaCountModel::Stats& stats = (*model)->last_stats();
    updates += stats.token_updates;
    gibbs_seconds += stats.gibbs_seconds;
    table_seconds += stats.table_seconds;
    alpha_fraction += stats.alpha_bucket_fraction;
    tables_built += static_cast<double>(stats.alias_tables_built) / stats.distinct_words;
  }
  state.SetItemsProcessed(updates);
  state.counters["gibbs_updates_per_s"] = updates / gibbs_seconds;
  state.counters["table_ms"] = 1e3 * table_seconds / state.iterations();
  state.counters["alpha_fraction"] = alpha_fraction / state.iterations();
  state.counters["tables_built"] = tables_built / state.iterations();
}
BENCHMARK(BM_LdaScaledCounts)
    ->Args({100, 1})
    ->Args({100, 2})
    ->Args({50, 1})
    ->Args({50, 2})
    ->UseRealTime();

// Scaled counts of a 50-document minibatch of 150 tokens from a corpus of D = 1000
// documents: 7,500 tokens on random (topic, word) pairs, each worth D/n = 20.
samplers::SimplexCounts MinibatchCounts(int num_topics, int vocabulary_size) {
  rng::Engine engine(9);
  std::vector<samplers::SimplexCounts::Triplet> triplets;
  for (int i = 0; i < 7500; ++i) {
    triplets.push_back({static_cast<int32_t>(rng::UniformInt(engine, num_topics)),
                        static_cast<int32_t>(rng::UniformInt(engine, vocabulary_size)), 20.0});
  }
  return *samplers::SimplexCounts::FromTriplets(num_topics, vocabulary_size,
                                                std::move(triplets));
}

template <typename Sampler>
void RunTopicUpdate(benchmark::State& state, double h) {
  constexpr int kTopics = 100;
  const int vocabulary_size = static_cast<int>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  samplers::SimplexSamplerOptions so;
  so.rows = kTopics;
  so.cols = vocabulary_size;
  so.alpha = {std::is_same_v<Sampler, samplers::Scir> ? 0.5 : 1e-4};
  Sampler sampler = *Sampler::Create(so);
  const samplers::SimplexCounts counts = MinibatchCounts(kTopics, vocabulary_size);
  parallel::ThreadPool pool(threads);
  // Warm up past the uniform start so θ has the sparse shape of a running chain.
  for (int m = 0; m < 3; ++m) sampler.Step(counts, h);
  for (auto _ : state) {
    pool.ParallelForChunks(0, kTopics, [&](int64_t begin, int64_t end, int) {
      sampler.StepRows(counts, h, static_cast<int>(begin), static_cast<int>(end));
    });
  }
  state.SetItemsProcessed(state.iterations() * int64_t{kTopics} * vocabulary_size);
}

void BM_LdaTopicUpdateScir(benchmark::State& state) {
  RunTopicUpdate<samplers::Scir>(state, 0.5);
}
BENCHMARK(BM_LdaTopicUpdateScir)
    ->Args({100000, 1})
    ->Args({100000, 2})
    ->Args({6906, 1})
    ->Args({6906, 2})
    ->UseRealTime();

void BM_LdaTopicUpdateSgrld(benchmark::State& state) {
  RunTopicUpdate<samplers::Sgrld>(state, 0.01);
}
BENCHMARK(BM_LdaTopicUpdateSgrld)
    ->Args({100000, 1})
    ->Args({100000, 2})
    ->Args({6906, 1})
    ->Args({6906, 2})
    ->UseRealTime();

}  // namespace
}  // namespace sgmcmc::models
