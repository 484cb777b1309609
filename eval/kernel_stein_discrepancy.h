// Kernel Stein discrepancy (KSD) of weighted draws on R^d against a target p known through
// its score s(x) = grad log p(x) at each draw, with the inverse multiquadric (IMQ) base kernel
//   k(x, y) = (c^2 + |x - y|^2)^beta,   c > 0, beta in (-1, 0)
// (Gorham & Mackey 2017, "Measuring Sample Quality with Kernels", ICML, Thm. 8: for these
// kernels the KSD detects non-convergence of the draws to any distantly dissipative p, and
// goes to 0 for draws that converge to p; their default is c = 1, beta = -1/2).
//
// The Langevin Stein kernel (Gorham & Mackey eq. 5; Liu, Lee & Jordan 2016, "A Kernelized
// Stein Discrepancy for Goodness-of-fit Tests", ICML, Thm. 3.6)
//   k0(x, y) = s(x)'s(y) k + s(x)'grad_y k + s(y)'grad_x k + tr(grad_x grad_y k)
// has, with u = x - y, r^2 = |u|^2, q = c^2 + r^2 and d the dimension,
//   grad_x k = 2 beta q^(beta-1) u = -grad_y k,
//   tr(grad_x grad_y k) = -2 beta d q^(beta-1) - 4 beta (beta-1) q^(beta-2) r^2,
// hence
//   k0(x, y) = s(x)'s(y) q^beta + 2 beta q^(beta-1) (s(y) - s(x))'u
//              - 2 beta d q^(beta-1) - 4 beta (beta-1) q^(beta-2) r^2.
// E_{x,y ~ p} k0(x, y) = 0, and KSD^2(q) = E_{x,y ~ q} k0(x, y) >= 0 for any law q.
//
// On the unit sphere S^(p-1) in R^p (options.sphere_dimension = p), or a product of m such
// spheres (draws of dimension m p, block b = coordinates [b p, (b + 1) p)), the target p has a
// density with respect to the uniform (surface) measure and `scores` hold the ambient gradient
// s of log p, of any smooth extension off the sphere (only its tangent part sigma = P s,
// P(x) = I - x x' per block, is used). The Langevin-Stein operator on a closed manifold
// (Xu & Matsuda 2020, "A Stein Goodness-of-fit Test for Directional Distributions", AISTATS;
// Barp et al. 2018, "A Riemann-Stein Kernel Method") is A_p f = div f + <grad log p, f> for
// tangent fields f, with E_p A_p f = integral div(p f) = 0 by the divergence theorem. Taking
// f = P g for g = (g_1..g_d) with every g_j in the RKHS of k on the ambient coordinates (k
// restricted to the sphere) and using div(P g) = tr(P grad g) - (p - 1) x'g on S^(p-1) gives
//   A_p g(x) = sum_j [(P(x) grad g_j(x))_j + b_j(x) g_j(x)],   b(x) = sigma(x) - (p - 1) x,
// and the sphere Stein kernel k0(x, y) = sum_j A_j^x A_j^y k(x, y):
//   k0 = b(x)'b(y) k + b(x)'P(y) grad_y k + b(y)'P(x) grad_x k + tr(P(x) grad_x grad_y k P(y)).
// With t = x'y per block, P(x) u = t x - y, P(y) u = x - t y, tr(P(x) P(y)) = p - 2 + t^2 and
// (P(x) u)'(P(y) u) = t (1 - t^2), summed over blocks:
//   k0 = B q^beta - 2 beta q^(beta-1) (C + T1) - 4 beta (beta-1) q^(beta-2) T2,
//   B  = sum [sigma(x)'sigma(y) - (p-1) (sigma(x)'y + sigma(y)'x) + (p-1)^2 t],
//   C  = sum [-2 (p-1) (1 - t^2) - t (sigma(x)'y + sigma(y)'x)],
//   T1 = sum (p - 2 + t^2),   T2 = sum t (1 - t^2),
// and E_{x ~ p} k0(x, y) = 0 for every y (k0(., y) = sum_j A_j^x of a smooth function), the
// identity the estimators below rely on. Same estimators, same cost order (O(d) per pair).
// The IMQ kernel restricted to the (compact) sphere is characteristic there, the condition
// under which Xu & Matsuda show KSD(q) = 0 only for q = p; tested in
// kernel_stein_discrepancy_sphere_test.cc (the closed form against the definition by finite
// differences, the Stein identity by quadrature, exact and biased vMF draws).
//
// Estimators of KSD^2 from draws x_1..x_n with weights w_i >= 0 (uniform by default):
//  - V-statistic (Gorham & Mackey's S(Q_n)^2): sum_{i,j} w_i w_j k0(x_i, x_j) / (sum w)^2.
//    >= 0; for exact iid draws n * V has mean E_p k0(x, x), so sqrt(V) shrinks like 1/sqrt(n).
//  - U-statistic: the same sum over i != j, divided by (sum w)^2 - sum w^2; unbiased for
//    iid draws (mean 0 under p), may be negative.
//  - Linear (Liu, Lee & Jordan 2016, Sec. 4.3): the weighted mean of k0(x_{2i-1}, x_{2i}) over
//    the floor(n/2) disjoint consecutive pairs, with its standard error; O(n d), for long
//    chains. Unbiased for iid draws, asymptotically normal.
// Draws from a Markov chain are correlated: the statistics still converge to KSD^2 of the
// chain's limit, but the 1/n rates and the linear statistic's standard error assume
// independence.
//
// Cost: V and U: n (n + 1) / 2 Stein-kernel evaluations of O(d) each; linear: n / 2, in two
// passes. No allocation. Measured on the shared test VM (//eval:kernel_stein_discrepancy_benchmark,
// -c opt): V ~5 ns per pair at d = 1-2, ~13 ns at d = 10, ~100 ns at d = 100 with the default
// beta = -1/2 (no pow); ~20 ns at d = 2 for other beta (pow). n = 4000 at d = 2: ~40 ms.
// Linear: ~15 ns per pair at d = 2 (input checks and two passes over memory).
//
// Example:
//   // draws and scores: n x d, row-major (scores[i * d + k] = d/dx_k log p at draw i).
//   absl::StatusOr<KsdEstimate> ksd = KernelSteinDiscrepancy(draws, scores, d, {}, {});
//   if (ksd.ok()) std::cout << "KSD = " << ksd->value() << "\n";
#ifndef SGMCMC_EVAL_KERNEL_STEIN_DISCREPANCY_H_
#define SGMCMC_EVAL_KERNEL_STEIN_DISCREPANCY_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace sgmcmc::eval {

