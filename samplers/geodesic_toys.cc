#include "samplers/geodesic_toys.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "base/check.h"
#include "rng/normal.h"
#include "rng/von_mises_fisher.h"

namespace sgmcmc::samplers {
namespace {

Eigen::Vector2d Dir(double theta) { return {std::cos(theta), std::sin(theta)}; }
Eigen::Vector2d Mu1() { return Dir(M_PI / 3); }
Eigen::Vector2d Mu2() { return Dir(-M_PI / 3); }

double ToyNormalizer() {
  const int n = 20000;
  const double dt = 2 * M_PI / n;
  double total = 0;
  for (int i = 0; i < n; ++i) {
    total += std::exp(-ToyCircle::AnglePotential(-M_PI + (i + 0.5) * dt)) * dt;
  }
  return total;
}

}  // namespace

ToyCircle::ToyCircle(double noise_sd, uint64_t noise_seed)
    : noise_sd_(noise_sd), noise_engine_(noise_seed) {
  SGMCMC_CHECK(noise_sd >= 0);
}

double ToyCircle::AnglePotential(double theta) {
  const Eigen::Vector2d x = Dir(theta);
  const double a = kKappa * Mu1().dot(x);
  const double b = std::log(2.0) + kKappa * Mu2().dot(x);
  const double hi = std::max(a, b);
  return -(hi + std::log(std::exp(a - hi) + std::exp(b - hi)));
}

double ToyCircle::AngleDensity(double theta) {
  static const double normalizer = ToyNormalizer();
  return std::exp(-AnglePotential(theta)) / normalizer;
}

void ToyCircle::PriorPotentialGradient(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                       Eigen::Ref<Eigen::MatrixXd> out) const {
  const double a = kKappa * Mu1().dot(x.col(0));
  const double b = std::log(2.0) + kKappa * Mu2().dot(x.col(0));
  const double w1 = 1 / (1 + std::exp(b - a));
  out.col(0) = -kKappa * (w1 * Mu1() + (1 - w1) * Mu2());
  if (noise_sd_ > 0) {
    out(0, 0) += noise_sd_ * rng::NormalSample(noise_engine_);
    out(1, 0) += noise_sd_ * rng::NormalSample(noise_engine_);
  }
}

double ToyCircle::Potential(const Eigen::Ref<const Eigen::MatrixXd>& x) const {
  return AnglePotential(std::atan2(x(1, 0), x(0, 0)));
}

TwoVmfPosterior::TwoVmfPosterior(std::vector<Eigen::Vector2d> data, double kappa_prior,
                                 double kappa_x)
    : data_(std::move(data)), kappa_prior_(kappa_prior), kappa_x_(kappa_x) {
  SGMCMC_CHECK(!data_.empty() && kappa_prior >= 0 && kappa_x >= 0);
}

std::vector<Eigen::Vector2d> TwoVmfPosterior::Generate(double theta1, double theta2,
                                                       double kappa_x, int n, uint64_t seed) {
  rng::Engine engine(seed);
  const Eigen::Vector2d v1 = Dir(theta1);
  const Eigen::Vector2d mu = (Dir(theta1) + Dir(theta2)).normalized();
  std::vector<Eigen::Vector2d> data(n);
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector2d& mean = i % 2 == 0 ? v1 : mu;
    rng::VonMisesFisherSample(engine, {mean.data(), 2}, kappa_x, {data[i].data(), 2});
  }
  return data;
}

void TwoVmfPosterior::PriorPotentialGradient(const Eigen::Ref<const Eigen::MatrixXd>&,
                                             Eigen::Ref<Eigen::MatrixXd> out) const {
  out.col(0) = -kappa_prior_ * Eigen::Vector2d(1, 0);
  out.col(1) = -kappa_prior_ * Eigen::Vector2d(1, 0);
}

void TwoVmfPosterior::AddLikelihoodPotentialGradient(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                                     absl::Span<const int64_t> batch,
                                                     double scale,
                                                     Eigen::Ref<Eigen::MatrixXd> out) const {
  const Eigen::Vector2d s = x.col(0) + x.col(1);
  const double norm = s.norm();
  const Eigen::Vector2d mu = s / norm;
  for (int64_t i : batch) {
    const Eigen::Vector2d& y = data_[i];
    const double a = kappa_x_ * x.col(0).dot(y), b = kappa_x_ * mu.dot(y);
    const double wa = 1 / (1 + std::exp(b - a));
    const Eigen::Vector2d dmu = (y - mu * mu.dot(y)) / norm;  // ∂(μᵀy)/∂v₁ = ∂(μᵀy)/∂v₂
    out.col(0) -= scale * kappa_x_ * (wa * y + (1 - wa) * dmu);
    out.col(1) -= scale * kappa_x_ * (1 - wa) * dmu;
  }
}

double TwoVmfPosterior::AnglePotential(double t1, double t2) const {
  const Eigen::Vector2d v1 = Dir(t1), v2 = Dir(t2);
  const Eigen::Vector2d mu = (v1 + v2).normalized();
  double u = -kappa_prior_ * (v1.x() + v2.x());
  for (const Eigen::Vector2d& y : data_) {
    const double a = kappa_x_ * v1.dot(y), b = kappa_x_ * mu.dot(y);
    const double hi = std::max(a, b);
    u -= hi + std::log(std::exp(a - hi) + std::exp(b - hi));
  }
  return u;
}

double TwoVmfPosterior::Potential(const Eigen::Ref<const Eigen::MatrixXd>& x) const {
  return AnglePotential(std::atan2(x(1, 0), x(0, 0)), std::atan2(x(1, 1), x(0, 1)));
}

Eigen::MatrixXd TwoVmfPosterior::ExactMarginals(int bins) const {
  SGMCMC_CHECK(bins >= 1);
  const double h = 2 * M_PI / bins;
  Eigen::MatrixXd log_p(bins, bins);
  for (int i = 0; i < bins; ++i) {
    for (int j = 0; j < bins; ++j) {
      log_p(i, j) = -AnglePotential(-M_PI + (i + 0.5) * h, -M_PI + (j + 0.5) * h);
    }
  }
  const Eigen::MatrixXd p = (log_p.array() - log_p.maxCoeff()).exp().matrix();
  const double total = p.sum() * h * h;
  Eigen::MatrixXd marginals(2, bins);
  marginals.row(0) = p.rowwise().sum().transpose() * h / total;
  marginals.row(1) = p.colwise().sum() * h / total;
  return marginals;
}

}  // namespace sgmcmc::samplers
