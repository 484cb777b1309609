#include "linalg/lbfgs.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "Eigen/Dense"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "testing/distribution_testing.h"
#include "testing/random_inputs.h"

namespace sgmcmc::linalg {
namespace {

using ::sgmcmc::testing::RandomInputs;
using Eigen::MatrixXd;
using Eigen::VectorXd;
using InitialScaling = LbfgsOptions::InitialScaling;

struct Pair {
  VectorXd s;
  VectorXd y;  // damped
};

VectorXd RandomVector(RandomInputs& inputs, int dim) {
  VectorXd v(dim);
  for (int i = 0; i < dim; ++i) v[i] = inputs.Normal();
  return v;
}

// A random symmetric positive definite matrix with eigenvalues in [1, 10].
MatrixXd RandomSpdMatrix(RandomInputs& inputs, int dim) {
  MatrixXd g(dim, dim);
  for (int i = 0; i < dim * dim; ++i) g.data()[i] = inputs.Normal();
  const MatrixXd q = Eigen::HouseholderQR<MatrixXd>(g).householderQ();
  VectorXd eigenvalues(dim);
  for (int i = 0; i < dim; ++i) eigenvalues[i] = inputs.Uniform(1, 10);
  return q * eigenvalues.asDiagonal() * q.transpose();
}

// Eq. 6 applied densely to H⁰, oldest pair first.
MatrixXd DenseH(const std::vector<Pair>& pairs, const MatrixXd& h0) {
  const int dim = static_cast<int>(h0.rows());
  MatrixXd h = h0;
  for (const Pair& p : pairs) {
    const double rho = 1 / p.s.dot(p.y);
    const MatrixXd v = MatrixXd::Identity(dim, dim) - rho * p.y * p.s.transpose();
    h = v.transpose() * h * v + rho * p.s * p.s.transpose();
  }
  return h;
}

// Eq. 6 applied densely to H⁰ = γ I.
MatrixXd DenseH(const std::vector<Pair>& pairs, double gamma, int dim) {
  return DenseH(pairs, gamma * MatrixXd::Identity(dim, dim));
}

// The matrix of a linear map given by its action, column by column.
template <typename Apply>
MatrixXd DenseOf(int dim, Apply apply) {
  MatrixXd m(dim, dim);
  VectorXd e = VectorXd::Zero(dim);
  VectorXd out(dim);
  for (int i = 0; i < dim; ++i) {
    e[i] = 1;
    apply(e, out);
    m.col(i) = out;
    e[i] = 0;
  }
  return m;
}

double RelativeFrobenius(const MatrixXd& actual, const MatrixXd& expected) {
  return (actual - expected).norm() / expected.norm();
}

// Fills `lbfgs` with `count` pairs s ~ N(0, I), y = A s from a random SPD matrix A and returns
// the damped pairs that are in use (the last max_pairs).
std::vector<Pair> FillWithQuadraticPairs(RandomInputs& inputs, int count, Lbfgs& lbfgs) {
  const int dim = lbfgs.dim();
  const MatrixXd a = RandomSpdMatrix(inputs, dim);
  std::vector<Pair> all;
  for (int i = 0; i < count; ++i) {
    const VectorXd s = RandomVector(inputs, dim);
    const VectorXd y = a * s;
    EXPECT_TRUE(lbfgs.AddPair(s, y));
    all.push_back({s, y + lbfgs.options().damping * s});
  }
  const int kept = std::min(count, lbfgs.options().max_pairs);
  return std::vector<Pair>(all.end() - kept, all.end());
}

double NewestPairGamma(const std::vector<Pair>& pairs) {
  return pairs.back().s.dot(pairs.back().y) / pairs.back().y.squaredNorm();
}

// Relative errors of H g (for a random g), S Sᵀ and B H - I against the dense matrix h.
struct DenseErrors {
  double hg;
  double sst;
  double bh;
};
DenseErrors CompareWithDense(const Lbfgs& lbfgs, const MatrixXd& h, RandomInputs& inputs) {
  const int dim = lbfgs.dim();
  DenseErrors e;
  const VectorXd g = RandomVector(inputs, dim);
  VectorXd hg(dim);
  lbfgs.ApplyH(g, hg);
  e.hg = (hg - h * g).norm() / (h * g).norm();
  const MatrixXd s =
      DenseOf(dim, [&](const VectorXd& z, VectorXd& out) { lbfgs.ApplySqrtH(z, out); });
  e.sst = RelativeFrobenius(s * s.transpose(), h);
  const MatrixXd b =
      DenseOf(dim, [&](const VectorXd& x, VectorXd& out) { lbfgs.ApplyB(x, out); });
  e.bh = RelativeFrobenius(b * h, MatrixXd::Identity(dim, dim));
  return e;
}

// H g, S Sᵀ and B H against eq. 6 for D in 2..200, M in 2..6 (1..5 pairs), both scalings and
// with and without damping. Errors are relative (Euclidean / Frobenius norms).
TEST(LbfgsTest, MatchesDenseEquation6) {
  double max_hg = 0, max_sst = 0, max_bh = 0;
  for (int dim : {2, 3, 7, 20, 64, 200}) {
    for (int memory = 2; memory <= 6; ++memory) {
      for (const InitialScaling scaling : {InitialScaling::kFixed, InitialScaling::kNewestPair}) {
        for (const double damping : {0.0, 0.7}) {
          for (uint64_t seed : {1, 2}) {
            RandomInputs inputs(seed, 1000 * dim + 10 * memory);
            LbfgsOptions options;
            options.max_pairs = memory - 1;
            options.damping = damping;
            options.initial_scaling = scaling;
            options.gamma = 0.37;
            Lbfgs lbfgs(dim, options);
            // More pushes than slots, so the window has wrapped around.
            const std::vector<Pair> pairs = FillWithQuadraticPairs(inputs, memory + 2, lbfgs);
            ASSERT_EQ(lbfgs.num_pairs(), memory - 1);
            const double gamma =
                scaling == InitialScaling::kFixed ? 0.37 : NewestPairGamma(pairs);
            EXPECT_NEAR(lbfgs.gamma(), gamma, 1e-15 * gamma);
            const MatrixXd h = DenseH(pairs, gamma, dim);
            const DenseErrors e = CompareWithDense(lbfgs, h, inputs);
            EXPECT_LE(e.hg, 1e-10) << "dim=" << dim << " M=" << memory;
            EXPECT_LE(e.sst, 1e-10) << "dim=" << dim << " M=" << memory;
            EXPECT_LE(e.bh, 1e-10) << "dim=" << dim << " M=" << memory;
            max_hg = std::max(max_hg, e.hg);
            max_sst = std::max(max_sst, e.sst);
            max_bh = std::max(max_bh, e.bh);
          }
        }
      }
    }
  }
  std::printf("L-BFGS vs dense eq. 6: max relative error H g %.3g, S S^T %.3g, B H - I %.3g\n",
              max_hg, max_sst, max_bh);
}

// The same with H⁰ = diag(d), d spanning three orders of magnitude (the use in HAMCMC for
// matrix factorisation), set before and after the pairs are added, and back to γ I.
TEST(LbfgsTest, DiagonalInitialMatrixMatchesDenseEquation6) {
  for (int dim : {2, 7, 64}) {
    for (int memory = 2; memory <= 5; ++memory) {
      for (uint64_t seed : {3, 4}) {
        RandomInputs inputs(seed, 1000 * dim + 10 * memory);
        LbfgsOptions options;
        options.max_pairs = memory - 1;
        options.damping = 0.3;
        options.gamma = 0.37;
        Lbfgs lbfgs(dim, options);
        VectorXd d(dim);
        for (int i = 0; i < dim; ++i) d[i] = std::pow(10.0, inputs.Uniform(-3, 0));
        const bool before = seed == 3;
        if (before) lbfgs.SetInitialDiagonal(d);
        const std::vector<Pair> pairs = FillWithQuadraticPairs(inputs, memory + 1, lbfgs);
        if (!before) lbfgs.SetInitialDiagonal(d);
        ASSERT_EQ(lbfgs.initial_diagonal().size(), dim);
        const DenseErrors e = CompareWithDense(lbfgs, DenseH(pairs, MatrixXd(d.asDiagonal())),
                                               inputs);
        EXPECT_LE(e.hg, 1e-10) << "dim=" << dim << " M=" << memory;
        EXPECT_LE(e.sst, 1e-10) << "dim=" << dim << " M=" << memory;
        EXPECT_LE(e.bh, 1e-10) << "dim=" << dim << " M=" << memory;
        lbfgs.ClearInitialDiagonal();
        const DenseErrors scalar = CompareWithDense(lbfgs, DenseH(pairs, 0.37, dim), inputs);
        EXPECT_LE(scalar.sst, 1e-10) << "dim=" << dim << " M=" << memory;
      }
    }
  }
}

// The secant equation H y = s holds for the newest pair in use.
TEST(LbfgsTest, SatisfiesSecantEquationForNewestPair) {
  RandomInputs inputs(7);
  LbfgsOptions options;
  options.max_pairs = 4;
  Lbfgs lbfgs(30, options);
  const std::vector<Pair> pairs = FillWithQuadraticPairs(inputs, 4, lbfgs);
  VectorXd hy(30);
  lbfgs.ApplyH(pairs.back().y, hy);
  EXPECT_LE((hy - pairs.back().s).norm(), 1e-12 * pairs.back().s.norm());
}

TEST(LbfgsTest, EmptyMemoryIsScaledIdentity) {
  LbfgsOptions options;
  options.gamma = 2.5;
  options.initial_scaling = InitialScaling::kNewestPair;
  Lbfgs lbfgs(3, options);
  const VectorXd g = VectorXd::LinSpaced(3, 1, 3);
  VectorXd out(3);
  lbfgs.ApplyH(g, out);
  EXPECT_EQ(out, 2.5 * g);
  lbfgs.ApplySqrtH(g, out);
  EXPECT_EQ(out, std::sqrt(2.5) * g);
  lbfgs.ApplyB(g, out);
  EXPECT_TRUE(out.isApprox(g / 2.5, 1e-15)) << out.transpose();
}

// Pairs with sᵀy <= 1e-10 ‖s‖ ‖y‖ are skipped but take their slot; H stays positive definite
// and equals eq. 6 over the accepted pairs in the window.
TEST(LbfgsTest, SkippedPairsKeepHPositiveDefinite) {
  const int dim = 12;
  for (uint64_t seed : {1, 2, 3}) {
    RandomInputs inputs(seed);
    const MatrixXd a = RandomSpdMatrix(inputs, dim);
    LbfgsOptions options;
    options.max_pairs = 3;
    Lbfgs lbfgs(dim, options);
    std::vector<Pair> accepted;  // in the window
    const auto good = [&]() {
      const VectorXd s = RandomVector(inputs, dim);
      EXPECT_TRUE(lbfgs.AddPair(s, a * s));
      accepted.push_back({s, a * s});
    };
    good();
    const VectorXd s = RandomVector(inputs, dim);
    EXPECT_FALSE(lbfgs.AddPair(s, -(a * s)));        // negative curvature
    EXPECT_EQ(lbfgs.num_pairs(), 1);
    VectorXd orthogonal = RandomVector(inputs, dim);
    orthogonal -= orthogonal.dot(s) / s.squaredNorm() * s;
    EXPECT_FALSE(lbfgs.AddPair(s, orthogonal));       // sᵀy = 0 up to rounding
    EXPECT_EQ(lbfgs.num_pairs(), 1);
    good();  // the window is now {bad, bad, good}: the first good pair is evicted
    accepted.erase(accepted.begin());
    ASSERT_EQ(lbfgs.num_pairs(), 1);
    const MatrixXd h = DenseH(accepted, lbfgs.gamma(), dim);
    const MatrixXd dense = DenseOf(dim, [&](const VectorXd& g, VectorXd& out) {
      lbfgs.ApplyH(g, out);
    });
    EXPECT_LE(RelativeFrobenius(dense, h), 1e-12);
    const Eigen::SelfAdjointEigenSolver<MatrixXd> eigen(0.5 * (dense + dense.transpose()));
    EXPECT_GT(eigen.eigenvalues().minCoeff(), 0);
    const MatrixXd sqrt_h = DenseOf(dim, [&](const VectorXd& z, VectorXd& out) {
      lbfgs.ApplySqrtH(z, out);
    });
    EXPECT_LE(RelativeFrobenius(sqrt_h * sqrt_h.transpose(), h), 1e-12);
  }
}

TEST(LbfgsTest, RejectsDegenerateAndNonFinitePairs) {
  LbfgsOptions options;
  options.max_pairs = 5;
  Lbfgs lbfgs(2, options);
  const VectorXd zero = VectorXd::Zero(2);
  const VectorXd one = VectorXd::Ones(2);
  EXPECT_FALSE(lbfgs.AddPair(zero, one));
  EXPECT_FALSE(lbfgs.AddPair(one, zero));
  EXPECT_FALSE(lbfgs.AddPair(one, VectorXd::Constant(2, NAN)));
  EXPECT_FALSE(lbfgs.AddPair(one, VectorXd::Constant(2, INFINITY)));
  // Just below and just above the curvature threshold: s = (1, 0), y = (c, 1), sᵀy = c,
  // 1e-10 ‖s‖ ‖y‖ = 1e-10 √(1 + c²).
  VectorXd s(2), y(2);
  s << 1, 0;
  y << 0.99e-10, 1;
  EXPECT_FALSE(lbfgs.AddPair(s, y));
  y << 1.01e-10, 1;
  EXPECT_TRUE(lbfgs.AddPair(s, y));
  EXPECT_EQ(lbfgs.num_pairs(), 1);
  // Damping rescues a flat direction: y + λ s has sᵀ(y + λ s) = λ ‖s‖².
  LbfgsOptions damped = options;
  damped.damping = 0.1;
  Lbfgs lbfgs_damped(2, damped);
  EXPECT_TRUE(lbfgs_damped.AddPair(one, zero));
}

TEST(LbfgsTest, ClearForgetsPairs) {
  RandomInputs inputs(3);
  LbfgsOptions options;
  options.max_pairs = 2;
  Lbfgs lbfgs(5, options);
  FillWithQuadraticPairs(inputs, 2, lbfgs);
  lbfgs.Clear();
  EXPECT_EQ(lbfgs.num_pairs(), 0);
  const VectorXd g = RandomVector(inputs, 5);
  VectorXd out(5);
  lbfgs.ApplyH(g, out);
  EXPECT_EQ(out, g);
}

TEST(LbfgsTest, OutputMayAliasInput) {
  RandomInputs inputs(4);
  LbfgsOptions options;
  options.max_pairs = 3;
  Lbfgs lbfgs(9, options);
  FillWithQuadraticPairs(inputs, 3, lbfgs);
  const VectorXd g = RandomVector(inputs, 9);
  VectorXd expected(9);
  VectorXd in_place = g;
  lbfgs.ApplyH(g, expected);
  lbfgs.ApplyH(in_place, in_place);
  EXPECT_EQ(in_place, expected);
  in_place = g;
  lbfgs.ApplySqrtH(g, expected);
  lbfgs.ApplySqrtH(in_place, in_place);
  EXPECT_EQ(in_place, expected);
  in_place = g;
  lbfgs.ApplyB(g, expected);
  lbfgs.ApplyB(in_place, in_place);
  EXPECT_EQ(in_place, expected);
}

// S z for z ~ N(0, I) has covariance H. With n draws x_k = S z_k and known mean 0, the
// estimate C_ij = (1/n) Σ_k x_ki x_kj has variance (H_ii H_jj + H_ij²)/n, so
// (C_ij - H_ij) / sd is asymptotically N(0, 1) (n = 1e5, so the CLT is accurate far into
// the tails). Each of the D(D+1)/2 entries is z-tested at level kFalseFailureRate / #entries
// (Bonferroni), so a correct factor fails a configuration with probability <= 1e-6.
void ExpectSqrtHNoiseHasCovariance(const Lbfgs& lbfgs, const MatrixXd& h, RandomInputs& inputs,
                                   const std::string& label) {
  constexpr int kDraws = 100000;
  const int dim = lbfgs.dim();
  MatrixXd c = MatrixXd::Zero(dim, dim);
  VectorXd z(dim), x(dim);
  for (int k = 0; k < kDraws; ++k) {
    inputs.FillNormal(absl::MakeSpan(z.data(), dim));
    lbfgs.ApplySqrtH(z, x);
    c.selfadjointView<Eigen::Lower>().rankUpdate(x);
  }
  c /= kDraws;
  const int entries = dim * (dim + 1) / 2;
  for (int i = 0; i < dim; ++i) {
    for (int j = 0; j <= i; ++j) {
      const double sd = std::sqrt((h(i, i) * h(j, j) + h(i, j) * h(i, j)) / kDraws);
      const double z_score = (c(i, j) - h(i, j)) / sd;
      EXPECT_GE(testing::TwoSidedNormalPValue(z_score), testing::kFalseFailureRate / entries)
          << label << " entry (" << i << ", " << j << "): estimate " << c(i, j) << " vs H "
          << h(i, j);
    }
  }
}

TEST(LbfgsTest, SqrtHNoiseHasCovarianceH) {
  for (int dim : {2, 5}) {
    for (int memory : {2, 4, 6}) {
      for (uint64_t seed : {11, 12}) {
        RandomInputs inputs(seed, 10 * dim + memory);
        LbfgsOptions options;
        options.max_pairs = memory - 1;
        options.initial_scaling = InitialScaling::kNewestPair;
        Lbfgs lbfgs(dim, options);
        const std::vector<Pair> pairs = FillWithQuadraticPairs(inputs, memory - 1, lbfgs);
        ExpectSqrtHNoiseHasCovariance(
            lbfgs, DenseH(pairs, lbfgs.gamma(), dim), inputs,
            absl::StrCat("dim=", dim, " M=", memory, " seed=", seed));
      }
    }
  }
}

// The same with a diagonal H⁰ spanning two orders of magnitude (same derivation and level).
TEST(LbfgsTest, SqrtHNoiseHasCovarianceHWithDiagonalH0) {
  for (int dim : {2, 5}) {
    for (int memory : {2, 4}) {
      RandomInputs inputs(21, 10 * dim + memory);
      LbfgsOptions options;
      options.max_pairs = memory - 1;
      options.damping = 0.5;
      Lbfgs lbfgs(dim, options);
      VectorXd d(dim);
      for (int i = 0; i < dim; ++i) d[i] = std::pow(10.0, inputs.Uniform(-2, 0));
      lbfgs.SetInitialDiagonal(d);
      const std::vector<Pair> pairs = FillWithQuadraticPairs(inputs, memory - 1, lbfgs);
      ExpectSqrtHNoiseHasCovariance(lbfgs, DenseH(pairs, MatrixXd(d.asDiagonal())), inputs,
                                    absl::StrCat("diagonal H0, dim=", dim, " M=", memory));
    }
  }
}

TEST(LbfgsTest, CreateValidatesOptions) {
  LbfgsOptions options;
  EXPECT_TRUE(Lbfgs::Create(3, options).ok());
  EXPECT_EQ(Lbfgs::Create(0, options).status().code(), absl::StatusCode::kInvalidArgument);
  options.max_pairs = 0;
  EXPECT_NE(Lbfgs::Create(3, options).status().message().find("max_pairs"), std::string::npos);
  options = LbfgsOptions();
  options.damping = -1;
  EXPECT_NE(Lbfgs::Create(3, options).status().message().find("damping"), std::string::npos);
  options = LbfgsOptions();
  options.gamma = 0;
  EXPECT_NE(Lbfgs::Create(3, options).status().message().find("gamma"), std::string::npos);
  options = LbfgsOptions();
  options.curvature_threshold = 1;
  EXPECT_NE(Lbfgs::Create(3, options).status().message().find("curvature_threshold"),
            std::string::npos);
}

TEST(LbfgsDeathTest, ChecksPreconditions) {
  LbfgsOptions bad;
  bad.max_pairs = LbfgsOptions::kMaxPairs + 1;
  EXPECT_DEATH(Lbfgs(3, bad), "LbfgsOptions.max_pairs must be in");
  EXPECT_DEATH(Lbfgs(0, LbfgsOptions()), "Lbfgs: dim must be >= 1");
  Lbfgs lbfgs(3, LbfgsOptions());
  VectorXd small(2), ok(3);
  EXPECT_DEATH(lbfgs.AddPair(small, ok), "Lbfgs::AddPair: s has size 2, expected dim 3");
  EXPECT_DEATH(lbfgs.ApplyH(ok, small), "Lbfgs::ApplyH: out has size 2");
  EXPECT_DEATH(lbfgs.ApplySqrtH(small, ok), "Lbfgs::ApplySqrtH: z has size 2");
  EXPECT_DEATH(lbfgs.ApplyB(small, ok), "Lbfgs::ApplyB: x has size 2");
  EXPECT_DEATH(lbfgs.SetInitialDiagonal(small), "SetInitialDiagonal: diagonal has size 2");
  EXPECT_DEATH(lbfgs.SetInitialDiagonal(VectorXd::Zero(3)), "entry 0 is 0, expected finite");
}

}  // namespace
}  // namespace sgmcmc::linalg
