// Elliptical slice sampling (Murray, Adams & MacKay 2010, "Elliptical slice sampling",
// AISTATS, Fig. 2) for a target p(x) ∝ L(x) N(x; μ, Σ) on R^D, with the Gaussian prior given
// by a low-rank-plus-diagonal factor Σ = F Fᵀ + diag(s²) (F is D × r, s ≥ 0 elementwise) and
// the log-likelihood log L an arbitrary callback. Used for the atoms and loadings of the
// low-rank logistic-normal base measure of Zhang, Williamson & Perez-Cruz §4.3 (eq. 9:
// "For posterior inference of μ_k and Λ_r, we use the elliptical slice sampler").
//
// One step from x (Murray et al. Fig. 2):
//   1. ν ~ N(0, Σ):  ν = F z + s ∘ e, z ~ N(0, I_r), e ~ N(0, I_D);
//   2. log y = log L(x) + log u, u ~ U(0, 1);
//   3. θ ~ U(0, 2π), bracket [θ_min, θ_max] = [θ − 2π, θ];
//   4. x' = (x − μ) cos θ + ν sin θ + μ; if log L(x') > log y return x';
//   5. else shrink: θ < 0 ? θ_min = θ : θ_max = θ; θ ~ U(θ_min, θ_max); go to 4.
// The kernel leaves p invariant exactly (it is a slice sampler on the ellipse through x − μ
// and ν, reversible with respect to p) and has no tuning parameter; it always moves unless
// the bracket collapses. log L may return −∞ (outside a support); it must not return NaN or
// +∞ (checked), and log L(x) at the start must be finite (checked).
//
// The bracket collapses (θ_max − θ_min < ShrinkOptions::min_bracket) only when L is
// discontinuous at x or log L is so large in magnitude that rounding of x' near θ = 0 moves it
// below log y; the step then returns x unchanged and reports it (collapsed = true), the limit
// of the shrinking procedure, which keeps p invariant.
//
// Random numbers, in this order, all from the engine passed in: r normals (z), D normals (e),
// one uniform (u), one uniform per proposal (θ). A step is a deterministic function of the
// engine's position, so chains are bit-identical for a seed and stream.
//
// Cost per step: O(D r) for ν, O(D) per proposal plus one log L evaluation per proposal
// (about 2-5 proposals for a well-conditioned target; the count is returned). Memory O(D + r)
// in the sampler's reusable buffers; no allocation per step after the first.
//
// Example:
//   EllipticalSlice slice;                         // reusable buffers
//   LowRankGaussianView prior{mean, factor, rank, diagonal_sd};
//   auto log_lik = [&](absl::Span<const double> x) { return model.LogLikelihood(x); };
//   double ll = log_lik(x);
//   for (int t = 0; t < 1000; ++t) ll = slice.Step(prior, log_lik, ll, absl::MakeSpan(x),
//                                                   engine).log_likelihood;
#ifndef SGMCMC_SAMPLERS_ELLIPTICAL_SLICE_H_
#define SGMCMC_SAMPLERS_ELLIPTICAL_SLICE_H_

#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/types/span.h"
#include "rng/engine.h"

namespace sgmcmc::samplers {

// A Gaussian N(mean, F Fᵀ + diag(diagonal_sd²)) on R^D, viewing caller-owned storage.
// Requirements (checked by Step): diagonal_sd.size() = D; mean empty (zero mean) or size D;
// factor row-major D × rank (factor[d * rank + j] = F_dj), size D * rank; rank >= 0;
// diagonal_sd finite and >= 0. Σ may be singular (zero diagonal): the chain then keeps
// x − mean in the column space of F (plus the directions with s_d > 0).
struct LowRankGaussianView {
  absl::Span<const double> mean;
  absl::Span<const double> factor;
  int rank = 0;
  absl::Span<const double> diagonal_sd;

  int dimension() const { return static_cast<int>(diagonal_sd.size()); }
};

// Draws ν ~ N(0, F Fᵀ + diag(s²)) into `out` (size D): r normals for z, then D for e.
// `z` is scratch of size rank.
void LowRankGaussianNoise(const LowRankGaussianView& prior, rng::Engine& engine,
                          absl::Span<double> z, absl::Span<double> out);

struct EllipticalSliceOptions {
  // Smallest bracket width θ_max − θ_min before the step gives up and keeps x; in (0, 2π).
  // Default 1e-10 (about 30 halvings; a continuous L accepts long before).
  double min_bracket = 1e-10;
};

// What a step did.
struct EllipticalSliceResult {
  double log_likelihood = 0;  // log L at the returned x
  int proposals = 0;          // log L evaluations made (>= 1)
  bool collapsed = false;     // the bracket collapsed and x was kept
};

// The log-likelihood callback: log L(x) for x of size D; may be −∞, never NaN or +∞.
using LogLikelihoodRef = absl::FunctionRef<double(absl::Span<const double>)>;

// Elliptical slice sampler with reusable buffers (one per thread; not thread-safe).
class EllipticalSlice {
 public:
  explicit EllipticalSlice(EllipticalSliceOptions options = {});

  // One step from x (in place) under `prior` and log L; `log_likelihood_x` = log L(x),
  // finite. Returns log L at the new x (no extra evaluation needed by the caller).
  EllipticalSliceResult Step(const LowRankGaussianView& prior, LogLikelihoodRef log_likelihood,
                             double log_likelihood_x, absl::Span<double> x,
                             rng::Engine& engine);

  // The same step with the auxiliary prior draw ν ~ N(0, Σ) supplied by the caller (for
  // priors not of the low-rank form); `mean` empty means zero. Consumes u and the θs only.
  EllipticalSliceResult StepWithNoise(absl::Span<const double> mean,
                                      absl::Span<const double> noise,
                                      LogLikelihoodRef log_likelihood, double log_likelihood_x,
                                      absl::Span<double> x, rng::Engine& engine);

 private:
  EllipticalSliceOptions options_;
  std::vector<double> z_;
  std::vector<double> noise_;
  std::vector<double> proposal_;
};

}  // namespace sgmcmc::samplers

#endif  // SGMCMC_SAMPLERS_ELLIPTICAL_SLICE_H_
