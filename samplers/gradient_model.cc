#include "samplers/gradient_model.h"

#include "base/check.h"

namespace sgmcmc::samplers {

void StochasticPotentialGradient(const GradientModel& model, absl::Span<const double> theta,
                                 absl::Span<const int64_t> batch, absl::Span<double> grad_u) {
  SGMCMC_DCHECK(!batch.empty()) << "StochasticPotentialGradient: batch must not be empty";
  SGMCMC_DCHECK_EQ(theta.size(), grad_u.size());
  model.PriorPotentialGradient(theta, grad_u);
  const double scale = static_cast<double>(model.num_items()) / static_cast<double>(batch.size());
  model.AddLikelihoodPotentialGradient(theta, batch, scale, grad_u);
}

}  // namespace sgmcmc::samplers
