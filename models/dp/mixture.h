// The Dirichlet-process mixture of multinomials (Dunson & Xing 2009; Baker et al. 2018 §5.2,
// eq. 5.1) and its exact, truncation-free Gibbs slice sampler (Baker et al. 2018 Appendix D.2:
// Walker 2007; Papaspiliopoulos 2008; Kalli, Griffin & Walker 2011).
//
// Model: user i's bag x_i of n_i tokens (word ids in [0, V)) is Multi(n_i, θ_{z_i});
//   θ_j ~ Dir(a) (symmetric), ω_j = v_j Π_{l<j} (1 − v_l), v_j ~ Beta(1, α), P(z_i = j) = ω_j,
//   α ~ Gamma(b1, b2) (shape, rate), or α fixed.
//
// One DpSliceGibbs::Step is the blocked cycle below; the state carried between steps is
// (z, α), and the draw (ω, θ) of the step is kept for evaluation. m_j = #{i : z_i = j} and
// Z* = max_i z_i + 1 (components are 0-based here; Z* counts them).
//   1. v_j | z, α ~ Beta(1 + m_j, α + Σ_{l>j} m_l) for j < Z*, with u integrated out
//      (Papaspiliopoulos's update; D.2's fifth bullet); ω_j = v_j Π_{l<j} (1 − v_l).
//   2. u_i | ω, z ~ U(0, ω_{z_i}); u* = min_i u_i.
//   3. α | v_{<Z*} ~ Gamma(b1 + Z*, b2 − Σ_{j<Z*} log(1 − v_j)) (the v_{≥Z*} integrated out:
//      u and z depend on ω_{<Z*} only; Baker et al. D.3, after Escobar & West 1995), if sampled.
//   4. Components j ≥ Z* are dropped and redrawn from the prior, v_j ~ Beta(1, α), until
//      k* = the smallest k with Σ_{j<k} ω_j > 1 − u* (every j ≥ k* has ω_j < u* ≤ u_i, so no
//      point can move there).
//   5. θ_j | x, z ~ Dir(a + Σ_{i: z_i=j} x_i) for j < k* (prior draws for the empty ones).
//   6. z_i | u_i, ω, θ, x_i ∝ 1(ω_j > u_i) Π_w θ_jw^{x_iw}, j < k*.
// Each block samples its exact conditional, so the posterior is invariant; empty components
// beyond the last occupied one are removed at step 4 of the next sweep, new ones added there.
//
// Random streams (all under options.seed): point i's draws of step t (u_i, z_i; and its
// initial allocation at t = 0) come from rng::Engine(seed, DpPointStream(t, i)), component
// j's atom draw from Engine(seed, DpComponentStream(t, j)), the sticks and α from
// Engine(seed, DpGlobalStream(t)). A run is bit-identical for a seed and any thread count.
//
// Cost per step: O(Σ_i n_i · K_i) for the allocations (K_i = #{j : ω_j > u_i}) plus
// O(k* V) for the atoms; memory O(N + k* V).
//
// Example:
//   DpMixtureOptions options;  // a = 0.5, α ~ Gamma(1, 1), 20 initial components
//   SGMCMC_ASSIGN_OR_RETURN(auto gibbs, DpSliceGibbs::Create(&corpus, options));
//   for (int t = 0; t < 100; ++t) gibbs->Step();
//   std::cout << gibbs->num_occupied() << " clusters, alpha " << gibbs->alpha() << "\n";
#ifndef SGMCMC_MODELS_DP_MIXTURE_H_
#define SGMCMC_MODELS_DP_MIXTURE_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "data/corpus.h"
#include "models/dp/mixture_state.pb.h"
#include "parallel/thread_pool.h"
#include "rng/engine.h"

namespace sgmcmc::models {

// The model's hyperparameters and the start of a chain, shared by the exact and the
// stochastic slice samplers.
struct DpMixtureOptions {
  // Symmetric Dirichlet concentration a of the atoms θ_j; finite, > 0. Default 0.5 (Baker et
  // al. 2018 Table 3, SCIR and Gibbs).
  double atom_concentration = 0.5;
  // Gamma(shape b1, rate b2) prior of the DP concentration α; each finite, > 0. Default
  // Gamma(1, 1) (the paper's "uninformative gamma prior" gives no values).
  double alpha_shape = 1.0;
  double alpha_rate = 1.0;
  // Whether α is sampled (step 3) or held at initial_alpha. Default true.
  bool sample_alpha = true;
  // α at the start; finite, > 0. Default 1.
  double initial_alpha = 1.0;
  // Components the points are spread over, uniformly at random, at the start; in [1, 2^24).
  // Default 20 (Baker et al. 2018 Table 3, K for SCIR).
  int initial_components = 20;
  // Key of every random stream of the run. Default 1.
  uint64_t seed = 1;

