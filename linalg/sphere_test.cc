#include "linalg/sphere.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "Eigen/Dense"
#include "absl/types/span.h"
#include "gtest/gtest.h"
#include "testing/random_inputs.h"

namespace sgmcmc::linalg {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

using ::sgmcmc::testing::RandomInputs;

VectorXd RandomUnitVector(RandomInputs& inputs, int dim) {
  VectorXd x(dim);
  inputs.FillNormal(absl::MakeSpan(x.data(), dim));
  NormalizeToSphere(x);
  return x;
}

// A normal vector of the tangent space at x (the draws themselves are //rng:sphere_uniform).
void RandomTangent(RandomInputs& inputs, const VectorXd& x, Eigen::Ref<VectorXd> v) {
  inputs.FillNormal(absl::MakeSpan(v.data(), v.size()));
  ProjectToTangent(x, v);
}

struct Drift {
  double norm = 0;              // max |‖x‖ - 1|
  double tangent = 0;           // max |xᵀv|
  double tangent_relative = 0;  // max |xᵀv| / ‖v‖ (large only when ‖v‖ passes near 0)
  void Update(const VectorXd& x, const VectorXd& v) {
    norm = std::max(norm, std::fabs(x.norm() - 1));
    tangent = std::max(tangent, std::fabs(x.dot(v)));
    tangent_relative = std::max(tangent_relative, std::fabs(x.dot(v)) / v.norm());
  }
  void Print(const char* what, int dim, int steps) const {
    std::printf("dim %d, %d %s: max |‖x‖-1| = %.3g, max |xᵀv| = %.3g, max |xᵀv|/‖v‖ = %.3g\n",
                dim, steps, what, norm, tangent, tangent_relative);
  }
};

// 10⁶ steps of the SGGMC pattern A-O-A with random velocities and step sizes and no
// renormalisation: A = flow for a random time in (0, 1), O = v ← ρ v + √(1 - ρ²) ξ with a
// fresh tangent normal ξ (so v's own rounding errors are carried along, damped by ρ).
TEST(GeodesicFlowTest, MillionStepsKeepTheInvariantsWithoutRenormalisation) {
  constexpr int kSteps = 1000000;
  constexpr double kRho = 0.9;
  const double refresh = std::sqrt(1 - kRho * kRho);
  for (int dim : {2, 3, 10}) {
    RandomInputs inputs(/*seed=*/2024, dim);
    VectorXd x = RandomUnitVector(inputs, dim);
    VectorXd v(dim), xi(dim);
    RandomTangent(inputs, x, v);
    Drift drift;
    for (int step = 0; step < kSteps; ++step) {
      GeodesicFlow(0.5 * inputs.Uniform(), x, v);
      RandomTangent(inputs, x, xi);
      v = kRho * v + refresh * xi;
      GeodesicFlow(0.5 * inputs.Uniform(), x, v);
      drift.Update(x, v);
    }
    drift.Print("A-O-A steps", dim, kSteps);
    EXPECT_LE(drift.norm, 1e-10);
    EXPECT_LE(drift.tangent, 1e-10);
  }
}

// The flow alone, 10⁶ steps with random times (either sign) and the velocity never refreshed:
// every rounding error stays in the state.
TEST(GeodesicFlowTest, MillionPureFlowStepsKeepTheInvariants) {
  constexpr int kSteps = 1000000;
  RandomInputs inputs(/*seed=*/77);
  const int dim = 10;
  VectorXd x = RandomUnitVector(inputs, dim);
  VectorXd v(dim);
  RandomTangent(inputs, x, v);
  const double speed = v.norm();
  Drift drift;
  for (int step = 0; step < kSteps; ++step) {
    GeodesicFlow(inputs.Uniform(-2, 2), x, v);
    drift.Update(x, v);
  }
  drift.Print("pure flow steps", dim, kSteps);
  std::printf("  speed drift |‖v‖/‖v0‖-1| = %.3g\n", std::fabs(v.norm() / speed - 1));
  EXPECT_LE(drift.norm, 1e-10);
  EXPECT_LE(drift.tangent, 1e-10);
  EXPECT_LE(std::fabs(v.norm() / speed - 1), 1e-10);
}

TEST(GeodesicFlowTest, ForwardThenBackwardReturnsAndPreservesSpeed) {
  for (int dim : {2, 5, 100}) {
    for (uint64_t seed : {1, 2, 3}) {
      RandomInputs inputs(seed, dim);
      const VectorXd x0 = RandomUnitVector(inputs, dim);
      VectorXd v0(dim);
      RandomTangent(inputs, x0, v0);
      for (double t : {1e-9, 0.3, 2.0, 17.5}) {
        VectorXd x = x0, v = v0;
        GeodesicFlow(t, x, v);
        EXPECT_NEAR(v.norm(), v0.norm(), 1e-14 * v0.norm());
        EXPECT_NEAR(x.norm(), 1, 1e-14);
        GeodesicFlow(-t, x, v);
        EXPECT_LE((x - x0).norm(), 1e-13) << "dim=" << dim << " t=" << t;
        EXPECT_LE((v - v0).norm(), 1e-13 * v0.norm()) << "dim=" << dim << " t=" << t;
      }
    }
  }
}

// Along a geodesic the distance travelled is ‖v‖ |t| (up to π), and flows compose.
TEST(GeodesicFlowTest, IsAGeodesic) {
  RandomInputs inputs(5);
  const VectorXd x0 = RandomUnitVector(inputs, 6);
  VectorXd v0(6);
  RandomTangent(inputs, x0, v0);
  v0 *= 0.7 / v0.norm();
  for (double t : {0.01, 1.0, 3.0, -2.0}) {
    VectorXd x = x0, v = v0;
    GeodesicFlow(t, x, v);
    EXPECT_NEAR(SphereDistance(x0, x), 0.7 * std::fabs(t), 1e-14);
    VectorXd x2 = x0, v2 = v0;
    GeodesicFlow(0.25 * t, x2, v2);
    GeodesicFlow(0.75 * t, x2, v2);
    EXPECT_LE((x2 - x).norm(), 1e-14);
    EXPECT_LE((v2 - v).norm(), 1e-14);
  }
}

TEST(GeodesicFlowTest, CircleIsARotation) {
  VectorXd x(2), v(2);
  x << 1, 0;
  v << 0, 2;  // speed 2: angle 2t
  GeodesicFlow(0.3, x, v);
  EXPECT_NEAR(x[0], std::cos(0.6), 1e-15);
  EXPECT_NEAR(x[1], std::sin(0.6), 1e-15);
  EXPECT_NEAR(v[0], -2 * std::sin(0.6), 1e-15);
  EXPECT_NEAR(v[1], 2 * std::cos(0.6), 1e-15);
}

TEST(GeodesicFlowTest, ZeroVelocityIsAFixedPoint) {
  VectorXd x(3), v = VectorXd::Zero(3);
  x << 0.6, 0, 0.8;
  const VectorXd x0 = x;
  GeodesicFlow(5.0, x, v);
  EXPECT_EQ(x, x0);
  EXPECT_EQ(v, VectorXd::Zero(3));
  v << 0, 1e-310, 0;  // ‖v‖² underflows to 0: still no division by zero
  GeodesicFlow(1.0, x, v);
  EXPECT_EQ(x, x0);
  EXPECT_TRUE(v.allFinite());
  v << 0, 1e-150, 0;  // tiny but representable speed: x moves by 1e-150 along v
  GeodesicFlow(1.0, x, v);
  EXPECT_EQ(x[0], x0[0]);
  EXPECT_EQ(x[2], x0[2]);
  EXPECT_NEAR(x[1], 1e-150, 1e-165);
  EXPECT_NEAR(v[1], 1e-150, 1e-165);
}

TEST(ProjectToTangentTest, ExactEvenOffTheUnitSphere) {
  VectorXd x(2), v(2);
  x << 3, 4;  // ‖x‖ = 5
  v << 1, 1;
  ProjectToTangent(x, v);
  EXPECT_NEAR(x.dot(v), 0, 1e-15);
  EXPECT_NEAR(v[0], 0.16, 1e-15);
  EXPECT_NEAR(v[1], -0.12, 1e-15);
}

TEST(ProjectToTangentTest, RemovesTheNormalComponent) {
  RandomInputs inputs(8);
  const VectorXd x = RandomUnitVector(inputs, 7);
  VectorXd v(7);
  inputs.FillNormal(absl::MakeSpan(v.data(), 7));
  const VectorXd original = v;
  ProjectToTangent(x, v);
  EXPECT_NEAR(x.dot(v), 0, 1e-15);
  EXPECT_LE((original - v - x.dot(original) * x).norm(), 1e-15);
  const VectorXd once = v;
  ProjectToTangent(x, v);  // idempotent
  EXPECT_LE((v - once).norm(), 1e-15);
}

TEST(SphereDistanceTest, AccurateForNearAndAntipodalPoints) {
  VectorXd x(3), y(3);
  x << 1, 0, 0;
  y << std::cos(1e-9), std::sin(1e-9), 0;
  EXPECT_NEAR(SphereDistance(x, y), 1e-9, 1e-24);
  y << -1, 0, 0;
  EXPECT_DOUBLE_EQ(SphereDistance(x, y), M_PI);
  y << std::cos(2.0), 0, std::sin(2.0);
  EXPECT_NEAR(SphereDistance(x, y), 2.0, 1e-15);
  EXPECT_EQ(SphereDistance(x, x), 0);
}

TEST(NormalizeToSphereTest, ReturnsNormAndNormalises) {
  VectorXd x(2);
  x << 3, 4;
  EXPECT_DOUBLE_EQ(NormalizeToSphere(x), 5);
  EXPECT_DOUBLE_EQ(x[0], 0.6);
  EXPECT_DOUBLE_EQ(x[1], 0.8);
}

// K spheres as columns: every operation equals the single-sphere one on each column, and rows
// of a row-major matrix work through its transpose.
TEST(ProductOfSpheresTest, ActsColumnByColumn) {
  RandomInputs inputs(9);
  const int dim = 8, k = 4;
  MatrixXd x(dim, k);
  inputs.FillNormal(absl::MakeSpan(x.data(), x.size()));
  NormalizeColumnsToSphere(x);
  MatrixXd v(dim, k);
  for (int j = 0; j < k; ++j) RandomTangent(inputs, x.col(j), v.col(j));
  for (int j = 0; j < k; ++j) {
    EXPECT_NEAR(x.col(j).norm(), 1, 1e-15);
    EXPECT_NEAR(x.col(j).dot(v.col(j)), 0, 1e-14);
  }
  MatrixXd x1 = x, v1 = v;
  GeodesicFlowColumns(0.4, x1, v1);
  for (int j = 0; j < k; ++j) {
    VectorXd xj = x.col(j), vj = v.col(j);
    GeodesicFlow(0.4, xj, vj);
    EXPECT_EQ(x1.col(j), xj);
    EXPECT_EQ(v1.col(j), vj);
  }
  double sum = 0;
  for (int j = 0; j < k; ++j) sum += std::pow(SphereDistance(x.col(j), x1.col(j)), 2);
  EXPECT_DOUBLE_EQ(ProductSphereDistance(x, x1), std::sqrt(sum));

  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  RowMajor rows_x = x.transpose(), rows_v = v.transpose();
  GeodesicFlowColumns(0.4, rows_x.transpose(), rows_v.transpose());
  EXPECT_EQ(MatrixXd(rows_x.transpose()), x1);
  EXPECT_EQ(MatrixXd(rows_v.transpose()), v1);
  MatrixXd w = MatrixXd::Ones(dim, k);
  ProjectColumnsToTangent(x, w);
  for (int j = 0; j < k; ++j) EXPECT_NEAR(x.col(j).dot(w.col(j)), 0, 1e-15);
}

TEST(SphereDeathTest, ChecksShapes) {
  VectorXd x = VectorXd::Ones(3), v = VectorXd::Ones(2);
  EXPECT_DEATH(GeodesicFlow(1.0, x, v), "GeodesicFlow: sizes differ, 3 vs 2");
  EXPECT_DEATH(ProjectToTangent(x, v), "ProjectToTangent: sizes differ");
  VectorXd zero = VectorXd::Zero(3);
  EXPECT_DEATH(NormalizeToSphere(zero), "NormalizeToSphere: the norm must be positive");
  MatrixXd a(3, 2), b(3, 3);
  EXPECT_DEATH(GeodesicFlowColumns(1.0, a, b), "GeodesicFlowColumns: shapes differ, 3x2 vs 3x3");
}

}  // namespace
}  // namespace sgmcmc::linalg
