#include "samplers/gmc.h"

#include <cmath>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "linalg/sphere.h"
#include "rng/sphere_uniform.h"
#include "rng/uniform.h"

namespace sgmcmc::samplers {

absl::Status GmcOptions::Validate() const {
  if (leapfrog_steps < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("GmcOptions.leapfrog_steps must be >= 1, got ", leapfrog_steps));
  }
  return step_size.Validate();
}

absl::StatusOr<std::unique_ptr<Gmc>> Gmc::Create(const SpherePotentialModel& model,
                                                 const Eigen::Ref<const Eigen::MatrixXd>& x0,
                                                 const GmcOptions& options) {
  absl::Status status = options.Validate();
  if (!status.ok()) return absl::InvalidArgumentError(absl::StrCat("Gmc: ", status.message()));
  status = ValidateChain("Gmc", model, x0, options.step_size, model.num_items());
  if (!status.ok()) return status;
  return std::unique_ptr<Gmc>(new Gmc(model, x0, options));
}

Gmc::Gmc(const SpherePotentialModel& model, const Eigen::Ref<const Eigen::MatrixXd>& x0,
         const GmcOptions& options)
    : SphereSampler(model, x0, options.step_size, model.num_items(), options.seed,
                    options.stream),
      potential_model_(model),
      options_(options),
      all_items_(model.num_items()),
      proposal_x_(x0) {
  std::iota(all_items_.begin(), all_items_.end(), int64_t{0});
}

void Gmc::Step() {
  const double h = BeginIteration();
  const Eigen::MatrixXd& x = this->x();
  Eigen::MatrixXd& v = mutable_velocity();
  Eigen::MatrixXd& grad = gradient();
  rng::RandomTangentColumns(engine(), x, v);
  const double h0 = potential_model_.Potential(x) + 0.5 * v.squaredNorm();
  proposal_x_ = x;
  StochasticSphereGradient(model(), proposal_x_, all_items_, grad);
  for (int t = 0; t < options_.leapfrog_steps; ++t) {
    linalg::ProjectColumnsToTangent(proposal_x_, grad);
    v -= (h / 2) * grad;
    linalg::GeodesicFlowColumns(h, proposal_x_, v);
    StochasticSphereGradient(model(), proposal_x_, all_items_, grad);
    linalg::ProjectColumnsToTangent(proposal_x_, grad);
    v -= (h / 2) * grad;
  }
  const double h1 = potential_model_.Potential(proposal_x_) + 0.5 * v.squaredNorm();
  const double u = rng::UniformDouble(engine());
  if (std::isfinite(h1) && std::log(u) < h0 - h1) {
    mutable_x() = proposal_x_;
    CountAccepted();
  }
  EndIteration();
}

}  // namespace sgmcmc::samplers