// How far a sphere draw's squared norm may be from 1 (samplers renormalise to rounding).
inline constexpr double kSphereNormTolerance = 1e-6;

struct KernelSteinOptions {
  // c, the IMQ kernel's length scale; finite, > 0. Default 1 (Gorham & Mackey).
  double c = 1.0;
  // beta, the IMQ exponent; in (-1, 0). Default -1/2 (Gorham & Mackey).
  double beta = -0.5;
  enum class Statistic {
    kV,  // biased, >= 0: Gorham & Mackey's S(Q_n)^2 (default)
    kU,  // unbiased, may be negative
  };
  // Used by KernelSteinDiscrepancy (the linear statistic has its own function).
  Statistic statistic = Statistic::kV;
  // 0 (default): draws on R^d. p >= 2: every draw is a point of a product of unit spheres
  // S^(p-1), each block of p coordinates of squared norm 1 within kSphereNormTolerance, and
  // the sphere Stein kernel of the header is used; the dimension must be a multiple of p.
  int sphere_dimension = 0;

  // InvalidArgument naming the field if a value is out of range.
  absl::Status Validate() const;
};

struct KsdEstimate {
  // The estimate of KSD^2; negative values are possible for the U and linear statistics.
  double squared = 0;
  // Standard error of `squared` for the linear statistic, from its pair terms t_i with pair
  // weights v_i: sqrt(sum v_i^2 (t_i - squared)^2) / sum v_i (for uniform weights the
  // population standard deviation of the t_i over sqrt(pairs)); 0 for V and U.
  double standard_error = 0;
  // Number of distinct pairs (i, j) evaluated, diagonal included for V.
  int64_t num_pairs = 0;

  // KSD itself: sqrt(max(squared, 0)).
  double value() const;
};

// k0(x, y) for one pair: x, y, score_x, score_y of equal length d >= 1 (unchecked), with
// options c, beta and sphere_dimension (statistic ignored; options assumed valid; on spheres
// d a multiple of sphere_dimension and x, y unit per block, unchecked).
double SteinKernel(absl::Span<const double> x, absl::Span<const double> score_x,
                   absl::Span<const double> y, absl::Span<const double> score_y,
                   const KernelSteinOptions& options);

// V or U statistic (options.statistic) of n = draws.size() / dimension draws. `draws` and
// `scores` are n x dimension, row-major; `weights` is empty (uniform) or has n entries.
// InvalidArgument (naming the argument and index) for invalid options, dimension < 1, sizes
// that disagree, n < 1 (n < 2 for U), a non-finite draw or score, a negative or non-finite
// weight, or weights whose sum (for U, whose off-diagonal sum) is 0; on spheres also a
// dimension not a multiple of options.sphere_dimension or a draw block off the unit sphere.
absl::StatusOr<KsdEstimate> KernelSteinDiscrepancy(absl::Span<const double> draws,
                                                   absl::Span<const double> scores, int dimension,
                                                   absl::Span<const double> weights,
                                                   const KernelSteinOptions& options);

// Linear-time statistic over the pairs (draws 2i, 2i + 1), i < floor(n/2) (zero-based), each
// pair weighted by w_{2i} w_{2i+1}; an odd last draw is unused. Same argument checks, with
// n >= 2 and a nonzero pair-weight sum; options.statistic is ignored.
absl::StatusOr<KsdEstimate> LinearKernelSteinDiscrepancy(absl::Span<const double> draws,
                                                         absl::Span<const double> scores,
                                                         int dimension,
                                                         absl::Span<const double> weights,
                                                         const KernelSteinOptions& options);

}  // namespace sgmcmc::eval

#endif  // SGMCMC_EVAL_KERNEL_STEIN_DISCREPANCY_H_
