// The sphere Stein kernel of eval/kernel_stein_discrepancy.h (options.sphere_dimension): its
// closed form against the operator's definition, the Stein identity E_p k0(x, y) = 0 by
// quadrature, and the KSD of exact and biased von Mises-Fisher draws.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "boost/math/distributions/normal.hpp"
#include "boost/math/quadrature/gauss.hpp"
#include "eval/kernel_stein_discrepancy.h"
#include "gtest/gtest.h"
#include "rng/engine.h"
#include "rng/normal.h"
#include "rng/von_mises_fisher.h"
#include "testing/distribution_testing.h"

namespace sgmcmc::eval {
namespace {

using Vector = std::vector<double>;

// Each statistical check below fails correct code with probability at most 1e-6.
constexpr double kFalseFailureRate = 1e-6;

KernelSteinOptions SphereOptions(int p, double c = 1, double beta = -0.5,
                                 KernelSteinOptions::Statistic statistic =
                                     KernelSteinOptions::Statistic::kV) {
  KernelSteinOptions options;
  options.c = c;
  options.beta = beta;
  options.statistic = statistic;
  options.sphere_dimension = p;
  return options;
}

double Imq(const Vector& x, const Vector& y, double c, double beta) {
  double r2 = 0;
  for (size_t k = 0; k < x.size(); ++k) r2 += (x[k] - y[k]) * (x[k] - y[k]);
  return std::pow(c * c + r2, beta);
}

// sum_j A_j^x A_j^y k from the operator's definition (header): A_j h = (P grad h)_j + b_j h,
// b = P s - (p - 1) x per block, with explicit projections and every derivative of the ambient
// IMQ kernel by central differences.
double DefinitionSteinKernel(const Vector& x, const Vector& sx, const Vector& y,
                             const Vector& sy, int p, double c, double beta) {
  const int d = static_cast<int>(x.size());
  constexpr double h = 1e-4;
  // P(z) as a d x d block-diagonal matrix.
  auto projection = [&](const Vector& z) {
    std::vector<Vector> m(d, Vector(d, 0.0));
    for (int i = 0; i < d; ++i) {
      for (int j = 0; j < d; ++j) {
        if (i / p == j / p) m[i][j] = (i == j ? 1.0 : 0.0) - z[i] * z[j];
      }
    }
    return m;
  };
  auto drift = [&](const Vector& z, const Vector& s, const std::vector<Vector>& pz) {
    Vector b(d);
    for (int i = 0; i < d; ++i) {
      double tangent = 0;
      for (int j = 0; j < d; ++j) tangent += pz[i][j] * s[j];
      b[i] = tangent - (p - 1) * z[i];
    }
    return b;
  };
  auto shifted = [](Vector v, int i, double step) {
    v[i] += step;
    return v;
  };
  const std::vector<Vector> px = projection(x), py = projection(y);
  const Vector bx = drift(x, sx, px), by = drift(y, sy, py);
  Vector grad_x(d), grad_y(d);
  std::vector<Vector> mixed(d, Vector(d));
  for (int a = 0; a < d; ++a) {
    grad_x[a] = (Imq(shifted(x, a, h), y, c, beta) - Imq(shifted(x, a, -h), y, c, beta)) / (2 * h);
    grad_y[a] = (Imq(x, shifted(y, a, h), c, beta) - Imq(x, shifted(y, a, -h), c, beta)) / (2 * h);
    for (int b = 0; b < d; ++b) {
      mixed[a][b] = (Imq(shifted(x, a, h), shifted(y, b, h), c, beta) -
                     Imq(shifted(x, a, h), shifted(y, b, -h), c, beta) -
                     Imq(shifted(x, a, -h), shifted(y, b, h), c, beta) +
                     Imq(shifted(x, a, -h), shifted(y, b, -h), c, beta)) /
                    (4 * h * h);
    }
  }
  double result = 0;
  for (int j = 0; j < d; ++j) {
    double px_grad_x = 0, py_grad_y = 0, second = 0;
    for (int a = 0; a < d; ++a) {
      px_grad_x += px[j][a] * grad_x[a];
      py_grad_y += py[j][a] * grad_y[a];
      for (int b = 0; b < d; ++b) second += px[j][a] * py[j][b] * mixed[a][b];
    }
    result += second + bx[j] * py_grad_y + by[j] * px_grad_x + bx[j] * by[j] * Imq(x, y, c, beta);
  }
  return result;
}

Vector RandomUnitBlocks(rng::Engine& engine, int p, int blocks) {
  Vector v(p * blocks);
  for (int b = 0; b < blocks; ++b) {
    double norm2 = 0;
    for (int k = 0; k < p; ++k) {
      v[b * p + k] = rng::NormalSample(engine);
      norm2 += v[b * p + k] * v[b * p + k];
    }
    for (int k = 0; k < p; ++k) v[b * p + k] /= std::sqrt(norm2);
  }
  return v;
}

TEST(SphereSteinKernelTest, MatchesTheOperatorsDefinition) {
  rng::Engine engine(3);
  struct Case {
    int p, blocks;
    double c, beta;
  };
  for (const Case& test : {Case{2, 1, 1, -0.5}, Case{3, 1, 1, -0.5}, Case{3, 1, 0.7, -0.3},
                           Case{2, 2, 1.3, -0.5}, Case{5, 1, 1, -0.8}}) {
    for (int trial = 0; trial < 5; ++trial) {
      const Vector x = RandomUnitBlocks(engine, test.p, test.blocks);
      const Vector y = RandomUnitBlocks(engine, test.p, test.blocks);
      Vector sx(x.size()), sy(x.size());
      for (double& s : sx) s = 2 * rng::NormalSample(engine);  // any ambient vectors
      for (double& s : sy) s = 2 * rng::NormalSample(engine);
      const double want = DefinitionSteinKernel(x, sx, y, sy, test.p, test.c, test.beta);
      const double got = SteinKernel(x, sx, y, sy, SphereOptions(test.p, test.c, test.beta));
      // Central differences with h = 1e-4 on O(1) derivatives: error ~1e-7 (mixed ~1e-6).
      EXPECT_NEAR(got, want, 1e-5 * (1 + std::abs(want)))
          << "p=" << test.p << " blocks=" << test.blocks << " trial " << trial;
      // x = y: B q^beta - 2 beta q^(beta-1) m (p - 1) with B = |P s|^2 + m (p - 1)^2.
      if (trial == 0) {
        const double same = SteinKernel(x, sx, x, sx, SphereOptions(test.p, test.c, test.beta));
        EXPECT_NEAR(same, DefinitionSteinKernel(x, sx, x, sx, test.p, test.c, test.beta),
                    1e-5 * (1 + std::abs(same)));
      }
    }
  }
}

// The Stein identity: for every y and ANY score s_y at y, E_{x ~ p} k0(x, y) = 0, since
// k0(., y) = sum_j A_j^x g_j with g_j = A_j^y k(., y) smooth. The integrals are by quadrature
// rules that are spectrally accurate for these analytic integrands (trapezoid in angles, Gauss-
// Legendre in cos(polar angle)), so the bound is 1e-9 of the integral of |k0| p: the
// quadrature's error, far below the O(1) violation of a wrong operator (e.g. without the
// -(p - 1) x term, or with the ambient instead of the tangent score, the integral is ~0.1-1
// of that scale).
struct Integral {
  double value = 0;
  double scale = 0;  // the integral of |k0| p
  double mass = 0;   // the integral of p

