// SphereGradientModel: the interface the samplers on spheres (SGGMC, gSGNHT, GMC and the
// embedded SGHMC/SGNHT peers) consume. The parameter is a point of a product of K unit
// spheres S^{d-1} ⊂ R^d in embedded coordinates, stored as the columns of a d×K matrix
// (K = 1: one sphere), as in linalg/sphere.h.
//
// A model gives the gradient, in the ambient space R^d per column, of (any smooth extension
// of) the potential U_H(x) = -log π_H(x), the negative log density with respect to the
// Hausdorff (surface) measure (Liu, Zhu & Song 2016, "Stochastic Gradient Geodesic MCMC
// Methods", Sec. 3; Byrne & Girolami 2013, Sec. 3). Only the tangent part Λ(x)∇U_H matters:
// the samplers project. Prior and likelihood are split as in GradientModel so that the
// sampler can form the unbiased minibatch estimate
//   ∇Ũ_H(x) = ∇(-log p(x)) + (N/n) Σ_{i∈S} ∇(-log p(y_i | x)).
// SpherePotentialModel adds the full-batch potential itself, needed by the Metropolis-Hastings
// test of GMC.
//
// Cost: one virtual call per gradient evaluation (never per coordinate), outputs in
// caller-owned matrices.
//
// Example (vMF(μ, κ) on S^{d-1}: U_H = -κ μᵀx, no data):
//   class Vmf : public SpherePotentialModel {
//     int dimension() const override { return mu_.size(); }
//     int64_t num_items() const override { return 1; }
//     void PriorPotentialGradient(const Eigen::Ref<const Eigen::MatrixXd>&,
//                                 Eigen::Ref<Eigen::MatrixXd> out) const override {
//       out.col(0) = -kappa_ * mu_;
//     }
//     ...
//   };
#ifndef SGMCMC_SAMPLERS_SPHERE_MODEL_H_
#define SGMCMC_SAMPLERS_SPHERE_MODEL_H_

#include <cstdint>

#include "Eigen/Dense"
#include "absl/types/span.h"

namespace sgmcmc::samplers {

class SphereGradientModel {
 public:
  virtual ~SphereGradientModel() = default;

  // d, the ambient dimension of each sphere S^{d-1}; >= 2.
  virtual int dimension() const = 0;
  // K, the number of spheres in the product; >= 1.
  virtual int num_spheres() const { return 1; }
  // N, the number of data items the likelihood sums over; >= 1. Item ids are 0 .. N-1.
  virtual int64_t num_items() const = 0;

  // out = ∇_x(-log p(x)) (overwrites), d×K. x and out do not alias.
  virtual void PriorPotentialGradient(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                      Eigen::Ref<Eigen::MatrixXd> out) const = 0;

  // out += scale · Σ_{i ∈ batch} ∇_x(-log p(y_i | x)). Ids in [0, N), may repeat.
  virtual void AddLikelihoodPotentialGradient(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                              absl::Span<const int64_t> batch, double scale,
                                              Eigen::Ref<Eigen::MatrixXd> out) const = 0;

  // Called by the stochastic-gradient samplers (SGGMC, gSGNHT, the embedded peers) once per
  // iteration, after drawing the minibatch and before the inner steps, with the current x.
  // Models whose gradient averages over per-item latent draws (SAM's θ_d, eq. 13-14)
  // refresh them here, from their own engines; the default does nothing.
  virtual void PrepareBatch(const Eigen::Ref<const Eigen::MatrixXd>& x,
                            absl::Span<const int64_t> batch) const {}
};

class SpherePotentialModel : public SphereGradientModel {
 public:
  // U_H(x) = -log p(x) - Σ_i log p(y_i | x) up to a constant, full batch.
  virtual double Potential(const Eigen::Ref<const Eigen::MatrixXd>& x) const = 0;
};

// grad = ∇(-log p(x)) + (N/n) Σ_{i∈batch} ∇(-log p(y_i | x)), n = batch.size() >= 1
// (checked); grad is d×K (checked).
void StochasticSphereGradient(const SphereGradientModel& model,
                              const Eigen::Ref<const Eigen::MatrixXd>& x,
                              absl::Span<const int64_t> batch, Eigen::Ref<Eigen::MatrixXd> grad);

}  // namespace sgmcmc::samplers

#endif  // SGMCMC_SAMPLERS_SPHERE_MODEL_H_
