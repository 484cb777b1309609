// Streaming LDA over a parallel::Communicator (threads in one process, or Open MPI ranks),
// with the K x V topic update split by vocabulary columns (issue 29; the online setting of
// Patterson & Teh 2013, §5, and Baker et al. 2018, §5.1, with their SGRLD / SCIR topic
// updates, docs/ALGORITHMS.md, "Distributed LDA").
//
// Layout. The vocabulary is cut into column blocks of `block_width` words, fixed whatever the
// rank count; block b is owned by rank b mod P, which holds its K x width slice of θ as its
// own simplex sampler (samplers::Scir or Sgrld) keyed by (seed, b). A rank holds only its
// blocks: memory O(K V / P) for the topics.
//
// One iteration m on a minibatch of n documents (every rank passes the same minibatch, e.g.
// read from the same stream with the same engine):
//  1. shares: rank r sweeps the slots j with j mod P = r;
//  2. columns: the owners send each rank the columns of π = θ / Σθ at the words of its share
//     (one Communicator::Shift round per rank offset);
//  3. sweeps: LdaCountModel on the share, document j's Gibbs stream keyed by (key_m, j), so a
//     document draws the same on any rank; the counts are the kept sweeps' integer sums;
//  4. counts: each (topic, word, count) travels to the word's owner (Shift rounds); the row
//     totals n_k· by an all-reduce of K integers (exact as doubles);
//  5. topic update: each owner steps its blocks row by row with counts (D/n) c / kept and
//     StepRowBlock's whole-row totals (SGRLD's ω ĉ_· term), the (block, row) steps spread over
//     the pool's threads;
//  6. normalisers: the K x blocks log masses log Σ_{w∈b} θ_kw by an all-reduce in which only
//     the owner of a block contributes (so every sum is exact), then log Σ_w θ_kw per row,
//     combined over the blocks in block order.
// Every sum that depends on the split is a sum of integers or of one non-zero term, and
// everything else is computed per block in a fixed order, so the topics after any number of
// iterations are bit-identical for any rank count and any pool (tested; and under mpirun by
// models/lda/distributed_lda_mpi_test.sh). The chain is the single-process Lda's in law (each
// entry's update is the same; the blocks' random streams differ from one K x V sampler's).
//
// Posterior mean: with LdaOptions::mean_burn_in >= 0, the owners keep the running mean of
// their columns of π over the kept samples, as Lda does.
//
// Cost per iteration and rank: the share's sweeps (O(S N_t / P) token updates, sparse in K),
// O(K V / P) for the topic update, and communication of K doubles per distinct word of the
// share plus 3 doubles per non-zero count, plus 2 all-reduces of K and K V / width doubles.
// An owner computes each requested column of its blocks once (O(K) for each distinct word of
// the minibatch it owns) and copies it to every share that holds the word.
// Not supported (Create refuses): LdaTopicUpdate::kLazy and kPersistentJoint. Checkpoints are
// per rank (SaveState / RestoreState) and restore the same rank count.
//
// Example:
//   parallel::RunOnThreads(4, [&](parallel::Communicator& comm) -> absl::Status {
//     SGMCMC_ASSIGN_OR_RETURN(std::unique_ptr<DistributedLda> lda,
//                             DistributedLda::Create(vocabulary, options, &comm, nullptr));
//     for (const data::Corpus& batch : minibatches) SGMCMC_RETURN_IF_ERROR(lda->StepOn(batch));
//     std::vector<double> topics(comm.rank() == 0 ? K * V : 0);
//     return lda->GatherTopics(absl::MakeSpan(topics));
//   });
#ifndef SGMCMC_MODELS_LDA_DISTRIBUTED_LDA_H_
#define SGMCMC_MODELS_LDA_DISTRIBUTED_LDA_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "data/corpus.h"
#include "models/lda/count_model.h"
#include "models/lda/lda.h"
#include "models/lda/state.pb.h"
#include "parallel/communicator.h"
#include "parallel/thread_pool.h"
#include "samplers/simplex_sampler.h"
#include "samplers/step_size.h"

