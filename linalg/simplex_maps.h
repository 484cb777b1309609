// Maps onto the probability simplex Δ^{K-1} = {ω ∈ R^K : ω_j >= 0, Σ_j ω_j = 1}.
//
//  - Expanded mean (Patterson & Teh 2013, §3-4, the parametrisation of SGRLD): ω = |θ| / Σ|θ|
//    for unnormalised θ ∈ R^K. After a Langevin step a component may become negative; the
//    mirroring θ_j ← |θ_j| reflects it back, which leaves the target (whose density is even
//    in each θ_j) invariant.
//  - Squared map from the sphere (for SAM's θ_d with the geodesic samplers; docs/ALGORITHMS.md
//    "Sphere and simplex geometry"):
//    θ = x∘x for x ∈ S^{K-1} is 2^K-to-1 onto the simplex. If θ has density p(θ) with
//    respect to Lebesgue measure on (θ_1, ..., θ_{K-1}), and the sign pattern of x is uniform,
//    x has density with respect to the surface measure of S^{K-1}
//      p_S(x) = p(x∘x) · |J(x)| / 2^K,  |J(x)| = 2^{K-1} Π_i |x_i|,
//    i.e. log p_S(x) = log p(x∘x) + Σ_i log|x_i| - log 2. (Check: the uniform density on
//    S^{K-1}, Γ(K/2)/(2π^{K/2}), is the image of Dirichlet(1/2, ..., 1/2); the tests verify
//    this identity and a Monte Carlo version for other Dirichlet parameters.)
//
// Cost: O(K) each, one pass (two for ExpandedMeanToSimplex).
//
// Example:
//   MirrorToPositive(theta);                  // after an SGRLD step
//   ExpandedMeanToSimplex(theta, omega);      // ω = θ / Σθ
//   SphereToSimplex(x, theta);                // θ = x∘x on the simplex
//   double log_p = SphereLogDensityFromSimplex(DirichletLogPdf(theta, alpha), x);
#ifndef SGMCMC_LINALG_SIMPLEX_MAPS_H_
#define SGMCMC_LINALG_SIMPLEX_MAPS_H_

#include "Eigen/Dense"

namespace sgmcmc::linalg {

// θ_j ← |θ_j| for every j.
void MirrorToPositive(Eigen::Ref<Eigen::VectorXd> theta);

// ω = |θ| / Σ_j |θ_j|; Σ_j |θ_j| must be positive and finite (checked). Sizes must match
// (checked); ω may alias θ.
void ExpandedMeanToSimplex(const Eigen::Ref<const Eigen::VectorXd>& theta,
                           Eigen::Ref<Eigen::VectorXd> omega);

// θ = x∘x. For a unit vector x, θ is on the simplex (to rounding). Sizes must match
// (checked); θ may alias x.
void SphereToSimplex(const Eigen::Ref<const Eigen::VectorXd>& x,
                     Eigen::Ref<Eigen::VectorXd> theta);

// log |J(x)| = (K-1) log 2 + Σ_i log|x_i|: the log volume change of θ = x∘x from the surface
// of S^{K-1} to Lebesgue measure on (θ_1, ..., θ_{K-1}). -inf if some x_i = 0.
double SphereToSimplexLogJacobian(const Eigen::Ref<const Eigen::VectorXd>& x);

// log p_S(x) = simplex_log_density + log|J(x)| - K log 2 (see the file comment), where
// simplex_log_density = log p(x∘x).
double SphereLogDensityFromSimplex(double simplex_log_density,
                                   const Eigen::Ref<const Eigen::VectorXd>& x);

// Gradient in the embedding coordinates of x ↦ log p(x∘x) + Σ_i log|x_i|:
//   out_i = 2 x_i simplex_gradient_i + 1 / x_i,
// with simplex_gradient = ∇_θ log p(θ) at θ = x∘x. Project onto the tangent space
// (linalg::ProjectToTangent) for the Riemannian gradient. Sizes must match (checked).
void SphereLogDensityGradientFromSimplex(const Eigen::Ref<const Eigen::VectorXd>& x,
                                         const Eigen::Ref<const Eigen::VectorXd>& simplex_gradient,
                                         Eigen::Ref<Eigen::VectorXd> out);

}  // namespace sgmcmc::linalg

#endif  // SGMCMC_LINALG_SIMPLEX_MAPS_H_
