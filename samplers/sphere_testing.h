// Test targets on spheres for the geodesic samplers' tests and benchmarks (testonly):
//  - VmfTarget: vMF(μ, κ) on S^{d-1}, U_H(x) = -κ μᵀx, exact mean E[x] = A_d(κ) μ.
//  - ToyCircleTarget: the toy of Liu, Zhu & Song (2016), Sec. 5: on S¹,
//      U(x) = -log(exp(κ μ₁ᵀx) + 2 exp(κ μ₂ᵀx)), μ₁,₂ = (cos π/3, ±sin π/3), κ = 5,
//    with optional N(0, σ² I) noise added to every gradient evaluation from the target's own
//    engine (the slides' "stochastic gradient" of the toy, σ² = 1000); its angle density is
//    exp(-U(cos θ, sin θ)) / Z, computed by ToyAngleCdf.
#ifndef SGMCMC_SAMPLERS_SPHERE_TESTING_H_
#define SGMCMC_SAMPLERS_SPHERE_TESTING_H_

#include <cmath>
#include <cstdint>
#include <vector>

#include "Eigen/Dense"
#include "absl/types/span.h"
#include "rng/engine.h"
#include "rng/normal.h"
#include "samplers/sphere_model.h"

namespace sgmcmc::samplers {

class VmfTarget final : public SpherePotentialModel {
 public:
  VmfTarget(const Eigen::VectorXd& mu, double kappa) : mu_(mu), kappa_(kappa) {}
  int dimension() const override { return static_cast<int>(mu_.size()); }
  int64_t num_items() const override { return 1; }
  void PriorPotentialGradient(const Eigen::Ref<const Eigen::MatrixXd>& x,
                              Eigen::Ref<Eigen::MatrixXd> out) const override {
    out.col(0) = -kappa_ * mu_;
  }
  void AddLikelihoodPotentialGradient(const Eigen::Ref<const Eigen::MatrixXd>&,
                                      absl::Span<const int64_t>, double,
                                      Eigen::Ref<Eigen::MatrixXd>) const override {}
  double Potential(const Eigen::Ref<const Eigen::MatrixXd>& x) const override {
    return -kappa_ * mu_.dot(x.col(0));
  }

 private:
  Eigen::VectorXd mu_;
  double kappa_;
};

class ToyCircleTarget final : public SpherePotentialModel {
 public:
  static constexpr double kKappa = 5.0;

  // noise_sd = 0: exact gradients; otherwise N(0, noise_sd² I) added per evaluation from
  // Engine(noise_seed).
  explicit ToyCircleTarget(double noise_sd = 0, uint64_t noise_seed = 7)
      : noise_sd_(noise_sd), noise_engine_(noise_seed) {}

  static Eigen::Vector2d Mu1() { return {std::cos(M_PI / 3), std::sin(M_PI / 3)}; }
  static Eigen::Vector2d Mu2() { return {std::cos(M_PI / 3), -std::sin(M_PI / 3)}; }

  // U at angle θ (x = (cos θ, sin θ)).
  static double AnglePotential(double theta) {
    const Eigen::Vector2d x(std::cos(theta), std::sin(theta));
    const double a = kKappa * Mu1().dot(x);
    const double b = std::log(2.0) + kKappa * Mu2().dot(x);
    const double hi = std::max(a, b);
    return -(hi + std::log(std::exp(a - hi) + std::exp(b - hi)));
  }

  int dimension() const override { return 2; }
  int64_t num_items() const override { return 1; }
  void PriorPotentialGradient(const Eigen::Ref<const Eigen::MatrixXd>& x,
                              Eigen::Ref<Eigen::MatrixXd> out) const override {
    const double a = kKappa * Mu1().dot(x.col(0));
    const double b = std::log(2.0) + kKappa * Mu2().dot(x.col(0));
    const double w1 = 1 / (1 + std::exp(b - a));
    out.col(0) = -kKappa * (w1 * Mu1() + (1 - w1) * Mu2());
    if (noise_sd_ > 0) {
      out(0, 0) += noise_sd_ * rng::NormalSample(noise_engine_);
      out(1, 0) += noise_sd_ * rng::NormalSample(noise_engine_);
    }
  }
  void AddLikelihoodPotentialGradient(const Eigen::Ref<const Eigen::MatrixXd>&,
                                      absl::Span<const int64_t>, double,
                                      Eigen::Ref<Eigen::MatrixXd>) const override {}
  double Potential(const Eigen::Ref<const Eigen::MatrixXd>& x) const override {
    return AnglePotential(std::atan2(x(1, 0), x(0, 0)));
  }

 private:
  double noise_sd_;
  mutable rng::Engine noise_engine_;
};

// CDF of the toy's angle θ = atan2(x₂, x₁) ∈ (-π, π], tabulated by the trapezoid rule on a
// grid of `n` intervals and interpolated linearly (error O(n⁻²), ~1e-8 for n = 20000).
class ToyAngleCdf {
 public:
  explicit ToyAngleCdf(int n = 20000) : cdf_(n + 1) {
    const double dt = 2 * M_PI / n;
    double prev = std::exp(-ToyCircleTarget::AnglePotential(-M_PI));
    cdf_[0] = 0;
    for (int i = 1; i <= n; ++i) {
      const double cur = std::exp(-ToyCircleTarget::AnglePotential(-M_PI + i * dt));
      cdf_[i] = cdf_[i - 1] + 0.5 * (prev + cur) * dt;
      prev = cur;
    }
    for (double& c : cdf_) c /= cdf_[n];
  }
  double operator()(double theta) const {
    const int n = static_cast<int>(cdf_.size()) - 1;
    const double t = (theta + M_PI) / (2 * M_PI) * n;
    if (t <= 0) return 0;
    if (t >= n) return 1;
    const int i = static_cast<int>(t);
    return cdf_[i] + (t - i) * (cdf_[i + 1] - cdf_[i]);
  }

 private:
  std::vector<double> cdf_;
};

}  // namespace sgmcmc::samplers

#endif  // SGMCMC_SAMPLERS_SPHERE_TESTING_H_
