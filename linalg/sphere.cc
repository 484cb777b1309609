#include "linalg/sphere.h"

#include <cmath>

#include "base/check.h"

namespace sgmcmc::linalg {
namespace {

void CheckSameSize(const char* function, Eigen::Index a, Eigen::Index b) {
  SGMCMC_CHECK(a == b) << function << ": sizes differ, " << a << " vs " << b;
}

void CheckSameShape(const char* function, const Eigen::Ref<const Eigen::MatrixXd>& a,
                    const Eigen::Ref<const Eigen::MatrixXd>& b) {
  SGMCMC_CHECK(a.rows() == b.rows() && a.cols() == b.cols())
      << function << ": shapes differ, " << a.rows() << "x" << a.cols() << " vs " << b.rows()
      << "x" << b.cols();
}

}  // namespace

void ProjectToTangent(const Eigen::Ref<const Eigen::VectorXd>& x,
                      Eigen::Ref<Eigen::VectorXd> v) {
  CheckSameSize("ProjectToTangent", x.size(), v.size());
  v.noalias() -= (x.dot(v) / x.squaredNorm()) * x;
}

void GeodesicFlow(double t, Eigen::Ref<Eigen::VectorXd> x, Eigen::Ref<Eigen::VectorXd> v) {
  CheckSameSize("GeodesicFlow", x.size(), v.size());
  const double alpha = v.norm();
  if (alpha == 0 || t == 0) return;
  const double angle = alpha * t;
  const double c = std::cos(angle);
  const double s = std::sin(angle);
  const double s_over_alpha = s / alpha;
  const double minus_alpha_s = -alpha * s;
  double* xp = x.data();
  double* vp = v.data();
  const Eigen::Index n = x.size();
  for (Eigen::Index i = 0; i < n; ++i) {
    const double xi = xp[i];
    const double vi = vp[i];
    xp[i] = c * xi + s_over_alpha * vi;
    vp[i] = minus_alpha_s * xi + c * vi;
  }
}

double SphereDistance(const Eigen::Ref<const Eigen::VectorXd>& x,
                      const Eigen::Ref<const Eigen::VectorXd>& y) {
  CheckSameSize("SphereDistance", x.size(), y.size());
  return 2 * std::atan2((x - y).norm(), (x + y).norm());
}

double NormalizeToSphere(Eigen::Ref<Eigen::VectorXd> x) {
  const double norm = x.norm();
  SGMCMC_CHECK(norm > 0 && std::isfinite(norm))
      << "NormalizeToSphere: the norm must be positive and finite, got " << norm;
  x /= norm;
  return norm;
}

void ProjectColumnsToTangent(const Eigen::Ref<const Eigen::MatrixXd>& x,
                             Eigen::Ref<Eigen::MatrixXd> v) {
  CheckSameShape("ProjectColumnsToTangent", x, v);
  for (Eigen::Index k = 0; k < x.cols(); ++k) ProjectToTangent(x.col(k), v.col(k));
}

void GeodesicFlowColumns(double t, Eigen::Ref<Eigen::MatrixXd> x,
                         Eigen::Ref<Eigen::MatrixXd> v) {
  CheckSameShape("GeodesicFlowColumns", x, v);
  for (Eigen::Index k = 0; k < x.cols(); ++k) GeodesicFlow(t, x.col(k), v.col(k));
}

void NormalizeColumnsToSphere(Eigen::Ref<Eigen::MatrixXd> x) {
  for (Eigen::Index k = 0; k < x.cols(); ++k) NormalizeToSphere(x.col(k));
}

double ProductSphereDistance(const Eigen::Ref<const Eigen::MatrixXd>& x,
                             const Eigen::Ref<const Eigen::MatrixXd>& y) {
  CheckSameShape("ProductSphereDistance", x, y);
  double sum = 0;
  for (Eigen::Index k = 0; k < x.cols(); ++k) {
    const double d = SphereDistance(x.col(k), y.col(k));
    sum += d * d;
  }
  return std::sqrt(sum);
}

}  // namespace sgmcmc::linalg
