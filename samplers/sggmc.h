// SGGMC and gSGNHT: the stochastic-gradient geodesic samplers of Liu, Zhu & Song (2016),
// "Stochastic Gradient Geodesic MCMC Methods", Algorithms 1 and 2 (scalar friction C), on a
// product of K unit spheres S^{d-1} in embedded coordinates.
//
// One iteration draws a minibatch S, calls model.PrepareBatch(x, S) and runs L inner steps
// with it, each the symmetric
// splitting A-B-O-B-A with step ε = ε_m:
//   A: (x, v) ← geodesic flow for ε/2 (exact, linalg::GeodesicFlowColumns);
//   B: v ← e^{-C ε/2} v               (gSGNHT: e^{-ξ ε/2} v);
//   O: v ← v + Λ(x)[-∇Ũ_H(x) ε + N(0, (2C - ε V̂) ε I)];
//   B, A as above.
// gSGNHT also moves its thermostat in each A half-step, ξ ← ξ + (vᵀv/m - 1) ε/2, with
// m = K(d - 1) the manifold dimension; ξ starts at C. The gradient is recomputed at each O
// step with the iteration's minibatch. The velocity starts at v ~ N(0, Λ(x)). No
// Metropolis-Hastings test: the continuous dynamics leave π_H(x) invariant and the splitting
// is second order (bias O(ε²) per unit time). Nothing renormalises x: the flow is a rotation,
// the B step a scaling and the O step adds a projected vector, so ‖x‖ = 1 and xᵀv = 0 hold to
// rounding (samplers/sggmc_test.cc runs 10⁶ steps and prints the drift).
//
// Engine order per iteration: the minibatch ids, then for each inner step the d·K normals of
// the O step (columns in order, rng::RandomTangentColumns). At creation: d·K normals for v.
//
// Cost per iteration: L gradient evaluations plus O(L d K): two geodesic flows (one sin/cos
// per column), d K normals and ~12 flops per coordinate. Measured: samplers/sggmc_benchmark.cc.
//
// Example:
//   GeodesicSamplerOptions options;
//   options.chain.step_size = StepSizeOptions::Constant(0.01);
//   options.friction = 1.0;
//   SGMCMC_ASSIGN_OR_RETURN(std::unique_ptr<Sggmc> s, Sggmc::Create(model, x0, options));
//   s->Step();
#ifndef SGMCMC_SAMPLERS_SGGMC_H_
#define SGMCMC_SAMPLERS_SGGMC_H_

#include <memory>

#include "Eigen/Dense"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "samplers/sphere_model.h"
#include "samplers/sphere_sampler.h"

namespace sgmcmc::samplers {

class Sggmc final : public SphereSampler {
 public:
  // `model` must outlive the sampler; InvalidArgument for bad options or x0 (d×K, unit
  // columns).
  static absl::StatusOr<std::unique_ptr<Sggmc>> Create(
      const SphereGradientModel& model, const Eigen::Ref<const Eigen::MatrixXd>& x0,
      const GeodesicSamplerOptions& options);

  absl::string_view name() const override { return "sggmc"; }
  void Step() override;

 private:
  Sggmc(const SphereGradientModel& model, const Eigen::Ref<const Eigen::MatrixXd>& x0,
        const GeodesicSamplerOptions& options);

  GeodesicSamplerOptions options_;
};

class Gsgnht final : public SphereSampler {
 public:
  static absl::StatusOr<std::unique_ptr<Gsgnht>> Create(
      const SphereGradientModel& model, const Eigen::Ref<const Eigen::MatrixXd>& x0,
      const GeodesicSamplerOptions& options);

  absl::string_view name() const override { return "gsgnht"; }
  void Step() override;

 private:
  Gsgnht(const SphereGradientModel& model, const Eigen::Ref<const Eigen::MatrixXd>& x0,
         const GeodesicSamplerOptions& options);

  GeodesicSamplerOptions options_;
};

}  // namespace sgmcmc::samplers

#endif  // SGMCMC_SAMPLERS_SGGMC_H_
