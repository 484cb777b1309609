#include "rng/sphere_uniform.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "Eigen/Dense"
#include "gtest/gtest.h"
#include "rng/engine.h"
#include "testing/distribution_testing.h"

namespace sgmcmc::rng {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

VectorXd RandomUnitVector(Engine& engine, int dim) {
  VectorXd x(dim);
  SphereUniformSample(engine, x);
  return x;
}

// ‖(I - x xᵀ) ξ‖² ~ χ²_{d-1}: mean d - 1, variance 2(d - 1). z-test at the default
// false-failure rate over 20000 draws for each dimension and seed; each tangent vector is
// also orthogonal to x.
TEST(RandomTangentVectorTest, IsStandardNormalInTheTangentSpace) {
  constexpr int kDraws = 20000;
  for (int dim : {2, 3, 50}) {
    for (uint64_t seed : {1, 2}) {
      Engine engine(seed, dim);
      const VectorXd x = RandomUnitVector(engine, dim);
      VectorXd out(dim);
      std::vector<double> squared_norms(kDraws);
      for (double& q : squared_norms) {
        RandomTangentVector(engine, x, out);
        ASSERT_LE(std::fabs(x.dot(out)), 1e-14);
        q = out.squaredNorm();
      }
      const testing::TestResult result = testing::MeanZTest(squared_norms, dim - 1, 2.0 * (dim - 1));
      EXPECT_TRUE(result.Passed()) << "dim=" << dim << " " << result;
    }
  }
}

// Each coordinate of a uniform point on S^{d-1} has mean 0 and variance 1/d, and x_1² has
// variance 2(d-1)/(d²(d+2)) (x_1² ~ Beta(1/2, (d-1)/2)); z-tests at the default false-failure
// rate over 50000 draws, for several dimensions and seeds.
TEST(SphereUniformSampleTest, HasUniformMoments) {
  constexpr int kDraws = 50000;
  for (int dim : {2, 3, 30}) {
    for (uint64_t seed : {1, 2}) {
      Engine engine(seed, 100 + dim);
      VectorXd x(dim);
      std::vector<double> first(kDraws), first_squared(kDraws);
      for (int i = 0; i < kDraws; ++i) {
        SphereUniformSample(engine, x);
        ASSERT_NEAR(x.norm(), 1, 1e-15);
        first[i] = x[0];
        first_squared[i] = x[0] * x[0];
      }
      const double d = dim;
      const testing::TestResult mean = testing::MeanZTest(first, 0, 1 / d);
      EXPECT_TRUE(mean.Passed()) << "dim=" << dim << " " << mean;
      const testing::TestResult second =
          testing::MeanZTest(first_squared, 1 / d, 2 * (d - 1) / (d * d * (d + 2)));
      EXPECT_TRUE(second.Passed()) << "dim=" << dim << " " << second;
    }
  }
}

// Every column is the single-sphere draw on that column, from the same stream in column order.
TEST(RandomTangentColumnsTest, DrawsColumnByColumn) {
  const int dim = 8, k = 4;
  Engine engine(9);
  MatrixXd x(dim, k);
  for (int j = 0; j < k; ++j) x.col(j) = RandomUnitVector(engine, dim);
  Engine columns_engine(10), vectors_engine(10);
  MatrixXd v(dim, k);
  RandomTangentColumns(columns_engine, x, v);
  for (int j = 0; j < k; ++j) {
    EXPECT_NEAR(x.col(j).dot(v.col(j)), 0, 1e-14);
    VectorXd vj(dim);
    RandomTangentVector(vectors_engine, x.col(j), vj);
    EXPECT_EQ(v.col(j), vj);
  }
}

TEST(SphereUniformDeathTest, ChecksShapes) {
  Engine engine(1);
  VectorXd x = VectorXd::Ones(3), v(2);
  EXPECT_DEATH(RandomTangentVector(engine, x, v), "RandomTangentVector: sizes differ, 3 vs 2");
  MatrixXd a = MatrixXd::Ones(3, 2), b(3, 3);
  EXPECT_DEATH(RandomTangentColumns(engine, a, b), "RandomTangentColumns: shapes differ, 3x2 vs 3x3");
  VectorXd empty(0);
  EXPECT_DEATH(SphereUniformSample(engine, empty), "SphereUniformSample: the norm");
}

}  // namespace
}  // namespace sgmcmc::rng
