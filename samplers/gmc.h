// GMC: geodesic Monte Carlo on embedded manifolds (Byrne & Girolami 2013, "Geodesic Monte
// Carlo on Embedded Manifolds", Scand. J. Statist. 40(4), Algorithm 1) on a product of K unit
// spheres: full-batch HMC whose position update is the exact geodesic flow, with a
// Metropolis-Hastings test, so its stationary law is π_H(x) exactly. The reference the
// stochastic-gradient geodesic samplers (samplers/sggmc.h) are checked against.
//
// One iteration: v ~ N(0, Λ(x)); T leapfrog steps of size ε
//   v ← v - (ε/2) Λ(x) ∇U_H(x);  (x, v) ← geodesic flow for ε;  v ← v - (ε/2) Λ(x) ∇U_H(x);
// accept the end point with probability min(1, exp(H₀ - H₁)), H = U_H(x) + vᵀv/2.
//
// Engine order per iteration: d·K normals (the velocity, columns in order), then one uniform
// for the acceptance test.
//
// Cost per iteration: T + 1 full-batch gradients and two potentials, plus O(T d K).
//
// Example:
//   GmcOptions options;
//   options.step_size = StepSizeOptions::Constant(0.2);
//   options.leapfrog_steps = 10;
//   SGMCMC_ASSIGN_OR_RETURN(std::unique_ptr<Gmc> gmc, Gmc::Create(model, x0, options));
#ifndef SGMCMC_SAMPLERS_GMC_H_
#define SGMCMC_SAMPLERS_GMC_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "Eigen/Dense"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "samplers/sphere_model.h"
#include "samplers/sphere_sampler.h"
#include "samplers/step_size.h"

namespace sgmcmc::samplers {

struct GmcOptions {
  // Leapfrog step ε_m at iteration m. Default constant 0.1.
  StepSizeOptions step_size = StepSizeOptions::Constant(0.1);
  // T, leapfrog steps per proposal; >= 1. Default 10.
  int leapfrog_steps = 10;
  // Key and stream of the chain's engine. Defaults 1 and 0.
  uint64_t seed = 1;
  uint64_t stream = 0;

  absl::Status Validate() const;
};

class Gmc final : public SphereSampler {
 public:
  // `model` must outlive the sampler; InvalidArgument for bad options or x0.
  static absl::StatusOr<std::unique_ptr<Gmc>> Create(const SpherePotentialModel& model,
                                                     const Eigen::Ref<const Eigen::MatrixXd>& x0,
                                                     const GmcOptions& options);

  absl::string_view name() const override { return "gmc"; }
  void Step() override;

 private:
  Gmc(const SpherePotentialModel& model, const Eigen::Ref<const Eigen::MatrixXd>& x0,
      const GmcOptions& options);

  const SpherePotentialModel& potential_model_;
  GmcOptions options_;
  std::vector<int64_t> all_items_;
  Eigen::MatrixXd proposal_x_;
};

}  // namespace sgmcmc::samplers

#endif  // SGMCMC_SAMPLERS_GMC_H_
