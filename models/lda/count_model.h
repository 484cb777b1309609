// LdaCountModel: the expected topic-word counts of a minibatch of LDA documents given the
// topics π, as a samplers::CountModel (step 2 of an online LDA iteration, docs/ALGORITHMS.md, "LDA
// with SGRLD / SCIR"; Patterson & Teh 2013, §4, eq. 11; Baker et al. 2018, §5.1), so any
// simplex sampler consumes it unchanged (models/lda/lda.h drives it).
//
// Per document, with π fixed: sequential initialisation of the assignments, then S Gibbs
// sweeps of p(z_di = k) ∝ (α + n_dk^{\i}) π_{k,w_di} (eval/lda_gibbs.h, sparse and exact);
// what is kept depends on the LdaCountEstimator: by default (kSweepAverage) the first
// floor(S/2) sweeps are burn-in and n_dkw is averaged over the remaining ones, an estimate of
// E[n_dkw | π]; kLastSweep keeps the last sweep's n_dkw only (an approximate draw of z from
// p(z | π), S - 1 sweeps of burn-in). The counts are (D/n) Σ_{d∈D_t} of those.
// kPersistentJoint (full batch, SCIR) instead keeps the corpus's assignments across calls
// and sweeps them with the joint's conditional, which uses θ, not π (see the enum).
//
// Threads (kPersistentJoint aside, which runs on one thread): the pool's threads take the documents of a minibatch one at a time, longest
// first; document slot j draws from rng::Engine(key, j), key one word of the caller's engine,
// and the averaged counts are integer sums until the final scaling, so the counts are
// bit-identical for any number of threads (tested). Everything else per call runs over the
// threads too (the minibatch's distinct words, the word tables, the count merge), in one call
// of the pool with four barriers; what stays serial is O(n log n + threads + K) (checks, the
// documents' longest-first order, the rows' costliest-first order by insertion from the last
// call's, and for ScaledCounts placing the count rows; ScaledCountsByRow hands each row to its
// consumer as it is merged).
//
// Cost per call: O(K U) to build the minibatch's word tables (U distinct words; π gathered a
// few hundred words at a time by SimplexParameters::SimplexColumns and transposed in cache, or
// copied column by column from parameters stored word-major, SimplexParameters::ContiguousColumn),
// O(S N_t nnz) for the sweeps (N_t tokens, nnz topics per document). Measured:
// models/lda/lda_benchmark.cc (BM_LdaScaledCounts, BM_LdaScaledCountsKos).
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

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "data/corpus.h"
#include "eval/lda_gibbs.h"
#include "parallel/thread_pool.h"
#include "rng/engine.h"
#include "samplers/count_model.h"

