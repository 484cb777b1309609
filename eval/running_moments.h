// RunningMoments: one-pass (streaming) weighted mean and covariance of vector draws, the
// posterior summaries of a chain, by West's weighted form of Welford's update (West 1979,
// "Updating mean and variance estimates: an improved method", CACM 22(9)):
//   W += w;   delta = x - mean;   mean += (w / W) delta;   C += w delta (x - mean)'.
// With unit weights mean() is the sample mean; with step-size weights w_t = eps_t it is the
// estimator of the HAMCMC paper (Simsekli et al. 2016), eq. 12. covariance() is
// C / W = sum_t w_t (x_t - mean)(x_t - mean)' / sum_t w_t (the same estimator applied to
// the centred outer product; for unit weights multiply by n/(n-1) for the unbiased one).
//
// Cost: Add is O(D) without covariance, O(D^2) with it; memory O(D) or O(D^2).
//
// Example:
//   RunningMoments moments(/*dimension=*/2, /*track_covariance=*/true);
//   for (...) { sampler->Step(); moments.Add(sampler->theta()); }
//   double error = SquaredError(moments.mean(), exact_mean);
#ifndef SGMCMC_EVAL_RUNNING_MOMENTS_H_
#define SGMCMC_EVAL_RUNNING_MOMENTS_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"

namespace sgmcmc::eval {

class RunningMoments {
 public:
  // dimension >= 1. Without track_covariance only the mean is kept (O(D) memory), which is
  // what a D = 10^6 chain can afford.
  RunningMoments(int dimension, bool track_covariance);

  // Adds a draw of length D with weight w > 0 (finite); both checked.
  void Add(absl::Span<const double> x, double weight = 1.0);

  int dimension() const { return dimension_; }
  int64_t count() const { return count_; }
  double total_weight() const { return total_weight_; }
  bool track_covariance() const { return track_covariance_; }

  // Weighted mean (zeros before the first Add).
  absl::Span<const double> mean() const { return mean_; }
  // Weighted covariance C / W, row-major D x D; requires track_covariance and count() >= 1.
  std::vector<double> covariance() const;
  // Entry (i, j) of covariance().
  double covariance(int i, int j) const;

 private:
  int dimension_;
  bool track_covariance_;
  int64_t count_ = 0;
  double total_weight_ = 0;
  std::vector<double> mean_;
  std::vector<double> delta_;
  std::vector<double> comoment_;  // C, row-major, upper triangle kept current
};

}  // namespace sgmcmc::eval

#endif  // SGMCMC_EVAL_RUNNING_MOMENTS_H_