  void Add(double weight, double k0) {
    value += weight * k0;
    scale += weight * std::abs(k0);
    mass += weight;
  }
  // The identity to quadrature accuracy, on an integrand of O(0.1) or more.
  void Expect(const std::string& label) const {
    EXPECT_LE(std::abs(value), 1e-9 * scale)
        << label << ": " << value / mass << " (scale " << scale / mass << ")";
    EXPECT_GT(scale / mass, 0.1) << label;
  }
};

TEST(SphereSteinKernelTest, SteinIdentityHoldsByQuadrature) {
  const KernelSteinOptions options = SphereOptions(2);
  // S^1: log p = 3 mu'x + 1.5 (2 x1 x2) + 0.8 x1^2 (not a vMF), mu = (cos 0.7, sin 0.7).
  {
    const double mu[2] = {std::cos(0.7), std::sin(0.7)};
    auto score = [&](const Vector& x) {
      return Vector{3 * mu[0] + 3 * x[1] + 1.6 * x[0], 3 * mu[1] + 3 * x[0]};
    };
    auto log_density = [&](const Vector& x) {
      return 3 * (mu[0] * x[0] + mu[1] * x[1]) + 3 * x[0] * x[1] + 0.8 * x[0] * x[0];
    };
    for (double angle : {0.3, 2.5, -1.9}) {
      const Vector y = {std::cos(angle), std::sin(angle)};
      const Vector sy = {1.7, -0.4};
      constexpr int kNodes = 4096;
      Integral integral;
      for (int i = 0; i < kNodes; ++i) {
        const double theta = 2 * M_PI * i / kNodes;
        const Vector x = {std::cos(theta), std::sin(theta)};
        const double weight = std::exp(log_density(x));
        const double k0 = SteinKernel(x, score(x), y, sy, options);
        integral.Add(weight, k0);
      }
      integral.Expect(absl::StrCat("S^1, y at angle ", angle));
    }
  }
  // S^2: log p = 4 mu'x + 2 x1 x3, mu = (1, 2, 2) / 3; x = (sqrt(1-u^2) cos phi,
  // sqrt(1-u^2) sin phi, u), dsigma = du dphi.
  {
    const double mu[3] = {1.0 / 3, 2.0 / 3, 2.0 / 3};
    using Gauss = boost::math::quadrature::gauss<double, 60>;
    const auto& abscissa = Gauss::abscissa();
    const auto& weights = Gauss::weights();
    // The rule stores nonnegative abscissae; each but a zero one stands for ±.
    std::vector<std::pair<double, double>> nodes;
    for (size_t i = 0; i < abscissa.size(); ++i) {
      nodes.push_back({abscissa[i], weights[i]});
      if (abscissa[i] != 0) nodes.push_back({-abscissa[i], weights[i]});
    }
    const KernelSteinOptions sphere = SphereOptions(3, 0.8, -0.5);
    for (const Vector& y : {Vector{0, 0, 1}, Vector{0.6, -0.8, 0}, Vector{-0.48, 0.6, -0.64}}) {
      const Vector sy = {0.3, -2.0, 0.9};
      constexpr int kAngles = 256;
      Integral integral;
      for (const auto& [u, w] : nodes) {
        for (int i = 0; i < kAngles; ++i) {
          const double phi = 2 * M_PI * i / kAngles;
          const double rho = std::sqrt(1 - u * u);
          const Vector x = {rho * std::cos(phi), rho * std::sin(phi), u};
          const double weight =
              w * std::exp(4 * (mu[0] * x[0] + mu[1] * x[1] + mu[2] * x[2]) + 2 * x[0] * x[2]);
          const Vector s = {4 * mu[0] + 2 * x[2], 4 * mu[1], 4 * mu[2] + 2 * x[0]};
          const double k0 = SteinKernel(x, s, y, sy, sphere);
          integral.Add(weight, k0);
        }
      }
      integral.Expect(absl::StrCat("S^2, y = (", y[0], ", ", y[1], ", ", y[2], ")"));
    }
  }
  // The torus S^1 x S^1 with a coupled density: log p = 2 e1'x1 + 1.5 e2'x2 + 1.2 x1'x2.
  {
    constexpr int kNodes = 256;
    const Vector y = {std::cos(1.1), std::sin(1.1), std::cos(-2.0), std::sin(-2.0)};
    const Vector sy = {0.5, 1.0, -1.5, 0.2};
    Integral integral;
    for (int i = 0; i < kNodes; ++i) {
      for (int j = 0; j < kNodes; ++j) {
        const double a = 2 * M_PI * i / kNodes, b = 2 * M_PI * j / kNodes;
        const Vector x = {std::cos(a), std::sin(a), std::cos(b), std::sin(b)};
        const double weight = std::exp(2 * x[0] + 1.5 * x[3] + 1.2 * (x[0] * x[2] + x[1] * x[3]));
        const Vector s = {2 + 1.2 * x[2], 1.2 * x[3], 1.2 * x[0], 1.5 + 1.2 * x[1]};
        const double k0 = SteinKernel(x, s, y, sy, options);
        integral.Add(weight, k0);
      }
    }
    integral.Expect("torus");
  }
}

// Draws from vMF(mean, kappa) on S^2 with their scores under the target vMF(mu, 4), whose
// ambient score is 4 mu.
constexpr double kKappa = 4;
constexpr double kMu[3] = {0.0, 0.6, 0.8};

struct Sample {
  Vector draws;
  Vector scores;
};

Sample VmfSample(rng::Engine& engine, int64_t n, const Vector& mean, double kappa) {
  Sample sample{Vector(3 * n), Vector(3 * n)};
  for (int64_t i = 0; i < n; ++i) {
    rng::VonMisesFisherSample(engine, mean, kappa, absl::MakeSpan(&sample.draws[3 * i], 3));
    for (int k = 0; k < 3; ++k) sample.scores[3 * i + k] = kKappa * kMu[k];
  }
  return sample;
}
const Vector kTargetMean(kMu, kMu + 3);

// For iid draws from p, X_n = n V_n = (1/n) sum_{i,j} k0(x_i, x_j) has mean
// mu0 = E k0(x, x) = E|P s|^2 + (p-1)^2 + (p-1) (c = 1, beta = -1/2, header's x = y case) at
// every n, with |P s|^2 = kappa^2 (1 - t^2), t = mu'x, and on S^2 E t^2 = 1 - 2 A / kappa,
// A = coth kappa - 1/kappa: mu0 = 2 kappa A + 6. Var X_n = Var k0(x, x) / n + 2 (n-1)/n m2
// (m2 = E k0(x, y)^2; the off-diagonal terms are uncorrelated with mean 0 by the Stein
// identity). So sqrt(n) KSD is the same at every n: KSD shrinks like 1/sqrt(n). The band is
// the Euclidean test's: the mean of R replicates within mu0 + t sd / sqrt(R), t from the worst
// case chi^2_R at a = 1e-6 (X_n - mu0 tends to sum_j lambda_j (Z_j^2 - 1), lambda_j >= 0);
// the moments enter at their Monte Carlo estimates + 5 standard errors.
struct Moments {
  double diagonal_variance = 0;  // Var k0(x, x)
  double m2 = 0;                 // E k0(x, y)^2
};

Moments ExactDrawMoments(int64_t pairs) {
  rng::Engine engine(11, 1);
  const Sample sample = VmfSample(engine, 2 * pairs, kTargetMean, kKappa);
  const absl::Span<const double> x(sample.draws), s(sample.scores);
  double d1 = 0, d2 = 0, d4 = 0, m1 = 0, m2 = 0;
  for (int64_t i = 0; i < pairs; ++i) {
    const auto a = x.subspan(6 * i, 3), sa = s.subspan(6 * i, 3);
    const auto b = x.subspan(6 * i + 3, 3), sb = s.subspan(6 * i + 3, 3);
    const double diagonal = SteinKernel(a, sa, a, sa, SphereOptions(3));
    const double k0 = SteinKernel(a, sa, b, sb, SphereOptions(3));
    d1 += diagonal;
    d2 += diagonal * diagonal;
    d4 += diagonal * diagonal * diagonal * diagonal;
    m1 += k0 * k0;
    m2 += k0 * k0 * k0 * k0;
  }
  const double n = static_cast<double>(pairs);
  const double var = d2 / n - (d1 / n) * (d1 / n);
  // Standard errors: of the second moment about the mean (conservatively from the raw fourth
  // moment), and of the mean of k0^2.
  const double var_se = std::sqrt(d4 / n / n);
  const double m2_mean = m1 / n;
  const double m2_se = std::sqrt((m2 / n - m2_mean * m2_mean) / n);
  return {var + 5 * var_se, m2_mean + 5 * m2_se};
}

TEST(SphereKernelSteinDiscrepancyTest, ExactVmfDrawsShrinkLikeOneOverSqrtN) {
  const double a = 1 / std::tanh(kKappa) - 1 / kKappa;
  const double mu0 = 2 * kKappa * a + 6;
  const Moments moments = ExactDrawMoments(200000);
  constexpr int kReplicates = 16;
  const testing::ChiSquaredBand band = testing::WorstCaseChiSquaredBand(kReplicates, kFalseFailureRate);
  for (int64_t n : {200, 800, 3200}) {
    double mean_v = 0;
    for (int r = 0; r < kReplicates; ++r) {
      rng::Engine engine(5, n * 100 + r);
      const Sample sample = VmfSample(engine, n, kTargetMean, kKappa);
      mean_v += n * KernelSteinDiscrepancy(sample.draws, sample.scores, 3, {}, SphereOptions(3))
                        ->squared /
                kReplicates;
    }
    const double se =
        std::sqrt((moments.diagonal_variance / n + 2.0 * (n - 1) / n * moments.m2) / kReplicates);
    SCOPED_TRACE(absl::StrCat("n=", n, " mean n*V=", mean_v, " (mu0=", mu0, ", se ", se, ")"));
    EXPECT_LE(mean_v, mu0 + band.high * se);
    EXPECT_GE(mean_v, mu0 - band.low * se);
  }
}

// Draws from the wrong law (kappa 8 instead of 4; or the mean rotated by 0.6 rad) keep the
// U-statistic near KSD^2(q) > 0 while exact draws' V goes to 0. KSD^2(q) is estimated by the
// linear statistic over 5e5 pairs, which also gives zeta2 = Var k0 under q; Hoeffding's
// Var U_n = (4 (n-2) zeta1 + 2 zeta2) / (n (n-1)), zeta1 = Var_x E_y k0(x, y) estimated from
// g(x_a) = mean_b k0(x_a, y_b) over 1000 x 1000 draws of q (biased up by zeta2 / 1000, which
// only widens the band), and U is asymptotically normal: U >= KSD^2(q) - z (sd_U + se) at
// a = 1e-6, so V >= U (n-1)/n (the diagonal is >= 0) stays above
// `floor` = (KSD^2(q) - band) (n - 1) / n. For exact draws, n V <= mu0 + t1 sd_X with t1 from
// the worst case chi^2_1 (one replicate) at a = 1e-6: V_exact <= `ceiling`, and the test needs
// ceiling < floor (checked) at n = 3200.
TEST(SphereKernelSteinDiscrepancyTest, BiasedVmfDrawsStayAwayFromZero) {
  const double z = boost::math::quantile(
      boost::math::complement(boost::math::normal_distribution<double>(), kFalseFailureRate / 2));
  // One-sided at kFalseFailureRate: the upper end of the two-sided band at twice the rate.
  const double t1 = testing::WorstCaseChiSquaredBand(1, 2 * kFalseFailureRate).high;
  const double a = 1 / std::tanh(kKappa) - 1 / kKappa;
  const double mu0 = 2 * kKappa * a + 6;
  const Moments moments = ExactDrawMoments(200000);
  const double rotation = 0.6;
  const Vector rotated = {0.0, kMu[1] * std::cos(rotation) - kMu[2] * std::sin(rotation),
                          kMu[1] * std::sin(rotation) + kMu[2] * std::cos(rotation)};
  struct Bias {
    std::string label;
    Vector mean;
    double kappa;
  };
  for (const Bias& bias :
       {Bias{"kappa 8 instead of 4", kTargetMean, 8.0}, Bias{"mean rotated 0.6 rad", rotated, kKappa}}) {
    SCOPED_TRACE(bias.label);
    rng::Engine engine(31);
    const Sample big = VmfSample(engine, 1000000, bias.mean, bias.kappa);
    const KsdEstimate population =
        *LinearKernelSteinDiscrepancy(big.draws, big.scores, 3, {}, SphereOptions(3));
    const double zeta2 = population.standard_error * population.standard_error *
                         static_cast<double>(population.num_pairs);
    EXPECT_GT(population.squared, z * population.standard_error);
    double zeta1 = 0;
    {
      constexpr int kDraws = 1000;
      rng::Engine zeta_engine(61);
      const Sample xs = VmfSample(zeta_engine, kDraws, bias.mean, bias.kappa);
      const Sample ys = VmfSample(zeta_engine, kDraws, bias.mean, bias.kappa);
      const absl::Span<const double> x(xs.draws), sx(xs.scores), y(ys.draws), sy(ys.scores);
      double sum = 0, sum_sq = 0;
      for (int i = 0; i < kDraws; ++i) {
        double g = 0;
        for (int j = 0; j < kDraws; ++j) {
          g += SteinKernel(x.subspan(3 * i, 3), sx.subspan(3 * i, 3), y.subspan(3 * j, 3),
                           sy.subspan(3 * j, 3), SphereOptions(3)) /
               kDraws;
        }
        sum += g;
        sum_sq += g * g;
      }
      zeta1 = (sum_sq - sum * sum / kDraws) / (kDraws - 1);
    }
    for (int64_t n : {800, 3200}) {
      rng::Engine biased_engine(43, n), exact_engine(41, n);
      const Sample biased = VmfSample(biased_engine, n, bias.mean, bias.kappa);
      const Sample exact = VmfSample(exact_engine, n, kTargetMean, kKappa);
      const KsdEstimate u = *KernelSteinDiscrepancy(
          biased.draws, biased.scores, 3, {},
          SphereOptions(3, 1, -0.5, KernelSteinOptions::Statistic::kU));
      const double v_biased =
          KernelSteinDiscrepancy(biased.draws, biased.scores, 3, {}, SphereOptions(3))->squared;
      const double v_exact =
          KernelSteinDiscrepancy(exact.draws, exact.scores, 3, {}, SphereOptions(3))->squared;
      const double sd_u = std::sqrt((4.0 * (n - 2) * zeta1 + 2 * zeta2) / (n * (n - 1.0)));
      const double band = z * (sd_u + population.standard_error);
      const double floor = (population.squared - band) * (n - 1) / n;
      const double sd_x = std::sqrt(moments.diagonal_variance / n + 2.0 * (n - 1) / n * moments.m2);
      const double ceiling = (mu0 + t1 * sd_x) / n;
      SCOPED_TRACE(absl::StrCat("n=", n, " zeta1=", zeta1, " zeta2=", zeta2, " KSD^2(q)~", population.squared, " U=", u.squared,
                                " +- ", band, " V(biased)=", v_biased, " floor ", floor,
                                " V(exact)=", v_exact, " ceiling ", ceiling));
      EXPECT_NEAR(u.squared, population.squared, band);
      EXPECT_GT(v_biased, floor);
      EXPECT_LT(v_exact, ceiling);
      if (n == 3200) {
        ASSERT_LT(ceiling, floor) << "the test cannot separate q from p";
      }
    }
  }
}

TEST(SphereKernelSteinDiscrepancyTest, RejectsBadInput) {
  const Vector draws = {1, 0, 0, 0, 0.6, 0.8};
  const Vector scores(6, 0.5);
  EXPECT_TRUE(KernelSteinDiscrepancy(draws, scores, 3, {}, SphereOptions(3)).ok());
  EXPECT_TRUE(KernelSteinDiscrepancy(draws, scores, 6, {}, SphereOptions(3)).ok());  // S^2 x S^2
  EXPECT_NE(KernelSteinDiscrepancy(draws, scores, 3, {}, SphereOptions(1))
                .status()
                .message()
                .find("KernelSteinOptions.sphere_dimension must be 0 (R^d) or >= 2, got 1"),
            std::string::npos);
  EXPECT_NE(KernelSteinDiscrepancy(draws, scores, 3, {}, SphereOptions(2))
                .status()
                .message()
                .find("dimension 3 must be a multiple of options.sphere_dimension 2"),
            std::string::npos);
  Vector off = draws;
  off[4] = 0.7;  // |x_1|^2 = 0.49 + 0.64
  const std::string message(
      LinearKernelSteinDiscrepancy(off, scores, 3, {}, SphereOptions(3)).status().message());
  EXPECT_NE(message.find("draws[1] block 0 has squared norm 1.13"), std::string::npos) << message;
  // Within the tolerance is accepted (samplers renormalise to rounding).
  off[4] = 0.6 * (1 + 0.2 * kSphereNormTolerance);
  EXPECT_TRUE(KernelSteinDiscrepancy(off, scores, 3, {}, SphereOptions(3)).ok());
}

}  // namespace
}  // namespace sgmcmc::eval
