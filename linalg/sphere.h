// The unit sphere S^{d-1} ⊂ R^d in embedded coordinates, and products of K such spheres
// stored as the columns of a d×K matrix: tangent projection, geodesic flow and geodesic
// distance. The geometry of the geodesic samplers SGGMC and gSGNHT; their random tangent
// vectors and uniform points are //rng:sphere_uniform.
//
// Paper: Liu, Zhu & Song (2016), "Stochastic Gradient Geodesic MCMC Methods" (Algorithms 1-2,
// and Byrne & Girolami 2013 §3.2): with α = ‖v‖, the geodesic through x with velocity v,
// after time t, is
//   x(t) = x cos(αt) + (v/α) sin(αt),   v(t) = -α x sin(αt) + v cos(αt),
// and the projection onto the tangent space at x is Λ(x) = I - x xᵀ. The flow is a rotation
// in the plane of x and v, so it keeps ‖x‖ = 1, xᵀv = 0 and ‖v‖ up to rounding; the tests run
// 10⁶ steps without renormalising and print the drift (~1e-15). v = 0 leaves x unchanged
// (no division by ‖v‖ = 0, unlike the SGGMC reference code).
//
// Products of spheres (SAM's topics β_1..β_K): a point is a d×K matrix whose columns are unit
// vectors; every operation acts column by column. For K unit vectors stored as rows, pass
// the transpose of a row-major matrix (an Eigen::Ref<Eigen::MatrixXd> binds to it).
//
// Cost: every function is O(d) per sphere (O(dK) for products); GeodesicFlow is one fused
// pass plus a norm and one sin/cos. Measured: linalg/sphere_benchmark.cc.
//
// Example (one SGGMC A-step on S^{d-1}):
//   sgmcmc::linalg::GeodesicFlow(0.5 * step, x, v);
//   sgmcmc::rng::RandomTangentVector(engine, x, noise);      // N(0, I - x xᵀ)
#ifndef SGMCMC_LINALG_SPHERE_H_
#define SGMCMC_LINALG_SPHERE_H_

#include "Eigen/Dense"

namespace sgmcmc::linalg {

// v ← v - x (xᵀv) / (xᵀx), the tangent component of v at x (= (I - x xᵀ) v for unit x).
// Dividing by xᵀx makes xᵀv = 0 to rounding even when ‖x‖ has drifted from 1 by rounding:
// with the plain I - x xᵀ, a step v ← ρ v + Λ(x) ξ feeds the drift δ = ‖x‖² - 1 into xᵀv
// through the random factor xᵀξ, and on S¹ that feedback grows without bound (measured: ‖x‖
// off by O(1) within 10⁶ A-O-A steps); with the exact projection the drift stays ~1e-15.
// x must be nonzero (not checked). Sizes must match (checked).
void ProjectToTangent(const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::Ref<Eigen::VectorXd> v);

// Moves (x, v) along the geodesic for time t (any sign), in place. x unit, v tangent at x
// (preconditions of the geometry, not checked); v = 0 or t = 0 leave both unchanged.
void GeodesicFlow(double t, Eigen::Ref<Eigen::VectorXd> x, Eigen::Ref<Eigen::VectorXd> v);

// Great-circle distance between unit vectors, in [0, π], as 2 atan2(‖x - y‖, ‖x + y‖), which
// is accurate for nearby and for antipodal points (unlike acos(xᵀy)).
double SphereDistance(const Eigen::Ref<const Eigen::VectorXd>& x,
                      const Eigen::Ref<const Eigen::VectorXd>& y);

// x ← x / ‖x‖; returns the old norm. ‖x‖ must be positive and finite (checked).
double NormalizeToSphere(Eigen::Ref<Eigen::VectorXd> x);

// Products of spheres: each column of x is a point of S^{d-1}, the same column of v its
// velocity. Shapes must match (checked).
void ProjectColumnsToTangent(const Eigen::Ref<const Eigen::MatrixXd>& x,
                             Eigen::Ref<Eigen::MatrixXd> v);
void GeodesicFlowColumns(double t, Eigen::Ref<Eigen::MatrixXd> x, Eigen::Ref<Eigen::MatrixXd> v);
void NormalizeColumnsToSphere(Eigen::Ref<Eigen::MatrixXd> x);
// The product-metric distance √(Σ_k SphereDistance(x_k, y_k)²).
double ProductSphereDistance(const Eigen::Ref<const Eigen::MatrixXd>& x,
                             const Eigen::Ref<const Eigen::MatrixXd>& y);

}  // namespace sgmcmc::linalg

#endif  // SGMCMC_LINALG_SPHERE_H_
