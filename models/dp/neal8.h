// Neal's (2000) Algorithm 8 for a DP mixture with any likelihood and base measure
// (models/dp/component_model.h), with the empirical feature proposals of Zhang, Williamson &
// Perez-Cruz (Algorithm 1 = Neal's Algorithm 8; Algorithm 2 = the MH-corrected data-driven
// proposals of the unoccupied atoms, eqs. 5-6).
//
// State: allocations z, the atoms of occupied clusters, α, and a pool of m unoccupied
// ("auxiliary") atoms ψ_1..ψ_m, which under the augmented target are i.i.d. H, independent of
// the rest. One Sweep:
//   1. Pool refresh (Algorithm 2). ρ = 0: ψ_s ~ H afresh. ρ > 0: for each s, propose θ* from
//      Q = (1 − ρ) H + ρ Σ_i w_i K(· | x_i), w_i ∝ 1 / f(x_i | θ_{z_i}) (eq. 5, with the
//      model's empirical kernel K), accept with min{1, H(θ*) Q(ψ_s) / (H(ψ_s) Q(θ*))} (eq. 6),
//      all in log space. Q depends on (z, occupied atoms) only, so this is an independence MH
//      move that leaves H invariant.
//   2. For each point i in order: remove i; if that empties its cluster, the cluster's atom
//      replaces a uniformly chosen ψ_s (Neal's "c_i is a singleton" case; the displaced ψ_s
//      is independent of everything, so dropping it is exact). Draw
//        P(z_i = k) ∝ n_{-i,k} f(x_i | θ_k) (occupied k),  (α / m) f(x_i | ψ_s) (pool slot s);
//      choosing slot s opens a cluster with atom ψ_s and redraws ψ_s ~ H. The pool atoms not
//      chosen stay i.i.d. H given the new z_i (they are not in the likelihood of the choice's
//      joint), which is why the pool may persist from point to point and sweep to sweep.
//   3. θ_k ← model.UpdateAtom(θ_k | members) for each occupied k.
//   4. α | K, N by West (1992), if sampled.
//
// Random streams: sweep t uses rng::Engine(seed, DpTaggedStream(kDpNeal8StreamTag, t + 1, 0));
// the initial atoms stream step 0. Bit-identical for a given seed, also across a checkpoint
// (SaveState / RestoreState between sweeps).
//
// Cost per sweep: O(N (K + m) · cost(LogLikelihood)) for the allocations, plus for ρ > 0
// O(m N · cost(LogEmpiricalDensity)) for the two Q evaluations per proposal; memory
// O(N + K (atom + stats)).
//
// Example:
//   MultinomialDirichletModel model(10, 1.0);
//   DpNeal8 sampler(&model, &data, DpNeal8Options{});
//   for (int t = 0; t < 100; ++t) sampler.Sweep();
//   double lp = sampler.LogPredictive(test.row(0));
#ifndef SGMCMC_MODELS_DP_NEAL8_H_
#define SGMCMC_MODELS_DP_NEAL8_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "models/dp/component_model.h"
#include "models/dp/neal8_state.pb.h"
#include "rng/engine.h"

namespace sgmcmc::models {

inline constexpr uint64_t kDpNeal8StreamTag = 0xD5;

// DP concentration α and its Gamma(shape, rate) prior, shared by the samplers of
// models/dp/neal8.h and models/dp/parallel.h.
struct DpConcentrationOptions {
  // α at the start; finite, > 0. Default 1.
  double initial_alpha = 1.0;
  // Whether α is resampled (West 1992). Default true.
  bool sample_alpha = true;
  // Gamma(shape, rate) prior of α; each finite, > 0. Default Gamma(1, 1).
  double alpha_shape = 1.0;
  double alpha_rate = 1.0;

  absl::Status Validate() const;
};

struct DpNeal8Options {
  DpConcentrationOptions concentration;
  // m, the unoccupied atoms; >= 1. Default 3.
  int num_auxiliary = 3;
  // ρ, the probability of an empirical proposal in Algorithm 2; in [0, 1]. Default 0
  // (plain Algorithm 8: fresh draws from H).
  double empirical_probability = 0.0;
  // Key of every random stream. Default 1.
  uint64_t seed = 1;

  absl::Status Validate() const;
};

class DpNeal8 {
 public:
  // `model` and `data` (>= 1 row of model->dimension() entries) outlive the sampler; options
  // valid (checked). `initial_allocations`: one label >= 0 per row (any integers; equal labels
  // share a cluster), or empty for all points in one cluster.
  DpNeal8(const DpComponentModel* model, const CountMatrix* data, const DpNeal8Options& options,
          absl::Span<const int32_t> initial_allocations = {});

  void Sweep();

  int64_t sweeps() const { return sweeps_; }
  double alpha() const { return alpha_; }
  int num_clusters() const { return clusters_.num_open(); }
  // The clusters (atoms, sizes) of the current state.
  const DpClusterTable& clusters() const { return clusters_; }
  // z_i as cluster slots (open slots of the table; not contiguous).
  absl::Span<const int32_t> allocations() const { return z_; }
  // Algorithm 2's acceptance counts over the run (0 when ρ = 0).
  int64_t proposals() const { return proposals_; }
  int64_t acceptances() const { return acceptances_; }

  // log p(x | z, θ, α) with weights n_k / (N + α) for the occupied clusters and α / (N + α)
  // for a new one (the mean of G given z and the atoms).
  double LogPredictive(const double* x) const;

  // The chain's state between sweeps (models/dp/neal8_state.proto), and its restoration into a
  // sampler made with the same model, data and options: the sweeps that follow are
  // bit-identical to the uninterrupted chain's. InvalidArgument naming the field (nothing
  // changed) if the state does not fit: lengths, allocations to open slots whose sizes are
  // their member counts, finite atoms and pool, α finite and > 0.
  DpNeal8State SaveState() const;
  absl::Status RestoreState(const DpNeal8State& state);

 private:
  void RefreshPool(rng::Engine& engine);
  double LogProposalDensity(const double* atom, absl::Span<const double> log_w) const;

  const DpComponentModel* model_;
  const CountMatrix* data_;
  DpNeal8Options options_;
  int64_t sweeps_ = 0;
  double alpha_;
  std::vector<int32_t> z_;
  DpClusterTable clusters_;
  std::vector<double> pool_;  // m x atom_size
  std::vector<double> log_normalizers_;  // per row, for ρ > 0
  LogCountTable log_count_;  // log n for cluster sizes n <= N
  int64_t proposals_ = 0, acceptances_ = 0;
  std::vector<double> log_weights_;
  std::vector<int> candidates_;
  std::vector<double> proposal_;
};

}  // namespace sgmcmc::models

#endif  // SGMCMC_MODELS_DP_NEAL8_H_
