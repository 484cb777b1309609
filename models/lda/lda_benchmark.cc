// LDA iteration costs, 1 and 2 threads (the second argument):
//  - BM_LdaScaledCounts/K/threads: the Gibbs half of an iteration (table build, 20 sweeps of
//    50 documents of 150 tokens, count assembly) with the generating topics of a synthetic
//    corpus (the trained-model regime); items = token updates (tokens x 21);
//  - BM_LdaScaledCountsKos/K/threads/α in thousandths: the same on minibatches of the real
//    KOS corpus with topics trained by SCIR at that α (see RunScaledCounts for the counters);
//  - BM_LdaGibbsSweepKos/K/α in thousandths/threads: the per-document sweeps alone on real
//    KOS documents (the Gibbs sweep target's rate and scaling).
//  - BM_LdaTopicUpdateScir/V/threads, BM_LdaTopicUpdateSgrld/V/threads: one topic update of
//    all K = 100 x V entries with the scaled counts of a 50-document minibatch (7,500 tokens,
//    ~99.99% zero counts at V = 100,000), rows split over the threads in static halves;
//    items = entries, so ns per entry = 1e9 / items_per_second;
//  - BM_LdaTopicUpdateScirKos/K/threads: the same for the kScirFast preset's β = 0.1 on
//    trained KOS topics (the lda tool's regime);
//  - BM_LdaTopicUpdateRowBalance/K: per-row costs of that update, and the 2-thread imbalance
//    of static halves against rows handed out one at a time (what Lda::Step now does);
//  - BM_LdaStepKos/K/threads: whole Lda::Step iterations in the lda tool's regime (kScirFast,
//    KOS, posterior mean on), with every phase's ms per iteration;
//  - BM_LdaTopicUpdate/K/V/lazy: the topic update inside a real Lda run (kScirFast, one
//    thread), eager (0) against lazy (1, samplers/scir_lazy.h), V = 0 for KOS.
//
// Measured BM_LdaTopicUpdate (2026-11-25 13:27-13:31 UTC on the shared 2-core machine, load
// 12-13, so absolute times are inflated; each (K, V) ran eager, lazy, lazy, eager in separate
// processes, means of the two): ms per iteration eager / lazy (speed-up), lazy ns per entry of
// K x V and per touched entry (K x U):
//   K = 50:  KOS 20.2 / 18.0 (1.12x, 52 ns, 143 ns); V = 5k 19.6 / 14.1 (1.39x);
//            60k 165 / 78.5 (2.10x, 26 ns, 607 ns); 100k 251 / 99.7 (2.51x, 20 ns, 729 ns)
//   K = 100: KOS 46.2 / 34.3 (1.35x, 50 ns, 136 ns); 5k 30.1 / 22.8 (1.32x);
//            60k 369 / 158 (2.34x, 26 ns, 609 ns); 100k 457 / 140 (3.26x, 14 ns, 512 ns)
// Eager costs 45-78 ns per entry here. The lazy cost per entry falls with V but does not
// vanish: the pool's balls (~30,700 per topic at V = 100k, r S_pool with β = 0.1) grow with V.
// BM_LdaTopicUpdateRowBalance at K = 100 / 50: static halves 1.003-1.05 / 1.04, one row at a
// time 1.01 / 1.01 (the costliest row 4-9% of the update).
//
// Measured BM_LdaStepKos/100 (2026-11-25 17:35 UTC, shared 2-core machine, load ~1.5): ~34 ms
// per Step on one thread (update 23.5, Gibbs 6.3, mean 3.0, table 1.4, counts 0.48 ms), 17.0 ms
// on two (bench/README.md, "One pool call per iteration").
//
// Measured (moved from models/lda/lda.h and models/lda/count_model.h): BM_LdaScaledCounts at
// K = 100, 20 sweeps, 50 documents of 150 tokens, ~5 topics each, one core: ~7.4 ms per
// ScaledCounts, ~21 M token updates/s with the table build (~2 ms of it) included; on real
// KOS documents with SCIR-trained topics (BM_LdaScaledCountsKos: ~21 topics per document at
// α = 0.1, ~12 at α = 0.01) about half and two thirds of that rate.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "base/check.h"
#include "benchmark/benchmark.h"
#include "models/lda/lda.h"
#include "models/lda/count_model.h"
#include "eval/lda_gibbs.h"
#include "models/lda/testing.h"
#include "parallel/thread_pool.h"
#include "rng/uniform.h"
#include "samplers/count_model.h"
#include "samplers/minibatch.h"
#include "samplers/scir.h"
#include "samplers/sgrld.h"

