// Minibatch: draws a uniform random subset S of size n from {0, ..., N-1} without
// replacement (the Omega_t of the HAMCMC paper, Algorithm 1, line 3), from the sampler's own
// rng::Engine, so a chain's minibatches are reproducible and checkpointable through the
// engine position alone.
//
// Algorithm: Floyd's sampling (Bentley & Floyd 1987, "A sample of brilliance"): for
// j = N-n, ..., N-1 draw t uniform on [0, j]; take t unless already taken, else take j. A
// bitmap of N bits marks the taken ids and is cleared again after each draw, so no state
// survives between draws. When n = N the batch is 0, ..., N-1 and no random word is used.
//
// Cost: n engine words and O(n) time per draw; N/8 bytes of memory; no allocation per draw.
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(Minibatch minibatch, Minibatch::Create(/*num_items=*/N, /*n=*/100));
//   absl::Span<const int64_t> batch = minibatch.Draw(engine);
#ifndef SGMCMC_SAMPLERS_MINIBATCH_H_
#define SGMCMC_SAMPLERS_MINIBATCH_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "rng/engine.h"

namespace sgmcmc::samplers {

class Minibatch {
 public:
  // num_items N >= 1 and 1 <= batch_size <= N, else InvalidArgument naming the argument.
  static absl::StatusOr<Minibatch> Create(int64_t num_items, int64_t batch_size);

  // A fresh uniform subset; the span stays valid until the next Draw(). The ids are
  // distinct, in the order Floyd's algorithm produced them.
  absl::Span<const int64_t> Draw(rng::Engine& engine);

  int64_t num_items() const { return num_items_; }
  int64_t batch_size() const { return static_cast<int64_t>(batch_.size()); }
  bool full_batch() const { return batch_size() == num_items_; }

 private:
  Minibatch(int64_t num_items, int64_t batch_size);

  int64_t num_items_;
  std::vector<int64_t> batch_;
  std::vector<uint64_t> taken_;  // bitmap over item ids; all zero between draws
};

}  // namespace sgmcmc::samplers

#endif  // SGMCMC_SAMPLERS_MINIBATCH_H_
