#include "testing/distribution_testing.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "boost/math/special_functions/erf.hpp"
#include "boost/math/special_functions/gamma.hpp"

namespace sgmcmc::testing {

std::string TestResult::ToString() const {
  return absl::StrCat(name, ": statistic=", statistic, " p=", p_value, " ", detail);
}

std::ostream& operator<<(std::ostream& os, const TestResult& result) {
  return os << result.ToString();
}

double TwoSidedNormalPValue(double z) { return std::erfc(std::fabs(z) / std::sqrt(2.0)); }

double ChiSquaredPValue(double statistic, double df) {
  if (statistic <= 0) return 1.0;
  return boost::math::gamma_q(df / 2, statistic / 2);
}

ChiSquaredBand WorstCaseChiSquaredBand(int replicates, double false_failure_rate) {
  SGMCMC_CHECK(replicates >= 1) << "WorstCaseChiSquaredBand: replicates " << replicates;
  SGMCMC_CHECK(false_failure_rate > 0 && false_failure_rate < 1)
      << "WorstCaseChiSquaredBand: rate " << false_failure_rate;
  const double r = replicates;
  const double half = false_failure_rate / 2;
  // Quantiles by inverting the regularised incomplete gamma: chi^2_R = 2 Gamma(R / 2).
  const double upper = 2 * boost::math::gamma_q_inv(r / 2, half);
  const double lower = 2 * boost::math::gamma_p_inv(r / 2, half);
  const double root = std::sqrt(2 * r);
  return {(r - lower) / root, (upper - r) / root};
}

double KolmogorovPValue(double lambda) {
  if (lambda < 0.2) return 1.0;
  double sum = 0;
  for (int k = 1; k <= 100; ++k) {
    const double term = std::exp(-2.0 * k * k * lambda * lambda);
    sum += (k % 2 == 1 ? term : -term);
    if (term < 1e-17) break;
  }
  return std::clamp(2 * sum, 0.0, 1.0);
}

SampleMoments ComputeMoments(absl::Span<const double> draws) {
  SampleMoments m;
  const double n = draws.size();
  if (draws.empty()) return m;
  double sum = 0;
  for (double x : draws) sum += x;
  m.mean = sum / n;
  double ss = 0;
  for (double x : draws) ss += (x - m.mean) * (x - m.mean);
  m.variance = draws.size() > 1 ? ss / (n - 1) : 0;
  return m;
}

namespace {

std::string MomentDetail(absl::Span<const double> draws) {
  const SampleMoments m = ComputeMoments(draws);
  return absl::StrCat("n=", draws.size(), " sample_mean=", m.mean, " sample_var=", m.variance);
}

}  // namespace

TestResult KolmogorovSmirnovTest(absl::Span<const double> draws,
                                 absl::FunctionRef<double(double)> cdf) {
  SGMCMC_CHECK(!draws.empty()) << "KolmogorovSmirnovTest: no draws";
  std::vector<double> sorted(draws.begin(), draws.end());
  std::sort(sorted.begin(), sorted.end());
  const double n = sorted.size();
  double d = 0;
  for (size_t i = 0; i < sorted.size(); ++i) {
    const double f = cdf(sorted[i]);
    d = std::max({d, (i + 1) / n - f, f - i / n});
  }
  const double sqrt_n = std::sqrt(n);
  const double lambda = (sqrt_n + 0.12 + 0.11 / sqrt_n) * d;
  return {"KS", d, KolmogorovPValue(lambda), MomentDetail(draws)};
}

TestResult TwoSampleKolmogorovSmirnovTest(absl::Span<const double> a, absl::Span<const double> b) {
  SGMCMC_CHECK(!a.empty() && !b.empty()) << "TwoSampleKolmogorovSmirnovTest: an empty sample";
  std::vector<double> x(a.begin(), a.end()), y(b.begin(), b.end());
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  const double n = x.size(), m = y.size();
  size_t i = 0, j = 0;
  double d = 0;
  while (i < x.size() && j < y.size()) {
    const double v = std::min(x[i], y[j]);
    while (i < x.size() && x[i] <= v) ++i;
    while (j < y.size() && y[j] <= v) ++j;
    d = std::max(d, std::abs(i / n - j / m));
  }
  return {"KS2", d, KolmogorovPValue(d * std::sqrt(n * m / (n + m))),
          absl::StrCat("n=", x.size(), " m=", y.size())};
}

TestResult ChiSquaredQuantileTest(absl::Span<const double> draws,
                                  absl::FunctionRef<double(double)> cdf, int bins) {
  SGMCMC_CHECK_GE(bins, 2);
  SGMCMC_CHECK(draws.size() >= 5 * static_cast<size_t>(bins))
      << "ChiSquaredQuantileTest: need at least 5 draws per bin";
  std::vector<int64_t> counts(bins, 0);
  for (double x : draws) {
    const double u = cdf(x);
    int bin = static_cast<int>(u * bins);
    counts[std::clamp(bin, 0, bins - 1)]++;
  }
  const double expected = static_cast<double>(draws.size()) / bins;
  double stat = 0;
  for (int64_t c : counts) stat += (c - expected) * (c - expected) / expected;
  return {"chi2-quantile", stat, ChiSquaredPValue(stat, bins - 1),
          absl::StrCat("bins=", bins, " ", MomentDetail(draws))};
}

TestResult DiscreteChiSquaredTest(absl::Span<const int64_t> draws,
                                  absl::FunctionRef<double(int64_t)> pmf, int64_t lo,
                                  int64_t hi) {
  SGMCMC_CHECK_LE(lo, hi);
  SGMCMC_CHECK(!draws.empty());
  const double n = draws.size();
  const int64_t cells = hi - lo + 1;
  std::vector<double> observed(cells, 0), expected(cells, 0);
  int64_t outside = 0;
  for (int64_t x : draws) {
    if (x < lo || x > hi) {
      ++outside;
    } else {
      observed[x - lo] += 1;
    }
  }
  double inside_mass = 0;
  for (int64_t k = 0; k < cells; ++k) {
    expected[k] = n * pmf(lo + k);
    inside_mass += expected[k];
    if (expected[k] <= 0 && observed[k] > 0) {
      return {"chi2-discrete", INFINITY, 0.0,
              absl::StrCat(observed[k], " draws of ", lo + k, " where the pmf is 0")};
    }
  }
  // Pool adjacent cells until each pooled cell expects at least 5 draws. What is left over at
  // the end joins the mass outside [lo, hi] as the tail cell, and a tail that still expects
  // fewer than 5 draws is merged into the last pooled cell, so no cell is ever sparse.
  struct Cell {
    double observed = 0;
    double expected = 0;
  };
  std::vector<Cell> pooled;
  Cell current;
  for (int64_t k = 0; k < cells; ++k) {
    current.observed += observed[k];
    current.expected += expected[k];
    if (current.expected >= 5) {
      pooled.push_back(current);
      current = Cell();
    }
  }
  Cell tail = current;
  tail.observed += outside;
  tail.expected += std::max(0.0, n - inside_mass);
  if (tail.expected < 1e-12 && tail.observed > 0) {
    return {"chi2-discrete", INFINITY, 0.0,
            absl::StrCat(tail.observed, " draws where the pmf has no mass")};
  }
  if (tail.expected >= 5 || pooled.empty()) {
    pooled.push_back(tail);
  } else {
    pooled.back().observed += tail.observed;
    pooled.back().expected += tail.expected;
  }
  double stat = 0;
  for (const Cell& c : pooled) {
    if (c.expected > 0) stat += (c.observed - c.expected) * (c.observed - c.expected) / c.expected;
  }
  const int pooled_cells = static_cast<int>(pooled.size());
  const int df = std::max(1, pooled_cells - 1);
  return {"chi2-discrete", stat, ChiSquaredPValue(stat, df),
          absl::StrCat("n=", draws.size(), " cells=", pooled_cells, " outside=", outside)};
}

TestResult MeanZTest(absl::Span<const double> draws, double mean, double variance) {
  SGMCMC_CHECK(!draws.empty());
  SGMCMC_CHECK_GT(variance, 0);
  const SampleMoments m = ComputeMoments(draws);
  const double z = (m.mean - mean) / std::sqrt(variance / draws.size());
  return {"mean-z", z, TwoSidedNormalPValue(z),
          absl::StrCat("expected_mean=", mean, " ", MomentDetail(draws))};
}

TestResult VarianceZTest(absl::Span<const double> draws, double variance,
                         double fourth_central_moment) {
  SGMCMC_CHECK_GT(draws.size(), 1u);
  const double var_of_s2 = (fourth_central_moment - variance * variance) / draws.size();
  SGMCMC_CHECK_GT(var_of_s2, 0);
  const SampleMoments m = ComputeMoments(draws);
  const double z = (m.variance - variance) / std::sqrt(var_of_s2);
  return {"variance-z", z, TwoSidedNormalPValue(z),
          absl::StrCat("expected_var=", variance, " ", MomentDetail(draws))};
}

}  // namespace sgmcmc::testing
