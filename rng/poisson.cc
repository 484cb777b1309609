#include "rng/poisson.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "base/check.h"
#include "rng/gamma.h"
#include "rng/internal/bounded_exp.h"
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
static_assert(kInversionMaxMean <= rng_internal::kBoundedExpMax);
// From this mean on (below kInversionMaxMean) the branch-free inversion beats the sequential
// search, whose exit branch then mispredicts (crossover measured at ~3 with
// //rng:poisson_benchmark, both ~25 ns there; the sequential search costs ~33 ns at mean 5
// and ~43 ns at 9.9, the branch-free inversion ~25-28 ns throughout).
constexpr double kBranchFreeMinMean = 3;

// Inversion by sequential search from 0, for mean < kBranchFreeMinMean, on the unnormalised
// pmf mean^k / k! (so p_0 = 1) against u e^mean. Ratios come from the reciprocal table;
// P(K > 127) < 1e-90 here, so the division branch is essentially never taken. For
// mean < 2^-54, e^mean rounds to 1 and K = 0 for every u < 1.
int64_t PoissonInversion(Engine& engine, double mean) {
  const double exp_mean = rng_internal::BoundedExp(mean);
  const auto ratio = [mean](int64_t k) {
    return k < kReciprocalTableSize ? mean * kReciprocals[k] : mean / static_cast<double>(k);
  };
  for (;;) {
    const int64_t k = rng_internal::SequentialSearch(UniformDouble(engine) * exp_mean, 1.0,
                                                     rng_internal::kUnbounded, ratio);
    if (k >= 0) return k;
  }
}

// Two doubles per operation (one SSE2 register on x86-64), via GCC vector extensions.
using Pair = double __attribute__((vector_size(16)));
using PairMask = int64_t __attribute__((vector_size(16)));

// The branch-free inversion evaluates the cdf at k = 0 .. kTerms - 1 at once, as kTerms / 2
// pairs (2q, 2q + 1), in two halves whose running sums are independent (shorter dependency
// chains). kTerms grows with the mean so that the sequential tail search past kTerms stays
// rare: P(K >= 12) < 0.011 for mean < 5.5 and P(K >= 16) < 0.049 for mean < 10. Fewer terms
// are less work per draw, which outweighs the rarer tail (//rng:poisson_benchmark, CPU time,
// load ~2.6, versus the former 20 terms throughout: mean 3-5 27-34 -> 20-23 ns, mean 9.9
// 25-33 -> 20-27 ns).
constexpr int kMaxBranchFreeTerms = 16;
constexpr double kBranchFree12MaxMean = 5.5;

// kPairRatios[q] = {(2q - 4)! / (2q)!, (2q - 3)! / (2q + 1)!} for q >= 2: the pair of terms
// mean^j / j!, j = 2q, 2q + 1, is pair q - 2 times mean^4 kPairRatios[q] (two independent
// chains of multiplications, even and odd q).
struct PairRatio {
  alignas(16) double ratio[2];
};
constexpr std::array<PairRatio, kMaxBranchFreeTerms / 2> kPairRatios = [] {
  std::array<PairRatio, kMaxBranchFreeTerms / 2> table{};
  for (int q = 2; q < kMaxBranchFreeTerms / 2; ++q) {
    for (int i = 0; i < 2; ++i) {
      const double j = 2 * q + i;
      table[q].ratio[i] = 1.0 / ((j - 3) * (j - 2) * (j - 1) * j);
    }
  }
  return table;
}();

