// Test helper: a second exact sampler for the DP mixture of multinomials of
// models/dp/mixture.h, to check the slice sampler against. Neal (2000), "Markov chain sampling
// methods for Dirichlet process mixture models", J. Comput. Graph. Stat. 9(2), Algorithm 3:
// θ and the weights integrated out (Dirichlet-multinomial conjugacy), each z_i drawn in turn
// from P(z_i = c | z_-i, x) ∝ m_c,-i p(x_i | x of cluster c) for an existing cluster c and
// ∝ α p(x_i) for a new one; α | k, N by Escobar & West (1995) §6 (auxiliary η ~ Beta(α+1, N),
// then a two-component gamma mixture), if options.sample_alpha.
//
// p(x_i | counts c, total C) = Π_{k=1..n_i} (a + c_{w_k} + #{l < k : w_l = w_k}) / (V a + C + k − 1)
// (the bag's tokens in order; the multinomial coefficient cancels in the ratios).
//
// Cost per sweep O(Σ_i n_i · K). Single-threaded, one engine; a test helper, not a product.
//
// Example:
//   CollapsedDpGibbs gibbs(&corpus, options);
//   for (int t = 0; t < 1000; ++t) gibbs.Sweep();
//   int k = gibbs.num_clusters();
#ifndef SGMCMC_MODELS_DP_COLLAPSED_GIBBS_TESTING_H_
#define SGMCMC_MODELS_DP_COLLAPSED_GIBBS_TESTING_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "data/corpus.h"
#include "models/dp/mixture.h"
#include "rng/engine.h"

namespace sgmcmc::models {

class CollapsedDpGibbs {
 public:
  // `options` valid (checked); `corpus` outlives the sampler. All points start in one cluster.
  CollapsedDpGibbs(const data::Corpus* corpus, const DpMixtureOptions& options);

  void Sweep();
  int num_clusters() const { return static_cast<int>(cluster_sizes_.size()); }
  double alpha() const { return alpha_; }
  absl::Span<const int32_t> allocations() const { return z_; }

 private:
  double LogPredictive(int point, const double* counts, double total) const;
  void Remove(int point);
  void Add(int point, int cluster);

  const data::Corpus* corpus_;
  DpMixtureOptions options_;
  rng::Engine engine_;
  double alpha_;
  int vocab_;
  std::vector<int32_t> z_;
  std::vector<int64_t> cluster_sizes_;
  std::vector<double> cluster_word_counts_;  // clusters x V
  std::vector<double> cluster_totals_;
  std::vector<double> log_weights_;
  std::vector<double> zeros_;
};

}  // namespace sgmcmc::models

#endif  // SGMCMC_MODELS_DP_COLLAPSED_GIBBS_TESTING_H_
