#include "rng/von_mises_fisher.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "boost/math/special_functions/bessel.hpp"
#include "gtest/gtest.h"
#include "rng/normal.h"
#include "testing/distribution_testing.h"

namespace sgmcmc::rng {
namespace {

// Each statistical check fails a correct sampler with probability testing::kFalseFailureRate
// = 1e-6; this file runs 282 of them: false-failure rate < 3e-4 per run (Bonferroni). Norm
// and finiteness checks are exact.

constexpr uint64_t kSeeds[] = {1, 2, 3};

// A_d(kappa) = I_{d/2}(kappa) / I_{d/2-1}(kappa) by the continued fraction
// I_{v+1}/I_v = 1 / (2(v+1)/x + 1 / (2(v+2)/x + ...)) (modified Lentz), which needs no
// exponentially large Bessel values and so works for kappa = 1e5; checked against Boost
// below.
double MeanResultantLength(int d, double kappa) {
  const double nu = 0.5 * d - 1;
  constexpr double kTiny = 1e-300;
  double f = kTiny, c = f, dd = 0;
  for (int j = 1; j < 100000000; ++j) {
    const double bj = 2 * (nu + j) / kappa;
    dd = bj + dd;
    if (dd == 0) dd = kTiny;
    c = bj + 1 / c;
    if (c == 0) c = kTiny;
    dd = 1 / dd;
    const double delta = c * dd;
    f *= delta;
    if (std::fabs(delta - 1) < 1e-16) break;
  }
  return f;
}

// Var(w) = 1 - (d - 1) A / kappa - A^2 (from E[w^2] = 1 - (d - 1) A / kappa); 1/d at 0.
double ComponentVariance(int d, double kappa) {
  if (kappa == 0) return 1.0 / d;
  const double a = MeanResultantLength(d, kappa);
  return 1 - (d - 1) * a / kappa - a * a;
}

TEST(MeanResultantLengthTest, MatchesBoostAndClosedForm) {
  for (int d : {2, 3, 5, 10, 100}) {
    for (double kappa : {1e-3, 0.5, 7.0, 120.0, 600.0}) {
      const double nu = 0.5 * d - 1;
      const double expected =
          boost::math::cyl_bessel_i(nu + 1, kappa) / boost::math::cyl_bessel_i(nu, kappa);
      EXPECT_NEAR(MeanResultantLength(d, kappa), expected, 1e-12 * expected)
          << "d=" << d << " kappa=" << kappa;
    }
  }
  // d = 3: A_3(kappa) = coth(kappa) - 1 / kappa.
  for (double kappa : {0.3, 50.0, 1e4, 1e5}) {
    EXPECT_NEAR(MeanResultantLength(3, kappa), 1 / std::tanh(kappa) - 1 / kappa, 1e-13)
        << "kappa=" << kappa;
  }
}

// Mean directions that exercise both Householder branches and the axis-aligned cases.
std::vector<double> MeanDirection(int d, int which) {
  std::vector<double> mu(d, 0.0);
  if (which == 0) {
    mu[0] = 1;
  } else if (which == 1) {
    mu[0] = -1;
  } else {
    Engine engine(77, d);
    double norm_sq = 0;
    for (double& m : mu) {
      m = NormalSample(engine);
      norm_sq += m * m;
    }
    for (double& m : mu) m /= std::sqrt(norm_sq);
    if (which == 3) mu[0] = -std::fabs(mu[0]);  // same norm, negative first component
  }
  return mu;
}

// A unit vector orthogonal to mu (Gram-Schmidt of a fixed random vector).
std::vector<double> Orthogonal(const std::vector<double>& mu, uint64_t salt) {
  Engine engine(88, salt);
  std::vector<double> e(mu.size());
  for (double& x : e) x = NormalSample(engine);
  double dot = 0, norm_sq = 0;
  for (size_t i = 0; i < mu.size(); ++i) dot += e[i] * mu[i];
  for (size_t i = 0; i < mu.size(); ++i) {
    e[i] -= dot * mu[i];
    norm_sq += e[i] * e[i];
  }
  for (double& x : e) x /= std::sqrt(norm_sq);
  return e;
}

double Dot(absl::Span<const double> a, absl::Span<const double> b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

std::string Label(int d, double kappa, uint64_t seed) {
  return "d=" + std::to_string(d) + " kappa=" + std::to_string(kappa) +
         " seed=" + std::to_string(seed);
}

// z-tests: E[w] = A_d(kappa) with Var(w) above; the tangent projection t = x^T e for e
// orthogonal to mu has E[t] = 0 and Var(t) = (1 - E[w^2]) / (d - 1) = A_d(kappa) / kappa
// (isotropy). Plus exact unit norm.
TEST(VonMisesFisherSampleTest, ComponentMeanAndIsotropicTangent) {
  int case_index = 0;
  for (int d : {2, 3, 5, 10, 100}) {
    for (double kappa : {0.0, 1e-3, 0.1, 1.0, 10.0, 100.0, 1e4, 1e5}) {
      const double a = kappa == 0 ? 0.0 : MeanResultantLength(d, kappa);
      const double tangent_variance = kappa == 0 ? 1.0 / d : a / kappa;
      for (uint64_t seed : kSeeds) {
        const std::vector<double> mu = MeanDirection(d, case_index++ % 4);
        const std::vector<double> e = Orthogonal(mu, case_index);
        Engine engine(seed, case_index);
        const int n = 20000;
        std::vector<double> w(n), t(n), x(d);
        for (int i = 0; i < n; ++i) {
          VonMisesFisherSample(engine, mu, kappa, absl::MakeSpan(x));
          ASSERT_NEAR(Dot(x, x), 1.0, 1e-13) << Label(d, kappa, seed);
          w[i] = Dot(x, mu);
          t[i] = Dot(x, e);
        }
        const auto mean_w = testing::MeanZTest(w, a, ComponentVariance(d, kappa));
        EXPECT_TRUE(mean_w.Passed()) << Label(d, kappa, seed) << " w: " << mean_w;
        const auto mean_t = testing::MeanZTest(t, 0.0, tangent_variance);
        EXPECT_TRUE(mean_t.Passed()) << Label(d, kappa, seed) << " tangent: " << mean_t;
      }
    }
  }
}

// d = 3: w has density proportional to exp(kappa w) on [-1, 1], so
// F(w) = exp(kappa (w - 1)) expm1(-kappa (w + 1)) / expm1(-2 kappa) (uniform for kappa = 0);
// and the azimuth of the tangent part is uniform on (-pi, pi]. KS for both.
TEST(VonMisesFisherSampleTest, ThreeDimensionalMarginalsMatchClosedForm) {
  int case_index = 0;
  for (double kappa : {0.0, 1e-3, 1.0, 10.0, 1e3, 1e5}) {
    const auto cdf = [kappa](double w) {
      if (kappa == 0) return 0.5 * (w + 1);
      return std::exp(kappa * (w - 1)) * std::expm1(-kappa * (w + 1)) / std::expm1(-2 * kappa);
    };
    for (uint64_t seed : kSeeds) {
      const std::vector<double> mu = MeanDirection(3, case_index++ % 4);
      const std::vector<double> e1 = Orthogonal(mu, 1);
      // e2 = mu x e1 completes a right-handed frame.
      const std::vector<double> e2 = {mu[1] * e1[2] - mu[2] * e1[1], mu[2] * e1[0] - mu[0] * e1[2],
                                      mu[0] * e1[1] - mu[1] * e1[0]};
      Engine engine(seed, 500 + case_index);
      const int n = 20000;
      std::vector<double> w(n), azimuth(n), x(3);
      for (int i = 0; i < n; ++i) {
        VonMisesFisherSample(engine, mu, kappa, absl::MakeSpan(x));
        w[i] = Dot(x, mu);
        azimuth[i] = std::atan2(Dot(x, e2), Dot(x, e1));
      }
      const auto ks_w = testing::KolmogorovSmirnovTest(w, cdf);
      EXPECT_TRUE(ks_w.Passed()) << Label(3, kappa, seed) << " w: " << ks_w;
      const auto ks_azimuth =
          testing::KolmogorovSmirnovTest(azimuth, [](double a) { return (a + M_PI) / (2 * M_PI); });
      EXPECT_TRUE(ks_azimuth.Passed()) << Label(3, kappa, seed) << " azimuth: " << ks_azimuth;
    }
  }
}

// Dimension 10,000 over the kappa range: finite, unit norm, and E[w] = A_d(kappa).
TEST(VonMisesFisherSampleTest, HighDimensionStaysFiniteAndUnitNorm) {
  const int d = 10000;
  for (double kappa : {0.0, 1e-3, 1.0, 100.0, 1e4, 1e5}) {
    const std::vector<double> mu = MeanDirection(d, 2);
    Engine engine(9, static_cast<uint64_t>(kappa));
    const int n = 400;
    std::vector<double> w(n), x(d);
    for (int i = 0; i < n; ++i) {
      VonMisesFisherSample(engine, mu, kappa, absl::MakeSpan(x));
      for (double xi : x) ASSERT_TRUE(std::isfinite(xi)) << Label(d, kappa, 9);
      ASSERT_NEAR(Dot(x, x), 1.0, 1e-12) << Label(d, kappa, 9);
      w[i] = Dot(x, mu);
    }
    const double a = kappa == 0 ? 0.0 : MeanResultantLength(d, kappa);
    const auto mean_w = testing::MeanZTest(w, a, ComponentVariance(d, kappa));
    EXPECT_TRUE(mean_w.Passed()) << Label(d, kappa, 9) << " " << mean_w;
  }
}

TEST(VonMisesFisherSampleTest, TwoDimensionsAndExtremeConcentrations) {
  Engine engine(10);
  std::vector<double> x(2);
  const std::vector<double> mu = {0.6, -0.8};
  for (double kappa : {0.0, 1e-300, 1e-3, 1e5, 1e12, 1e300}) {
    for (int i = 0; i < 1000; ++i) {
      VonMisesFisherSample(engine, mu, kappa, absl::MakeSpan(x));
      ASSERT_TRUE(std::isfinite(x[0]) && std::isfinite(x[1])) << kappa;
      ASSERT_NEAR(Dot(x, x), 1.0, 1e-14) << kappa;
      if (kappa >= 1e12) ASSERT_GT(Dot(x, mu), 1 - 1e-9) << kappa;
    }
  }
}

// A mean direction off unit norm by rounding is accepted and renormalised.
TEST(VonMisesFisherSampleTest, RenormalisesMeanDirection) {
  const std::vector<double> mu = {0, 3.0 / 5 * (1 + 1e-9), 4.0 / 5 * (1 + 1e-9)};
  Engine engine(11);
  std::vector<double> x(3);
  for (int i = 0; i < 100; ++i) {
    VonMisesFisherSample(engine, mu, 1e8, absl::MakeSpan(x));
    EXPECT_NEAR(Dot(x, x), 1.0, 1e-14);
    EXPECT_NEAR(x[1], 0.6, 1e-3);
    EXPECT_NEAR(x[2], 0.8, 1e-3);
  }
}

// Stream stability: pinned draws for seed 42.
TEST(VonMisesFisherSampleTest, PinnedDraws) {
  Engine engine(42);
  const std::vector<double> mu = {1.0 / 3, -2.0 / 3, 2.0 / 3};
  std::vector<double> x(3), got;
  for (double kappa : {0.5, 30.0}) {
    VonMisesFisherSample(engine, mu, kappa, absl::MakeSpan(x));
    got.insert(got.end(), x.begin(), x.end());
  }
  const std::vector<double> expected = {0x1.02fd812f92705p-1,  0x1.356a6b0826242p-1,
                                        -0x1.3b2aa5530b638p-1, 0x1.e45deb027e5c8p-2,
                                        -0x1.125bdbfd941fdp-1, 0x1.661374833b43p-1};
  EXPECT_EQ(got, expected);
}

TEST(VonMisesFisherDeathTest, RejectsInvalidArguments) {
  Engine engine(1);
  std::vector<double> out3(3), out2(2), out1(1);
  const std::vector<double> mu3 = {0, 0, 1}, mu1 = {1};
  EXPECT_DEATH(VonMisesFisherSample(engine, mu1, 1.0, absl::MakeSpan(out1)),
               "VonMisesFisherSample: mean_direction must have dimension >= 2, got 1");
  EXPECT_DEATH(VonMisesFisherSample(engine, mu3, 1.0, absl::MakeSpan(out2)),
               "VonMisesFisherSample: out must have the dimension of mean_direction");
  EXPECT_DEATH(VonMisesFisherSample(engine, mu3, -1.0, absl::MakeSpan(out3)),
               "VonMisesFisherSample: kappa must be finite and >= 0, got -1");
  EXPECT_DEATH(VonMisesFisherSample(engine, mu3, std::nan(""), absl::MakeSpan(out3)),
               "VonMisesFisherSample: kappa must be finite and >= 0, got nan");
  EXPECT_DEATH(VonMisesFisherSample(engine, mu3, std::numeric_limits<double>::infinity(),
                                    absl::MakeSpan(out3)),
               "VonMisesFisherSample: kappa must be finite and >= 0, got inf");
  EXPECT_DEATH(VonMisesFisherSample(engine, {{0.0, 2.0, 0.0}}, 1.0, absl::MakeSpan(out3)),
               "VonMisesFisherSample: mean_direction must have unit norm, got norm 2");
  std::vector<double> in_place = {0, 0, 1};
  EXPECT_DEATH(VonMisesFisherSample(engine, in_place, 1.0, absl::MakeSpan(in_place)),
               "VonMisesFisherSample: out must not overlap mean_direction");
}

}  // namespace
}  // namespace sgmcmc::rng
