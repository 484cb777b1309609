// The two small targets of Liu, Zhu & Song (2016), Sec. 5, as sphere models: the geodesic
// samplers' tests (samplers/gmc_test, sggmc_test, geodesic_synthetic_test) and the `sam`
// tool use these one copies (they live in samplers/ so that the samplers' tests may use them):
//  - ToyCircle: on S¹, U(x) = −log(exp(κ μ₁ᵀx) + 2 exp(κ μ₂ᵀx)), μ₁,₂ = (cos π/3, ±sin π/3),
//    κ = 5, with optional N(0, σ² I) noise added to every gradient evaluation from the model's
//    own engine (the slides use σ² = 1000).
//  - TwoVmfPosterior: v₁, v₂ ∈ S¹ with priors vMF(e₁, κ_prior) and the mixture likelihood
//    p(x_i | v₁, v₂) ∝ vMF(x_i | v₁, κ_x) + vMF(x_i | μ, κ_x), μ = (v₁ + v₂)/‖v₁ + v₂‖; the
//    parameter is the 2×2 matrix (v₁, v₂). Its exact posterior is tabulated on the torus.
//
// Cost: O(1) per toy gradient; O(n) per synthetic gradient over a batch of n points.
//
// Example:
//   ToyCircle toy(/*noise_sd=*/std::sqrt(1000.0), /*noise_seed=*/7);
//   double p = ToyCircle::AngleDensity(theta);      // normalised on (−π, π]
#ifndef SGMCMC_SAMPLERS_GEODESIC_TOYS_H_
#define SGMCMC_SAMPLERS_GEODESIC_TOYS_H_

#include <cstdint>
#include <vector>

#include "Eigen/Dense"
#include "absl/types/span.h"
#include "rng/engine.h"
#include "samplers/sphere_model.h"

namespace sgmcmc::samplers {

class ToyCircle final : public SpherePotentialModel {
 public:
  static constexpr double kKappa = 5.0;

  explicit ToyCircle(double noise_sd = 0, uint64_t noise_seed = 7);

  // U at x = (cos θ, sin θ), and the normalised density of θ on (−π, π] (normaliser by a
  // 20000-interval trapezoid rule, computed once).
  static double AnglePotential(double theta);
  static double AngleDensity(double theta);

  int dimension() const override { return 2; }
  int64_t num_items() const override { return 1; }
  void PriorPotentialGradient(const Eigen::Ref<const Eigen::MatrixXd>& x,
                              Eigen::Ref<Eigen::MatrixXd> out) const override;
  void AddLikelihoodPotentialGradient(const Eigen::Ref<const Eigen::MatrixXd>&,
                                      absl::Span<const int64_t>, double,
                                      Eigen::Ref<Eigen::MatrixXd>) const override {}
  double Potential(const Eigen::Ref<const Eigen::MatrixXd>& x) const override;

 private:
  double noise_sd_;
  mutable rng::Engine noise_engine_;
};

class TwoVmfPosterior final : public SpherePotentialModel {
 public:
  // `data` are unit vectors of R².
  TwoVmfPosterior(std::vector<Eigen::Vector2d> data, double kappa_prior, double kappa_x);

  // n points, alternately from vMF(v₁, κ_x) and vMF(μ, κ_x), from Engine(seed).
  static std::vector<Eigen::Vector2d> Generate(double theta1, double theta2, double kappa_x,
                                               int n, uint64_t seed);

  int dimension() const override { return 2; }
  int num_spheres() const override { return 2; }
  int64_t num_items() const override { return static_cast<int64_t>(data_.size()); }
  void PriorPotentialGradient(const Eigen::Ref<const Eigen::MatrixXd>& x,
                              Eigen::Ref<Eigen::MatrixXd> out) const override;
  void AddLikelihoodPotentialGradient(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                      absl::Span<const int64_t> batch, double scale,
                                      Eigen::Ref<Eigen::MatrixXd> out) const override;
  double Potential(const Eigen::Ref<const Eigen::MatrixXd>& x) const override;
  // U at v₁ = (cos t1, sin t1), v₂ = (cos t2, sin t2).
  double AnglePotential(double t1, double t2) const;

  // Exact marginal densities of θ₁ and θ₂ at the centres of `bins` bins over (−π, π], from a
  // bins×bins midpoint grid: row 0 θ₁, row 1 θ₂.
  Eigen::MatrixXd ExactMarginals(int bins) const;

 private:
  std::vector<Eigen::Vector2d> data_;
  double kappa_prior_;
  double kappa_x_;
};

}  // namespace sgmcmc::samplers

#endif  // SGMCMC_SAMPLERS_GEODESIC_TOYS_H_
