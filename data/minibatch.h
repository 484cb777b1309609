// Minibatches of documents: the gathered documents of a set of ids, and seeded epoch-wise
// minibatches of a corpus held in memory (the streaming counterpart, for corpora on disk, is
// //data:uci_stream).
//
// EpochMinibatcher draws a uniformly random permutation of its pool of document ids with the
// caller's engine at the start of every epoch and hands it out in consecutive batches: every
// document is visited once per epoch (sampling without replacement across the epoch). Each
// batch has exactly batch_size ids; one that reaches the end of an epoch is completed from the
// next epoch's permutation (so it may hold an id twice when batch_size does not divide the
// pool). For independent uniform subsets at every iteration (the sampling the SG-MCMC theory
// assumes), use samplers::Minibatch (//samplers:minibatch) and GatherDocuments.
//
// Cost: Next() is O(batch_size) amortised plus one O(pool) shuffle per epoch; GatherDocuments
// is O(tokens of the batch) and reuses the output's storage.
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(EpochMinibatcher batches,
//                           EpochMinibatcher::Create(split.train_ids, 50));
//   DocumentMinibatch batch;
//   GatherDocuments(corpus, batches.Next(engine), &batch);
#ifndef SGMCMC_DATA_MINIBATCH_H_
#define SGMCMC_DATA_MINIBATCH_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "data/corpus.h"
#include "rng/engine.h"

namespace sgmcmc::data {

// A minibatch: document j of `documents` is document ids[j] of the source. The vocabulary of
// `documents` is left empty (the source's applies) so gathering never copies it.
struct DocumentMinibatch {
  std::vector<int> ids;
  Corpus documents;
};

// Fills *out with documents `ids` of `corpus` (each in range, checked), in that order.
void GatherDocuments(const Corpus& corpus, absl::Span<const int> ids, DocumentMinibatch* out);

class EpochMinibatcher {
 public:
  // The position in the epoch sequence, for checkpoints.
  struct State {
    std::vector<int> permutation;  // the current epoch's order of the pool
    int64_t position = 0;          // ids of `permutation` already handed out
    int64_t epochs_started = 0;
  };

  // `pool` non-empty, 1 <= batch_size (may exceed the pool size). InvalidArgument otherwise.
  static absl::StatusOr<EpochMinibatcher> Create(std::vector<int> pool, int batch_size);

  // The next batch_size ids; valid until the next call.
  absl::Span<const int> Next(rng::Engine& engine);

  int batch_size() const { return batch_size_; }
  int pool_size() const { return static_cast<int>(state_.permutation.size()); }
  // Epochs whose permutation has been drawn (the first Next() starts epoch 1).
  int64_t epochs_started() const { return state_.epochs_started; }

  const State& state() const { return state_; }
  // Resumes from a saved state; InvalidArgument unless it is a permutation of this pool with
  // a position in [0, pool size].
  absl::Status Restore(const State& state);

 private:
  EpochMinibatcher(std::vector<int> pool, int batch_size);

  int batch_size_;
  std::vector<int> sorted_pool_;  // to validate Restore()
  State state_;
  std::vector<int> batch_;
};

}  // namespace sgmcmc::data

#endif  // SGMCMC_DATA_MINIBATCH_H_
