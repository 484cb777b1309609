#include "linalg/simplex_maps.h"

#include <cmath>

#include "base/check.h"

namespace sgmcmc::linalg {
namespace {

void CheckSameSize(const char* function, Eigen::Index a, Eigen::Index b) {
  SGMCMC_CHECK(a == b) << function << ": sizes differ, " << a << " vs " << b;
}

}  // namespace

void MirrorToPositive(Eigen::Ref<Eigen::VectorXd> theta) { theta = theta.cwiseAbs(); }

void ExpandedMeanToSimplex(const Eigen::Ref<const Eigen::VectorXd>& theta,
                           Eigen::Ref<Eigen::VectorXd> omega) {
  CheckSameSize("ExpandedMeanToSimplex", theta.size(), omega.size());
  const double total = theta.cwiseAbs().sum();
  SGMCMC_CHECK(total > 0 && std::isfinite(total))
      << "ExpandedMeanToSimplex: sum of |theta| must be positive and finite, got " << total;
  omega = theta.cwiseAbs() / total;
}

void SphereToSimplex(const Eigen::Ref<const Eigen::VectorXd>& x,
                     Eigen::Ref<Eigen::VectorXd> theta) {
  CheckSameSize("SphereToSimplex", x.size(), theta.size());
  theta = x.cwiseAbs2();
}

double SphereToSimplexLogJacobian(const Eigen::Ref<const Eigen::VectorXd>& x) {
  return (x.size() - 1) * M_LN2 + x.array().abs().log().sum();
}

double SphereLogDensityFromSimplex(double simplex_log_density,
                                   const Eigen::Ref<const Eigen::VectorXd>& x) {
  return simplex_log_density + SphereToSimplexLogJacobian(x) - x.size() * M_LN2;
}

void SphereLogDensityGradientFromSimplex(const Eigen::Ref<const Eigen::VectorXd>& x,
                                         const Eigen::Ref<const Eigen::VectorXd>& simplex_gradient,
                                         Eigen::Ref<Eigen::VectorXd> out) {
  CheckSameSize("SphereLogDensityGradientFromSimplex", x.size(), simplex_gradient.size());
  CheckSameSize("SphereLogDensityGradientFromSimplex", x.size(), out.size());
  out = 2 * x.cwiseProduct(simplex_gradient) + x.cwiseInverse();
}

}  // namespace sgmcmc::linalg
