#include "eval/kernel_stein_discrepancy.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "absl/strings/str_cat.h"

namespace sgmcmc::eval {
namespace {

// q^(beta - 1) for q > 0; beta = -1/2, the default, without pow.
class PowBetaMinusOne {
 public:
  explicit PowBetaMinusOne(double beta) : beta_(beta), half_(beta == -0.5) {}
  double operator()(double q) const {
    return half_ ? 1 / (q * std::sqrt(q)) : std::pow(q, beta_ - 1);
  }

 private:
  double beta_;
  bool half_;
};

// The Stein kernel of the header with c2 = c^2, on raw pointers of length d: the Euclidean
// k0, or, with options.sphere_dimension = p > 0, the sphere kernel of the header summed over
// the d / p unit-sphere blocks.
class SteinKernelEvaluator {
 public:
  SteinKernelEvaluator(const KernelSteinOptions& options, int d)
      : c2_(options.c * options.c),
        two_beta_(2 * options.beta),
        trace_r2_(-4 * options.beta * (options.beta - 1)),
        trace_const_(-2 * options.beta * d),
        d_(d),
        sphere_dimension_(options.sphere_dimension),
        pow_(options.beta) {}

  double operator()(const double* x, const double* sx, const double* y, const double* sy) const {
    if (sphere_dimension_ > 0) return Sphere(x, sx, y, sy);
    double r2 = 0;
    double score_dot = 0;
    double score_diff_dot_u = 0;
    for (int k = 0; k < d_; ++k) {
      const double u = x[k] - y[k];
      r2 += u * u;
      score_dot += sx[k] * sy[k];
      score_diff_dot_u += (sy[k] - sx[k]) * u;
    }
    const double q = c2_ + r2;
    const double q_beta_minus_1 = pow_(q);
    return score_dot * q_beta_minus_1 * q +
           q_beta_minus_1 * (two_beta_ * score_diff_dot_u + trace_const_ + trace_r2_ * r2 / q);
  }

 private:
  // The sphere kernel: per block, t = x'y and the tangent scores σ = P s enter only through
  // dot products, so nothing is projected explicitly.
  double Sphere(const double* x, const double* sx, const double* y, const double* sy) const {
    const double e = sphere_dimension_ - 1;
    double r2 = 0;
    double b = 0;        // B = Σ b(x)'b(y)
    double c = 0;        // C + T1, the coefficients of -2 beta q^(beta-1)
    double t2_term = 0;  // T2 = Σ t (1 - t^2)
    for (int start = 0; start < d_; start += sphere_dimension_) {
      double t = 0, sx_x = 0, sx_y = 0, sy_x = 0, sy_y = 0, sx_sy = 0;
      for (int k = start; k < start + sphere_dimension_; ++k) {
        const double u = x[k] - y[k];
        r2 += u * u;
        t += x[k] * y[k];
        sx_x += sx[k] * x[k];
        sx_y += sx[k] * y[k];
        sy_x += sy[k] * x[k];
        sy_y += sy[k] * y[k];
        sx_sy += sx[k] * sy[k];
      }
      const double tangent_x_y = sx_y - sx_x * t;  // σ(x)'y
      const double tangent_y_x = sy_x - sy_y * t;  // σ(y)'x
      const double cross = tangent_x_y + tangent_y_x;
      const double one_minus_t2 = 1 - t * t;
      b += sx_sy - sx_x * sy_x - sy_y * sx_y + sx_x * sy_y * t - e * cross + e * e * t;
      c += -2 * e * one_minus_t2 - t * cross + (e - 1) + t * t;
      t2_term += t * one_minus_t2;
    }
    const double q = c2_ + r2;
    const double q_beta_minus_1 = pow_(q);
    return q_beta_minus_1 * (b * q - two_beta_ * c + trace_r2_ * t2_term / q);
  }