  absl::Status Validate() const;
};

// Stream ids under the run's seed (top bytes 0xD1-0xD4, distinct from the simplex samplers'
// 0x5C and the LDA driver's 0x1D): bits 55..24 the step t (< 2^32), bits 23..0 the point or
// component (< 2^24).
inline constexpr uint64_t kDpPointStreamTag = 0xD1;
inline constexpr uint64_t kDpComponentStreamTag = 0xD2;
inline constexpr uint64_t kDpGlobalStreamTag = 0xD3;
inline constexpr uint64_t kDpMinibatchStreamTag = 0xD4;
// The stream (tag << 56) | (step << 24) | index; step < 2^32, index in [0, 2^24) (checked).
// Other DP samplers use tags 0xD5-0xD7 (models/dp/neal8.h, models/dp/parallel.h).
uint64_t DpTaggedStream(uint64_t tag, uint64_t step, int64_t index);
uint64_t DpPointStream(uint64_t step, int64_t point);
uint64_t DpComponentStream(uint64_t step, int64_t component);
uint64_t DpGlobalStream(uint64_t step);
uint64_t DpMinibatchStream(uint64_t step);

// One posterior draw of the mixing measure, what evaluation needs: weights ω_j (j < K, their
// sum < 1, the rest of the stick 1 − Σω belonging to components not instantiated) and the
// log atoms log θ_jw (K x V row-major).
struct DpMixtureDraw {
  double alpha = 0;
  double log_leftover = 0;  // log(1 − Σ_j ω_j)
  int vocabulary_size = 0;
  std::vector<double> weights;
  std::vector<double> log_atoms;
  int num_components() const { return static_cast<int>(weights.size()); }
};

// A stick break v ~ Beta(a, b) as log v and log(1 − v), from two log-gamma draws (both finite
// and accurate however close v is to 0 or 1). a, b finite and > 0.
struct LogStickBreak {
  double log_v;
  double log1m_v;
};
LogStickBreak SampleLogStickBreak(rng::Engine& engine, double a, double b);

// ω_j = v_j Π_{l<j} (1 − v_l) from log v and log(1 − v) (same sizes as `weights`); returns
// log(1 − Σ_j ω_j) = Σ_j log(1 − v_j), the log of the stick left over.
double StickBreakingWeights(absl::Span<const double> log_v, absl::Span<const double> log1m_v,
                            absl::Span<double> weights);

// Walker's slice extension (step 4 below): appends stick breaks v ~ Beta(1, α) to log_v,
// log1m_v and weights (ω = v · leftover) until the leftover stick is below the slice,
// log(1 − Σ ω) < log_u_min; returns the new log leftover. CHECK-fails past 2^24 components.
double ExtendSticksBelowSlice(rng::Engine& engine, double alpha, double log_u_min,
                              double log_leftover, std::vector<double>& log_v,
                              std::vector<double>& log1m_v, std::vector<double>& weights);

// A draw of α | v ~ Gamma(shape + |v|, rate − Σ_j log(1 − v_j)) (Baker et al. 2018 D.3).
// `log1m_v` holds log(1 − v_j) (each <= 0, finite).
double SampleAlphaGivenSticks(rng::Engine& engine, double shape, double rate,
                              absl::Span<const double> log1m_v);

// Σ_w x_w log θ_w of a bag of tokens (word ids; repeated ids are counts) under the row
// `log_theta` (size V): the log likelihood up to the multinomial coefficient.
double BagLogLikelihood(absl::Span<const int32_t> tokens, const double* log_theta);

// A draw of z | u, ω, θ, x ∝ 1(ω_j > u) Π_w θ_jw^{x_w} over the components j < K (step 6):
// `weights` (K), `log_atoms` (K x V), `scratch` (>= K entries). Some ω_j > u is required
// (checked).
int SampleSliceAllocation(rng::Engine& engine, absl::Span<const int32_t> tokens, double u,
                          absl::Span<const double> weights, absl::Span<const double> log_atoms,
                          int vocabulary_size, absl::Span<double> scratch);

// log_theta (V) ← a draw of log Dir(a + counts), counts (V) each >= 0, a > 0.
void SampleLogDirichletRow(rng::Engine& engine, double a, absl::Span<const double> counts,
                           absl::Span<double> log_theta);

// Counters of a run, for logs and the tool's trace.
struct DpSliceSummary {
  int64_t steps = 0;
  int num_components = 0;  // k* of the last step (instantiated components)
  int num_occupied = 0;    // components with at least one point
  int max_label = 0;       // Z*: 1 + the largest allocation
  double alpha = 0;
};

// What both DP slice samplers (DpSliceGibbs here, DpStochasticSlice in
// models/dp/stochastic_slice.h) carry: the chain (steps, α, allocations, component sizes), the
// draw of the last step (sticks, weights, atoms) and the read-only views of them.
class DpSliceChain {
 public:
  int64_t steps() const { return steps_; }
  double alpha() const { return alpha_; }
  // Instantiated components k* and their weights/atoms of the last step (empty before it).
  int num_components() const { return static_cast<int>(weights_.size()); }
  absl::Span<const double> weights() const { return weights_; }
  absl::Span<const double> log_atoms() const { return log_atoms_; }
  // Allocations z_i and the number of points per component (size >= num_components()).
  absl::Span<const int32_t> allocations() const { return z_; }
  absl::Span<const int64_t> component_sizes() const { return sizes_; }
  int num_occupied() const;
  DpSliceSummary Summary() const;
  // The current (ω, θ, α) into `draw` (reusing its capacity).
  void CurrentDraw(DpMixtureDraw& draw) const;

