#include "samplers/embedded_sphere.h"

#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "Eigen/Dense"
#include "gtest/gtest.h"
#include "math/bessel.h"
#include "samplers/sphere_testing.h"

namespace sgmcmc::samplers {
namespace {

using Method = EmbeddedSphereSampler::Method;

GeodesicSamplerOptions Options(double h) {
  GeodesicSamplerOptions options;
  options.chain.step_size = StepSizeOptions::Constant(h);
  options.chain.seed = 13;
  options.friction = 1.0;
  options.inner_steps = 5;
  return options;
}

TEST(EmbeddedSphereTest, RejectsBadOptions) {
  VmfTarget model(Eigen::Vector3d(0, 0, 1), 5.0);
  const Eigen::MatrixXd x0 = Eigen::Vector3d(1, 0, 0);
  EXPECT_TRUE(EmbeddedSphereSampler::Create(Method::kSghmc, model, x0, Options(0.01)).ok());
  GeodesicSamplerOptions options = Options(0.01);
  options.friction = -1;
  EXPECT_FALSE(EmbeddedSphereSampler::Create(Method::kSgnht, model, x0, options).ok());
}

// The naive peers are first order: E[μᵀx] under vMF(μ, 5) on S² is A_3(5) up to an O(ε)
// bias; at ε = 0.01 it is within 0.01 (printed, with the ε = 0.1 bias for comparison).
TEST(EmbeddedSphereTest, VmfMeanIsCloseAtSmallStep) {
  const Eigen::Vector3d mu = Eigen::Vector3d(2, 1, 2) / 3;
  VmfTarget model(mu, 5.0);
  const double a = math::VmfMeanResultantLength(3, 5.0);
  for (Method method : {Method::kSghmc, Method::kSgnht}) {
    for (double h : {0.1, 0.01}) {
      auto s = EmbeddedSphereSampler::Create(method, model,
                                             Eigen::MatrixXd(Eigen::Vector3d(1, 0, 0)),
                                             Options(h));
      ASSERT_TRUE(s.ok());
      const int n = h == 0.1 ? 20000 : 100000;
      double sum = 0;
      for (int m = 0; m < n; ++m) {
        (*s)->Step();
        sum += mu.dot((*s)->x().col(0));
        ASSERT_NEAR((*s)->x().col(0).norm(), 1.0, 1e-12);
      }
      std::printf("%s vMF d=3 kappa=5 eps=%g: mu'E[x] = %.4f vs A = %.4f\n",
                  std::string((*s)->name()).c_str(), h, sum / n, a);
      if (h == 0.01) {
        EXPECT_NEAR(sum / n, a, 0.01);
      }
    }
  }
}

TEST(EmbeddedSphereTest, CheckpointRoundTripIsBitIdentical) {
  VmfTarget model(Eigen::Vector3d(0, 0.6, 0.8), 3.0);
  const Eigen::MatrixXd x0 = Eigen::Vector3d(1, 0, 0);
  for (Method method : {Method::kSghmc, Method::kSgnht}) {
    auto a = EmbeddedSphereSampler::Create(method, model, x0, Options(0.05));
    auto b = EmbeddedSphereSampler::Create(method, model, x0, Options(0.05));
    ASSERT_TRUE(a.ok() && b.ok());
    for (int m = 0; m < 30; ++m) (*a)->Step();
    const SphereSamplerState state = (*a)->SaveState();
    for (int m = 0; m < 30; ++m) (*a)->Step();
    ASSERT_TRUE((*b)->RestoreState(state).ok());
    for (int m = 0; m < 30; ++m) (*b)->Step();
    EXPECT_TRUE((*a)->x() == (*b)->x());
    EXPECT_TRUE((*a)->velocity() == (*b)->velocity());
    EXPECT_EQ((*a)->thermostat(), (*b)->thermostat());
  }
}

}  // namespace
}  // namespace sgmcmc::samplers