  double c2_;
  double two_beta_;
  double trace_r2_;     // -4 beta (beta - 1), the coefficient of q^(beta-2) r^2
  double trace_const_;  // -2 beta d, the coefficient of q^(beta-1)
  int d_;
  int sphere_dimension_;  // 0: R^d
  PowBetaMinusOne pow_;
};

// Checks shared by both estimators; sets *n to the number of draws.
absl::Status ValidateInputs(absl::Span<const double> draws, absl::Span<const double> scores,
                            int dimension, absl::Span<const double> weights,
                            const KernelSteinOptions& options, int64_t min_draws, int64_t* n) {
  absl::Status status = options.Validate();
  if (!status.ok()) return status;
  if (dimension < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("KernelSteinDiscrepancy: dimension must be >= 1, got ", dimension));
  }
  if (draws.size() % dimension != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("KernelSteinDiscrepancy: draws has ", draws.size(),
                     " values, not a multiple of dimension ", dimension));
  }
  if (scores.size() != draws.size()) {
    return absl::InvalidArgumentError(absl::StrCat("KernelSteinDiscrepancy: scores has ",
                                                   scores.size(), " values but draws has ",
                                                   draws.size()));
  }
  const int p = options.sphere_dimension;
  if (p > 0 && dimension % p != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("KernelSteinDiscrepancy: dimension ", dimension,
                     " must be a multiple of options.sphere_dimension ", p));
  }
  *n = static_cast<int64_t>(draws.size()) / dimension;
  if (*n < min_draws) {
    return absl::InvalidArgumentError(
        absl::StrCat("KernelSteinDiscrepancy: needs at least ", min_draws, " draws, got ", *n));
  }
  if (!weights.empty() && static_cast<int64_t>(weights.size()) != *n) {
    return absl::InvalidArgumentError(absl::StrCat("KernelSteinDiscrepancy: weights has ",
                                                   weights.size(), " entries for ", *n, " draws"));
  }
  for (size_t i = 0; i < draws.size(); ++i) {
    if (!std::isfinite(draws[i])) {
      return absl::InvalidArgumentError(absl::StrCat("KernelSteinDiscrepancy: draws[",
                                                     i / dimension, "][", i % dimension,
                                                     "] must be finite, got ", draws[i]));
    }
    if (!std::isfinite(scores[i])) {
      return absl::InvalidArgumentError(absl::StrCat("KernelSteinDiscrepancy: scores[",
                                                     i / dimension, "][", i % dimension,
                                                     "] must be finite, got ", scores[i]));
    }
  }
  for (size_t start = 0; p > 0 && start < draws.size(); start += p) {
    double norm2 = 0;
    for (int k = 0; k < p; ++k) norm2 += draws[start + k] * draws[start + k];
    if (!(std::abs(norm2 - 1) <= kSphereNormTolerance)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "KernelSteinDiscrepancy: draws[", start / dimension, "] block ",
          (start % dimension) / p, " has squared norm ", norm2, ", not 1 (within ",
          kSphereNormTolerance, ") on the sphere S^", p - 1));
    }
  }
  for (size_t i = 0; i < weights.size(); ++i) {
    if (!(std::isfinite(weights[i]) && weights[i] >= 0)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "KernelSteinDiscrepancy: weights[", i, "] must be finite and >= 0, got ", weights[i]));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status KernelSteinOptions::Validate() const {
  if (!(std::isfinite(c) && c > 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("KernelSteinOptions.c must be finite and > 0, got ", c));
  }
  if (!(beta > -1 && beta < 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("KernelSteinOptions.beta must be in (-1, 0), got ", beta));
  }
  if (sphere_dimension != 0 && sphere_dimension < 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "KernelSteinOptions.sphere_dimension must be 0 (R^d) or >= 2, got ", sphere_dimension));
  }
  return absl::OkStatus();
}

double KsdEstimate::value() const { return std::sqrt(std::max(squared, 0.0)); }

double SteinKernel(absl::Span<const double> x, absl::Span<const double> score_x,
                   absl::Span<const double> y, absl::Span<const double> score_y,
                   const KernelSteinOptions& options) {
  const int d = static_cast<int>(x.size());
  return SteinKernelEvaluator(options, d)(x.data(), score_x.data(), y.data(), score_y.data());
}

