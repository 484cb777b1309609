// Test helper: the exact posterior over the partitions of a tiny data set (N <= 8) under a
// DP mixture of multinomials with a Dirichlet base (or any model given its clusters' marginal
// likelihoods) (models/dp/component_model.h), by
// enumeration, to check the samplers of models/dp/neal8.h and models/dp/parallel.h.
//
//   p(partition | x, α) ∝ α^K Π_k (n_k − 1)! Π_k m(x_{c_k})      (α fixed), or
//   p(partition | x)    ∝ ∫ α^K Γ(α) / Γ(α + N) Gamma(α; shape, rate) dα · Π_k (n_k − 1)! m(x_{c_k})
// (α ~ Gamma, integrated numerically: trapezoid rule in log α over [1e-6, 1e4], 20,000 nodes),
// m the cluster's Dirichlet-multinomial marginal (Antoniak 1974; Neal 2000 eq. 3.7).
// Partitions are indexed as restricted growth strings (point 0 in block 0, each next point in
// an earlier block or the next new one), in lexicographic order; Bell(N) of them.
//
// Cost: O(Bell(N) N D) to build (Bell(6) = 203).
//
// Example:
//   PartitionPosterior exact(model, data, /*alpha=*/1.0);
//   counts[exact.Index(sampler.allocations())] += 1;
//   double tv = TotalVariation(exact.probabilities(), Normalised(counts));
#ifndef SGMCMC_MODELS_DP_PARTITION_TESTING_H_
#define SGMCMC_MODELS_DP_PARTITION_TESTING_H_

#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "absl/types/span.h"
#include "models/dp/component_model.h"

namespace sgmcmc::models {

class PartitionPosterior {
 public:
  // α fixed (> 0).
  PartitionPosterior(const MultinomialDirichletModel& model, const CountMatrix& data,
                     double alpha);
  // α ~ Gamma(shape, rate) integrated out.
  PartitionPosterior(const MultinomialDirichletModel& model, const CountMatrix& data,
                     double alpha_shape, double alpha_rate);

  // α fixed (> 0), any model: log_cluster_marginal(stats) is log ∫ Π_{i in c} f(x_i | θ) dH(θ)
  // up to terms of the x_i alone, from a cluster's summary statistics (model.AccumulateStats);
  // e.g. by quadrature for a non-conjugate model.
  PartitionPosterior(const DpComponentModel& model, const CountMatrix& data, double alpha,
                     const std::function<double(const double* stats)>& log_cluster_marginal);

  int num_partitions() const { return static_cast<int>(partitions_.size()); }
  absl::Span<const double> probabilities() const { return probabilities_; }
  // The index of the partition of `labels` (any integers; equal labels share a block).
  int Index(absl::Span<const int32_t> labels) const;

 private:
  void Build(const DpComponentModel& model, const CountMatrix& data,
             const std::vector<double>& log_prior_of_k,
             const std::function<double(const double* stats)>& log_cluster_marginal);

  std::vector<std::vector<int>> partitions_;
  std::map<std::vector<int>, int> index_;
  std::vector<double> probabilities_;
};

// ½ Σ |p_j − q_j| (same sizes).
double TotalVariation(absl::Span<const double> p, absl::Span<const double> q);

// counts / Σ counts.
std::vector<double> Normalised(absl::Span<const double> counts);

// The derived tolerance for the TV between p and the empirical distribution of S independent
// draws from it: E[TV] <= ½ Σ_j sqrt(p_j (1 − p_j) / S) (Jensen per cell), plus a margin t
// with P(TV − E[TV] > t) <= exp(−2 S t²) (McDiarmid: one draw moves TV by <= 1/S). With
// t = sqrt(log(1 / false_failure) / (2 S)) the test fails wrongly with probability <=
// false_failure.
double TotalVariationTolerance(absl::Span<const double> p, int64_t draws, double false_failure);

}  // namespace sgmcmc::models

#endif  // SGMCMC_MODELS_DP_PARTITION_TESTING_H_
