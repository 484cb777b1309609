#include "eval/kernel_stein_discrepancy.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "boost/math/distributions/normal.hpp"
#include "gtest/gtest.h"
#include "rng/engine.h"
#include "rng/normal.h"
#include "testing/distribution_testing.h"

namespace sgmcmc::eval {
namespace {

using Statistic = KernelSteinOptions::Statistic;

// Each statistical check below fails correct code with probability at most 1e-6.
constexpr double kFalseFailureRate = 1e-6;

double Dot(absl::Span<const double> a, absl::Span<const double> b) {
  double sum = 0;
  for (size_t k = 0; k < a.size(); ++k) sum += a[k] * b[k];
  return sum;
}

// The IMQ base kernel straight from its definition.
double Imq(const std::vector<double>& x, const std::vector<double>& y, double c, double beta) {
  double r2 = 0;
  for (size_t k = 0; k < x.size(); ++k) r2 += (x[k] - y[k]) * (x[k] - y[k]);
  return std::pow(c * c + r2, beta);
}

// k0 from its defining formula s(x)'s(y) k + s(x)'grad_y k + s(y)'grad_x k + tr(grad_x grad_y k)
// with every derivative of k by central differences.
double FiniteDifferenceSteinKernel(const std::vector<double>& x, const std::vector<double>& sx,
                                   const std::vector<double>& y, const std::vector<double>& sy,
                                   double c, double beta) {
  constexpr double h = 1e-4;
  const int d = static_cast<int>(x.size());
  double result = Dot(sx, sy) * Imq(x, y, c, beta);
  for (int i = 0; i < d; ++i) {
    auto shifted = [&](const std::vector<double>& v, double step) {
      std::vector<double> w = v;
      w[i] += step;
      return w;
    };
    const double grad_x =
        (Imq(shifted(x, h), y, c, beta) - Imq(shifted(x, -h), y, c, beta)) / (2 * h);
    const double grad_y =
        (Imq(x, shifted(y, h), c, beta) - Imq(x, shifted(y, -h), c, beta)) / (2 * h);
    const double mixed =
        (Imq(shifted(x, h), shifted(y, h), c, beta) - Imq(shifted(x, h), shifted(y, -h), c, beta) -
         Imq(shifted(x, -h), shifted(y, h), c, beta) +
         Imq(shifted(x, -h), shifted(y, -h), c, beta)) /
        (4 * h * h);
    result += sx[i] * grad_y + sy[i] * grad_x + mixed;
  }
  return result;
}

KernelSteinOptions Options(double c, double beta, Statistic statistic = Statistic::kV) {
  KernelSteinOptions options;
  options.c = c;
  options.beta = beta;
  options.statistic = statistic;
  return options;
}

TEST(SteinKernelTest, MatchesFiniteDifferencesOfItsDefinition) {
  rng::Engine engine(3);
  const std::vector<std::pair<double, double>> kernels = {
      {1.0, -0.5}, {0.7, -0.3}, {2.0, -0.9}, {1.3, -0.05}};
  for (const auto& [c, beta] : kernels) {
    for (int d : {1, 2, 5}) {
      for (int trial = 0; trial < 20; ++trial) {
        std::vector<double> x(d), y(d), sx(d), sy(d);
        for (int k = 0; k < d; ++k) {
          x[k] = rng::NormalSample(engine);
          y[k] = x[k] + 0.5 * rng::NormalSample(engine);
          sx[k] = 2 * rng::NormalSample(engine);
          sy[k] = 2 * rng::NormalSample(engine);
        }
        const double expected = FiniteDifferenceSteinKernel(x, sx, y, sy, c, beta);
        const double actual = SteinKernel(x, sx, y, sy, Options(c, beta));
        EXPECT_NEAR(actual, expected, 1e-6 * std::max(1.0, std::abs(expected)))
            << "c=" << c << " beta=" << beta << " d=" << d << " trial=" << trial;
        EXPECT_EQ(actual, SteinKernel(y, sy, x, sx, Options(c, beta)));
      }
    }
  }
}

// The Gaussian target p = N(mu, Sigma) on R^2 with Sigma = [[2, 0.6], [0.6, 1]], and draws
// from N(mu + shift, scale^2 Sigma) with their scores under p, s(x) = -Sigma^-1 (x - mu).
constexpr int kDimension = 2;
constexpr double kMu[2] = {1.0, -2.0};
constexpr double kSigma[2][2] = {{2.0, 0.6}, {0.6, 1.0}};
constexpr double kDet = kSigma[0][0] * kSigma[1][1] - kSigma[0][1] * kSigma[1][0];
constexpr double kPrecision[2][2] = {{kSigma[1][1] / kDet, -kSigma[0][1] / kDet},
                                     {-kSigma[1][0] / kDet, kSigma[0][0] / kDet}};

struct Sample {
  std::vector<double> draws;
  std::vector<double> scores;
};

Sample GaussianSample(rng::Engine& engine, int64_t n, double shift = 0, double scale = 1) {
  const double l00 = std::sqrt(kSigma[0][0]);
  const double l10 = kSigma[1][0] / l00;
  const double l11 = std::sqrt(kSigma[1][1] - l10 * l10);
  Sample sample{std::vector<double>(n * kDimension), std::vector<double>(n * kDimension)};
  for (int64_t i = 0; i < n; ++i) {
    const double z0 = rng::NormalSample(engine);
    const double z1 = rng::NormalSample(engine);
    const double e0 = scale * l00 * z0 + shift;
    const double e1 = scale * (l10 * z0 + l11 * z1);
    sample.draws[2 * i] = kMu[0] + e0;
    sample.draws[2 * i + 1] = kMu[1] + e1;
    sample.scores[2 * i] = -(kPrecision[0][0] * e0 + kPrecision[0][1] * e1);
    sample.scores[2 * i + 1] = -(kPrecision[1][0] * e0 + kPrecision[1][1] * e1);
  }
  return sample;
}

// Mean and standard error of k0(x, y)^2 over `pairs` independent pairs of exact draws.
struct SecondMoment {
  double mean = 0;
  double standard_error = 0;
};
SecondMoment SteinKernelSecondMoment(int64_t pairs) {
  rng::Engine engine(11, 1);
  const Sample sample = GaussianSample(engine, 2 * pairs);
  double sum = 0, sum_sq = 0;
  for (int64_t p = 0; p < pairs; ++p) {
    const absl::Span<const double> draws(sample.draws), scores(sample.scores);
    const double k0 =
        SteinKernel(draws.subspan(4 * p, 2), scores.subspan(4 * p, 2), draws.subspan(4 * p + 2, 2),
                    scores.subspan(4 * p + 2, 2), KernelSteinOptions());
    sum += k0 * k0;
    sum_sq += k0 * k0 * k0 * k0;
  }
  const double mean = sum / pairs;
  return {mean, std::sqrt((sum_sq / pairs - mean * mean) / pairs)};
}

// For iid draws from p, X_n = n V_n = (1/n) sum_{i,j} k0(x_i, x_j) has mean
// mu0 = E k0(x, x) = c^(2 beta) E|s|^2 - 2 beta d c^(2 beta - 2) = tr(Sigma^-1) + d (c = 1,
// beta = -1/2) at every n, since E k0(x_i, x_j) = 0 for i != j. The k0(x_i, x_j) with i < j are
// uncorrelated with each other and with the diagonal (E[k0(x, y) | x] = 0), so
// Var X_n = Var|s|^2 / n + 2 (n - 1) / n m2 with Var|s|^2 = 2 tr(Sigma^-2) and
// m2 = E k0(x, y)^2. Likewise n U_n has mean 0 and variance 2 m2 n / (n - 1). So KSD = sqrt(V_n)
// shrinks like sqrt(mu0 / n): sqrt(n) KSD is the same at n = 250, 1000, 4000.
//
// The band: X_n - mu0 tends to sum_j lambda_j (Z_j^2 - 1) with lambda_j >= 0 (k0 is positive
// definite), most skewed when one lambda_j dominates. So the mean of R replicates is compared
// with mu0 +- t sd / sqrt(R), with t from the worst case chi^2_R: the (1 - a/2) and a/2
// quantiles of (chi^2_R - R) / sqrt(2 R), a = 1e-6; m2 enters at its estimate + 5 standard
// errors.
TEST(KernelSteinDiscrepancyTest, ExactDrawsShrinkLikeOneOverSqrtN) {
  const double trace_precision = kPrecision[0][0] + kPrecision[1][1];
  const double trace_precision_sq = kPrecision[0][0] * kPrecision[0][0] +
                                    2 * kPrecision[0][1] * kPrecision[1][0] +
                                    kPrecision[1][1] * kPrecision[1][1];
  const double mu0 = trace_precision + kDimension;
  const SecondMoment second = SteinKernelSecondMoment(200000);
  const double m2 = second.mean + 5 * second.standard_error;
  constexpr int kReplicates = 32;
  const testing::ChiSquaredBand band = testing::WorstCaseChiSquaredBand(kReplicates, kFalseFailureRate);
  const double t_high = band.high, t_low = band.low;
  for (int64_t n : {250, 1000, 4000}) {
    double mean_v = 0, mean_u = 0;
    for (int r = 0; r < kReplicates; ++r) {
      rng::Engine engine(5, n * 100 + r);
      const Sample sample = GaussianSample(engine, n);
      const KsdEstimate v = *KernelSteinDiscrepancy(sample.draws, sample.scores, kDimension, {},
                                                    Options(1, -0.5, Statistic::kV));
      const KsdEstimate u = *KernelSteinDiscrepancy(sample.draws, sample.scores, kDimension, {},
                                                    Options(1, -0.5, Statistic::kU));
      EXPECT_EQ(v.num_pairs, n * (n + 1) / 2);
      EXPECT_EQ(u.num_pairs, n * (n - 1) / 2);
      mean_v += n * v.squared / kReplicates;
      mean_u += n * u.squared / kReplicates;
    }
    const double sd_v = std::sqrt(2 * trace_precision_sq / n + 2.0 * (n - 1) / n * m2);
    const double sd_u = std::sqrt(2 * m2 * n / (n - 1));
    const double se_v = sd_v / std::sqrt(kReplicates);
    const double se_u = sd_u / std::sqrt(kReplicates);
    SCOPED_TRACE(absl::StrCat("n=", n, " mean n*V=", mean_v, " (mu0=", mu0, ", se ", se_v,
                              ") sqrt(n)*KSD~", std::sqrt(mean_v), " mean n*U=", mean_u, " (se ",
                              se_u, ") band t=[", t_low, ", ", t_high, "]"));
    EXPECT_LE(mean_v, mu0 + t_high * se_v);
    EXPECT_GE(mean_v, mu0 - t_low * se_v);
    EXPECT_LE(mean_u, t_high * se_u);
    EXPECT_GE(mean_u, -t_low * se_u);
  }
}

// The linear statistic of exact draws has mean 0; over 5e5 pairs its z-score is normal to
// high accuracy: |z| <= z_{1 - a/2}, a = 1e-6.
TEST(LinearKernelSteinDiscrepancyTest, ExactDrawsGiveMeanZero) {
  rng::Engine engine(21);
  const Sample sample = GaussianSample(engine, 1000001);  // the odd last draw is unused
  const KsdEstimate linear =
      *LinearKernelSteinDiscrepancy(sample.draws, sample.scores, kDimension, {}, {});
  EXPECT_EQ(linear.num_pairs, 500000);
  const double z_max = boost::math::quantile(
      boost::math::complement(boost::math::normal_distribution<double>(), kFalseFailureRate / 2));
  EXPECT_LE(std::abs(linear.squared), z_max * linear.standard_error)
      << linear.squared << " +- " << linear.standard_error;
  // The standard error is that of k0 over iid pairs: sqrt(m2 / pairs).
  const SecondMoment second = SteinKernelSecondMoment(200000);
  EXPECT_NEAR(linear.standard_error, std::sqrt(second.mean / linear.num_pairs),
              0.05 * linear.standard_error);
}

// Hoeffding's variance of the U-statistic: Var U_n = (4 (n - 2) zeta1 + 2 zeta2) / (n (n - 1))
// with zeta1 = Var_x E_y k0(x, y) and zeta2 = Var k0(x, y), x, y ~ q independent. zeta1 is
// estimated from g(x_a) = mean_b k0(x_a, y_b) over 2000 x 2000 draws of q; the estimate is
// biased up by Var k0 / 2000, which only widens the band.
double HoeffdingZeta1(double shift, double scale) {
  rng::Engine engine(61);
  constexpr int kDraws = 2000;
  const Sample xs = GaussianSample(engine, kDraws, shift, scale);
  const Sample ys = GaussianSample(engine, kDraws, shift, scale);
  const absl::Span<const double> x(xs.draws), sx(xs.scores), y(ys.draws), sy(ys.scores);
  double sum = 0, sum_sq = 0;
  for (int a = 0; a < kDraws; ++a) {
    double g = 0;
    for (int b = 0; b < kDraws; ++b) {
      g += SteinKernel(x.subspan(2 * a, 2), sx.subspan(2 * a, 2), y.subspan(2 * b, 2),
                       sy.subspan(2 * b, 2), KernelSteinOptions());
    }
    g /= kDraws;
    sum += g;
    sum_sq += g * g;
  }
  const double mean = sum / kDraws;
  return (sum_sq - kDraws * mean * mean) / (kDraws - 1);
}

// Draws from a law q != p keep KSD^2 near KSD^2(q) = E_{x,y ~ q} k0(x, y) > 0 at every n while
// exact draws go to 0. KSD^2(q) is estimated by the linear statistic over 1e6 pairs (which
// also gives zeta2 = Var k0); the U-statistic of n draws, unbiased for KSD^2(q) and
// asymptotically normal, must lie within `band` = z_{1-a/2} (a = 1e-6) times its Hoeffding
// standard deviation plus the linear estimate's standard error. The band is below KSD^2(q)
// (checked), so V = U (n - 1) / n + mean_i k0(x_i, x_i) / n >= (KSD^2(q) - band) (n - 1) / n
// stays bounded away from 0, while V of exact draws at n = 4000 is below a tenth of KSD^2(q)
// (its band from ExactDrawsShrinkLikeOneOverSqrtN: n V <= mu0 + 6.9 se, so V <= 3.3e-3).
TEST(KernelSteinDiscrepancyTest, BiasedDrawsStayAwayFromZero) {
  const double z = boost::math::quantile(
      boost::math::complement(boost::math::normal_distribution<double>(), kFalseFailureRate / 2));
  struct Bias {
    std::string label;
    double shift;
    double scale;
  };
  for (const Bias& bias : {Bias{"mean shifted by 2", 2.0, 1.0}, Bias{"covariance x 4", 0, 2.0}}) {
    SCOPED_TRACE(bias.label);
    rng::Engine engine(31);
    const Sample big = GaussianSample(engine, 2000000, bias.shift, bias.scale);
    const KsdEstimate population =
        *LinearKernelSteinDiscrepancy(big.draws, big.scores, kDimension, {}, {});
    const double zeta2 = population.standard_error * population.standard_error *
                         static_cast<double>(population.num_pairs);
    const double zeta1 = HoeffdingZeta1(bias.shift, bias.scale);
    // The linear statistic detects the bias.
    EXPECT_GT(population.squared, z * population.standard_error)
        << population.squared << " +- " << population.standard_error;
    for (int64_t n : {250, 1000, 4000}) {
      rng::Engine exact_engine(41, n);
      const Sample exact = GaussianSample(exact_engine, n);
      rng::Engine biased_engine(43, n);
      const Sample biased = GaussianSample(biased_engine, n, bias.shift, bias.scale);
      const KsdEstimate u = *KernelSteinDiscrepancy(biased.draws, biased.scores, kDimension, {},
                                                    Options(1, -0.5, Statistic::kU));
      const KsdEstimate v_biased =
          *KernelSteinDiscrepancy(biased.draws, biased.scores, kDimension, {}, {});
      const KsdEstimate v_exact =
          *KernelSteinDiscrepancy(exact.draws, exact.scores, kDimension, {}, {});
      const double sd_u = std::sqrt((4.0 * (n - 2) * zeta1 + 2 * zeta2) / (n * (n - 1.0)));
      const double band = z * (sd_u + population.standard_error);
      SCOPED_TRACE(absl::StrCat("n=", n, " KSD^2(q)~", population.squared, " U=", u.squared, " +- ",
                                band, " V(biased)=", v_biased.squared,
                                " V(exact)=", v_exact.squared, " zeta1=", zeta1, " zeta2=", zeta2));
      ASSERT_LT(band, population.squared) << "the test cannot separate q from p";
      EXPECT_NEAR(u.squared, population.squared, band);
      EXPECT_GT(v_biased.squared, (population.squared - band) * (n - 1) / n);
      if (n == 4000) {
        EXPECT_LT(v_exact.squared, population.squared / 10);
      }
    }
  }
}

TEST(KernelSteinDiscrepancyTest, WeightsActAsMultiplicities) {
  rng::Engine engine(51);
  const Sample sample = GaussianSample(engine, 40, 0.3, 1.2);
  std::vector<double> weights(40);
  Sample repeated;
  for (int i = 0; i < 40; ++i) {
    weights[i] = i % 4;  // 0, 1, 2, 3: a weight of 0 drops the draw
    for (int copy = 0; copy < i % 4; ++copy) {
      for (int k = 0; k < kDimension; ++k) {
        repeated.draws.push_back(sample.draws[i * kDimension + k]);
        repeated.scores.push_back(sample.scores[i * kDimension + k]);
      }
    }
  }
  const KsdEstimate weighted =
      *KernelSteinDiscrepancy(sample.draws, sample.scores, kDimension, weights, {});
  const KsdEstimate expanded =
      *KernelSteinDiscrepancy(repeated.draws, repeated.scores, kDimension, {}, {});
  EXPECT_NEAR(weighted.squared, expanded.squared, 1e-13 * expanded.squared);

  // Constant weights change nothing, for every statistic.
  const std::vector<double> constant(40, 0.25);
  for (Statistic statistic : {Statistic::kV, Statistic::kU}) {
    const KernelSteinOptions options = Options(1.5, -0.4, statistic);
    const double plain =
        KernelSteinDiscrepancy(sample.draws, sample.scores, kDimension, {}, options)->squared;
    EXPECT_NEAR(
        KernelSteinDiscrepancy(sample.draws, sample.scores, kDimension, constant, options)->squared,
        plain, 1e-13 * std::abs(plain));
  }
  const double linear =
      LinearKernelSteinDiscrepancy(sample.draws, sample.scores, kDimension, {}, {})->squared;
  EXPECT_NEAR(
      LinearKernelSteinDiscrepancy(sample.draws, sample.scores, kDimension, constant, {})->squared,
      linear, 1e-13 * std::abs(linear));

  // U with weights: the off-diagonal pairs weighted by w_i w_j, here by brute force.
  double numerator = 0, denominator = 0;
  const absl::Span<const double> x(sample.draws), s(sample.scores);
  for (int i = 0; i < 40; ++i) {
    for (int j = 0; j < 40; ++j) {
      if (i == j) continue;
      numerator += weights[i] * weights[j] *
                   SteinKernel(x.subspan(2 * i, 2), s.subspan(2 * i, 2), x.subspan(2 * j, 2),
                               s.subspan(2 * j, 2), KernelSteinOptions());
      denominator += weights[i] * weights[j];
    }
  }
  const double u = KernelSteinDiscrepancy(sample.draws, sample.scores, kDimension, weights,
                                          Options(1, -0.5, Statistic::kU))
                       ->squared;
  EXPECT_NEAR(u, numerator / denominator, 1e-13 * std::abs(u));

  // Linear: pair i weighted by w_{2i} w_{2i+1}.
  numerator = denominator = 0;
  for (int p = 0; p < 20; ++p) {
    const double v = weights[2 * p] * weights[2 * p + 1];
    numerator += v * SteinKernel(x.subspan(4 * p, 2), s.subspan(4 * p, 2), x.subspan(4 * p + 2, 2),
                                 s.subspan(4 * p + 2, 2), KernelSteinOptions());
    denominator += v;
  }
  EXPECT_NEAR(
      LinearKernelSteinDiscrepancy(sample.draws, sample.scores, kDimension, weights, {})->squared,
      numerator / denominator, 1e-13 * std::abs(numerator / denominator));
}

TEST(KernelSteinDiscrepancyTest, RejectsBadInput) {
  const std::vector<double> draws = {0, 1, 2, 3, 4, 5};
  const std::vector<double> scores = {0, -1, -2, -3, -4, -5};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto message = [](const absl::StatusOr<KsdEstimate>& result) {
    EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
    return std::string(result.status().message());
  };
  EXPECT_EQ(message(KernelSteinDiscrepancy(draws, scores, 2, {}, Options(0, -0.5))),
            "KernelSteinOptions.c must be finite and > 0, got 0");
  EXPECT_EQ(message(KernelSteinDiscrepancy(draws, scores, 2, {}, Options(1, -1))),
            "KernelSteinOptions.beta must be in (-1, 0), got -1");
  EXPECT_EQ(message(KernelSteinDiscrepancy(draws, scores, 2, {}, Options(1, 0))),
            "KernelSteinOptions.beta must be in (-1, 0), got 0");
  EXPECT_EQ(message(KernelSteinDiscrepancy(draws, scores, 2, {}, Options(1, nan))),
            "KernelSteinOptions.beta must be in (-1, 0), got nan");
  EXPECT_EQ(message(KernelSteinDiscrepancy(draws, scores, 0, {}, {})),
            "KernelSteinDiscrepancy: dimension must be >= 1, got 0");
  EXPECT_EQ(message(KernelSteinDiscrepancy(draws, scores, 4, {}, {})),
            "KernelSteinDiscrepancy: draws has 6 values, not a multiple of dimension 4");
  EXPECT_EQ(message(KernelSteinDiscrepancy(draws, absl::MakeSpan(scores).subspan(2), 2, {}, {})),
            "KernelSteinDiscrepancy: scores has 4 values but draws has 6");
  EXPECT_EQ(message(KernelSteinDiscrepancy({}, {}, 2, {}, {})),
            "KernelSteinDiscrepancy: needs at least 1 draws, got 0");
  EXPECT_EQ(message(KernelSteinDiscrepancy(absl::MakeSpan(draws).subspan(0, 2),
                                           absl::MakeSpan(scores).subspan(0, 2), 2, {},
                                           Options(1, -0.5, Statistic::kU))),
            "KernelSteinDiscrepancy: needs at least 2 draws, got 1");
  EXPECT_EQ(message(LinearKernelSteinDiscrepancy(absl::MakeSpan(draws).subspan(0, 2),
                                                 absl::MakeSpan(scores).subspan(0, 2), 2, {}, {})),
            "KernelSteinDiscrepancy: needs at least 2 draws, got 1");
  std::vector<double> bad = draws;
  bad[3] = nan;
  EXPECT_EQ(message(KernelSteinDiscrepancy(bad, scores, 2, {}, {})),
            "KernelSteinDiscrepancy: draws[1][1] must be finite, got nan");
  bad = scores;
  bad[4] = -std::numeric_limits<double>::infinity();
  EXPECT_EQ(message(LinearKernelSteinDiscrepancy(draws, bad, 2, {}, {})),
            "KernelSteinDiscrepancy: scores[2][0] must be finite, got -inf");
  EXPECT_EQ(message(KernelSteinDiscrepancy(draws, scores, 2, std::vector<double>{1, 1}, {})),
            "KernelSteinDiscrepancy: weights has 2 entries for 3 draws");
  EXPECT_EQ(message(KernelSteinDiscrepancy(draws, scores, 2, std::vector<double>{1, -1, 1}, {})),
            "KernelSteinDiscrepancy: weights[1] must be finite and >= 0, got -1");
  EXPECT_EQ(message(KernelSteinDiscrepancy(draws, scores, 2, std::vector<double>{0, 0, 0}, {})),
            "KernelSteinDiscrepancy: the weights' sum must be > 0");
  EXPECT_EQ(
      message(KernelSteinDiscrepancy(draws, scores, 2, std::vector<double>{0, 2, 0},
                                     Options(1, -0.5, Statistic::kU))),
      "KernelSteinDiscrepancy: the weights' off-diagonal sum (sum w)^2 - sum w^2 must be > 0");
  EXPECT_EQ(
      message(LinearKernelSteinDiscrepancy(draws, scores, 2, std::vector<double>{0, 2, 2}, {})),
      "KernelSteinDiscrepancy: the pair weights w_{2i} w_{2i+1} must not all be 0");
}

}  // namespace
}  // namespace sgmcmc::eval