namespace sgmcmc::models {

// Stream ids of the distributed driver (top byte 0x1E): the sweeps' key of iteration m, and
// the seed of block b's sampler.
inline constexpr uint64_t kDistributedLdaStream = uint64_t{0x1E} << 56;

struct DistributedLdaOptions {
  // The model and sampler (LdaOptions; corpus_documents must be the D of the stream, > 0;
  // topic_update kEager; count_estimator not kPersistentJoint). minibatch_size is not read:
  // StepOn takes whatever minibatch it is given.
  LdaOptions lda;
  // Vocabulary columns per block, >= 2 (the last block takes the remainder, < 2 widths).
  // Fixed independently of the rank count (results depend on it, not on the ranks). Default
  // 256: under a Zipf law the first 1024 words carry 2/3 of the tokens (V = 50,000), and so
  // of the counts an owner merges; blocks of 256 spread those words over 4 ranks, while a
  // block's K rows of 256 entries still keep the samplers' vectorised loops busy (measured on
  // 16 ranks, bench/README.md, "Distributed LDA").
  int block_width = 256;

  absl::Status Validate() const;
};

class DistributedLda {
 public:
  // InvalidArgument naming the field for bad options or vocabulary_size < 2. `comm` (not
  // null) and `pool` (may be null) must outlive the object. Not collective.
  static absl::StatusOr<std::unique_ptr<DistributedLda>> Create(
      int vocabulary_size, const DistributedLdaOptions& options, parallel::Communicator* comm,
      parallel::ThreadPool* pool);

  // One iteration on `minibatch` (>= 1 documents, word ids in [0, V)); collective: every rank
  // passes the same documents. InvalidArgument naming the document and word for a bad id
  // (on every rank, nothing changed); Aborted if another rank failed.
  absl::Status StepOn(const data::Corpus& minibatch);

  // π (K x V row-major) into `out` on rank 0, which must size it K x V; the other ranks pass
  // an empty span. Collective.
  absl::Status GatherTopics(absl::Span<double> out);
  // The posterior mean of π over the kept samples, as GatherTopics (π itself when no sample
  // was kept yet). Collective.
  absl::Status GatherPosteriorMean(absl::Span<double> out);

  // Checkpoint of this rank (models/lda/state.proto): restored by a DistributedLda of the same
  // vocabulary, options and rank count, the run continues bit-identically.
  DistributedLdaState SaveState() const;
  // Collective. InvalidArgument naming the field if `state` was not saved by this rank of such
  // a run (on the rank that finds it; every rank returns the lowest failing rank's error, and
  // then nothing is restored anywhere), or if the ranks' iterations differ.
  absl::Status RestoreState(const DistributedLdaState& state);

  int64_t iteration() const { return iteration_; }
  int64_t mean_samples() const { return mean_samples_; }
  int num_topics() const { return options_.lda.num_topics; }
  int vocabulary_size() const { return vocabulary_size_; }
  int num_blocks() const { return num_blocks_; }
  // Columns of π this rank holds.
  int64_t owned_columns() const;

  // Wall seconds of this rank, summed over the iterations so far, and its work.
  struct Timings {
    double sweep_seconds = 0;          // the share's Gibbs sweeps and count merge
    double communication_seconds = 0;  // columns, counts, all-reduces (including waiting)
    double topic_update_seconds = 0;   // the owned blocks' steps and their log masses
    double mean_seconds = 0;           // the running posterior mean
    int64_t token_updates = 0;         // of this rank's share
    int64_t tokens = 0;                // of every minibatch (all ranks)
  };
  const Timings& timings() const { return timings_; }
  // For a resumed run's totals (the timings are not part of SaveState).
  void set_timings(const Timings& timings) { timings_ = timings; }

