// Online LDA by stochastic-gradient MCMC on the topics: SCIR (Baker et al. 2018, §5.1) or
// SGRLD (Patterson & Teh 2013, §4, eqs. 9-11), with the document-topic proportions collapsed.
//
// One iteration m (ALGORITHMS.md, "LDA with SGRLD / SCIR"):
//  1. draw a minibatch D_t of n documents uniformly without replacement (samplers::Minibatch);
//  2. per document, with the topics π fixed: sequential initialisation of the assignments,
//     then S Gibbs sweeps of p(z_di = k) ∝ (α + n_dk^{\i}) π_{k,w_di} (models/lda_gibbs.h,
//     sparse and exact); the first floor(S/2) sweeps are burn-in and n_dkw is averaged over
//     the remaining ones, giving the expected counts E[n_dkw];
//  3. one SCIR or SGRLD step of every topic with the scaled counts (D/n) Σ_{d∈D_t} E[n_dkw]
//     (samplers/count_model.h) and step size h_m = h (1 + m/τ)^(-κ).
// LdaCountModel is step 2 as a samplers::CountModel, so either sampler consumes it unchanged;
// Lda drives the three steps, owns the sampler and checkpoints the run.
//
// Threads: the pool's threads take the documents of a minibatch one at a time, longest
// first; document slot j of iteration m draws from rng::Engine(key_m, j), key_m one word
// of the driver's engine, and the averaged counts are integer sums until the final scaling,
// so the counts — and the topic update, split over row ranges with the samplers' per-(step,
// row) streams — are bit-identical for any number of threads (tested).
//
// The topic update is eager: every one of the K x V entries moves every iteration (the
// samplers' zero-count fast path). Entries absent from the minibatch are not deferred.
//
// Cost per iteration: O(K U) to build the minibatch's word tables (U distinct words; π
// gathered a few hundred words at a time, exponentiated by the vectorised
// linalg::ExpArray and transposed in cache), O(S N_t nnz) for the sweeps (N_t
// tokens, nnz topics per document), O(K V) for the topic update. Measured
// (//models:lda_benchmark, BM_LdaScaledCounts, K = 100, 20 sweeps, 50 documents of 150
// tokens, ~5 topics each, one core): ~7.4 ms per ScaledCounts, ~21 M token updates/s with
// the table build (~2 ms of it) included; on real KOS documents with SCIR-trained topics
// (BM_LdaScaledCountsKos: ~21 topics per document at α = 0.1, ~12 at α = 0.01) about half
// and two thirds of that rate.
//
// Example:
//   parallel::ThreadPool pool(2);
//   SGMCMC_ASSIGN_OR_RETURN(Lda lda, Lda::Create(train, LdaPresetOptions(LdaPreset::kScirFast),
//                                                &pool));
//   for (int m = 0; m < 1000; ++m) lda.Step();
//   std::vector<double> topics(lda.num_topics() * lda.vocabulary_size());
//   lda.Topics(absl::MakeSpan(topics));
#ifndef SGMCMC_MODELS_LDA_H_
#define SGMCMC_MODELS_LDA_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "data/corpus.h"
#include "models/lda_gibbs.h"
#include "parallel/thread_pool.h"
#include "rng/engine.h"
#include "samplers/count_model.h"
#include "models/lda_state.pb.h"
#include "samplers/minibatch.h"
#include "samplers/simplex_sampler.h"
#include "samplers/step_size.h"

namespace sgmcmc::models {

enum class LdaSampler { kScir, kSgrld };

// "scir" / "sgrld".
absl::string_view LdaSamplerName(LdaSampler sampler);

struct LdaOptions {
  // Topic update. Default kScir.
  LdaSampler sampler = LdaSampler::kScir;
  // Number of topics K, in [1, 2^24). Default 100.
  int num_topics = 100;
  // Symmetric document-topic Dirichlet parameter α; finite, > 0. Default 0.1.
  double alpha = 0.1;
  // Symmetric topic-word Dirichlet parameter β; finite, > 0. Default 0.5.
  double beta = 0.5;
  // Step size h_m; any valid samplers::StepSizeOptions. Default h (1 + m/τ)^(-κ) with
  // h = 0.5, τ = 10, κ = 0.33 (SCIR's LDA setting, Baker et al. 2018, Table 2).
  samplers::StepSizeOptions step_size = samplers::StepSizeOptions::PolynomialDecay(0.5, 10, 0.33);
  // Documents per minibatch n, in [1, D] (D the training documents). Default 50.
  int minibatch_size = 50;
  // Gibbs sweeps S per document per iteration, >= 1; the last S - floor(S/2) are averaged.
  // Default 200 (the papers' setting).
  int gibbs_sweeps = 200;
  // Key of every random stream of the run (minibatches, Gibbs, topic update). Default 1.
  uint64_t seed = 1;

