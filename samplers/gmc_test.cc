#include "samplers/gmc.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "Eigen/Dense"
#include "eval/ess.h"
#include "eval/ks_dirichlet.h"
#include "gtest/gtest.h"
#include "math/bessel.h"
#include "samplers/sphere_testing.h"

namespace sgmcmc::samplers {
namespace {

GmcOptions Options(double h, int steps, uint64_t seed = 5) {
  GmcOptions options;
  options.step_size = StepSizeOptions::Constant(h);
  options.leapfrog_steps = steps;
  options.seed = seed;
  return options;
}

TEST(GmcTest, RejectsBadOptions) {
  VmfTarget model(Eigen::Vector3d(0, 0, 1), 5.0);
  const Eigen::MatrixXd x0 = Eigen::Vector3d(1, 0, 0);
  EXPECT_TRUE(Gmc::Create(model, x0, Options(0.1, 5)).ok());
  EXPECT_FALSE(Gmc::Create(model, x0, Options(0.1, 0)).ok());
  EXPECT_FALSE(Gmc::Create(model, x0, Options(-0.1, 5)).ok());
  EXPECT_FALSE(Gmc::Create(model, Eigen::MatrixXd(Eigen::Vector3d(0, 0, 2)), Options(0.1, 5))
                   .ok());
}

// vMF(μ, κ) on S²: w = μᵀx has density ∝ exp(κ w) on [-1, 1], so the exact law of w is
// checked by KS with the ESS as sample size (√ESS · D below 2.5, p ≈ 1e-5); on S⁹ the mean
// E[x] = A_d(κ) μ by ESS-based z-scores.
TEST(GmcTest, SamplesVmfExactly) {
  const Eigen::Vector3d mu = Eigen::Vector3d(1, 2, 2) / 3;
  const double kappa = 5;
  VmfTarget model(mu, kappa);
  auto gmc = Gmc::Create(model, Eigen::MatrixXd(Eigen::Vector3d(1, 0, 0)), Options(0.3, 5));
  ASSERT_TRUE(gmc.ok());
  const int n = 50000;
  std::vector<double> w(n), u(n);
  for (int m = 0; m < n; ++m) {
    (*gmc)->Step();
    w[m] = mu.dot((*gmc)->x().col(0));
    u[m] = (std::exp(kappa * (w[m] - 1)) - std::exp(-2 * kappa)) / (1 - std::exp(-2 * kappa));
  }
  const double ess = eval::EffectiveSampleSize(w);
  const double ks = eval::KsDistanceToUniform(absl::MakeSpan(u));
  std::printf("gmc vMF d=3 kappa=5: KS of mu'x = %.4f, ESS = %.0f, acceptance = %.3f\n", ks,
              ess, static_cast<double>((*gmc)->accepted()) / n);
  EXPECT_LT(std::sqrt(std::min<double>(ess, n)) * ks, 2.5);

  const int d = 10;
  Eigen::VectorXd mu10 = Eigen::VectorXd::LinSpaced(d, 1, d).normalized();
  VmfTarget model10(mu10, 20.0);
  auto gmc10 = Gmc::Create(model10, Eigen::MatrixXd(Eigen::VectorXd::Unit(d, 0)),
                           Options(0.15, 8, 6));
  ASSERT_TRUE(gmc10.ok());
  for (int m = 0; m < 500; ++m) (*gmc10)->Step();
  std::vector<std::vector<double>> draws(d, std::vector<double>(n));
  for (int m = 0; m < n; ++m) {
    (*gmc10)->Step();
    for (int j = 0; j < d; ++j) draws[j][m] = (*gmc10)->x()(j, 0);
  }
  const double a = math::VmfMeanResultantLength(d, 20.0);
  double max_z = 0;
  for (int j = 0; j < d; ++j) {
    double mean = 0, var = 0;
    for (double value : draws[j]) mean += value;
    mean /= n;
    for (double value : draws[j]) var += (value - mean) * (value - mean);
    var /= n - 1;
    const double ess_j = std::min<double>(eval::EffectiveSampleSize(draws[j]), n);
    max_z = std::max(max_z, std::abs(mean - a * mu10(j)) / std::sqrt(var / ess_j));
  }
  std::printf("gmc vMF d=10 kappa=20: max |z| of E[x] vs A_d(kappa) mu = %.2f\n", max_z);
  EXPECT_LT(max_z, 4.5);
}

// The slides' toy with exact gradients: GMC is exact, so the angle KS distance is sampling
// error only, below the bound CheckToyAngles derives from the chain's ESS at a false-failure
// rate of 1e-6 (was: below a fixed 0.02, and sqrt(ESS) D < 2.5); measured KS 0.0026, ESS
// 6800, bound 0.033. With acceptance ~0.99 the leapfrog integrator is nearly exact here, so
// a wrong Metropolis test (planted: inverted ratio, KS 0.017; kinetic energy dropped, 0.008)
// is not seen on the toy; SamplesVmfExactly catches both (max |z| 6.7 and 5.2 > 4.5).
TEST(GmcTest, ToyAngleMatchesExact) {
  ToyCircle model;
  auto gmc = Gmc::Create(model, Eigen::MatrixXd(Eigen::Vector2d(1, 0)), Options(0.2, 10, 9));
  ASSERT_TRUE(gmc.ok());
  const int n = 100000;
  std::vector<double> angles(n);
  for (int m = 0; m < n; ++m) {
    (*gmc)->Step();
    angles[m] = std::atan2((*gmc)->x()(1, 0), (*gmc)->x()(0, 0));
  }
  const ToyAngleKs ks = CheckToyAngles(angles, 1e-6);
  std::printf("gmc toy: KS = %.4f, ESS = %.0f, bound %.4f, acceptance = %.3f\n", ks.ks, ks.ess,
              ks.bound, static_cast<double>((*gmc)->accepted()) / n);
  EXPECT_LT(ks.ks, ks.bound);
}

TEST(GmcTest, CheckpointRoundTripIsBitIdentical) {
  ToyCircle model;
  const Eigen::MatrixXd x0 = Eigen::Vector2d(0, 1);
  auto a = Gmc::Create(model, x0, Options(0.3, 4));
  auto b = Gmc::Create(model, x0, Options(0.3, 4));
  ASSERT_TRUE(a.ok() && b.ok());
  for (int m = 0; m < 40; ++m) (*a)->Step();
  const SphereSamplerState state = (*a)->SaveState();
  for (int m = 0; m < 40; ++m) (*a)->Step();
  ASSERT_TRUE((*b)->RestoreState(state).ok());
  for (int m = 0; m < 40; ++m) (*b)->Step();
  EXPECT_TRUE((*a)->x() == (*b)->x());
  EXPECT_EQ((*a)->accepted(), (*b)->accepted());
  EXPECT_EQ((*a)->iteration(), 80);
  SphereSamplerState bad = state;
  bad.set_accepted(-1);
  EXPECT_FALSE((*b)->RestoreState(bad).ok());
}

}  // namespace
}  // namespace sgmcmc::samplers