namespace sgmcmc::models {
namespace {

using eval::DocumentGibbsState;
using eval::GibbsSweep;
using eval::InitializeAssignments;
using eval::MinibatchTopicTable;
using eval::TopicColumnsView;

// Runs ScaledCounts on minibatches of 50 documents of `corpus` with the topics `topics` and
// reports, per iteration (all wall time, so with 2 threads the real speed-up):
//  - items_per_second: token updates (tokens x (S + 1): S = 20 sweeps plus the sequential
//    initialisation, the LdaCountModel::Stats definition) per second of the whole
//    ScaledCounts call: word collection, table build, Gibbs, count assembly;
//  - sweep_updates_per_s: tokens x S per second of the whole call (the strictest rate: the
//    initialisation pass counted as overhead);
//  - gibbs_updates_per_s: token updates per second of the Gibbs phase alone;
//  - table_ms, counts_ms: the per-minibatch table build and the count assembly (both
//    included in the first two rates);
//  - words_ms (collecting the minibatch's distinct words, over the threads since issue 22's
//    16-core work; part of table_ms) and the pieces that run on one thread whatever the thread
//    count: order_ms (the longest-first sort of the documents; part of table_ms) and draw_ms
//    (Minibatch::Draw, which Lda::Step calls before ScaledCounts; timed with the call).
void RunScaledCounts(benchmark::State& state, const data::Corpus& corpus,
                     const samplers::SimplexParameters& topics, int threads, double alpha) {
  constexpr int kSweeps = 20;
  parallel::ThreadPool pool(threads);
  auto model = LdaCountModel::Create(&corpus, topics.rows(), alpha, 0.5, kSweeps, &pool);
  samplers::Minibatch minibatch = *samplers::Minibatch::Create(corpus.num_documents(), 50);
  rng::Engine engine(8);
  samplers::SimplexCounts counts;
  int64_t updates = 0, sweep_updates = 0;
  double gibbs_seconds = 0, table_seconds = 0, counts_seconds = 0, alpha_fraction = 0,
         topics_per_document = 0, words_seconds = 0, order_seconds = 0, draw_seconds = 0;
  for (auto _ : state) {
    const auto draw_start = std::chrono::steady_clock::now();
    const absl::Span<const int64_t> batch = minibatch.Draw(engine);
    draw_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - draw_start).count();
    (*model)->ScaledCounts(engine, batch, topics, counts);
    const LdaCountModel::Stats& stats = (*model)->last_stats();
    updates += stats.token_updates;
    sweep_updates += stats.tokens * kSweeps;
    gibbs_seconds += stats.gibbs_seconds;
    table_seconds += stats.table_seconds;
    counts_seconds += stats.counts_seconds;
    words_seconds += stats.words_seconds;
    order_seconds += stats.order_seconds;
    alpha_fraction += stats.alpha_bucket_fraction;
    topics_per_document += stats.mean_topics_per_document;
  }
  state.SetItemsProcessed(updates);
  state.counters["sweep_updates_per_s"] =
      benchmark::Counter(static_cast<double>(sweep_updates), benchmark::Counter::kIsRate);
  state.counters["gibbs_updates_per_s"] = updates / gibbs_seconds;
  state.counters["table_ms"] = 1e3 * table_seconds / state.iterations();
  state.counters["counts_ms"] = 1e3 * counts_seconds / state.iterations();
  state.counters["words_ms"] = 1e3 * words_seconds / state.iterations();
  state.counters["order_ms"] = 1e3 * order_seconds / state.iterations();
  state.counters["draw_ms"] = 1e3 * draw_seconds / state.iterations();
  state.counters["alpha_fraction"] = alpha_fraction / state.iterations();
  state.counters["topics_per_doc"] = topics_per_document / state.iterations();
}

// Synthetic corpus (1000 documents of 150 tokens, V = 6906, each document mixing 4 topics)
// with its generating topics: the trained-model regime.
void BM_LdaScaledCounts(benchmark::State& state) {
  const int num_topics = static_cast<int>(state.range(0));
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
  RunScaledCounts(state, lda.corpus, scir, static_cast<int>(state.range(1)), 0.1);
}
BENCHMARK(BM_LdaScaledCounts)
    ->Args({100, 1})
    ->Args({100, 2})
    ->Args({50, 1})
    ->Args({50, 2})
    ->UseRealTime();

// The embedded KOS corpus (3430 blog posts, V = 6906, 136 tokens per document on average)
// with the topics of a SCIR run (kScirFast preset at K and document-topic α, 200 iterations,
// ~3 passes): real documents, with lengths from 1 to ~900 tokens, in the trained regime. The
// training runs once per (K, α) (a few seconds of setup, not timed).
const Lda& KosLda(const data::Corpus& kos, int num_topics, double alpha) {
  static auto* trained = new std::map<std::pair<int, double>, std::unique_ptr<Lda>>();
  std::unique_ptr<Lda>& lda = (*trained)[{num_topics, alpha}];
  if (lda == nullptr) {
    LdaOptions options = LdaPresetOptions(LdaPreset::kScirFast);
    options.num_topics = num_topics;
    options.alpha = alpha;
    static auto* pool = new parallel::ThreadPool(2);  // outlives the Lda, which keeps it
    lda = std::make_unique<Lda>(*Lda::Create(kos, options, pool));
    for (int m = 0; m < 200; ++m) lda->Step();
  }
  return *lda;
}

const samplers::Scir& KosTopics(const data::Corpus& kos, int num_topics, double alpha) {
  return static_cast<const samplers::Scir&>(KosLda(kos, num_topics, alpha).sampler());
}

// The document-topic α of a KOS case, given in thousandths: 100 is the kScirFast preset's
// (and Baker et al.'s) 0.1, 10 is Patterson & Teh's 0.01 (the kSgrldPaper preset's), under
// which the documents hold about half as many topics.
double KosAlpha(int64_t thousandths) { return thousandths / 1000.0; }

void BM_LdaScaledCountsKos(benchmark::State& state) {
  const int num_topics = static_cast<int>(state.range(0));
  const double alpha = KosAlpha(state.range(2));
  RunScaledCounts(state, EmbeddedKos(), KosTopics(EmbeddedKos(), num_topics, alpha),
                  static_cast<int>(state.range(1)), alpha);
}
BENCHMARK(BM_LdaScaledCountsKos)
    ->ArgsProduct({{100}, {1, 2, 4, 8, 16}, {100}})
    ->ArgsProduct({{100}, {1, 2}, {10}})
    ->ArgsProduct({{50}, {1, 2}, {100}})
    ->UseRealTime();

// Whole LDA iterations (Lda::Step) in the lda tool's regime: the kScirFast preset on KOS at
// K = range(0) on range(1) threads, continuing the run of KosLda (200 iterations) with the
// posterior mean kept every iteration (as the tool does after its burn-in). Real time per
// Step, and counters in ms per iteration: the phases of ScaledCounts (words_ms, of which the
// word collection; table_ms includes it; gibbs_ms; counts_ms), update_ms and mean_ms (Lda's
// phase timings) and rest_ms, the remainder of Step outside those phases (the minibatch draw,
// the serial set-up of ScaledCounts, the pool's wake-up).
void BM_LdaStepKos(benchmark::State& state) {
  const data::Corpus& kos = EmbeddedKos();
  const int num_topics = static_cast<int>(state.range(0));
  const Lda& trained = KosLda(kos, num_topics, 0.1);
  parallel::ThreadPool pool(static_cast<int>(state.range(1)));
  LdaOptions options = trained.options();
  options.mean_burn_in = 0;
  auto lda = Lda::Create(kos, options, &pool);
  SGMCMC_CHECK(lda.ok()) << lda.status();
  SGMCMC_CHECK(lda->Restore(trained.State()).ok());
  double words = 0, table = 0, gibbs = 0, counts = 0, update = 0, mean = 0, step = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    lda->Step();
    step += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const LdaCountModel::Stats& stats = lda->last_stats();
    words += stats.words_seconds;
    table += stats.table_seconds;
    gibbs += stats.gibbs_seconds;
    counts += stats.counts_seconds;
    update += lda->last_update_seconds();
    mean += lda->last_mean_seconds();
  }
  const double per_ms = 1e3 / state.iterations();
  state.counters["words_ms"] = words * per_ms;
  state.counters["table_ms"] = table * per_ms;
  state.counters["gibbs_ms"] = gibbs * per_ms;
  state.counters["counts_ms"] = counts * per_ms;
  state.counters["update_ms"] = update * per_ms;
  state.counters["mean_ms"] = mean * per_ms;
  state.counters["rest_ms"] = (step - table - gibbs - counts - update - mean) * per_ms;
}
BENCHMARK(BM_LdaStepKos)
    ->ArgsProduct({{100}, {1, 2, 4, 8, 16}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// The per-document Gibbs sweep alone on real documents: eight minibatches of 50 KOS documents
// (~54,000 tokens), each with its table (built outside the timed loop), with the topics of
// KosTopics at (K, α); every document gets 20 consecutive sweeps, as in the lda tool, in
// ascending word order, from its own stream, the threads taking documents longest first.
// Items = token updates of the sweeps (no initialisation, no count assembly): the rate, and
// with range(2) = 2 the scaling, the 20 M/s target is about.
void BM_LdaGibbsSweepKos(benchmark::State& state) {
  constexpr int kSweeps = 20, kBatches = 8;
  const data::Corpus& kos = EmbeddedKos();
  const int num_topics = static_cast<int>(state.range(0));
  const double alpha = KosAlpha(state.range(1));
  parallel::ThreadPool pool(static_cast<int>(state.range(2)));
  const samplers::Scir& scir = KosTopics(kos, num_topics, alpha);
  const int vocabulary_size = kos.vocabulary_size();
  std::vector<double> theta(static_cast<size_t>(num_topics) * vocabulary_size);
  for (int k = 0; k < num_topics; ++k) {
    scir.Simplex(k, absl::MakeSpan(theta).subspan(static_cast<size_t>(k) * vocabulary_size,
                                                  vocabulary_size));
  }
  std::vector<MinibatchTopicTable> tables(kBatches);
  struct Document {
    const MinibatchTopicTable* table;
    DocumentGibbsState state;
    rng::Engine engine;
  };
  std::vector<Document> docs;
  samplers::Minibatch minibatch = *samplers::Minibatch::Create(kos.num_documents(), 50);
  rng::Engine engine(11);
  std::vector<int32_t> local_of(vocabulary_size, -1);
  int64_t tokens = 0;
  for (MinibatchTopicTable& table : tables) {
    std::vector<int32_t> words;
    const absl::Span<const int64_t> ids = minibatch.Draw(engine);
    for (int64_t id : ids) {
      for (int32_t w : kos.document(static_cast<int>(id))) {
        if (local_of[w] < 0) {
          local_of[w] = static_cast<int32_t>(words.size());
          words.push_back(w);
        }
      }
    }
    std::vector<double> columns(static_cast<size_t>(num_topics) * words.size());
    for (int k = 0; k < num_topics; ++k) {
      for (size_t u = 0; u < words.size(); ++u) {
        columns[k * words.size() + u] = theta[static_cast<size_t>(k) * vocabulary_size + words[u]];
      }
    }
    table = MinibatchTopicTable::Build(
        TopicColumnsView{columns, num_topics, static_cast<int>(words.size())}, alpha);
    for (int64_t id : ids) {
      std::vector<int32_t> local;
      for (int32_t w : kos.document(static_cast<int>(id))) local.push_back(local_of[w]);
      std::sort(local.begin(), local.end());  // as LdaCountModel sweeps them
      tokens += static_cast<int64_t>(local.size());
      docs.push_back({&table, DocumentGibbsState(local, num_topics),
                      rng::Engine(12, static_cast<uint64_t>(id))});
      InitializeAssignments(table, docs.back().engine, docs.back().state);
    }
    for (int32_t w : words) local_of[w] = -1;
  }
  std::stable_sort(docs.begin(), docs.end(), [](const Document& a, const Document& b) {
    return a.state.size() > b.state.size();
  });
  for (auto _ : state) {
    std::atomic<size_t> next{0};
    pool.RunOnThreads([&](int) {
      for (size_t d = next++; d < docs.size(); d = next++) {
        for (int s = 0; s < kSweeps; ++s) GibbsSweep(*docs[d].table, docs[d].engine, docs[d].state);
      }
    });
  }
  const int64_t updates = state.iterations() * tokens * kSweeps;
  state.SetItemsProcessed(updates);
  double nonzero = 0;
  int64_t alpha_draws = 0;
  for (const Document& doc : docs) {
    nonzero += doc.state.counts().num_nonzero();
    alpha_draws += doc.state.alpha_draws();
  }
  state.counters["topics_per_doc"] = nonzero / docs.size();
  state.counters["alpha_fraction"] = static_cast<double>(alpha_draws) / (updates + tokens);
}
BENCHMARK(BM_LdaGibbsSweepKos)
    ->ArgsProduct({{100}, {100, 10}, {1, 2}})
    ->ArgsProduct({{50}, {100, 10}, {1}})
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

// The kScirFast preset's step size at iteration 200, h = 0.5 (1 + 200/10)^-0.33.
double KosStepSize() { return 0.5 * std::pow(1 + 200 / 10.0, -0.33); }

// The scaled counts of one real 50-document KOS minibatch (20 sweeps, α = β = 0.1) under the
// topics `scir`.
samplers::SimplexCounts KosMinibatchCounts(const data::Corpus& kos, const samplers::Scir& scir) {
  auto model = LdaCountModel::Create(&kos, scir.rows(), 0.1, 0.1, 20, nullptr);
  SGMCMC_CHECK(model.ok()) << model.status();
  samplers::Minibatch minibatch = *samplers::Minibatch::Create(kos.num_documents(), 50);
  rng::Engine engine(10);
  samplers::SimplexCounts counts;
  (*model)->ScaledCounts(engine, minibatch.Draw(engine), scir, counts);
  return counts;
}

// The SCIR topic update in the lda tool's own regime: the kScirFast preset (β = 0.1 < 1/2, so
// the Poisson-gamma kernel; Baker et al.'s Table 2 β = 0.5 above takes the normal kernel) on
// KOS at K topics, from the topics after 200 iterations (KosTopics), with the scaled counts of
// a real 50-document minibatch and the preset's h at iteration 200 (0.5 (1 + 200/10)^-0.33):
// trained rows, whose large θ (frequent words) need Poisson and gamma draws. Items = entries.
void BM_LdaTopicUpdateScirKos(benchmark::State& state) {
  const data::Corpus* kos = &EmbeddedKos();
  const int num_topics = static_cast<int>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  samplers::Scir scir = KosTopics(*kos, num_topics, 0.1);  // a copy, stepped below
  parallel::ThreadPool pool(threads);
  const samplers::SimplexCounts counts = KosMinibatchCounts(*kos, scir);
  for (auto _ : state) {
    pool.ParallelForChunks(0, num_topics, [&](int64_t begin, int64_t end, int) {
      scir.StepRows(counts, KosStepSize(), static_cast<int>(begin), static_cast<int>(end));
    });
  }
  state.SetItemsProcessed(state.iterations() * int64_t{num_topics} * kos->vocabulary_size());
}
BENCHMARK(BM_LdaTopicUpdateScirKos)
    ->ArgsProduct({{100}, {1, 2, 4, 8, 16}})
    ->Args({50, 1})
    ->UseRealTime();

// What limits the 2-thread speed-up of the topic update: per-row costs in the lda tool's regime
// (as BM_LdaTopicUpdateScirKos, K = range(0)), each row stepped and timed alone on one thread.
// Counters: static_imbalance = max over the two halves Lda::Step gave the two threads (rows
// [0, K/2) and [K/2, K)) of their time / half the total (1 = balanced; the 2-thread speed-up is
// at most 2 / static_imbalance), dynamic_imbalance the same for rows taken one at a time by
// the next free thread (greedy list scheduling, the rows' measured costs), max_row_share the
// costliest row's share of the total.
void BM_LdaTopicUpdateRowBalance(benchmark::State& state) {
  const data::Corpus* kos = &EmbeddedKos();
  const int num_topics = static_cast<int>(state.range(0));
  samplers::Scir scir = KosTopics(*kos, num_topics, 0.1);
  const samplers::SimplexCounts counts = KosMinibatchCounts(*kos, scir);
  std::vector<double> row_seconds(num_topics, 0.0);
  for (auto _ : state) {
    for (int k = 0; k < num_topics; ++k) {
      const auto start = std::chrono::steady_clock::now();
      scir.StepRows(counts, KosStepSize(), k, k + 1);
      row_seconds[k] += std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
                            .count();
    }
  }
  double total = 0, first_half = 0, max_row = 0;
  for (int k = 0; k < num_topics; ++k) {
    total += row_seconds[k];
    if (k < num_topics / 2) first_half += row_seconds[k];
    max_row = std::max(max_row, row_seconds[k]);
  }
  double busy[2] = {0, 0};
  for (int k = 0; k < num_topics; ++k) busy[busy[1] < busy[0]] += row_seconds[k];
  state.counters["static_imbalance"] = std::max(first_half, total - first_half) / (total / 2);
  state.counters["dynamic_imbalance"] = std::max(busy[0], busy[1]) / (total / 2);
  state.counters["max_row_share"] = max_row / total;
  // The same greedy hand-out on 16 threads, rows in index order (what Lda::Step does) and
  // costliest first (longest-processing-time order): makespan / (total / 16).
  auto makespan16 = [&](absl::Span<const int> order) {
    std::vector<double> threads(16, 0.0);
    for (int k : order) *std::min_element(threads.begin(), threads.end()) += row_seconds[k];
    return *std::max_element(threads.begin(), threads.end()) / (total / 16);
  };
  std::vector<int> order(num_topics);
  for (int k = 0; k < num_topics; ++k) order[k] = k;
  state.counters["dynamic_imbalance_16"] = makespan16(order);
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return row_seconds[a] > row_seconds[b]; });
  state.counters["costliest_first_imbalance_16"] = makespan16(order);
}
BENCHMARK(BM_LdaTopicUpdateRowBalance)->Arg(100)->Arg(50)->Iterations(10);

