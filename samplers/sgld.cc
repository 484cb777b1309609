#include "samplers/sgld.h"

#include <cmath>

#include "rng/normal.h"

namespace sgmcmc::samplers {

absl::StatusOr<std::unique_ptr<Sgld>> Sgld::Create(const GradientModel& model,
                                                   absl::Span<const double> initial_theta,
                                                   const SgldOptions& options) {
  absl::Status status = ValidateChain("Sgld", model, initial_theta, options.chain);
  if (!status.ok()) return status;
  return std::unique_ptr<Sgld>(new Sgld(model, initial_theta, options));
}

Sgld::Sgld(const GradientModel& model, absl::Span<const double> initial_theta,
           const SgldOptions& options)
    : EuclideanSampler(model, initial_theta, options.chain), grad_(initial_theta.size()) {}

void Sgld::Step() {
  const double h = BeginIteration();
  std::vector<double>& theta = mutable_theta();
  StochasticPotentialGradient(model(), theta, DrawMinibatch(), absl::MakeSpan(grad_));
  const double noise_scale = std::sqrt(2 * h);
  rng::Engine& rng = engine();
  const size_t d = theta.size();
  for (size_t j = 0; j < d; ++j) {
    theta[j] += noise_scale * rng::NormalSample(rng) - h * grad_[j];
  }
  EndIteration();
}

}  // namespace sgmcmc::samplers
