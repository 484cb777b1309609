// LdaCountModel: the expected topic-word counts of a minibatch of LDA documents given the
// topics π, as a samplers::CountModel (step 2 of an online LDA iteration, docs/ALGORITHMS.md, "LDA
// with SGRLD / SCIR"; Patterson & Teh 2013, §4, eq. 11; Baker et al. 2018, §5.1), so any
// simplex sampler consumes it unchanged (models/lda.h drives it).
//
// Per document, with π fixed: sequential initialisation of the assignments, then S Gibbs
// sweeps of p(z_di = k) ∝ (α + n_dk^{\i}) π_{k,w_di} (models/lda_gibbs.h, sparse and exact);
// the first floor(S/2) sweeps are burn-in and n_dkw is averaged over the remaining ones,
// giving E[n_dkw]; the counts are (D/n) Σ_{d∈D_t} E[n_dkw].
//
// Threads: the pool's threads take the documents of a minibatch one at a time, longest
// first; document slot j draws from rng::Engine(key, j), key one word of the caller's engine,
// and the averaged counts are integer sums until the final scaling, so the counts are
// bit-identical for any number of threads (tested).
//
// Cost per call: O(K U) to build the minibatch's word tables (U distinct words; π gathered a
// few hundred words at a time by SimplexParameters::SimplexColumns and transposed in cache),
// O(S N_t nnz) for the sweeps (N_t tokens, nnz topics per document). Measured:
// models/lda_benchmark.cc (BM_LdaScaledCounts, BM_LdaScaledCountsKos).
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(std::unique_ptr<LdaCountModel> model,
//                           LdaCountModel::Create(&corpus, 100, 0.1, 0.1, 20, &pool));
//   model->ScaledCounts(engine, batch, topic_sampler, counts);
#ifndef SGMCMC_MODELS_LDA_COUNT_MODEL_H_
#define SGMCMC_MODELS_LDA_COUNT_MODEL_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "data/corpus.h"
#include "models/lda_gibbs.h"
#include "parallel/thread_pool.h"
#include "rng/engine.h"
#include "samplers/count_model.h"

namespace sgmcmc::models {

// Step 2 of an online LDA iteration as a samplers::CountModel over an in-memory training corpus: the items are the
// documents. ScaledCounts uses one engine word (the key of the per-document streams).
//
// Not thread-safe: ScaledCounts reuses scratch buffers (no allocation once warm); use one
// model per concurrent run. The pool (may be null) and the corpus must outlive the model.
class LdaCountModel final : public samplers::CountModel {
 public:
  // num_topics in [1, 2^24), alpha > 0, beta > 0, gibbs_sweeps >= 1, a corpus with at least
  // one document and 2 words; else InvalidArgument naming the argument.
  static absl::StatusOr<std::unique_ptr<LdaCountModel>> Create(const data::Corpus* corpus,
                                                               int num_topics, double alpha,
                                                               double beta, int gibbs_sweeps,
                                                               parallel::ThreadPool* pool);

  int num_simplices() const override { return num_topics_; }
  int dimension() const override { return corpus_->vocabulary_size(); }
  int64_t num_items() const override { return corpus_->num_documents(); }
  std::vector<double> PriorConcentration() const override { return {beta_}; }

  // Gibbs sweeps on the documents `batch` with π = `parameters` and the scaled expected
  // counts (D/n) Σ_d E[n_dkw] into `counts`. Reads only the columns of π of the batch's
  // words, through parameters.SimplexColumns (a gather for the simplex samplers).
  void ScaledCounts(rng::Engine& engine, absl::Span<const int64_t> batch,
                    const samplers::SimplexParameters& parameters,
                    samplers::SimplexCounts& counts) const override;

  // What the last ScaledCounts did.
  struct Stats {
    int64_t documents = 0;
    int64_t tokens = 0;          // tokens of the minibatch
    int64_t token_updates = 0;   // tokens x (sweeps + 1 initialisation)
    int distinct_words = 0;      // U
    double mean_topics_per_document = 0;  // nnz of n_dk after the last sweep, mean over docs
    double alpha_bucket_fraction = 0;     // token updates drawn from the α π_kw bucket
    double table_seconds = 0;    // collecting the words, gathering π columns, per-word tables
    double gibbs_seconds = 0;    // initialisation and sweeps
    double counts_seconds = 0;   // merging and scaling the counts
  };
  const Stats& last_stats() const { return stats_; }

 private:
  LdaCountModel(const data::Corpus* corpus, int num_topics, double alpha, double beta,
                int gibbs_sweeps, parallel::ThreadPool* pool);

  // Builds table_ for the words_ of the current minibatch from π = `parameters`.
  void FillTable(const samplers::SimplexParameters& parameters) const;
  // Gibbs on the batch documents order[next++] until order is exhausted, on thread
  // `thread`, adding every kept sweep's assignments to that thread's accumulator.
  void SampleDocuments(absl::Span<const int64_t> batch, uint64_t key,
                       absl::Span<const int64_t> order, std::atomic<int64_t>& next,
                       int thread) const;
  int num_threads() const { return pool_ == nullptr ? 1 : pool_->num_threads(); }

  const data::Corpus* corpus_;
  int num_topics_;
  double alpha_;
  double beta_;
  int gibbs_sweeps_;
  parallel::ThreadPool* pool_;

  // Scratch of ScaledCounts, reused across calls.
  mutable std::vector<int32_t> local_of_word_;  // V, -1 outside the current minibatch
  mutable std::vector<int32_t> words_;          // U distinct word ids, ascending
  mutable std::vector<std::vector<double>> slices_;  // per thread, K x (a few hundred words)
  mutable MinibatchTopicTable table_;
  mutable std::vector<std::vector<int32_t>> accumulators_;  // per thread, K x U
  mutable std::vector<int64_t> order_;  // batch slots, longest document first
  struct NonzeroCount {
    int32_t topic;
    int32_t word;  // local id
    int32_t count;
  };
  mutable std::vector<std::vector<NonzeroCount>> nonzero_entries_;  // per thread
  mutable std::vector<int64_t> nonzero_sums_;               // per thread
  mutable std::vector<int64_t> alpha_draw_sums_;            // per thread
  mutable Stats stats_;
};

}  // namespace sgmcmc::models

#endif  // SGMCMC_MODELS_LDA_COUNT_MODEL_H_
