#include "linalg/simplex_maps.h"

#include <cmath>
#include <numeric>
#include <vector>

#include "Eigen/Dense"
#include "absl/types/span.h"
#include "gtest/gtest.h"
#include "linalg/sphere.h"
#include "math/special_functions.h"
#include "testing/distribution_testing.h"
#include "testing/numeric_testing.h"
#include "testing/random_inputs.h"

namespace sgmcmc::linalg {
namespace {

using ::sgmcmc::testing::RandomInputs;
using ::sgmcmc::testing::IsNearRelative;
using Eigen::VectorXd;

VectorXd RandomUnitVector(RandomInputs& inputs, int dim) {
  VectorXd x(dim);
  inputs.FillNormal(absl::MakeSpan(x.data(), dim));
  NormalizeToSphere(x);
  return x;
}

// log Dir(θ | α) = log Γ(Σα) - Σ log Γ(α_i) + Σ (α_i - 1) log θ_i.
double DirichletLogPdfAt(const VectorXd& theta, const std::vector<double>& alpha) {
  double alpha_total = 0, log_density = 0;
  for (size_t i = 0; i < alpha.size(); ++i) {
    alpha_total += alpha[i];
    log_density += (alpha[i] - 1) * std::log(theta[i]) - math::LogGamma(alpha[i]);
  }
  return log_density + math::LogGamma(alpha_total);
}

// log of the uniform density on S^{K-1}: log(Γ(K/2) / (2 π^{K/2})).
double LogUniformSphereDensity(int k) {
  return math::LogGamma(0.5 * k) - M_LN2 - 0.5 * k * std::log(M_PI);
}

TEST(ExpandedMeanTest, MirrorsAndNormalises) {
  VectorXd theta(4);
  theta << 0.5, -1.5, 0.0, 2.0;
  VectorXd omega(4);
  ExpandedMeanToSimplex(theta, omega);
  EXPECT_DOUBLE_EQ(omega.sum(), 1.0);
  EXPECT_EQ(omega, (VectorXd(4) << 0.125, 0.375, 0.0, 0.5).finished());
  MirrorToPositive(theta);
  EXPECT_EQ(theta, (VectorXd(4) << 0.5, 1.5, 0.0, 2.0).finished());
  ExpandedMeanToSimplex(theta, theta);  // in place
  EXPECT_EQ(theta, omega);
}

TEST(ExpandedMeanDeathTest, RejectsZeroOrNonFiniteTotal) {
  VectorXd zero = VectorXd::Zero(3), omega(3);
  EXPECT_DEATH(ExpandedMeanToSimplex(zero, omega), "sum of \\|theta\\| must be positive");
  VectorXd inf = VectorXd::Constant(3, INFINITY);
  EXPECT_DEATH(ExpandedMeanToSimplex(inf, omega), "must be positive and finite");
  VectorXd wrong(2);
  EXPECT_DEATH(ExpandedMeanToSimplex(omega, wrong), "sizes differ, 3 vs 2");
}

TEST(SphereToSimplexTest, LandsOnTheSimplex) {
  RandomInputs inputs(1);
  for (int k : {2, 3, 17}) {
    const VectorXd x = RandomUnitVector(inputs, k);
    VectorXd theta(k);
    SphereToSimplex(x, theta);
    EXPECT_NEAR(theta.sum(), 1, 1e-15);
    EXPECT_GE(theta.minCoeff(), 0);
    EXPECT_EQ(theta, x.cwiseAbs2());
  }
}

// Dirichlet(1/2, ..., 1/2) on the simplex is exactly the image of the uniform distribution on
// the sphere, so its sphere density must be Γ(K/2)/(2π^{K/2}) everywhere.
TEST(SphereToSimplexTest, HalfDirichletIsUniformOnTheSphere) {
  RandomInputs inputs(2);
  for (int k : {2, 3, 5, 40}) {
    const std::vector<double> half(k, 0.5);
    for (int trial = 0; trial < 20; ++trial) {
      const VectorXd x = RandomUnitVector(inputs, k);
      VectorXd theta(k);
      SphereToSimplex(x, theta);
      EXPECT_TRUE(IsNearRelative(SphereLogDensityFromSimplex(DirichletLogPdfAt(theta, half), x),
                                 LogUniformSphereDensity(k), 1e-12, 1.0))
          << "K=" << k;
    }
  }
}

TEST(SphereToSimplexTest, LogJacobianValue) {
  VectorXd x(3);
  x << 0.6, -0.8, 0.0;
  EXPECT_EQ(SphereToSimplexLogJacobian(x), -INFINITY);
  x << 0.6, -0.8, 1e-3;
  EXPECT_NEAR(SphereToSimplexLogJacobian(x),
              2 * M_LN2 + std::log(0.6) + std::log(0.8) + std::log(1e-3), 1e-14);
}

// Importance sampling from the uniform distribution on S^{K-1}:
// E_unif[w(x) f(x∘x)] = E_Dir(α)[f(θ)] with w = p_S(x) / p_unif(x). For f = θ_1 the right side
// is α_1/Σα, and E_unif[w] = 1. With α_j >= 1 the weights are bounded, so the mean z-test
// (with the sample variance, n = 200000) holds its false-failure rate of 1e-6 per test.
TEST(SphereToSimplexTest, ImportanceWeightsReproduceDirichletMoments) {
  constexpr int kDraws = 200000;
  for (const std::vector<double>& alpha :
       {std::vector<double>{2.0, 3.0, 1.5}, std::vector<double>{1.0, 1.0, 4.0, 2.5}}) {
    const int k = alpha.size();
    const double alpha_total = std::accumulate(alpha.begin(), alpha.end(), 0.0);
    RandomInputs inputs(3, k);
    std::vector<double> weights(kDraws), weighted_theta1(kDraws);
    VectorXd theta(k);
    for (int i = 0; i < kDraws; ++i) {
      const VectorXd x = RandomUnitVector(inputs, k);
      SphereToSimplex(x, theta);
      const double log_w = SphereLogDensityFromSimplex(DirichletLogPdfAt(theta, alpha), x) -
                           LogUniformSphereDensity(k);
      weights[i] = std::exp(log_w);
      weighted_theta1[i] = weights[i] * theta[0];
    }
    for (const auto& [draws, mean] :
         {std::pair{&weights, 1.0}, std::pair{&weighted_theta1, alpha[0] / alpha_total}}) {
      const testing::SampleMoments m = testing::ComputeMoments(*draws);
      const testing::TestResult result = testing::MeanZTest(*draws, mean, m.variance);
      EXPECT_TRUE(result.Passed()) << "K=" << k << " " << result;
    }
  }
}

// The gradient of x ↦ log p(x∘x) + Σ log|x_i| for p ∝ Π θ_i^{α_i - 1} (so ∇_θ log p =
// (α - 1)/θ), against central finite differences in the embedding coordinates.
TEST(SphereToSimplexTest, GradientMatchesFiniteDifferences) {
  RandomInputs inputs(4);
  const VectorXd alpha = (VectorXd(4) << 0.3, 1.0, 2.5, 7.0).finished();
  const auto log_density = [&](const VectorXd& x) {
    return ((alpha.array() - 1) * x.cwiseAbs2().array().log()).sum() +
           x.cwiseAbs().array().log().sum();
  };
  for (int trial = 0; trial < 5; ++trial) {
    const VectorXd x = RandomUnitVector(inputs, 4);
    const VectorXd theta = x.cwiseAbs2();
    const VectorXd simplex_gradient = (alpha.array() - 1) / theta.array();
    VectorXd gradient(4);
    SphereLogDensityGradientFromSimplex(x, simplex_gradient, gradient);
    for (int i = 0; i < 4; ++i) {
      const double h = 1e-6 * std::fabs(x[i]);
      VectorXd plus = x, minus = x;
      plus[i] += h;
      minus[i] -= h;
      const double numeric = (log_density(plus) - log_density(minus)) / (2 * h);
      // Central differences: error O(h² f''') ~ 1e-9 relative here.
      EXPECT_TRUE(IsNearRelative(gradient[i], numeric, 1e-6, 1.0)) << "i=" << i;
    }
  }
}

TEST(SimplexMapsDeathTest, ChecksSizes) {
  VectorXd a(3), b(2);
  EXPECT_DEATH(SphereToSimplex(a, b), "SphereToSimplex: sizes differ, 3 vs 2");
  EXPECT_DEATH(SphereLogDensityGradientFromSimplex(a, b, a),
               "SphereLogDensityGradientFromSimplex: sizes differ");
}

}  // namespace
}  // namespace sgmcmc::linalg
