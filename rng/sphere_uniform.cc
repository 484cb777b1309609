#include "rng/sphere_uniform.h"

#include <cmath>

#include "absl/types/span.h"
#include "base/check.h"
#include "rng/normal.h"

namespace sgmcmc::rng {

void RandomTangentVector(Engine& engine, const Eigen::Ref<const Eigen::VectorXd>& x,
                         Eigen::Ref<Eigen::VectorXd> out) {
  SGMCMC_CHECK(x.size() == out.size())
      << "RandomTangentVector: sizes differ, " << x.size() << " vs " << out.size();
  FillNormal(engine, absl::MakeSpan(out.data(), out.size()));
  out.noalias() -= (x.dot(out) / x.squaredNorm()) * x;
}

void SphereUniformSample(Engine& engine, Eigen::Ref<Eigen::VectorXd> out) {
  FillNormal(engine, absl::MakeSpan(out.data(), out.size()));
  const double norm = out.norm();
  SGMCMC_CHECK(norm > 0 && std::isfinite(norm))
      << "SphereUniformSample: the norm of the normal draws must be positive and finite, got "
      << norm;
  out /= norm;
}

void RandomTangentColumns(Engine& engine, const Eigen::Ref<const Eigen::MatrixXd>& x,
                          Eigen::Ref<Eigen::MatrixXd> out) {
  SGMCMC_CHECK(x.rows() == out.rows() && x.cols() == out.cols())
      << "RandomTangentColumns: shapes differ, " << x.rows() << "x" << x.cols() << " vs "
      << out.rows() << "x" << out.cols();
  for (Eigen::Index k = 0; k < x.cols(); ++k) RandomTangentVector(engine, x.col(k), out.col(k));
}

}  // namespace sgmcmc::rng
