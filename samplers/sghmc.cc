#include "samplers/sghmc.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "rng/normal.h"

namespace sgmcmc::samplers {

absl::Status SghmcOptions::Validate(int64_t num_items) const {
  absl::Status status = chain.Validate(num_items);
  if (!status.ok()) return status;
  if (!(std::isfinite(friction) && friction > 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("SghmcOptions.friction must be finite and > 0, got ", friction));
  }
  if (!(gradient_noise >= 0 && gradient_noise <= friction)) {
    return absl::InvalidArgumentError(
        absl::StrCat("SghmcOptions.gradient_noise must be in [0, friction = ", friction, "], got ",
                     gradient_noise));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<Sghmc>> Sghmc::Create(const GradientModel& model,
                                                     absl::Span<const double> initial_theta,
                                                     const SghmcOptions& options) {
  absl::Status status = ValidateChain("Sghmc", model, initial_theta, options.chain);
  if (status.ok()) status = options.Validate(model.num_items());
  if (!status.ok()) return status;
  return std::unique_ptr<Sghmc>(new Sghmc(model, initial_theta, options));
}

Sghmc::Sghmc(const GradientModel& model, absl::Span<const double> initial_theta,
             const SghmcOptions& options)
    : EuclideanSampler(model, initial_theta, options.chain),
      friction_(options.friction),
      gradient_noise_(options.gradient_noise),
      momentum_(initial_theta.size()),
      grad_(initial_theta.size()) {
  rng::FillNormal(engine(), absl::MakeSpan(momentum_));
}

void Sghmc::Step() {
  const double h = BeginIteration();
  std::vector<double>& theta = mutable_theta();
  StochasticPotentialGradient(model(), theta, DrawMinibatch(), absl::MakeSpan(grad_));
  const double noise_scale = std::sqrt(2 * (friction_ - gradient_noise_) * h);
  const double keep = 1 - h * friction_;
  rng::Engine& rng = engine();
  const size_t d = theta.size();
  for (size_t j = 0; j < d; ++j) {
    const double p = keep * momentum_[j] - h * grad_[j] + noise_scale * rng::NormalSample(rng);
    momentum_[j] = p;
    theta[j] += h * p;
  }
  EndIteration();
}

void Sghmc::SaveExtra(SamplerState& state) const {
  state.mutable_momentum()->Add(momentum_.begin(), momentum_.end());
}

absl::Status Sghmc::RestoreExtra(const SamplerState& state) {
  absl::Status status = CheckLength(state.momentum_size(), "momentum");
  if (status.ok()) status = CheckFinite(state.momentum(), "momentum");
  if (!status.ok()) return status;
  momentum_.assign(state.momentum().begin(), state.momentum().end());
  return absl::OkStatus();
}

}  // namespace sgmcmc::samplers