namespace sgmcmc::models {

// Which per-document counts LdaCountModel reports (docs/ALGORITHMS.md, "LDA with SGRLD /
// SCIR", pitfalls). Both have mean E[n_dkw | π] (up to the Gibbs burn-in's bias; tested).
enum class LdaCountEstimator {
  // The average of n_dkw over the last S - floor(S/2) sweeps: Patterson & Teh's estimate of
  // E[n_dkw | π], low variance; every LdaPreset's. SCIR fed these counts (S >= 3) has a
  // stationary law that is not the posterior, for any h (models/lda/exactness_test.cc
  // measures the offset).
  kSweepAverage,
  // n_dkw of the last sweep alone: the counts of one assignment z, approximately drawn from
  // p(z | π) after S - 1 sweeps of burn-in. Full-batch SCIR with a large step (e^{-h} -> 0)
  // is then a blocked Gibbs sampler of the posterior (tested there); at small h the counts'
  // noise averages out over steps and the chain tends to the averaged counts' bias.
  kLastSweep,
  // Exact at any step size, full batch, SCIR only (models/lda/lda.h validates both): the
  // assignments z of every token of the corpus persist across calls (initialised uniformly on
  // the first call) and each call runs S Gibbs sweeps of the conditional of the joint
  // p(z | w) Π_kw Gamma(θ_kw; β + n_kw(z)),
  //   p(z_i = k | rest) ∝ (α + n_dk^{\i}) θ_{k,w_i} / (Vβ + n_k·^{\i}),
  // with SCIR's unnormalised θ (not π) and the global topic totals n_k·, then reports that z's
  // n_kw. A SCIR step with these counts leaves Π Gamma(β + n_kw) invariant, so the chain
  // (θ, z) leaves the joint invariant, whose (φ = θ/θ_k·)-marginal is the posterior
  // (models/lda/exactness_test.cc). The batch must be every document; the sweeps run on one
  // thread (the topic totals couple the documents), document d drawing from
  // rng::Engine(key, d), so the counts are the same for any pool. Cost per call: O(K V) for θ
  // and O(S K N) for the sweeps (N tokens of the corpus; dense, no sparse buckets).
  kPersistentJoint,
};

// "sweep_average" / "last_sweep" / "persistent_joint".
absl::string_view LdaCountEstimatorName(LdaCountEstimator estimator);

// π stored word-major for some of the words: word w's K probabilities at
// columns + K column_of_word[w] (column_of_word[w] < 0: not stored). The count model copies
// these whole columns into its table (SimplexParameters::ContiguousColumn); the row readers
// (Simplex, LogSimplex, and so the default SimplexColumns) fail, and so does reading a word
// that is not stored (both programmer errors). models/lda/distributed_lda.cc's gathered columns.
// A view: the caller owns both arrays.
class WordMajorColumns final : public samplers::SimplexParameters {
 public:
  WordMajorColumns(int rows, int cols, const double* columns, const int32_t* column_of_word)
      : rows_(rows), cols_(cols), columns_(columns), column_of_word_(column_of_word) {}
  int rows() const override { return rows_; }
  int cols() const override { return cols_; }
  void Simplex(int row, absl::Span<double> out) const override;
  void LogSimplex(int row, absl::Span<double> out) const override;
  const double* ContiguousColumn(int32_t col) const override;

 private:
  int rows_;
  int cols_;
  const double* columns_;
  const int32_t* column_of_word_;
};

// Step 2 of an online LDA iteration as a samplers::CountModel over an in-memory training corpus: the items are the
// documents. ScaledCounts uses one engine word (the key of the per-document streams).
//
// Not thread-safe: ScaledCounts reuses scratch buffers (no allocation once warm); use one
// model per concurrent run. The pool (may be null) and the corpus must outlive the model.
class LdaCountModel final : public samplers::CountModel {
 public:
  // num_topics in [1, 2^24), alpha > 0, beta > 0, gibbs_sweeps >= 1, a corpus with at least
  // one document and 2 words; else InvalidArgument naming the argument. `estimator` picks the
  // counts reported (LdaCountEstimator; the default gives the historical outputs).
  static absl::StatusOr<std::unique_ptr<LdaCountModel>> Create(
      const data::Corpus* corpus, int num_topics, double alpha, double beta, int gibbs_sweeps,
      parallel::ThreadPool* pool,
      LdaCountEstimator estimator = LdaCountEstimator::kSweepAverage);

  int num_simplices() const override { return num_topics_; }
  int dimension() const override { return corpus_->vocabulary_size(); }
  int64_t num_items() const override { return corpus_->num_documents(); }
  std::vector<double> PriorConcentration() const override { return {beta_}; }

  // The D of the (D/n) scale of ScaledCounts: the corpus' documents unless set (> 0) here,
  // e.g. the size of the whole corpus when this model's corpus is one chunk of it (online
  // fitting, LdaOptions::corpus_documents). 0 restores the default.
  void set_scale_documents(int64_t documents) { scale_documents_ = documents; }

