#include "samplers/sphere_sampler.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"

namespace sgmcmc::samplers {
namespace {

constexpr double kUnitTolerance = 1e-6;

absl::Status CheckFiniteValues(absl::Span<const double> values, absl::string_view field) {
  for (size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) {
      return absl::InvalidArgumentError(absl::StrCat("SphereSamplerState.", field, "[", i,
                                                     "] must be finite, got ", values[i]));
    }
  }
  return absl::OkStatus();
}

// Index of the first column of x (d×K, column-major values) whose norm is off 1 by more than
// kUnitTolerance, or -1.
int FirstNonUnitColumn(const Eigen::Ref<const Eigen::MatrixXd>& x) {
  for (int k = 0; k < x.cols(); ++k) {
    if (!(std::abs(x.col(k).norm() - 1.0) <= kUnitTolerance)) return k;
  }
  return -1;
}

}  // namespace

absl::Status GeodesicSamplerOptions::Validate(int64_t num_items) const {
  absl::Status status = chain.Validate(num_items);
  if (!status.ok()) return status;
  if (!(std::isfinite(friction) && friction > 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("GeodesicSamplerOptions.friction must be finite and > 0, got ", friction));
  }
  if (!(std::isfinite(gradient_noise) && gradient_noise >= 0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "GeodesicSamplerOptions.gradient_noise must be finite and >= 0, got ", gradient_noise));
  }
  const double h0 = StepSize::Create(chain.step_size).value()(0);
  if (!(h0 * gradient_noise <= 2 * friction)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "GeodesicSamplerOptions.gradient_noise times the first step size must be <= 2 * "
        "friction = ",
        2 * friction, ", got ", h0 * gradient_noise));
  }
  if (inner_steps < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("GeodesicSamplerOptions.inner_steps must be >= 1, got ", inner_steps));
  }
  return absl::OkStatus();
}

SphereSampler::SphereSampler(const SphereGradientModel& model,
                             const Eigen::Ref<const Eigen::MatrixXd>& x0,
                             const StepSizeOptions& step_size, int64_t batch_size,
                             uint64_t seed, uint64_t stream)
    : model_(model),
      engine_(seed, stream),
      minibatch_(Minibatch::Create(model.num_items(), batch_size).value()),
      step_size_(StepSize::Create(step_size).value()),
      x_(x0),
      v_(Eigen::MatrixXd::Zero(x0.rows(), x0.cols())),
      grad_(x0.rows(), x0.cols()),
      noise_(x0.rows(), x0.cols()) {}

absl::Status SphereSampler::ValidateChain(absl::string_view sampler_name,
                                          const SphereGradientModel& model,
                                          const Eigen::Ref<const Eigen::MatrixXd>& x0,
                                          const StepSizeOptions& step_size,
                                          int64_t batch_size) {
  if (model.dimension() < 2 || model.num_spheres() < 1 || model.num_items() < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        sampler_name, ": the model must have dimension >= 2, num_spheres >= 1 and num_items "
                      ">= 1, got ",
        model.dimension(), ", ", model.num_spheres(), ", ", model.num_items()));
  }
  if (x0.rows() != model.dimension() || x0.cols() != model.num_spheres()) {
    return absl::InvalidArgumentError(
        absl::StrCat(sampler_name, ": initial x is ", x0.rows(), "x", x0.cols(),
                     " but the model is ", model.dimension(), "x", model.num_spheres()));
  }
  if (!x0.allFinite()) {
    return absl::InvalidArgumentError(absl::StrCat(sampler_name, ": initial x must be finite"));
  }
  const int bad = FirstNonUnitColumn(x0);
  if (bad >= 0) {
    return absl::InvalidArgumentError(absl::StrCat(sampler_name, ": column ", bad,
                                                   " of initial x has norm ",
                                                   x0.col(bad).norm(), ", expected 1"));
  }
  absl::Status status = step_size.Validate();
  if (status.ok() && !(batch_size >= 1 && batch_size <= model.num_items())) {
    status = absl::InvalidArgumentError(absl::StrCat(
        "batch_size must be in [1, ", model.num_items(), "], got ", batch_size));
  }
  if (!status.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(sampler_name, ": ", status.message()));
  }
  return absl::OkStatus();
}

double SphereSampler::BeginIteration() {
  last_step_size_ = step_size_(iteration_);
  return last_step_size_;
}

SphereSampler::NoisyIteration SphereSampler::BeginNoisyIteration(double friction,
                                                                 double gradient_noise) {
  NoisyIteration it;
  it.step_size = BeginIteration();
  it.batch = DrawMinibatch();
  model_.PrepareBatch(x_, it.batch);
  it.noise_scale = std::sqrt((2 * friction - it.step_size * gradient_noise) * it.step_size);
  it.degrees_of_freedom = static_cast<double>(num_spheres()) * (dimension() - 1);
  return it;
}