 private:
  DistributedLda(int vocabulary_size, const DistributedLdaOptions& options,
                 parallel::Communicator* comm, parallel::ThreadPool* pool,
                 samplers::StepSize step_size);
  bool Owns(int block) const { return block % comm_->size() == comm_->rank(); }
  int BlockBegin(int block) const { return block * options_.block_width; }
  int BlockWidth(int block) const;
  int BlockOf(int32_t word) const;
  // log_mass_ and block_factor_ from every block's log mass (K x blocks, row-major).
  void SetLogMasses(absl::Span<const double> masses);
  // Rank q's share of the minibatch: its slots and its distinct words, ascending.
  void Shares(const data::Corpus& minibatch);
  // π at `words` (all owned by this rank, ascending, distinct), each column computed once and
  // written to every place that needs it: word j's K values to targets[t] for t in
  // [target_begin[j], target_begin[j + 1]). Over the pool's threads.
  void OwnedColumns(absl::Span<const int32_t> words, absl::Span<const size_t> target_begin,
                    absl::Span<double* const> targets);
  // Step 2: this rank's columns of π at its share's words.
  absl::Status ExchangeColumns();
  // Step 4: the outgoing counts to their owners (into incoming_) and the row totals summed.
  absl::Status ExchangeCounts(std::vector<double>& row_totals);
  // Runs fn(thread, task) for task in [0, tasks) over the pool's threads (in order on
  // thread 0 without a pool).
  void ForEachTask(int64_t tasks, const std::function<void(int, int64_t)>& fn);
  absl::Status Gather(bool mean, absl::Span<double> out);
  // The K x blocks log masses of the owned blocks (0 elsewhere) all-reduced, then
  // SetLogMasses: every rank's normalisers from the owners' blocks.
  absl::Status CombineLogMasses();

  DistributedLdaOptions options_;
  int vocabulary_size_;
  int num_blocks_;
  parallel::Communicator* comm_;
  parallel::ThreadPool* pool_;
  samplers::StepSize step_size_;
  int64_t iteration_ = 0;
  // Owned blocks (block id -> index into blocks_, -1 if not owned) and their samplers.
  std::vector<int> local_block_;
  std::vector<std::unique_ptr<samplers::SimplexSampler>> blocks_;
  // log Σ_w θ_kw per row (K), and per owned block the factor Σ_{w∈b} θ_kw / Σ_w θ_kw (K each):
  // π at a column of the block is the block's ω times the factor.
  std::vector<double> log_mass_;
  std::vector<std::vector<double>> block_factor_;
  // Running posterior mean per owned block (K x width), and the samples in it.
  std::vector<std::vector<double>> mean_;
  int64_t mean_samples_ = 0;

  // Per-iteration scratch.
  std::vector<std::vector<int64_t>> share_slots_;   // rank -> its slots
  std::vector<std::vector<int32_t>> share_words_;   // rank -> its distinct words, ascending
  data::Corpus share_;                              // this rank's documents
  std::unique_ptr<LdaCountModel> count_model_;
  std::vector<int64_t> share_batch_;                // 0 .. share size - 1
  // K per word of share_words_[rank], grouped by owner: rank q's words at
  // [segment_begin_[q], segment_begin_[q + 1]) (ExchangeColumns).
  std::vector<double> columns_;
  std::vector<size_t> segment_begin_;
  // ExchangeColumns': per rank the columns this rank sends it (K per word); the (word, place)
  // requests for this rank's columns; the distinct requested words and, per word, its places
  // (targets_[target_begin_[j] .. target_begin_[j + 1])).
  std::vector<std::vector<double>> send_buffers_;
  std::vector<std::pair<int32_t, double*>> requests_;
  std::vector<int32_t> requested_words_;
  std::vector<size_t> target_begin_;
  std::vector<double*> targets_;
  std::vector<int32_t> column_of_word_;             // V: the word's column, -1 outside the share
  std::vector<int32_t> gathered_words_;             // the words column_of_word_ maps
  // Outgoing (topic, word, count) triples per thread and destination rank.
  std::vector<std::vector<std::vector<double>>> outgoing_;
  std::vector<double> incoming_;                    // triples for the owned blocks
  std::vector<std::vector<int32_t>> column_scratch_;  // OwnedColumns' per thread
  std::vector<std::vector<double>> omega_scratch_;
  Timings timings_;
};

}  // namespace sgmcmc::models

#endif  // SGMCMC_MODELS_LDA_DISTRIBUTED_LDA_H_