 protected:
  // `pool` may be null (one thread); z_ gets `num_points` entries, sizes_ none.
  DpSliceChain(parallel::ThreadPool* pool, int vocabulary_size, double alpha,
               int64_t num_points);
  ~DpSliceChain() = default;

  // fn(begin, end, thread) over contiguous chunks of [0, n), on the pool if there is one.
  void ForChunks(int64_t n, absl::FunctionRef<void(int64_t, int64_t, int)> fn);
  // Z*: 1 + the largest component with points (0 if none).
  int MaxLabel() const;
  // Empties the draw (sticks, weights, atoms; log_leftover_ = 0), as after RestoreState.
  void ClearDraw();

  parallel::ThreadPool* pool_;
  int vocabulary_size_;
  int64_t steps_ = 0;
  double alpha_;
  std::vector<int32_t> z_;
  std::vector<int64_t> sizes_;      // per component
  std::vector<double> log_v_;       // log v_j, k*
  std::vector<double> log1m_v_;     // log(1 − v_j), k*
  double log_leftover_ = 0;         // log(1 − Σ_{j<k*} ω_j)
  std::vector<double> weights_;     // ω, k*
  std::vector<double> log_atoms_;   // k* x V
  std::vector<std::vector<double>> scratch_;  // per thread
};

class DpSliceGibbs : public DpSliceChain {

 public:
  // `corpus` (the users, at least one; a vocabulary of >= 2 words; empty users are allowed) and
  // `pool` (may be null: one thread) must outlive the sampler. InvalidArgument naming the
  // field or the empty user otherwise. Allocations start uniform over initial_components.
  static absl::StatusOr<std::unique_ptr<DpSliceGibbs>> Create(const data::Corpus* corpus,
                                                              const DpMixtureOptions& options,
                                                              parallel::ThreadPool* pool = nullptr);

  // One sweep of the cycle in the header comment.
  void Step();

  // steps(), alpha(), the draw, allocations() (in [0, num_components())), component_sizes(),
  // Summary() and CurrentDraw() come from DpSliceChain.

  // Checkpoint (models/dp/mixture_state.proto): what a step carries to the next, (steps, α,
  // z); restoring it into a sampler created with the same corpus and options continues the
  // run bit-identically.
  DpSliceGibbsState SaveState() const;
  // Replaces the state; the draw (weights, atoms) is empty until the next Step.
  // InvalidArgument, naming the field, for a wrong number of allocations, a negative or
  // >= 2^24 allocation, α not finite and > 0, or steps outside [0, 2^32).
  absl::Status RestoreState(const DpSliceGibbsState& state);

 private:
  DpSliceGibbs(const data::Corpus* corpus, const DpMixtureOptions& options,
               parallel::ThreadPool* pool);
  void CountSizes(int num_components);

  const data::Corpus* corpus_;
  DpMixtureOptions options_;
  std::vector<double> u_;
  std::vector<double> word_counts_;  // scratch, k* x V
};

}  // namespace sgmcmc::models

#endif  // SGMCMC_MODELS_DP_MIXTURE_H_
