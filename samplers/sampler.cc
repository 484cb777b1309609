#include "samplers/sampler.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "base/check.h"

namespace sgmcmc::samplers {

absl::Status ChainOptions::Validate(int64_t num_items) const {
  absl::Status status = step_size.Validate();
  if (!status.ok()) return status;
  if (batch_size < 1 || batch_size > num_items) {
    return absl::InvalidArgumentError(absl::StrCat(
        "ChainOptions.batch_size must be in [1, N = ", num_items, "], got ", batch_size));
  }
  return absl::OkStatus();
}

EuclideanSampler::EuclideanSampler(const GradientModel& model,
                                   absl::Span<const double> initial_theta,
                                   const ChainOptions& options)
    : model_(model),
      engine_(options.seed, options.stream),
      minibatch_(Minibatch::Create(model.num_items(), options.batch_size).value()),
      step_size_(StepSize::Create(options.step_size).value()),
      theta_(initial_theta.begin(), initial_theta.end()) {}

absl::Status EuclideanSampler::ValidateChain(absl::string_view sampler_name,
                                             const GradientModel& model,
                                             absl::Span<const double> initial_theta,
                                             const ChainOptions& options) {
  if (model.dimension() < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat(sampler_name, ": model dimension must be >= 1, got ", model.dimension()));
  }
  if (initial_theta.size() != static_cast<size_t>(model.dimension())) {
    return absl::InvalidArgumentError(
        absl::StrCat(sampler_name, ": initial_theta has length ", initial_theta.size(),
                     " but the model has dimension ", model.dimension()));
  }
  for (size_t j = 0; j < initial_theta.size(); ++j) {
    if (!std::isfinite(initial_theta[j])) {
      return absl::InvalidArgumentError(absl::StrCat(sampler_name, ": initial_theta[", j,
                                                     "] must be finite, got ", initial_theta[j]));
    }
  }
  absl::Status status = options.Validate(model.num_items());
  if (!status.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(sampler_name, ": ", status.message()));
  }
  return absl::OkStatus();
}

double EuclideanSampler::BeginIteration() {
  last_step_size_ = step_size_(iteration_);
  return last_step_size_;
}

SamplerState EuclideanSampler::SaveState() const {
  SamplerState state;
  state.set_sampler(std::string(name()));
  state.set_dimension(dimension());
  state.set_iteration(iteration_);
  RngState& rng = *state.mutable_rng();
  rng.set_seed(engine_.seed());
  rng.set_stream(engine_.stream());
  rng.set_position(engine_.position());
  state.mutable_theta()->Add(theta_.begin(), theta_.end());
  state.set_last_step_size(last_step_size_);
  SaveExtra(state);
  return state;
}

absl::Status EuclideanSampler::CheckLength(int size, absl::string_view field) const {
  if (size == dimension()) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("SamplerState.", field, " has length ", size, ", expected ", dimension()));
}

absl::Status EuclideanSampler::CheckFinite(absl::Span<const double> values,
                                           absl::string_view field) {
  for (size_t j = 0; j < values.size(); ++j) {
    if (!std::isfinite(values[j])) {
      return absl::InvalidArgumentError(
          absl::StrCat("SamplerState.", field, "[", j, "] must be finite, got ", values[j]));
    }
  }
  return absl::OkStatus();
}

absl::Status EuclideanSampler::RestoreState(const SamplerState& state) {
  if (state.sampler() != name()) {
    return absl::InvalidArgumentError(absl::StrCat("SamplerState.sampler is \"", state.sampler(),
                                                   "\", expected \"", name(), "\""));
  }
  if (state.dimension() != dimension()) {
    return absl::InvalidArgumentError(
        absl::StrCat("SamplerState.dimension is ", state.dimension(), ", expected ", dimension()));
  }
  if (state.iteration() < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("SamplerState.iteration must be >= 0, got ", state.iteration()));
  }
  absl::Status status = CheckLength(state.theta_size(), "theta");
  if (status.ok()) status = CheckFinite(state.theta(), "theta");
  if (!status.ok()) return status;
  if (!(std::isfinite(state.last_step_size()) && state.last_step_size() >= 0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "SamplerState.last_step_size must be finite and >= 0, got ", state.last_step_size()));
  }
  // RestoreExtra validates its own fields before writing any, so a failed restore leaves
  // the sampler unchanged.
  status = RestoreExtra(state);
  if (!status.ok()) return status;
  theta_.assign(state.theta().begin(), state.theta().end());
  iteration_ = state.iteration();
  last_step_size_ = state.last_step_size();
  engine_ = rng::Engine(state.rng().seed(), state.rng().stream());
  engine_.Seek(state.rng().position());
  return absl::OkStatus();
}

}  // namespace sgmcmc::samplers
