#include "eval/ks_dirichlet.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "math/special_functions.h"

namespace sgmcmc::eval {
namespace {

constexpr double kNegativeInfinity = -std::numeric_limits<double>::infinity();

absl::Status ValidateArguments(const char* function, size_t num_values, int dimension,
                               absl::Span<const double> alpha) {
  if (dimension < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat(function, ": dimension must be >= 2, got ", dimension));
  }
  if (alpha.size() != static_cast<size_t>(dimension)) {
    return absl::InvalidArgumentError(absl::StrCat(function, ": alpha has ", alpha.size(),
                                                   " entries, expected dimension = ", dimension));
  }
  for (int k = 0; k < dimension; ++k) {
    if (!(alpha[k] > 0) || !std::isfinite(alpha[k])) {
      return absl::InvalidArgumentError(
          absl::StrCat(function, ": alpha[", k, "] must be finite and > 0, got ", alpha[k]));
    }
  }
  if (num_values == 0 || num_values % dimension != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        function, ": got ", num_values, " values, expected a positive multiple of ", dimension));
  }
  return absl::OkStatus();
}

// Σ_{j>k} α_j for k < K − 1, summed from the end (so every entry is positive).
std::vector<double> AlphaAfter(absl::Span<const double> alpha) {
  std::vector<double> after(alpha.size() - 1);
  double sum = 0;
  for (size_t k = alpha.size() - 1; k-- > 0;) {
    sum += alpha[k + 1];
    after[k] = sum;
  }
  return after;
}

// The conditional ratio r_k = x_k / Σ_{j>=k} x_j and its complement q_k = Σ_{j>k} x_j /
// Σ_{j>=k} x_j, each computed as a quotient (never as 1 − the other), so a ratio within 1e-16
// of 1 keeps its information: I_r(a, b) near r = 1 depends on 1 − r to full relative accuracy.
struct Ratio {
  double r = 0;
  double q = 1;
};

// u_k = I_{r_k}(α_k, Σ_{j>k} α_j) for k < K − 1, evaluated as 1 − I_{q_k}(Σ_{j>k} α_j, α_k)
// when r_k > q_k.
void RosenblattFromRatios(absl::Span<const Ratio> ratios, absl::Span<const double> alpha,
                          absl::Span<const double> alpha_after, absl::Span<double> u) {
  for (size_t k = 0; k < u.size(); ++k) {
    const double r = std::clamp(ratios[k].r, 0.0, 1.0);
    const double q = std::clamp(ratios[k].q, 0.0, 1.0);
    u[k] = r <= q ? math::RegularizedIncompleteBeta(alpha[k], alpha_after[k], r)
                  : 1.0 - math::RegularizedIncompleteBeta(alpha_after[k], alpha[k], q);
  }
}

// Ratios from x by suffix sums; 0/0 (all remaining components exactly zero) gives r = 0, q = 1.
void RatiosFromLinear(absl::Span<const double> x, absl::Span<Ratio> ratios) {
  const int dim = static_cast<int>(x.size());
  double suffix = x[dim - 1];  // Σ_{j>k} x_j
  for (int k = dim - 2; k >= 0; --k) {
    const double total = suffix + x[k];
    ratios[k] = total > 0 ? Ratio{x[k] / total, suffix / total} : Ratio{};
    suffix = total;
  }
}

// The same from log x by a running log-sum-exp from the end.
void RatiosFromLog(absl::Span<const double> log_x, absl::Span<Ratio> ratios) {
  const int dim = static_cast<int>(log_x.size());
  double log_suffix = log_x[dim - 1];  // log Σ_{j>k} x_j
  for (int k = dim - 2; k >= 0; --k) {
    const double hi = std::max(log_suffix, log_x[k]);
    if (hi == kNegativeInfinity) {
      ratios[k] = Ratio{};
      continue;
    }
    const double log_total = hi + std::log(std::exp(log_suffix - hi) + std::exp(log_x[k] - hi));
    ratios[k] = Ratio{std::exp(log_x[k] - log_total), std::exp(log_suffix - log_total)};
    log_suffix = log_total;
  }
}