// A corpus of `num_documents` documents of 150 tokens over V words with Zipf(1.07) word
// frequencies (so a 50-document minibatch touches a few thousand words, like a real corpus).
data::Corpus ZipfCorpus(int vocabulary_size, int num_documents) {
  std::vector<double> cumulative(vocabulary_size);
  double total = 0;
  for (int w = 0; w < vocabulary_size; ++w) cumulative[w] = total += std::pow(w + 1.0, -1.07);
  data::Corpus corpus;
  for (int w = 0; w < vocabulary_size; ++w) corpus.vocabulary.push_back("w" + std::to_string(w));
  rng::Engine engine(21);
  std::vector<int32_t> doc(150);
  for (int d = 0; d < num_documents; ++d) {
    for (int32_t& w : doc) {
      const double x = rng::UniformDouble(engine) * total;
      w = static_cast<int32_t>(std::min<int64_t>(
          std::upper_bound(cumulative.begin(), cumulative.end(), x) - cumulative.begin(),
          vocabulary_size - 1));
    }
    corpus.AddDocument(doc);
  }
  return corpus;
}

// The SCIR topic update inside a real Lda run, eager (range 2 = 0) against lazy (= 1), at
// K = range(0) and V = range(1) (0: the embedded KOS corpus, V = 6906; else a Zipf corpus of
// 2000 documents over V words): the kScirFast preset (β = 0.1, h = 0.5 (1 + m/10)^-0.33) with
// 4 Gibbs sweeps (the counts' cost is not timed), one thread, 30 iterations of warm-up (the
// lazy pools reach their working size), then each benchmark iteration is one Lda::Step of which
// only the topic update is timed (Lda::last_update_seconds: for kLazy the materialisation of
// the minibatch's words included). Counters: ns per entry of the K x V matrix, ns per touched
// entry (K x U, U the minibatch's distinct words) and ms per iteration.
void BM_LdaTopicUpdate(benchmark::State& state) {
  const int num_topics = static_cast<int>(state.range(0));
  const int vocabulary_size = static_cast<int>(state.range(1));
  static auto* corpora = new std::map<int, data::Corpus>();
  if (vocabulary_size > 0 && corpora->count(vocabulary_size) == 0) {
    (*corpora)[vocabulary_size] = ZipfCorpus(vocabulary_size, 2000);
  }
  const data::Corpus& corpus =
      vocabulary_size > 0 ? corpora->at(vocabulary_size) : EmbeddedKos();
  LdaOptions options = LdaPresetOptions(LdaPreset::kScirFast);
  options.num_topics = num_topics;
  options.gibbs_sweeps = 4;
  options.topic_update = state.range(2) == 1 ? LdaTopicUpdate::kLazy : LdaTopicUpdate::kEager;
  auto lda = Lda::Create(corpus, options, nullptr);
  SGMCMC_CHECK(lda.ok()) << lda.status();
  for (int m = 0; m < 30; ++m) lda->Step();
  double seconds = 0, touched = 0;
  for (auto _ : state) {
    lda->Step();
    state.SetIterationTime(lda->last_update_seconds());
    seconds += lda->last_update_seconds();
    touched += static_cast<double>(num_topics) * lda->last_stats().distinct_words;
  }
  const double entries =
      static_cast<double>(num_topics) * corpus.vocabulary_size() * state.iterations();
  state.counters["ns_per_entry"] = 1e9 * seconds / entries;
  state.counters["ns_per_touched"] = 1e9 * seconds / touched;
  state.counters["ms_per_iteration"] = 1e3 * seconds / state.iterations();
  state.counters["touched_fraction"] = touched / entries;
  if (const auto* lazy = dynamic_cast<const samplers::LazyScir*>(&lda->sampler())) {
    double pooled = 0, balls = 0;
    for (int k = 0; k < num_topics; ++k) {
      pooled += static_cast<double>(lazy->pooled(k));
      balls += static_cast<double>(lazy->pool_balls(k));
    }
    state.counters["pooled_fraction"] = pooled / (num_topics * corpus.vocabulary_size());
    state.counters["balls_per_topic"] = balls / num_topics;
  }
  state.SetLabel(LdaTopicUpdateName(options.topic_update).data());
}
BENCHMARK(BM_LdaTopicUpdate)
    ->ArgsProduct({{50, 100}, {0, 5000, 60000, 100000}, {0, 1}})
    ->Iterations(20)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

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