  // For a caller that sweeps one share of a minibatch and sums the shares' counts itself
  // (models/lda/distributed_lda.h): `stream_ids` (one per slot of the following calls'
  // batches, or empty for the slots themselves) keys each document's Gibbs stream, so a
  // document draws the same whichever share holds it; with `raw` the counts handed over are
  // the kept sweeps' integer sums Σ_d Σ_sweeps n_dkw, unscaled (exact in a double), for the
  // caller to add over the shares and scale by (D/n) / kept_sweeps(). The span must outlive
  // the calls.
  void set_stream_ids(absl::Span<const int64_t> stream_ids) { stream_ids_ = stream_ids; }
  void set_raw_counts(bool raw) { raw_counts_ = raw; }
  // Sweeps whose counts are averaged (S - floor(S/2), or 1 for kLastSweep).
  int kept_sweeps() const { return gibbs_sweeps_ - burn_in_sweeps(); }

  // Gibbs sweeps per document of the following ScaledCounts calls (an early sweep schedule,
  // LdaOptions::early_gibbs_sweeps); >= 1 (checked).
  void set_gibbs_sweeps(int gibbs_sweeps);
  int gibbs_sweeps() const { return gibbs_sweeps_; }

  // Gibbs sweeps on the documents `batch` with π = `parameters` and the scaled counts
  // (D/n) Σ_d n̂_dkw into `counts`, n̂ the estimator's (the kept sweeps' average of n_dkw, or
  // the last sweep's n_dkw). Reads only the columns of π of the batch's
  // words, through parameters.SimplexColumns (a gather for the simplex samplers), or
  // parameters.ContiguousColumn where it is available.
  void ScaledCounts(rng::Engine& engine, absl::Span<const int64_t> batch,
                    const samplers::SimplexParameters& parameters,
                    samplers::SimplexCounts& counts) const override;
  // The per-row form, for a caller that consumes each topic row as soon as its counts are
  // complete (the LDA topic update): the same counts as ScaledCounts, handed to
  // row_fn(thread, k, counts of row k) once for every topic row k, on the thread that merged
  // the row, inside the same pool call as the sweeps, with no barrier between the rows (the
  // threads take the rows one at a time, so a row's use overlaps the merge of the next). The
  // rows are taken in descending order of `row_costs` (K estimates, e.g. the last call's
  // seconds per row; empty: the previous order, at first 0..K-1), which changes which thread
  // does a row's work, never the counts. row_fn may change row k of `parameters` (π is read
  // only before the sweeps), must not call the pool, and must not use another row's counts.
  using RowFunction =
      absl::FunctionRef<void(int thread, int row, const samplers::SparseCountsRow& counts)>;
  void ScaledCountsByRow(rng::Engine& engine, absl::Span<const int64_t> batch,
                         const samplers::SimplexParameters& parameters,
                         absl::Span<const double> row_costs, RowFunction row_fn) const;
  // Threads of ScaledCountsByRow's row_fn: the pool's, 1 without one.
  int num_threads() const { return pool_ == nullptr ? 1 : pool_->num_threads(); }

  // What the last ScaledCounts did.
  struct Stats {
    int64_t documents = 0;
    int64_t tokens = 0;          // tokens of the minibatch
    int64_t token_updates = 0;   // tokens x (sweeps + 1 initialisation)
    int distinct_words = 0;      // U
    double mean_topics_per_document = 0;  // nnz of n_dk after the last sweep, mean over docs
    double alpha_bucket_fraction = 0;     // token updates drawn from the α π_kw bucket
    double table_seconds = 0;    // collecting the words, gathering π columns, per-word tables
    double words_seconds = 0;    // of which collecting the words (ascending; over the threads)
    double order_seconds = 0;    // and sorting the documents longest first (one thread)
    double gibbs_seconds = 0;    // initialisation and sweeps
    // From the end of the sweeps until the pool call returns: the count merge, and in
    // ScaledCountsByRow the row_fn calls that it interleaves with the merge (wall seconds).
    double rows_seconds = 0;
    // Of which merging and scaling the counts: with row_fn, rows_seconds times thread 0's
    // share of its own time in the merge (the rest is row_fn's).
    double counts_seconds = 0;
  };
  const Stats& last_stats() const { return stats_; }

