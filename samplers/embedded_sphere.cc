#include "samplers/embedded_sphere.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "linalg/sphere.h"
#include "rng/sphere_uniform.h"

namespace sgmcmc::samplers {

absl::StatusOr<std::unique_ptr<EmbeddedSphereSampler>> EmbeddedSphereSampler::Create(
    Method method, const SphereGradientModel& model,
    const Eigen::Ref<const Eigen::MatrixXd>& x0, const GeodesicSamplerOptions& options) {
  absl::Status status = ValidateChain("EmbeddedSphereSampler", model, x0,
                                      options.chain.step_size, options.chain.batch_size);
  if (status.ok()) {
    status = options.Validate(model.num_items());
    if (!status.ok()) {
      status = absl::InvalidArgumentError(
          absl::StrCat("EmbeddedSphereSampler: ", status.message()));
    }
  }
  if (!status.ok()) return status;
  return std::unique_ptr<EmbeddedSphereSampler>(
      new EmbeddedSphereSampler(method, model, x0, options));
}

EmbeddedSphereSampler::EmbeddedSphereSampler(Method method, const SphereGradientModel& model,
                                             const Eigen::Ref<const Eigen::MatrixXd>& x0,
                                             const GeodesicSamplerOptions& options)
    : SphereSampler(model, x0, options.chain.step_size, options.chain.batch_size,
                    options.chain.seed, options.chain.stream),
      method_(method),
      options_(options) {
  rng::RandomTangentColumns(engine(), x(), mutable_velocity());
  if (method == Method::kSgnht) set_thermostat(options.friction);
}

absl::string_view EmbeddedSphereSampler::name() const {
  return method_ == Method::kSghmc ? "embedded_sghmc" : "embedded_sgnht";
}

void EmbeddedSphereSampler::Step() {
  const NoisyIteration it = BeginNoisyIteration(options_.friction, options_.gradient_noise);
  const double h = it.step_size;
  const absl::Span<const int64_t> batch = it.batch;
  const double sigma = it.noise_scale;
  const double m = it.degrees_of_freedom;
  Eigen::MatrixXd& x = mutable_x();
  Eigen::MatrixXd& v = mutable_velocity();
  double xi = thermostat();
  for (int l = 0; l < options_.inner_steps; ++l) {
    ComputeGradient(batch);
    linalg::ProjectColumnsToTangent(x, gradient());
    rng::RandomTangentColumns(engine(), x, noise());
    const double friction = method_ == Method::kSghmc ? options_.friction : xi;
    v = (1 - h * friction) * v - h * gradient() + sigma * noise();
    if (method_ == Method::kSgnht) xi += (v.squaredNorm() / m - 1) * h;
    x += h * v;
    linalg::NormalizeColumnsToSphere(x);
    linalg::ProjectColumnsToTangent(x, v);
  }
  set_thermostat(xi);
  EndIteration();
}

}  // namespace sgmcmc::samplers