  // OK, or InvalidArgument naming the first field out of range (num_documents is D, for
  // minibatch_size; pass a negative value to skip that check).
  absl::Status Validate(int num_documents = -1) const;
};

// Settings: the papers' (Baker et al. 2018, Table 2, shared with Patterson & Teh 2013 for
// SGRLD; tuned there on Wikipedia) and ours, tuned with equal effort for both samplers by a
// grid search over held-out perplexity on KOS at K = 50 (α, β, h, τ, κ; bench/README.md,
// "Tuning"), with the sweeps tuned for time-to-perplexity on one core.
enum class LdaPreset {
  kScirPaper,   // SCIR h = 0.5, τ = 10, κ = 0.33, α = 0.1, β = 0.5, K = 100, n = 50, S = 200
  kSgrldPaper,  // SGRLD h = 0.01, τ = 1000, κ = 0.6, α = 0.01, β = 1e-4, K = 100, n = 50, S = 200
  kScirFast,    // SCIR h = 0.5, τ = 10, κ = 0.33, α = 0.1, β = 0.1, K = 100, n = 50,
                // S = kFastGibbsSweeps
  kSgrldFast,   // SGRLD h = 0.1, τ = 100, κ = 0.6, α = 0.1, β = 0.01, K = 100, n = 50,
                // S = kFastGibbsSweeps
};
// Gibbs sweeps per document of the tuned presets: on KOS (K = 50, one core) 20 sweeps reach a
// given perplexity sooner than 5, 10 or 50 (bench/README.md).
inline constexpr int kFastGibbsSweeps = 20;

LdaOptions LdaPresetOptions(LdaPreset preset);
// "scir_paper", "sgrld_paper", "scir_fast", "sgrld_fast".
absl::string_view LdaPresetName(LdaPreset preset);
// Inverse of LdaPresetName; InvalidArgument listing the valid names.
absl::StatusOr<LdaPreset> ParseLdaPreset(absl::string_view name);

// Stream ids of the LDA driver under the run's seed; their top byte (0x1D) differs from the
// simplex samplers' (0x5C) and from data::kSplitStream.
inline constexpr uint64_t kLdaDriverStream = uint64_t{0x1D} << 56;

// Step 2 above as a samplers::CountModel over an in-memory training corpus: the items are the
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

class Lda {
 public:
  // InvalidArgument naming the field if options.Validate(D) fails or the corpus has fewer
  // than 2 words. The corpus and pool (may be null) must outlive the Lda.
  static absl::StatusOr<Lda> Create(const data::Corpus& train, const LdaOptions& options,
                                    parallel::ThreadPool* pool);

  Lda(Lda&&) = default;
  Lda& operator=(Lda&&) = default;

  // One iteration: minibatch, Gibbs sweeps, topic update.
  void Step();

  int64_t iteration() const { return iteration_; }
  const LdaOptions& options() const { return options_; }
  int num_topics() const { return options_.num_topics; }
  int vocabulary_size() const { return count_model_->dimension(); }
  // Step size of iteration m (the one Step() uses next is step_size(iteration())).
  double step_size(int64_t m) const { return step_size_(m); }
  const LdaCountModel::Stats& last_stats() const { return count_model_->last_stats(); }
  // Seconds of the last topic update.
  double last_update_seconds() const { return update_seconds_; }
  const samplers::SimplexSampler& sampler() const { return *sampler_; }

  // π, K x V row-major (each row on the simplex), computed over the pool.
  void Topics(absl::Span<double> out) const;

  // A checkpoint (models/lda_state.proto): everything Step() reads, so a restored run
  // continues bit-identically (the options and corpus are not stored; restore with the same).
  LdaState State() const;
  // InvalidArgument (naming what) if the state does not fit the options.
  absl::Status Restore(const LdaState& state);

 private:
  Lda(const data::Corpus& train, const LdaOptions& options, parallel::ThreadPool* pool,
      std::unique_ptr<LdaCountModel> count_model, samplers::Minibatch minibatch,
      samplers::StepSize step_size, std::unique_ptr<samplers::SimplexSampler> sampler);

  LdaOptions options_;
  parallel::ThreadPool* pool_;
  std::unique_ptr<LdaCountModel> count_model_;
  samplers::Minibatch minibatch_;
  samplers::StepSize step_size_;
  std::unique_ptr<samplers::SimplexSampler> sampler_;
  rng::Engine driver_;
  samplers::SimplexCounts counts_;
  int64_t iteration_ = 0;
  double update_seconds_ = 0;
};

}  // namespace sgmcmc::models

#endif  // SGMCMC_MODELS_LDA_H_