// Inversion without data-dependent branches, for kBranchFreeMinMean <= mean <
// kInversionMaxMean: with S_k = sum_{j <= k} mean^j / j! (the cdf is F(k) = e^-mean S_k),
// K = #{k : S_k < u e^mean}, counted over k < kTerms by vector compares; only when all of
// them are below (K >= kTerms) does a sequential search continue from k = kTerms. This is the
// same monotone inversion of u as PoissonInversion, so both give the same K for the same u
// (up to rounding of the cdf, ~1e-15), whatever kTerms.
template <int kTerms>
int64_t PoissonBranchFreeInversion(Engine& engine, double mean) {
  static_assert(kTerms % 4 == 0 && kTerms <= kMaxBranchFreeTerms);
  constexpr int kPairs = kTerms / 2;
  constexpr int kHalfPairs = kPairs / 2;
  const double exp_mean = rng_internal::BoundedExp(mean);  // < 22027
  const double mean2 = mean * mean;
  const double mean4 = mean2 * mean2;
  const Pair mean4_pair = {mean4, mean4};
  // Unnormalised terms mean^j / j! (at most 10^10 / 10! < 2800), and their partial sums within
  // each pair, {t_2q, t_2q + t_2q+1}.
  Pair terms[kPairs];
  terms[0] = Pair{1, mean};
  terms[1] = Pair{0.5 * mean2, (1.0 / 6) * mean2 * mean};
  for (int q = 2; q < kPairs; ++q) {
    Pair ratio;
    std::memcpy(&ratio, kPairRatios[q].ratio, sizeof(ratio));
    terms[q] = terms[q - 2] * (mean4_pair * ratio);
  }
  Pair partial[kPairs];
  for (int q = 0; q < kPairs; ++q) partial[q] = terms[q] + Pair{0, terms[q][0]};
  for (;;) {
    const double u = UniformDouble(engine);
    const double scaled_u = u * exp_mean;
    const Pair scaled_u_pair = {scaled_u, scaled_u};
    // S_k for the first half, and S_k - S_h (h = kTerms / 2 - 1) for the second, each
    // non-decreasing in k: the number of them below scaled_u (resp. scaled_u - S_h) is the
    // index of the first S_k >= scaled_u.
    PairMask below = {0, 0};  // minus the count, per lane (a true compare is -1)
    double low_sum = 0;       // S_2q-1
    double high_sum = 0;      // S_2q-1 - S_h in the second half
    Pair high_cdf[kHalfPairs];
    for (int q = 0; q < kHalfPairs; ++q) {
      const Pair low_cdf = partial[q] + Pair{low_sum, low_sum};
      below += low_cdf < scaled_u_pair;
      low_sum = low_cdf[1];
      high_cdf[q] = partial[kHalfPairs + q] + Pair{high_sum, high_sum};
      high_sum = high_cdf[q][1];
    }
    const double rest = scaled_u - low_sum;
    const Pair rest_pair = {rest, rest};
    for (int q = 0; q < kHalfPairs; ++q) below += high_cdf[q] < rest_pair;
    const int64_t k = -(below[0] + below[1]);
    if (__builtin_expect(k < kTerms, 1)) return k;
    // K >= kTerms: continue the search from k = kTerms with the rest of u.
    const double p0 = 1 / exp_mean;
    const double p_first = p0 * terms[kPairs - 1][1] * (mean * kReciprocals[kTerms]);
    const auto ratio = [mean](int64_t j) {
      const int64_t index = kTerms + j;
      return index < kReciprocalTableSize ? mean * kReciprocals[index]
                                          : mean / static_cast<double>(index);
    };
    const int64_t tail = rng_internal::SequentialSearch(u - p0 * (low_sum + high_sum), p_first,
                                                        rng_internal::kUnbounded, ratio);
    if (tail >= 0) return kTerms + tail;
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
  if (mean < kBranchFreeMinMean) {
    if (mean == 0) return 0;
    return PoissonInversion(engine, mean);
  }
  if (mean < kBranchFree12MaxMean) return PoissonBranchFreeInversion<12>(engine, mean);
  if (mean < kInversionMaxMean) return PoissonBranchFreeInversion<16>(engine, mean);
  return PoissonPtrs(engine, mean);
}

double PoissonSampleUnbounded(Engine& engine, double mean) {
  SGMCMC_CHECK(mean >= 0 && std::isfinite(mean))
      << "PoissonSampleUnbounded: mean must be finite and >= 0, got " << mean;
  // Arrivals of a unit-rate Poisson process counted so far (an integer-valued double).
  double counted = 0;
  while (mean > kMaxPoissonMean) {
    const double n = std::floor(0.875 * mean);  // an integer-valued double
    const double arrival = GammaSample(engine, n);
    // G >= mean would make K ~ Binomial(n - 1, mean / G) (see poisson.h): GammaSample draws
    // G = (n - 1/3) (1 + Z / (3 sqrt(n - 1/3)))^3, so it needs Z > 0.13 sqrt(n) > 2e8, and the
    // normal ziggurat's tail never exceeds a few hundred.
    SGMCMC_CHECK(arrival < mean) << "PoissonSampleUnbounded: a Gamma(" << n << ") draw of "
                                 << arrival << " at mean " << mean;
    counted += n;
    mean -= arrival;
  }
  return counted + static_cast<double>(PoissonSample(engine, mean));
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