void SphereSampler::ComputeGradient(absl::Span<const int64_t> batch) {
  StochasticSphereGradient(model_, x_, batch, grad_);
}

SphereSamplerState SphereSampler::SaveState() const {
  SphereSamplerState state;
  state.set_sampler(std::string(name()));
  state.set_dimension(dimension());
  state.set_num_spheres(num_spheres());
  state.set_iteration(iteration_);
  state.set_rng_seed(engine_.seed());
  state.set_rng_stream(engine_.stream());
  state.set_rng_position(engine_.position());
  state.mutable_x()->Add(x_.data(), x_.data() + x_.size());
  state.mutable_velocity()->Add(v_.data(), v_.data() + v_.size());
  state.set_thermostat(thermostat_);
  state.set_last_step_size(last_step_size_);
  state.set_accepted(accepted_);
  return state;
}

absl::Status SphereSampler::RestoreState(const SphereSamplerState& state) {
  if (state.sampler() != name()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "SphereSamplerState.sampler is \"", state.sampler(), "\", expected \"", name(), "\""));
  }
  if (state.dimension() != dimension() || state.num_spheres() != num_spheres()) {
    return absl::InvalidArgumentError(
        absl::StrCat("SphereSamplerState shape is ", state.dimension(), "x",
                     state.num_spheres(), ", expected ", dimension(), "x", num_spheres()));
  }
  if (state.iteration() < 0 || state.accepted() < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("SphereSamplerState.iteration and .accepted must be >= 0, got ",
                     state.iteration(), " and ", state.accepted()));
  }
  const int64_t size = x_.size();
  if (state.x_size() != size || state.velocity_size() != size) {
    return absl::InvalidArgumentError(
        absl::StrCat("SphereSamplerState.x and .velocity must have length ", size, ", got ",
                     state.x_size(), " and ", state.velocity_size()));
  }
  absl::Status status = CheckFiniteValues(state.x(), "x");
  if (status.ok()) status = CheckFiniteValues(state.velocity(), "velocity");
  if (!status.ok()) return status;
  if (!std::isfinite(state.thermostat())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "SphereSamplerState.thermostat must be finite, got ", state.thermostat()));
  }
  // Found by //fuzz:sam_checkpoint_fuzzer: a thermostat of -5e234 (sphere_sampler.h).
  const double largest_step = initial_step_size();
  if (!(state.thermostat() * largest_step >= kMinRestoredThermostatTimesStep)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "SphereSamplerState.thermostat is ", state.thermostat(), ": with the largest step ",
        largest_step, " it must be at least ", kMinRestoredThermostatTimesStep / largest_step,
        " (a chain's thermostat starts at the friction and falls by at most the step per inner "
        "step; below the bound a step scales the velocity by more than e^32)"));
  }
  if (!(std::isfinite(state.last_step_size()) && state.last_step_size() >= 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("SphereSamplerState.last_step_size must be finite and >= 0, got ",
                     state.last_step_size()));
  }
  Eigen::Map<const Eigen::MatrixXd> x(state.x().data(), x_.rows(), x_.cols());
  const int bad = FirstNonUnitColumn(x);
  if (bad >= 0) {
    return absl::InvalidArgumentError(absl::StrCat("SphereSamplerState.x column ", bad,
                                                   " has norm ", x.col(bad).norm(),
                                                   ", expected 1"));
  }
  // Found by //fuzz:sam_checkpoint_fuzzer: a velocity with a component along x left the
  // sphere at the next geodesic step (a column norm of 1 + 1e-4 after one step).
  Eigen::Map<const Eigen::MatrixXd> v(state.velocity().data(), x_.rows(), x_.cols());
  // Found by //fuzz:sam_checkpoint_fuzzer: finite entries of 1e214 overflowed v'v (gSGNHT's
  // thermostat, the geodesic flow's |v|) to inf and the next step to NaN.
  if (!(v.squaredNorm() <= kMaxRestoredVelocitySquaredNorm)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "SphereSamplerState.velocity has a squared norm of ", v.squaredNorm(),
        ", above the bound ", kMaxRestoredVelocitySquaredNorm,
        " (a chain's is about the manifold dimension)"));
  }
  for (int k = 0; k < v.cols(); ++k) {
    const double along = x.col(k).dot(v.col(k));
    if (!(std::abs(along) <= 1e-6 * std::max(1.0, v.col(k).norm()))) {
      return absl::InvalidArgumentError(absl::StrCat(
          "SphereSamplerState.velocity column ", k, " is not tangent to x: x . v = ", along,
          " with |v| = ", v.col(k).norm()));
    }
  }
  x_ = x;
  v_ = v;
  thermostat_ = state.thermostat();
  iteration_ = state.iteration();
  last_step_size_ = state.last_step_size();
  accepted_ = state.accepted();
  engine_ = rng::Engine(state.rng_seed(), state.rng_stream());
  engine_.Seek(state.rng_position());
  return absl::OkStatus();
}

}  // namespace sgmcmc::samplers
