// The uncollapsed, distributed slice sampler for a DP mixture with any likelihood and base
// measure (models/dp/component_model.h) over a parallel::Communicator: the map-reduce slice
// sampler of Ge, Chen, Wan & Ghahramani (2015), the "uncollapsed" baseline of Zhang,
// Williamson & Perez-Cruz §4. The same blocked cycle as models/dp/mixture.h's DpSliceGibbs
// (Walker 2007; Kalli, Griffin & Walker 2011), with the rows split into P contiguous shards:
//   1. (reduce) component sizes m_j and summary statistics of the shards are summed;
//   2. (every rank, shared stream) v_j ~ Beta(1 + m_j, α + Σ_{l>j} m_l) for j < Z*,
//      ω_j = v_j Π_{l<j} (1 − v_l); α | v ~ Gamma(b1 + Z*, b2 − Σ log(1 − v_j)) if sampled;
//   3. (map) u_i ~ U(0, ω_{z_i}); (reduce) u* = min_i u_i, each rank contributing its
//      shard's minimum in its own slot of a P-vector;
//   4. (every rank) sticks v_j ~ Beta(1, α) appended until 1 − Σ ω < u*; atoms θ_j moved
//      by model.UpdateAtom given the summed statistics (empty and new ones: from H);
//   5. (map) z_i ∝ 1(ω_j > u_i) f(x_i | θ_j).
// Each block draws its exact conditional, so the posterior is invariant.
//
// Random streams: row i's draws of step t from rng::Engine(seed,
// DpTaggedStream(kDpDistributedSlicePointStreamTag, t, i)) (so the run does not depend on
// the number of workers at all), the global draws of step t from
// Engine(seed, DpTaggedStream(kDpDistributedSliceGlobalStreamTag, t, 0)). Sums are of integer
// counts (exact for the multinomial's statistics): bit-identical on threads and MPI and for
// every worker count.
//
// Checkpoints: SaveState between steps (models/dp/distributed_slice_state.proto: allocations,
// atoms, the last weights, α) continues bit-identically after RestoreState, on any number of
// workers.
//
// Cost per step on worker p: O(n_p K_i cost(LogLikelihood)) (K_i = #{j : ω_j > u_i}); two
// all-reduces of O(K stats) doubles; O(K) atom moves on every worker.
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(auto slice, DpDistributedSlice::Create(&comm, &model, &data, o));
//   for (int t = 0; t < 100; ++t) SGMCMC_RETURN_IF_ERROR(slice->Step());
#ifndef SGMCMC_MODELS_DP_DISTRIBUTED_SLICE_H_
#define SGMCMC_MODELS_DP_DISTRIBUTED_SLICE_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "models/dp/component_model.h"
#include "models/dp/distributed_slice_state.pb.h"
#include "models/dp/neal8.h"
#include "models/dp/parallel.h"
#include "parallel/communicator.h"

namespace sgmcmc::models {

inline constexpr uint64_t kDpDistributedSlicePointStreamTag = 0xD8;
inline constexpr uint64_t kDpDistributedSliceGlobalStreamTag = 0xD9;

struct DpDistributedSliceOptions {
  // α's start and Gamma prior (α | sticks as Baker et al. D.3 when sampled).
  DpConcentrationOptions concentration;
  // Key of every random stream. Default 1.
  uint64_t seed = 1;

  absl::Status Validate() const { return concentration.Validate(); }
};

class DpDistributedSlice : private DpWorkerRows {
 public:
  // Collective. `comm`, `model` (one per worker) and `data` (all rows on every rank, >= 1)
  // outlive the sampler; `initial_allocations` one label in [0, 2^24) per row, the same on
  // every rank, or empty for one component. InvalidArgument otherwise.
  static absl::StatusOr<std::unique_ptr<DpDistributedSlice>> Create(
      parallel::Communicator* comm, DpComponentModel* model, const CountMatrix* data,
      const DpDistributedSliceOptions& options,
      absl::Span<const int32_t> initial_allocations = {});

  // Collective: one cycle.
  absl::Status Step();

  int64_t steps() const { return steps_; }
  double alpha() const { return alpha_; }
  // Instantiated components k* of the last step; those holding points (from step 1's sums).
  int num_components() const { return static_cast<int>(weights_.size()); }
  int num_occupied() const { return num_occupied_; }
  // Collective: every row's component after the last step.
  absl::StatusOr<std::vector<int32_t>> GatherAllocations();
  // Collective: Σ over the rows of `test` of log p(x | ω, θ, leftover stick to H), rows split
  // over the workers, the sum identical on every rank. Requires a step.
  absl::StatusOr<double> TestLogPredictive(const CountMatrix& test);

  // Collective: the sampler's state between steps (models/dp/distributed_slice_state.proto),
  // the same on every rank. RestoreState (every rank, the same state; not collective) into a
  // sampler made with the same model, data and options continues bit-identically, for any
  // worker count. InvalidArgument naming the field (nothing changed) if the state does not
  // fit: lengths, allocations in [0, 2^24), finite atoms, weights in [0, 1], α finite > 0.
  absl::StatusOr<DpDistributedSliceState> SaveState();
  absl::Status RestoreState(const DpDistributedSliceState& state);

 private:
  DpDistributedSlice(parallel::Communicator* comm, DpComponentModel* model,
                     const CountMatrix* data, const DpDistributedSliceOptions& options);

  DpDistributedSliceOptions options_;
  int64_t steps_ = 0;
  double alpha_;
  int num_occupied_ = 0;
  std::vector<int32_t> z_;  // local rows
  std::vector<double> u_;   // local rows
  std::vector<double> log_v_, log1m_v_, weights_, atoms_;
  double log_leftover_ = 0;
  std::vector<double> scratch_;
};

}  // namespace sgmcmc::models

#endif  // SGMCMC_MODELS_DP_DISTRIBUTED_SLICE_H_