template <typename RatioFunction>
DirichletKsResult KsFromSamples(absl::Span<const double> samples, int dimension,
                                absl::Span<const double> alpha, RatioFunction ratio_function) {
  const size_t m = samples.size() / dimension;
  const int informative = dimension - 1;
  std::vector<double> u_by_component(informative * m);  // component-major
  std::vector<Ratio> ratios(informative);
  std::vector<double> u(informative);
  const std::vector<double> alpha_after = AlphaAfter(alpha);
  for (size_t i = 0; i < m; ++i) {
    ratio_function(samples.subspan(i * dimension, dimension), absl::MakeSpan(ratios));
    RosenblattFromRatios(ratios, alpha, alpha_after, absl::MakeSpan(u));
    for (int k = 0; k < informative; ++k) u_by_component[k * m + i] = u[k];
  }
  DirichletKsResult result;
  for (int k = 0; k < informative; ++k) {
    result.per_component.push_back(
        KsDistanceToUniform(absl::MakeSpan(u_by_component.data() + k * m, m)));
    result.distance += result.per_component.back();
  }
  result.distance /= informative;
  return result;
}

}  // namespace

double KsDistanceToUniform(absl::Span<double> values) {
  std::sort(values.begin(), values.end());
  const double n = static_cast<double>(values.size());
  double d = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    d = std::max({d, (i + 1) / n - values[i], values[i] - i / n});
  }
  return d;
}

void DirichletRosenblatt(absl::Span<const double> x, absl::Span<const double> alpha,
                         absl::Span<double> u) {
  SGMCMC_CHECK(x.size() == alpha.size() && x.size() >= 2 && u.size() + 1 == x.size())
      << "DirichletRosenblatt: sizes x=" << x.size() << " alpha=" << alpha.size()
      << " u=" << u.size() << " must be K, K, K - 1 with K >= 2";
  std::vector<Ratio> ratios(u.size());
  RatiosFromLinear(x, absl::MakeSpan(ratios));
  RosenblattFromRatios(ratios, alpha, AlphaAfter(alpha), u);
}

absl::StatusOr<DirichletKsResult> DirichletKsDistance(absl::Span<const double> samples,
                                                      int dimension,
                                                      absl::Span<const double> alpha) {
  constexpr char kFunction[] = "DirichletKsDistance";
  if (absl::Status s = ValidateArguments(kFunction, samples.size(), dimension, alpha); !s.ok()) {
    return s;
  }
  for (size_t i = 0; i < samples.size() / dimension; ++i) {
    double sum = 0;
    for (int k = 0; k < dimension; ++k) {
      const double x = samples[i * dimension + k];
      if (!(x >= 0) || !std::isfinite(x)) {
        return absl::InvalidArgumentError(absl::StrCat(kFunction, ": sample ", i, " component ", k,
                                                       " must be finite and >= 0, got ", x));
      }
      sum += x;
    }
    if (!(sum > 0)) {
      return absl::InvalidArgumentError(
          absl::StrCat(kFunction, ": sample ", i, " has no positive component"));
    }
  }
  return KsFromSamples(samples, dimension, alpha, RatiosFromLinear);
}

absl::StatusOr<DirichletKsResult> DirichletKsDistanceFromLog(absl::Span<const double> log_samples,
                                                             int dimension,
                                                             absl::Span<const double> alpha) {
  constexpr char kFunction[] = "DirichletKsDistanceFromLog";
  if (absl::Status s = ValidateArguments(kFunction, log_samples.size(), dimension, alpha);
      !s.ok()) {
    return s;
  }
  for (size_t i = 0; i < log_samples.size() / dimension; ++i) {
    bool any_finite = false;
    for (int k = 0; k < dimension; ++k) {
      const double v = log_samples[i * dimension + k];
      if (std::isnan(v) || v == std::numeric_limits<double>::infinity()) {
        return absl::InvalidArgumentError(absl::StrCat(kFunction, ": sample ", i, " component ", k,
                                                       " must be finite or -inf, got ", v));
      }
      any_finite |= std::isfinite(v);
    }
    if (!any_finite) {
      return absl::InvalidArgumentError(
          absl::StrCat(kFunction, ": sample ", i, " has no finite log component"));
    }
  }
  return KsFromSamples(log_samples, dimension, alpha, RatiosFromLog);
}

}  // namespace sgmcmc::eval