absl::StatusOr<KsdEstimate> KernelSteinDiscrepancy(absl::Span<const double> draws,
                                                   absl::Span<const double> scores, int dimension,
                                                   absl::Span<const double> weights,
                                                   const KernelSteinOptions& options) {
  const bool u_statistic = options.statistic == KernelSteinOptions::Statistic::kU;
  int64_t n = 0;
  absl::Status status =
      ValidateInputs(draws, scores, dimension, weights, options, u_statistic ? 2 : 1, &n);
  if (!status.ok()) return status;
  auto weight = [&](int64_t i) { return weights.empty() ? 1.0 : weights[i]; };
  double weight_sum = 0;
  double weight_sum_of_squares = 0;
  for (int64_t i = 0; i < n; ++i) {
    weight_sum += weight(i);
    weight_sum_of_squares += weight(i) * weight(i);
  }
  const double normaliser =
      u_statistic ? weight_sum * weight_sum - weight_sum_of_squares : weight_sum * weight_sum;
  if (!(normaliser > 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("KernelSteinDiscrepancy: the weights' ",
                     u_statistic ? "off-diagonal sum (sum w)^2 - sum w^2" : "sum", " must be > 0"));
  }
  const SteinKernelEvaluator k0(options, dimension);
  const double* x = draws.data();
  const double* s = scores.data();
  double total = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double* xi = x + i * dimension;
    const double* si = s + i * dimension;
    double row = 0;  // sum_{j > i} w_j k0(x_i, x_j)
    for (int64_t j = i + 1; j < n; ++j) {
      row += weight(j) * k0(xi, si, x + j * dimension, s + j * dimension);
    }
    double term = 2 * row;
    if (!u_statistic) term += weight(i) * k0(xi, si, xi, si);
    total += weight(i) * term;
  }
  KsdEstimate estimate;
  estimate.squared = total / normaliser;
  estimate.num_pairs = u_statistic ? n * (n - 1) / 2 : n * (n + 1) / 2;
  return estimate;
}

absl::StatusOr<KsdEstimate> LinearKernelSteinDiscrepancy(absl::Span<const double> draws,
                                                         absl::Span<const double> scores,
                                                         int dimension,
                                                         absl::Span<const double> weights,
                                                         const KernelSteinOptions& options) {
  int64_t n = 0;
  absl::Status status = ValidateInputs(draws, scores, dimension, weights, options, 2, &n);
  if (!status.ok()) return status;
  auto weight = [&](int64_t i) { return weights.empty() ? 1.0 : weights[i]; };
  const int64_t num_pairs = n / 2;
  const SteinKernelEvaluator k0(options, dimension);
  auto pair_term = [&](int64_t p) {
    const int64_t a = 2 * p * dimension;
    const int64_t b = a + dimension;
    return k0(&draws[a], &scores[a], &draws[b], &scores[b]);
  };
  double weight_sum = 0;
  double total = 0;
  for (int64_t p = 0; p < num_pairs; ++p) {
    const double v = weight(2 * p) * weight(2 * p + 1);
    weight_sum += v;
    total += v * pair_term(p);
  }
  if (!(weight_sum > 0)) {
    return absl::InvalidArgumentError(
        "KernelSteinDiscrepancy: the pair weights w_{2i} w_{2i+1} must not all be 0");
  }
  KsdEstimate estimate;
  estimate.squared = total / weight_sum;
  estimate.num_pairs = num_pairs;
  // Second pass for the standard error (the pair terms are cheap; no storage needed).
  double squared_deviations = 0;
  for (int64_t p = 0; p < num_pairs; ++p) {
    const double v = weight(2 * p) * weight(2 * p + 1);
    const double deviation = pair_term(p) - estimate.squared;
    squared_deviations += v * v * deviation * deviation;
  }
  estimate.standard_error = std::sqrt(squared_deviations) / weight_sum;
  return estimate;
}

}  // namespace sgmcmc::eval
