#include "samplers/sgnht.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "rng/normal.h"

namespace sgmcmc::samplers {

absl::Status SgnhtOptions::Validate(int64_t num_items) const {
  absl::Status status = chain.Validate(num_items);
  if (!status.ok()) return status;
  if (!(std::isfinite(diffusion) && diffusion > 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("SgnhtOptions.diffusion must be finite and > 0, got ", diffusion));
  }
  if (!std::isfinite(initial_thermostat)) {
    return absl::InvalidArgumentError(
        absl::StrCat("SgnhtOptions.initial_thermostat must be finite, got ", initial_thermostat));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<Sgnht>> Sgnht::Create(const GradientModel& model,
                                                     absl::Span<const double> initial_theta,
                                                     const SgnhtOptions& options) {
  absl::Status status = ValidateChain("Sgnht", model, initial_theta, options.chain);
  if (status.ok()) status = options.Validate(model.num_items());
  if (!status.ok()) return status;
  return std::unique_ptr<Sgnht>(new Sgnht(model, initial_theta, options));
}

Sgnht::Sgnht(const GradientModel& model, absl::Span<const double> initial_theta,
             const SgnhtOptions& options)
    : EuclideanSampler(model, initial_theta, options.chain),
      diffusion_(options.diffusion),
      thermostat_(options.initial_thermostat),
      momentum_(initial_theta.size()),
      grad_(initial_theta.size()) {
  rng::FillNormal(engine(), absl::MakeSpan(momentum_));
}

void Sgnht::Step() {
  const double h = BeginIteration();
  std::vector<double>& theta = mutable_theta();
  StochasticPotentialGradient(model(), theta, DrawMinibatch(), absl::MakeSpan(grad_));
  const double noise_scale = std::sqrt(2 * diffusion_ * h);
  const double keep = 1 - h * thermostat_;
  rng::Engine& rng = engine();
  const size_t d = theta.size();
  double kinetic = 0;  // p'p
  for (size_t j = 0; j < d; ++j) {
    const double p = keep * momentum_[j] - h * grad_[j] + noise_scale * rng::NormalSample(rng);
    momentum_[j] = p;
    theta[j] += h * p;
    kinetic += p * p;
  }
  thermostat_ += (kinetic / static_cast<double>(d) - 1) * h;
  EndIteration();
}

void Sgnht::SaveExtra(SamplerState& state) const {
  state.mutable_momentum()->Add(momentum_.begin(), momentum_.end());
  state.set_thermostat(thermostat_);
}

absl::Status Sgnht::RestoreExtra(const SamplerState& state) {
  absl::Status status = CheckLength(state.momentum_size(), "momentum");
  if (status.ok()) status = CheckFinite(state.momentum(), "momentum");
  if (!status.ok()) return status;
  if (!std::isfinite(state.thermostat())) {
    return absl::InvalidArgumentError(
        absl::StrCat("SamplerState.thermostat must be finite, got ", state.thermostat()));
  }
  momentum_.assign(state.momentum().begin(), state.momentum().end());
  thermostat_ = state.thermostat();
  return absl::OkStatus();
}

}  // namespace sgmcmc::samplers
