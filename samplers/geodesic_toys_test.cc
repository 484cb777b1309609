#include "samplers/geodesic_toys.h"

#include <cmath>
#include <vector>

#include "Eigen/Dense"
#include "gtest/gtest.h"

namespace sgmcmc::samplers {
namespace {

Eigen::Vector2d Dir(double t) { return {std::cos(t), std::sin(t)}; }

TEST(GeodesicToysTest, ToyDensityIsNormalisedAndGradientMatchesPotential) {
  double total = 0;
  const int n = 4000;
  for (int i = 0; i < n; ++i) total += ToyCircle::AngleDensity(-M_PI + (i + 0.5) * 2 * M_PI / n);
  EXPECT_NEAR(total * 2 * M_PI / n, 1.0, 1e-9);
  const ToyCircle toy;
  for (double t : {-2.0, 0.0, 1.0, 3.0}) {
    Eigen::MatrixXd grad(2, 1);
    toy.PriorPotentialGradient(Eigen::MatrixXd(Dir(t)), grad);
    const double h = 1e-6;
    const double fd = (ToyCircle::AnglePotential(t + h) - ToyCircle::AnglePotential(t - h)) / (2 * h);
    EXPECT_NEAR(grad.col(0).dot(Dir(t + M_PI / 2)), fd, 1e-6);
  }
}

TEST(GeodesicToysTest, SyntheticGradientAndMarginals) {
  const TwoVmfPosterior model(TwoVmfPosterior::Generate(1.0, -0.6, 4.0, 50, 2016), 1.0, 4.0);
  std::vector<int64_t> all(50);
  for (int i = 0; i < 50; ++i) all[i] = i;
  Eigen::MatrixXd x(2, 2), grad(2, 2);
  x << std::cos(0.3), std::cos(-0.9), std::sin(0.3), std::sin(-0.9);
  samplers::StochasticSphereGradient(model, x, all, grad);
  const double h = 1e-6;
  const double d1 = (model.AnglePotential(0.3 + h, -0.9) - model.AnglePotential(0.3 - h, -0.9)) / (2 * h);
  const double d2 = (model.AnglePotential(0.3, -0.9 + h) - model.AnglePotential(0.3, -0.9 - h)) / (2 * h);
  EXPECT_NEAR(grad.col(0).dot(Dir(0.3 + M_PI / 2)), d1, 1e-5 * (1 + std::abs(d1)));
  EXPECT_NEAR(grad.col(1).dot(Dir(-0.9 + M_PI / 2)), d2, 1e-5 * (1 + std::abs(d2)));
  const Eigen::MatrixXd marginals = model.ExactMarginals(200);
  EXPECT_NEAR(marginals.row(0).sum() * 2 * M_PI / 200, 1.0, 1e-12);
  EXPECT_NEAR(marginals.row(1).sum() * 2 * M_PI / 200, 1.0, 1e-12);
}

}  // namespace
}  // namespace sgmcmc::samplers
