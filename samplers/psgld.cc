#include "samplers/psgld.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "rng/normal.h"

namespace sgmcmc::samplers {

absl::Status PsgldOptions::Validate(int64_t num_items) const {
  absl::Status status = chain.Validate(num_items);
  if (!status.ok()) return status;
  if (!(alpha >= 0 && alpha < 1)) {
    return absl::InvalidArgumentError(
        absl::StrCat("PsgldOptions.alpha must be in [0, 1), got ", alpha));
  }
  if (!(std::isfinite(lambda) && lambda > 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("PsgldOptions.lambda must be finite and > 0, got ", lambda));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<Psgld>> Psgld::Create(const GradientModel& model,
                                                     absl::Span<const double> initial_theta,
                                                     const PsgldOptions& options) {
  absl::Status status = ValidateChain("Psgld", model, initial_theta, options.chain);
  if (status.ok()) status = options.Validate(model.num_items());
  if (!status.ok()) return status;
  return std::unique_ptr<Psgld>(new Psgld(model, initial_theta, options));
}

Psgld::Psgld(const GradientModel& model, absl::Span<const double> initial_theta,
             const PsgldOptions& options)
    : EuclideanSampler(model, initial_theta, options.chain),
      alpha_(options.alpha),
      lambda_(options.lambda),
      second_moment_(initial_theta.size(), 0.0),
      mean_grad_(initial_theta.size()),
      grad_(initial_theta.size()) {}

void Psgld::Step() {
  const double h = BeginIteration();
  std::vector<double>& theta = mutable_theta();
  const absl::Span<const int64_t> batch = DrawMinibatch();
  // One pass over the data gives g-bar; grad U~ = -grad log p(theta) - N g-bar.
  std::fill(mean_grad_.begin(), mean_grad_.end(), 0.0);
  model().AddLikelihoodPotentialGradient(theta, batch, -1.0 / static_cast<double>(batch.size()),
                                         absl::MakeSpan(mean_grad_));
  model().PriorPotentialGradient(theta, absl::MakeSpan(grad_));
  const double n_items = static_cast<double>(model().num_items());
  const double two_h = 2 * h;
  rng::Engine& rng = engine();
  const size_t d = theta.size();
  for (size_t j = 0; j < d; ++j) {
    const double g = mean_grad_[j];
    const double v = alpha_ * second_moment_[j] + (1 - alpha_) * g * g;
    second_moment_[j] = v;
    const double precondition = 1 / (lambda_ + std::sqrt(v));
    const double grad_u = grad_[j] - n_items * g;
    theta[j] +=
        std::sqrt(two_h * precondition) * rng::NormalSample(rng) - h * precondition * grad_u;
  }
  EndIteration();
}

void Psgld::SaveExtra(SamplerState& state) const {
  state.mutable_second_moment()->Add(second_moment_.begin(), second_moment_.end());
}

absl::Status Psgld::RestoreExtra(const SamplerState& state) {
  absl::Status status = CheckLength(state.second_moment_size(), "second_moment");
  if (!status.ok()) return status;
  for (double v : state.second_moment()) {
    if (!(v >= 0 && std::isfinite(v))) {
      return absl::InvalidArgumentError(
          absl::StrCat("SamplerState.second_moment must be finite and >= 0, got ", v));
    }
  }
  second_moment_.assign(state.second_moment().begin(), state.second_moment().end());
  return absl::OkStatus();
}

}  // namespace sgmcmc::samplers
