// Kolmogorov-Smirnov distance of simplex samples to a Dirichlet distribution, through the
// Rosenblatt transform (Baker et al. 2018, Appendix E.2; Rosenblatt 1952).
//
// For x ~ Dir(α_1..α_K), the conditional of x_k given x_1..x_{k−1} is x_k = r_k B_k with
// r_k = 1 − Σ_{j<k} x_j and B_k ~ Beta(α_k, Σ_{j>k} α_j), so
//   u_k = I_{x_k / r_k}(α_k, Σ_{j>k} α_j),   k = 1..K−1,
// are independent Uniform(0, 1) variables (x_K is determined). For M samples the distance is
//   d_KS = (1/(K−1)) Σ_{k<K} sup_u |F̂_k(u) − u|,
// F̂_k the empirical CDF of the M values u_k. (The paper writes 1/K Σ_{j=1}^K; the K-th
// Rosenblatt coordinate is degenerate, so we average over the K−1 informative ones.)
//
// Robustness: the remaining mass r_k is computed as the suffix sum Σ_{j>=k} x_j of the sample
// itself, not as 1 − Σ_{j<k} x_j: the latter is 0 or negative by rounding once the earlier
// components sum to 1 (the authors' code divides by zero there). The complement
// 1 − x_k/r_k = Σ_{j>k} x_j / r_k is also formed as a quotient, and u_k is evaluated as
// 1 − I_{1−x_k/r_k}(Σ_{j>k} α_j, α_k) when the ratio exceeds 1/2: a ratio within 1e-16 of 1
// (e.g. x_k/(x_k + x_{k+1}) with x_{k+1} ~ Gamma(0.01)) keeps its information. If the remaining
// components are all exactly zero (linear input below 1e-308, or −inf log input), the ratio
// 0/0 is taken as 0 — such a sample sits at the lower end of every remaining conditional and
// counts against the sampler that produced it. The log-space entry point forms the ratios
// from log x by log-sum-exp, so underflow never produces 0/0 there.
//
// Cost: O(M K) regularized incomplete beta evaluations (math::RegularizedIncompleteBeta)
// plus O(K M log M) for the sorts.
//
// Example:
//   // samples: M rows of K = 10 components, row-major; alpha: the exact posterior.
//   SGMCMC_ASSIGN_OR_RETURN(DirichletKsResult ks, DirichletKsDistance(samples, 10, alpha));
//   std::cout << ks.distance;
#ifndef SGMCMC_EVAL_KS_DIRICHLET_H_
#define SGMCMC_EVAL_KS_DIRICHLET_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace sgmcmc::eval {

struct DirichletKsResult {
  // sup |F̂_k − U| for k = 1..K−1 (index k−1).
  std::vector<double> per_component;
  // Their mean: d_KS.
  double distance = 0;
};

// `samples`: M >= 1 rows of `dimension` (K >= 2) components, row-major; entries finite and
// >= 0 with a positive row sum (rows need not be exactly normalised: each is divided by its
// sum). `alpha`: K concentrations, finite and > 0. InvalidArgument names the bad argument,
// sample row and component.
absl::StatusOr<DirichletKsResult> DirichletKsDistance(absl::Span<const double> samples,
                                                      int dimension,
                                                      absl::Span<const double> alpha);

// The same from log x (entries finite or −inf, at least one finite per row; rows are
// normalised in log space).
absl::StatusOr<DirichletKsResult> DirichletKsDistanceFromLog(absl::Span<const double> log_samples,
                                                             int dimension,
                                                             absl::Span<const double> alpha);

// The Rosenblatt transform u_1..u_{K−1} of one sample x (size K, validated by the caller as
// above) into `u` (size K − 1).
void DirichletRosenblatt(absl::Span<const double> x, absl::Span<const double> alpha,
                         absl::Span<double> u);

// sup_u |F̂(u) − u| of values in [0, 1] (sorts `values` in place). 0 for no values.
double KsDistanceToUniform(absl::Span<double> values);

}  // namespace sgmcmc::eval

#endif  // SGMCMC_EVAL_KS_DIRICHLET_H_
