// The stochastic slice sampler for the DP mixture of multinomials of models/dp/mixture.h
// (Baker et al. 2018, Appendix D.3): each step touches a minibatch S of n users only; the
// stick breaks and the atoms move by a simplex SG-MCMC sampler, SCIR (samplers/scir.h) or
// SGRLD (samplers/sgrld.h), chosen by DpSimplexSampler; the model code is the same for both
// and uses them only through samplers::SimplexSampler.
//
// With m̂_j = (N/n) #{i ∈ S : z_i = j} and Z* = 1 + max_i z_i over all users, step t:
//   1. S ← a fresh uniform minibatch (samplers::Minibatch, stream DpMinibatchStream(t)).
//   2. Sticks: row j < Z* of a 2-column simplex sampler holds (v_j, 1 − v_j), whose target is
//      Beta(1 + m̂_j, α + Σ_{l>j} m̂_l) (D.3, second bullet). The sampler's Dirichlet prior is
//      fixed at creation, α is not, so the sampler's prior is (1, α_floor) and the counts fed
//      are (m̂_j, α − α_floor + Σ_{l>j} m̂_l): the target of ω is the same (in the gamma
//      expansion both samplers use, only the sum prior + count of each coordinate fixes the
//      simplex marginal); SCIR's step depends only on that sum, SGRLD's drift differs slightly
//      in how fast it gets there. ω_j = v_j Π_{l<j}(1 − v_l). One step of size h_DP.
//   3. Atoms: row j < Z* of a V-column simplex sampler, prior Dir(a), counts
//      (N/n) Σ_{i ∈ S, z_i = j} x_i (D.3, fourth bullet); one step of size h_θ.
//   4. u_i ~ U(0, ω_{z_i}) for i ∈ S; u* = min_S u_i.
//   5. α | v_{<Z*} ~ Gamma(b1 + Z*, b2 − Σ_{j<Z*} log(1 − v_j)) if sampled (D.3, Escobar & West).
//   6. Rows j ≥ Z* are reset to prior draws (v_j ~ Beta(1, α), θ_j ~ Dir(a)) until the
//      leftover stick 1 − Σ_{j<k*} ω_j is below u*.
//   7. z_i | u_i, ω, θ, x_i for i ∈ S as in the exact sampler.
// The samplers hold `capacity` rows, doubled when k* outgrows them (the rows are carried over
// through LogSimplex/SetLogTheta and SetSteps: ω and the streams are kept, the unnormalised
// scale of each row restarts at Σθ = 1; rare after the first steps).
//
// Random streams under options.model.seed: the simplex samplers' own (tag 0x5C; row j's step
// number counts its steps), point i's (u_i, z_i) DpPointStream(t, i), component j's prior
// draws DpComponentStream(t, j), α and the prior sticks DpGlobalStream(t), the minibatch
// DpMinibatchStream(t). A run is bit-identical for a seed and any thread count, and after
// RestoreState(SaveState()) to the uninterrupted run.
//
// Cost per step: O(n n̄ K) for the allocations (n̄ tokens per user, K components above the
// slice), O(Z* V) for the atom step, O(k* V) to refresh the log atoms, O(n) for the counts.
//
// Example:
//   DpStochasticOptions options = DpStochasticPaperOptions(DpSimplexSampler::kScir);
//   SGMCMC_ASSIGN_OR_RETURN(auto sampler, DpStochasticSlice::Create(&corpus, options));
//   for (int t = 0; t < 1000; ++t) sampler->Step();
#ifndef SGMCMC_MODELS_DP_STOCHASTIC_SLICE_H_
#define SGMCMC_MODELS_DP_STOCHASTIC_SLICE_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "data/corpus.h"
#include "models/dp/mixture.h"
#include "models/dp/stochastic_slice_state.pb.h"
#include "parallel/thread_pool.h"
#include "samplers/minibatch.h"
#include "samplers/simplex_sampler.h"

