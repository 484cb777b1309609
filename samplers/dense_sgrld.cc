#include "samplers/dense_sgrld.h"

#include <cmath>

#include "base/check.h"
#include "rng/normal.h"

namespace sgmcmc::samplers {

absl::StatusOr<std::unique_ptr<DenseSgrld>> DenseSgrld::Create(
    const FisherModel& model, absl::Span<const double> initial_theta,
    const DenseSgrldOptions& options) {
  absl::Status status = ValidateChain("DenseSgrld", model, initial_theta, options.chain);
  if (!status.ok()) return status;
  return std::unique_ptr<DenseSgrld>(new DenseSgrld(model, initial_theta, options));
}

DenseSgrld::DenseSgrld(const FisherModel& model, absl::Span<const double> initial_theta,
                       const DenseSgrldOptions& options)
    : EuclideanSampler(model, initial_theta, options.chain),
      fisher_model_(model),
      fisher_(model.dimension(), model.dimension()),
      fisher_llt_(model.dimension()),
      metric_llt_(model.dimension()),
      grad_(model.dimension()),
      noise_(model.dimension()),
      step_(model.dimension()) {}

void DenseSgrld::Step() {
  const double h = BeginIteration();
  std::vector<double>& theta = mutable_theta();
  const int d = dimension();
  StochasticPotentialGradient(model(), theta, DrawMinibatch(), absl::MakeSpan(grad_.data(), d));
  // F is symmetric, so its row-major layout is also column-major.
  fisher_model_.ExpectedFisherInformation(theta, absl::MakeSpan(fisher_.data(), d * d));
  fisher_llt_.compute(fisher_);
  SGMCMC_CHECK(fisher_llt_.info() == Eigen::Success)
      << "DenseSgrld::Step: the expected Fisher information is not positive definite";
  fisher_.setIdentity();
  fisher_llt_.solveInPlace(fisher_);  // G = F^-1
  metric_llt_.compute(fisher_);
  SGMCMC_CHECK(metric_llt_.info() == Eigen::Success)
      << "DenseSgrld::Step: the inverse Fisher information is not positive definite";
  rng::FillNormal(engine(), absl::MakeSpan(noise_.data(), d));
  step_.noalias() = metric_llt_.matrixL() * noise_;  // L xi
  step_ *= std::sqrt(2 * h);
  step_.noalias() -= h * (fisher_.selfadjointView<Eigen::Lower>() * grad_);
  for (int j = 0; j < d; ++j) theta[j] += step_[j];
  EndIteration();
}

}  // namespace sgmcmc::samplers
