#include "rng/poisson.h"

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

using rng_internal::kReciprocals;
using rng_internal::kReciprocalTableSize;

// Below this mean inversion is faster than PTRS; PTRS is valid from 10 on (Hoermann 1993).
constexpr double kInversionMaxMean = 10;

// Inversion (sequential search from 0). Ratios come from the reciprocal table; P(K > 127)
// < 1e-90 for mean < 10, so the division branch is essentially never taken.
int64_t PoissonInversion(Engine& engine, double mean) {
  const double p0 = std::exp(-mean);
  const auto ratio = [mean](int64_t k) {
    return k < kReciprocalTableSize ? mean * kReciprocals[k] : mean / static_cast<double>(k);
  };
  for (;;) {
    const int64_t k =
        rng_internal::SequentialSearch(UniformDouble(engine), p0, rng_internal::kUnbounded, ratio);
    if (k >= 0) return k;
  }
}

// Loader's log-pmf for k >= 1 given d = k - mean formed exactly.
double PoissonLogPmfFromDifference(int64_t k, double mean, double d) {
  const double x = static_cast<double>(k);
  return -rng_internal::StirlingError(k) - rng_internal::DevianceTerm(x, mean, d) -
         0.5 * std::log(2 * M_PI * x);
}

// Hoermann's PTRS for mean >= 10.
int64_t PoissonPtrs(Engine& engine, double mean) {
  const double b = 0.931 + 2.53 * std::sqrt(mean);
  const double a = -0.059 + 0.02483 * b;
  const double inv_alpha = 1.1239 + 1.1328 / (b - 3.4);
  const double v_r = 0.9277 - 3.6224 / (b - 2);
  const rng_internal::TransformedRejectionProposal proposal(a, b, mean, 0.43);
  rng_internal::TransformedRejectionProposal::Trial t;
  for (;;) {
    if (!proposal.Draw(engine, t)) continue;
    if (t.us >= 0.07 && t.v <= v_r) return t.k;
    if (t.k < 0 || (t.us < 0.013 && t.v > t.us)) continue;
    const double log_pmf =
        t.k == 0 ? -mean
                 : PoissonLogPmfFromDifference(t.k, mean, rng_internal::ExactDifference(t.k, mean));
    if (proposal.LogHat(t, inv_alpha) <= log_pmf) return t.k;
  }
}

}  // namespace

int64_t PoissonSample(Engine& engine, double mean) {
  SGMCMC_CHECK(mean >= 0 && mean <= kMaxPoissonMean)
      << "PoissonSample: mean must be in [0, 2^62] (finite, not NaN), got " << mean;
  if (mean < kInversionMaxMean) {
    if (mean == 0) return 0;
    return PoissonInversion(engine, mean);
  }
  return PoissonPtrs(engine, mean);
}

double PoissonLogPmf(int64_t k, double mean) {
  SGMCMC_CHECK(mean >= 0 && mean < 0x1p63)
      << "PoissonLogPmf: mean must be in [0, 2^63) (finite, not NaN), got " << mean;
  if (k < 0) return -std::numeric_limits<double>::infinity();
  if (k == 0) return -mean;
  if (mean == 0) return -std::numeric_limits<double>::infinity();
  return PoissonLogPmfFromDifference(k, mean, rng_internal::ExactDifference(k, mean));
}

}  // namespace sgmcmc::rng
