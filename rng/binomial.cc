#include "rng/binomial.h"

#include <cmath>
#include <cstdint>
#include <limits>

#include "base/check.h"
#include "rng/internal/reciprocal_table.h"
#include "rng/internal/saddle_point.h"
#include "rng/internal/sequential_search.h"
#include "rng/internal/transformed_rejection.h"
#include "rng/uniform.h"

namespace sgmcmc::rng {
namespace {

using rng_internal::ExactDifference;
using rng_internal::kReciprocals;
using rng_internal::kReciprocalTableSize;

// Below this n p' inversion is faster than BTRS; BTRS is valid from 10 on (Hoermann 1993).
constexpr double kInversionMaxMean = 10;

void CheckArguments(const char* function, int64_t n, double p) {
  SGMCMC_CHECK(n >= 0 && n <= kMaxBinomialTrials)
      << function << ": n must be in [0, 2^62], got " << n;
  SGMCMC_CHECK(p >= 0 && p <= 1) << function << ": p must be in [0, 1], got " << p;
}

// Loader's log-pmf for 0 < k < n, given q = 1 - p and the products n p, n q. Rounding of
// n p and n q perturbs the result by only O(|k - n p| * 1e-16), since the derivative of
// each deviance term in its mean vanishes at the mean.
double LogPmfInterior(int64_t k, int64_t n, double np, double nq) {
  const double x = static_cast<double>(k);
  const double y = static_cast<double>(n - k);
  const double nd = static_cast<double>(n);
  const double log_coefficient = rng_internal::StirlingError(n) - rng_internal::StirlingError(k) -
                                 rng_internal::StirlingError(n - k) -
                                 rng_internal::DevianceTerm(x, np, ExactDifference(k, np)) -
                                 rng_internal::DevianceTerm(y, nq, ExactDifference(n - k, nq));
  return log_coefficient - 0.5 * std::log(2 * M_PI * x * (y / nd));
}

// BINV for p <= 1/2 and n p < 10: sequential search with p_0 = q^n and ratios
// p_k / p_{k-1} = (n + 1) s / k - s, s = p / q.
int64_t BinomialInversion(Engine& engine, int64_t n, double p) {
  const double s = p / (1 - p);
  const double a = (static_cast<double>(n) + 1) * s;
  const double p0 = std::exp(static_cast<double>(n) * std::log1p(-p));
  const auto ratio = [a, s](int64_t k) {
    return (k < kReciprocalTableSize ? a * kReciprocals[k] : a / static_cast<double>(k)) - s;
  };
  for (;;) {
    const int64_t k = rng_internal::SequentialSearch(UniformDouble(engine), p0, n, ratio);
    if (k >= 0) return k;
  }
}

// Hoermann's BTRS for p <= 1/2 and n p >= 10.
int64_t BinomialBtrs(Engine& engine, int64_t n, double p) {
  const double q = 1 - p;
  const double nd = static_cast<double>(n);
  const double np = nd * p;
  const double nq = nd * q;
  const double spq = std::sqrt(np * q);
  const double b = 1.15 + 2.53 * spq;
  const double a = -0.0873 + 0.0248 * b + 0.01 * p;
  const double v_r = 0.92 - 4.2 / b;
  const rng_internal::TransformedRejectionProposal proposal(a, b, np, 0.5);
  rng_internal::TransformedRejectionProposal::Trial t;
  // Needed only when the squeeze fails: computed on first use.
  double alpha = 0;
  double log_pmf_mode = std::numeric_limits<double>::quiet_NaN();
  for (;;) {
    if (!proposal.Draw(engine, t)) continue;
    if (t.us >= 0.07 && t.v <= v_r) return t.k;
    if (t.k < 0 || t.k > n) continue;
    if (std::isnan(log_pmf_mode)) {
      alpha = (2.83 + 5.1 / b) * spq;
      // The mode floor((n + 1) p) lies strictly inside (0, n) here since 10 <= n p <= n / 2.
      const int64_t mode = static_cast<int64_t>(std::floor((nd + 1) * p));
      log_pmf_mode = LogPmfInterior(mode, n, np, nq);
    }
    const double log_pmf =
        (t.k == 0 || t.k == n) ? BinomialLogPmf(t.k, n, p) : LogPmfInterior(t.k, n, np, nq);
    if (proposal.LogHat(t, alpha) <= log_pmf - log_pmf_mode) return t.k;
  }
}

}  // namespace

int64_t BinomialSample(Engine& engine, int64_t n, double p) {
  CheckArguments("BinomialSample", n, p);
  if (n == 0 || p == 0) return 0;
  if (p == 1) return n;
  const bool flip = p > 0.5;
  const double p_min = flip ? 1 - p : p;  // exact: 1 - p for p in [1/2, 1]
  const int64_t k = static_cast<double>(n) * p_min < kInversionMaxMean
                        ? BinomialInversion(engine, n, p_min)
                        : BinomialBtrs(engine, n, p_min);
  return flip ? n - k : k;
}

double BinomialLogPmf(int64_t k, int64_t n, double p) {
  CheckArguments("BinomialLogPmf", n, p);
  if (k < 0 || k > n) return -std::numeric_limits<double>::infinity();
  if (n == 0) return 0;
  const double nd = static_cast<double>(n);
  if (k == 0) return nd * std::log1p(-p);  // -inf for p = 1
  if (k == n) return nd * std::log(p);     // -inf for p = 0
  if (p == 0 || p == 1) return -std::numeric_limits<double>::infinity();
  return LogPmfInterior(k, n, nd * p, nd * (1 - p));
}

}  // namespace sgmcmc::rng
