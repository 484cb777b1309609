// Test targets on spheres for the geodesic samplers' tests and benchmarks (testonly):
//  - VmfTarget: vMF(μ, κ) on S^{d-1}, U_H(x) = -κ μᵀx, exact mean E[x] = A_d(κ) μ.
//  - ToyAngleCdf: the CDF of the angle of ToyCircle (samplers/geodesic_toys.h), the toy of
//    Liu, Zhu & Song (2016), Sec. 5, whose angle density is exp(-U(cos θ, sin θ)) / Z.
//  - CheckToyAngles: a chain's KS distance to that law, its ESS and the derived bound.
#ifndef SGMCMC_SAMPLERS_SPHERE_TESTING_H_
#define SGMCMC_SAMPLERS_SPHERE_TESTING_H_

#include <cmath>
#include <algorithm>
#include <cstdint>
#include <vector>

#include "Eigen/Dense"
#include "absl/types/span.h"
#include "eval/ess.h"
#include "eval/ks_dirichlet.h"
#include "rng/engine.h"
#include "rng/normal.h"
#include "samplers/geodesic_toys.h"
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

// CDF of the toy's angle θ = atan2(x₂, x₁) ∈ (-π, π], tabulated by the trapezoid rule on a
// grid of `n` intervals and interpolated linearly (error O(n⁻²), ~1e-8 for n = 20000).
class ToyAngleCdf {
 public:
  explicit ToyAngleCdf(int n = 20000) : cdf_(n + 1) {
    const double dt = 2 * M_PI / n;
    double prev = std::exp(-ToyCircle::AnglePotential(-M_PI));
    cdf_[0] = 0;
    for (int i = 1; i <= n; ++i) {
      const double cur = std::exp(-ToyCircle::AnglePotential(-M_PI + i * dt));
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

// The KS distance D of a chain's ToyCircle angles to the exact law and its bound at a
// false-failure rate δ. For n independent draws the DKW inequality gives P(D > t) <=
// 2 exp(-2 n t²); for the chain n is replaced by its effective sample size, the smallest
// ESS (eval/ess.h) of the indicators 1(F(θ) <= q), q = 1/4, 1/2, 3/4 (D is a supremum of
// such indicator means), of θ and of cos θ: t = sqrt(log(2 / δ) / (2 ESS)). O(n log n).
struct ToyAngleKs {
  double ks = 0;
  double ess = 0;
  double bound = 0;
};
inline ToyAngleKs CheckToyAngles(absl::Span<const double> angles, double false_failure) {
  const size_t n = angles.size();
  const ToyAngleCdf cdf;
  std::vector<double> u(n), cos_angle(n);
  for (size_t m = 0; m < n; ++m) {
    u[m] = cdf(angles[m]);
    cos_angle[m] = std::cos(angles[m]);
  }
  ToyAngleKs out;
  out.ess = std::min({eval::EffectiveSampleSize(angles), eval::EffectiveSampleSize(cos_angle),
                      static_cast<double>(n)});
  for (const double q : {0.25, 0.5, 0.75}) {
    std::vector<double> below(n);
    for (size_t m = 0; m < n; ++m) below[m] = u[m] <= q;
    out.ess = std::min(out.ess, eval::EffectiveSampleSize(below));
  }
  out.ks = eval::KsDistanceToUniform(absl::MakeSpan(u));
  out.bound = std::sqrt(std::log(2 / false_failure) / (2 * out.ess));
  return out;
}

}  // namespace sgmcmc::samplers

#endif  // SGMCMC_SAMPLERS_SPHERE_TESTING_H_