  // kPersistentJoint's assignments z, one topic per token of the corpus in corpus order;
  // empty before the first ScaledCounts (and always for the other estimators).
  absl::Span<const int32_t> assignments() const { return persistent_z_; }
  // Sets them (for a checkpoint's restore): empty (the next call initialises), or one topic in
  // [0, K) per token; else InvalidArgument. Only for kPersistentJoint (else
  // FailedPrecondition unless empty).
  absl::Status SetAssignments(absl::Span<const int32_t> z);

 private:
  LdaCountModel(const data::Corpus* corpus, int num_topics, double alpha, double beta,
                int gibbs_sweeps, parallel::ThreadPool* pool, LdaCountEstimator estimator);

  // Sweeps discarded before the kept ones, and the kept sweeps (whose counts are averaged).
  int burn_in_sweeps() const {
    return estimator_ == LdaCountEstimator::kLastSweep ? gibbs_sweeps_ - 1 : gibbs_sweeps_ / 2;
  }

  // The minibatch's distinct words over the threads, in three phases separated by barriers:
  // thread t sets the bits of the words of its chunk of documents in its own bitset
  // (word_bits_), then lists the words whose bit any thread set in its chunk of the
  // vocabulary (ascending, into word_chunks_[t]), then clears its bitset and places its list
  // into words_ after the lists of the chunks before it, setting their local_of_word_; so
  // words_ comes out ascending, the same for any thread count. `bounds`: the document chunks (slots of batch).
  void MarkWords(absl::Span<const int64_t> batch, absl::Span<const int64_t> bounds,
                 int thread) const;
  void ListWords(int thread) const;
  void PlaceWords(int thread) const;
  // Builds the columns [begin, end) of table_ (local word indices) from π = `parameters`:
  // column copies where it has ContiguousColumn, else gathered slices transposed.
  void FillTable(const samplers::SimplexParameters& parameters, int32_t begin, int32_t end,
                 int thread) const;
  // Gibbs on the batch documents order[next++] until order is exhausted, on thread
  // `thread`, adding every kept sweep's assignments to that thread's accumulator.
  void SampleDocuments(absl::Span<const int64_t> batch, uint64_t key,
                       absl::Span<const int64_t> order, std::atomic<int64_t>& next,
                       int thread) const;
  // row_order_, the order in which the threads take the topic rows after the sweeps: by
  // descending `row_costs` (see ScaledCountsByRow), or as it was when they are empty.
  void OrderRows(absl::Span<const double> row_costs) const;
  // Everything of ScaledCounts before the count rows are placed, in one pool call (see the
  // phases there), ending with finish(t, scale) on every thread t once all sweeps are done.
  void RunSweeps(uint64_t key, absl::Span<const int64_t> batch,
                 const samplers::SimplexParameters& parameters,
                 absl::FunctionRef<void(int thread, double scale)> finish) const;
  // The count merge on thread `thread`, taking rows one at a time (next_row_): each row's
  // sums and scaled non-zero entries handed to *row_fn as soon as they are complete, or
  // without row_fn appended to chunk_cols_ / chunk_values_ with row_sizes_ and merged_rows_;
  // WriteRows then copies the thread's rows into a `counts` sized by row_sizes_.
  void MergeRows(int thread, double scale, const RowFunction* row_fn) const;
  void WriteRows(int thread, samplers::SimplexCounts& counts) const;
  // kPersistentJoint: the sweeps on the whole corpus (batch = every document) and n_kw.
  void PersistentJointCounts(uint64_t key, absl::Span<const int64_t> batch,
                             const samplers::SimplexParameters& parameters,
                             samplers::SimplexCounts& counts) const;

