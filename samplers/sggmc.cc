#include "samplers/sggmc.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "linalg/sphere.h"
#include "rng/sphere_uniform.h"

namespace sgmcmc::samplers {
namespace {

absl::Status ValidateGeodesic(absl::string_view name, const SphereGradientModel& model,
                              const Eigen::Ref<const Eigen::MatrixXd>& x0,
                              const GeodesicSamplerOptions& options) {
  absl::Status status = options.Validate(model.num_items());
  if (!status.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(name, ": ", status.message()));
  }
  return absl::OkStatus();
}

// The O step: v ← v + Λ(x)[-ε g + σ ξ], ξ ~ N(0, I); `noise` is scratch.
void OStep(rng::Engine& engine, double h, double sigma, const Eigen::MatrixXd& x,
           Eigen::MatrixXd& grad, Eigen::MatrixXd& noise, Eigen::MatrixXd& v) {
  linalg::ProjectColumnsToTangent(x, grad);
  rng::RandomTangentColumns(engine, x, noise);
  v += sigma * noise - h * grad;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Sggmc>> Sggmc::Create(const SphereGradientModel& model,
                                                     const Eigen::Ref<const Eigen::MatrixXd>& x0,
                                                     const GeodesicSamplerOptions& options) {
  absl::Status status =
      ValidateChain("Sggmc", model, x0, options.chain.step_size, options.chain.batch_size);
  if (status.ok()) status = ValidateGeodesic("Sggmc", model, x0, options);
  if (!status.ok()) return status;
  return std::unique_ptr<Sggmc>(new Sggmc(model, x0, options));
}

Sggmc::Sggmc(const SphereGradientModel& model, const Eigen::Ref<const Eigen::MatrixXd>& x0,
             const GeodesicSamplerOptions& options)
    : SphereSampler(model, x0, options.chain.step_size, options.chain.batch_size,
                    options.chain.seed, options.chain.stream),
      options_(options) {
  rng::RandomTangentColumns(engine(), x(), mutable_velocity());
}

void Sggmc::Step() {
  const double h = BeginIteration();
  const absl::Span<const int64_t> batch = DrawMinibatch();
  model().PrepareBatch(x(), batch);
  const double decay = std::exp(-options_.friction * h / 2);
  const double sigma = std::sqrt((2 * options_.friction - h * options_.gradient_noise) * h);
  Eigen::MatrixXd& x = mutable_x();
  Eigen::MatrixXd& v = mutable_velocity();
  for (int l = 0; l < options_.inner_steps; ++l) {
    linalg::GeodesicFlowColumns(h / 2, x, v);
    v *= decay;
    ComputeGradient(batch);
    OStep(engine(), h, sigma, x, gradient(), noise(), v);
    v *= decay;
    linalg::GeodesicFlowColumns(h / 2, x, v);
  }
  EndIteration();
}

absl::StatusOr<std::unique_ptr<Gsgnht>> Gsgnht::Create(
    const SphereGradientModel& model, const Eigen::Ref<const Eigen::MatrixXd>& x0,
    const GeodesicSamplerOptions& options) {
  absl::Status status =
      ValidateChain("Gsgnht", model, x0, options.chain.step_size, options.chain.batch_size);
  if (status.ok()) status = ValidateGeodesic("Gsgnht", model, x0, options);
  if (!status.ok()) return status;
  return std::unique_ptr<Gsgnht>(new Gsgnht(model, x0, options));
}

Gsgnht::Gsgnht(const SphereGradientModel& model, const Eigen::Ref<const Eigen::MatrixXd>& x0,
               const GeodesicSamplerOptions& options)
    : SphereSampler(model, x0, options.chain.step_size, options.chain.batch_size,
                    options.chain.seed, options.chain.stream),
      options_(options) {
  rng::RandomTangentColumns(engine(), x(), mutable_velocity());
  set_thermostat(options.friction);
}

void Gsgnht::Step() {
  const NoisyIteration it = BeginNoisyIteration(options_.friction, options_.gradient_noise);
  const double h = it.step_size;
  const absl::Span<const int64_t> batch = it.batch;
  const double sigma = it.noise_scale;
  const double m = it.degrees_of_freedom;
  Eigen::MatrixXd& x = mutable_x();
  Eigen::MatrixXd& v = mutable_velocity();
  double xi = thermostat();
  for (int l = 0; l < options_.inner_steps; ++l) {
    xi += (v.squaredNorm() / m - 1) * (h / 2);
    linalg::GeodesicFlowColumns(h / 2, x, v);
    const double decay = std::exp(-xi * h / 2);
    v *= decay;
    ComputeGradient(batch);
    OStep(engine(), h, sigma, x, gradient(), noise(), v);
    v *= decay;
    xi += (v.squaredNorm() / m - 1) * (h / 2);
    linalg::GeodesicFlowColumns(h / 2, x, v);
  }
  set_thermostat(xi);
  EndIteration();
}

}  // namespace sgmcmc::samplers
