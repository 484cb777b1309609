#include "eval/running_moments.h"

#include <cmath>
#include <utility>

#include "base/check.h"

namespace sgmcmc::eval {

RunningMoments::RunningMoments(int dimension, bool track_covariance)
    : dimension_(dimension),
      track_covariance_(track_covariance),
      mean_(dimension, 0.0),
      delta_(dimension, 0.0) {
  SGMCMC_CHECK(dimension >= 1) << "RunningMoments: dimension must be >= 1, got " << dimension;
  if (track_covariance) comoment_.assign(static_cast<size_t>(dimension) * dimension, 0.0);
}

void RunningMoments::Add(absl::Span<const double> x, double weight) {
  SGMCMC_CHECK(x.size() == static_cast<size_t>(dimension_))
      << "RunningMoments::Add: draw has length " << x.size() << ", expected " << dimension_;
  SGMCMC_CHECK(weight > 0 && std::isfinite(weight))
      << "RunningMoments::Add: weight must be finite and > 0, got " << weight;
  ++count_;
  total_weight_ += weight;
  const double ratio = weight / total_weight_;
  const int d = dimension_;
  for (int j = 0; j < d; ++j) {
    delta_[j] = x[j] - mean_[j];
    mean_[j] += ratio * delta_[j];
  }
  if (!track_covariance_) return;
  for (int i = 0; i < d; ++i) {
    const double wd = weight * delta_[i];
    double* row = comoment_.data() + static_cast<size_t>(i) * d;
    for (int j = i; j < d; ++j) row[j] += wd * (x[j] - mean_[j]);
  }
}

double RunningMoments::covariance(int i, int j) const {
  SGMCMC_CHECK(track_covariance_) << "RunningMoments::covariance: covariance not tracked";
  SGMCMC_CHECK(count_ >= 1) << "RunningMoments::covariance: no draws";
  SGMCMC_CHECK(i >= 0 && i < dimension_ && j >= 0 && j < dimension_)
      << "RunningMoments::covariance: index (" << i << ", " << j << ") out of range";
  if (i > j) std::swap(i, j);
  return comoment_[static_cast<size_t>(i) * dimension_ + j] / total_weight_;
}

std::vector<double> RunningMoments::covariance() const {
  std::vector<double> out(static_cast<size_t>(dimension_) * dimension_);
  for (int i = 0; i < dimension_; ++i) {
    for (int j = 0; j < dimension_; ++j)
      out[static_cast<size_t>(i) * dimension_ + j] = covariance(i, j);
  }
  return out;
}

}  // namespace sgmcmc::eval
