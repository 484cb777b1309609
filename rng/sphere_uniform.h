// Random points and tangent vectors of the unit sphere S^{d-1} ⊂ R^d (embedded coordinates):
// the noise of the geodesic samplers SGGMC and gSGNHT (Liu, Zhu & Song 2016, Algorithms 1-2)
// and their initial points. The deterministic geometry (projection, geodesic flow, distances)
// is //linalg:sphere; the draws are here so that linalg does not depend on rng.
//
// The tangent draw is ξ ~ N(0, I_d) projected by v ← ξ - x (xᵀξ) / (xᵀx), the same exact
// projection as linalg::ProjectToTangent, so it is N(0, I - x xᵀ) for unit x and stays
// orthogonal to x to rounding even when ‖x‖ has drifted from 1. Products of K spheres are
// d×K matrices whose columns are the points (as in linalg/sphere.h).
//
// Cost: d normal draws (rng::FillNormal, ~4-6 ns each) plus one O(d) pass (see
// //rng:sphere_uniform_benchmark).
//
// Example (the O-step noise of SGGMC on S^{d-1}):
//   sgmcmc::rng::RandomTangentVector(engine, x, noise);   // N(0, I - x xᵀ)
//   sgmcmc::rng::SphereUniformSample(engine, x0);         // uniform on S^{d-1}
#ifndef SGMCMC_RNG_SPHERE_UNIFORM_H_
#define SGMCMC_RNG_SPHERE_UNIFORM_H_

#include "Eigen/Dense"
#include "rng/engine.h"

namespace sgmcmc::rng {

// out = ξ - x (xᵀξ) / (xᵀx) with ξ ~ N(0, I_d): a standard normal vector of the tangent space
// at the unit vector x, i.e. N(0, I - x xᵀ). Draws d normals from `engine` (rng::FillNormal).
// x must be nonzero (not checked); sizes must match (checked).
void RandomTangentVector(Engine& engine, const Eigen::Ref<const Eigen::VectorXd>& x,
                         Eigen::Ref<Eigen::VectorXd> out);

// out ~ uniform on S^{d-1}: d normal draws (rng::FillNormal), divided by their norm.
void SphereUniformSample(Engine& engine, Eigen::Ref<Eigen::VectorXd> out);

// RandomTangentVector column by column: column k of out is tangent at column k of x. Shapes
// must match (checked).
void RandomTangentColumns(Engine& engine, const Eigen::Ref<const Eigen::MatrixXd>& x,
                          Eigen::Ref<Eigen::MatrixXd> out);

}  // namespace sgmcmc::rng

#endif  // SGMCMC_RNG_SPHERE_UNIFORM_H_