namespace sgmcmc::models {

enum class DpSimplexSampler { kScir, kSgrld };
// "scir" / "sgrld".
absl::string_view DpSimplexSamplerName(DpSimplexSampler sampler);
// Inverse of DpSimplexSamplerName; InvalidArgument listing the names otherwise.
absl::StatusOr<DpSimplexSampler> ParseDpSimplexSampler(absl::string_view name);

// A SCIR or SGRLD sampler behind the common interface (InvalidArgument if options are bad).
absl::StatusOr<std::unique_ptr<samplers::SimplexSampler>> MakeSimplexSampler(
    DpSimplexSampler kind, samplers::SimplexSamplerOptions options);

struct DpStochasticOptions {
  // Hyperparameters, start (initial_components: K of Table 3) and seed.
  DpMixtureOptions model;
  // Sampler of the sticks and the atoms. Default kScir.
  DpSimplexSampler sampler = DpSimplexSampler::kScir;
  // Fixed step sizes h_θ (atoms) and h_DP (sticks); finite, > 0. Default 0.1 and 0.1 (Table 3,
  // SCIR).
  double atom_step = 0.1;
  double stick_step = 0.1;
  // Users per minibatch n, in [1, N]. Default 1000 (Table 3).
  int minibatch_size = 1000;
  // Rows the simplex samplers start with, in [1, 2^24); doubled as needed. Default 256.
  int initial_capacity = 256;
  // The stick sampler's fixed prior on 1 − v is α_floor (see step 2); finite, > 0. α below it
  // is treated as α_floor. Default 1e-3.
  double alpha_floor = 1e-3;

  // OK, or InvalidArgument naming the field (num_users N checks minibatch_size; < 0 skips).
  absl::Status Validate(int64_t num_users = -1) const;
};

// Table 3 of Baker et al. 2018: SCIR h_θ = 0.1, h_DP = 0.1, a = 0.5, K = 20, n = 1000; SGRLD
// h_θ = 0.001, h_DP = 0.005, a = 0.001, K = 30, n = 1000. α ~ Gamma(1, 1), seed 1.
DpStochasticOptions DpStochasticPaperOptions(DpSimplexSampler sampler);

class DpStochasticSlice : public DpSliceChain {
 public:
  // `corpus` (>= 1 user, >= 2 words) and `pool` (may be null) must outlive the sampler.
  static absl::StatusOr<std::unique_ptr<DpStochasticSlice>> Create(
      const data::Corpus* corpus, const DpStochasticOptions& options,
      parallel::ThreadPool* pool = nullptr);

  void Step();

  // steps(), alpha(), the draw, allocations(), component_sizes() (users per component over
  // all N, size capacity()), Summary() and CurrentDraw() come from DpSliceChain.

  // Rows the simplex samplers hold now.
  int capacity() const { return capacity_; }
  const samplers::SimplexSampler& atom_sampler() const { return *atoms_; }
  const samplers::SimplexSampler& stick_sampler() const { return *sticks_; }

  // Checkpoint (models/dp/stochastic_slice_state.proto): steps, α, the allocations and both
  // simplex samplers; restoring it into a sampler created with the same corpus and options
  // continues the run bit-identically, for any thread count.
  DpStochasticSliceState SaveState() const;
  // Replaces the state (the samplers take the checkpoint's capacity); the draw (weights,
  // atoms) is empty until the next Step. InvalidArgument naming the field, with this sampler
  // unchanged, for a wrong number of allocations or one outside [0, capacity), α not finite
  // and > 0, steps outside [0, 2^32), sticks and atoms of different or out-of-range capacity,
  // or a sampler state the samplers reject (another kind, shape or an invalid row).
  absl::Status RestoreState(const DpStochasticSliceState& state);

 private:
  DpStochasticSlice(const data::Corpus* corpus, const DpStochasticOptions& options,
                    parallel::ThreadPool* pool, samplers::Minibatch minibatch);
  absl::Status Initialize();
  void EnsureCapacity(int rows);
  void SetPriorComponent(uint64_t step, int j, rng::Engine& global);

  const data::Corpus* corpus_;
  DpStochasticOptions options_;
  samplers::Minibatch minibatch_;
  int capacity_;
  std::unique_ptr<samplers::SimplexSampler> sticks_;  // capacity x 2: (v, 1 − v)
  std::unique_ptr<samplers::SimplexSampler> atoms_;   // capacity x V
  std::vector<double> u_;             // minibatch
  std::vector<double> stick_counts_;  // capacity x 2, rows < Z* used
  std::vector<double> atom_counts_;   // capacity x V, rows < Z* used
  std::vector<double> batch_sizes_;   // Z*
};

}  // namespace sgmcmc::models

#endif  // SGMCMC_MODELS_DP_STOCHASTIC_SLICE_H_