  const data::Corpus* corpus_;
  int num_topics_;
  double alpha_;
  double beta_;
  int gibbs_sweeps_;
  parallel::ThreadPool* pool_;
  LdaCountEstimator estimator_;
  int64_t scale_documents_ = 0;  // 0: num_items()
  absl::Span<const int64_t> stream_ids_;  // empty: the slots
  bool raw_counts_ = false;

  // Scratch of ScaledCounts, reused across calls.
  mutable std::vector<int32_t> local_of_word_;  // V, -1 outside the current minibatch
  // The U = num_words_ distinct word ids, ascending, in the first U of V entries (sized once,
  // so that the threads place their words without resizing it).
  mutable std::vector<int32_t> words_;
  mutable int num_words_ = 0;
  // Per thread a bitset of the vocabulary (word_bits_stride_ words: ceil(V / 64) padded to
  // whole cache lines), all zero between calls, and its chunk's listed words.
  mutable std::vector<uint64_t> word_bits_;
  size_t word_bits_stride_;
  mutable std::vector<std::vector<int32_t>> word_chunks_;
  mutable std::vector<std::vector<double>> slices_;  // per thread, K x (a few hundred words)
  mutable eval::MinibatchTopicTable table_;
  // Per thread: the kept sweeps' counts, K x U (all zero between calls), and (with several
  // threads) per topic row the entries that became non-zero, their counts moved into the list
  // at the end of the thread's sweeps, for whichever thread merges the row.
  struct ListedCount {
    int32_t word;  // local word index u
    int32_t count;
  };
  mutable std::vector<std::vector<int32_t>> accumulators_;
  mutable std::vector<std::vector<std::vector<ListedCount>>> touched_;  // thread, row
  mutable std::vector<std::vector<int32_t>> merge_scratch_;  // per thread, U, all zero
  mutable std::vector<int> row_order_;     // OrderRows: the order the rows are merged in
  mutable std::atomic<int> next_row_{0};   // the merge's next position in row_order_
  mutable std::vector<std::vector<int>> merged_rows_;  // per thread, without row_fn
  // Columns of table_: at least the largest U so far (min(V, tokens) of the largest batch).
  mutable int64_t table_words_ = 0;
  // Thread 0's seconds in row_fn during the last call (excluded from counts_seconds).
  mutable double row_fn_seconds_ = 0;
  // kPersistentJoint's counts in ScaledCountsByRow.
  mutable samplers::SimplexCounts persistent_counts_;
  mutable std::vector<int64_t> order_;  // batch slots, longest document first
  // The merge's output per thread: its rows' non-zero entries' word ids and scaled counts,
  // row after row (in merged_rows_ order; one row at a time with row_fn), and every row's
  // number of entries (K).
  mutable std::vector<std::vector<int32_t>> chunk_cols_;
  mutable std::vector<std::vector<double>> chunk_values_;
  mutable std::vector<int64_t> row_sizes_;
  mutable std::vector<int64_t> nonzero_sums_;               // per thread
  mutable std::vector<int64_t> alpha_draw_sums_;            // per thread
  mutable Stats stats_;

  // kPersistentJoint's state, kept across calls: z per token (corpus order), n_dk (D x K),
  // n_k· (K), n_kw (K x V), and scratch: θ (K x V) and the cumulative weights (K).
  mutable std::vector<int32_t> persistent_z_;
  mutable std::vector<int32_t> persistent_doc_topic_;
  mutable std::vector<int64_t> persistent_topic_;
  mutable std::vector<int32_t> persistent_word_topic_;
  mutable std::vector<double> persistent_theta_;
  mutable std::vector<double> persistent_cumulative_;
};

}  // namespace sgmcmc::models

#endif  // SGMCMC_MODELS_LDA_COUNT_MODEL_H_
