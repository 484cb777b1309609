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
// options c and beta (statistic ignored; options assumed valid).
double SteinKernel(absl::Span<const double> x, absl::Span<const double> score_x,
                   absl::Span<const double> y, absl::Span<const double> score_y,
                   const KernelSteinOptions& options);

// V or U statistic (options.statistic) of n = draws.size() / dimension draws. `draws` and
// `scores` are n x dimension, row-major; `weights` is empty (uniform) or has n entries.
// InvalidArgument (naming the argument and index) for invalid options, dimension < 1, sizes
// that disagree, n < 1 (n < 2 for U), a non-finite draw or score, a negative or non-finite
// weight, or weights whose sum (for U, whose off-diagonal sum) is 0.
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
