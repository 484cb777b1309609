#include "rng/categorical.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "base/check.h"
#include "rng/uniform.h"

namespace sgmcmc::rng {
namespace {

constexpr double kMaxDouble = std::numeric_limits<double>::max();

// The first i with x < weights[0] + ... + weights[i] for x = u * total. x stays >= 0
// throughout (it is only reduced by amounts it is not below), so a zero weight, whose
// partial sum equals the previous one, is never the first partial sum above x.
int Scan(absl::Span<const double> weights, double u, double total) {
  double x = u * total;
  const int k = static_cast<int>(weights.size());
  const double* w = weights.data();
  int i = 0;
  for (; i + 4 <= k; i += 4) {
    SGMCMC_DCHECK(w[i] >= 0 && w[i + 1] >= 0 && w[i + 2] >= 0 && w[i + 3] >= 0)
        << "CategoricalSample: negative weight among weights[" << i << ".." << i + 3 << "]";
    const double sum1 = w[i];
    const double sum2 = sum1 + w[i + 1];
    const double sum3 = sum2 + w[i + 2];
    const double sum4 = sum3 + w[i + 3];
    if (x < sum4) {
      // Branch-free: the number of partial sums <= x is the offset of the answer.
      return i + (x >= sum1) + (x >= sum2) + (x >= sum3);
    }
    x -= sum4;
  }
  for (; i < k; ++i) {
    SGMCMC_DCHECK(w[i] >= 0) << "CategoricalSample: weights[" << i << "] is " << w[i];
    if (x < w[i]) return i;
    x -= w[i];
  }
  // Past the end: only rounding of the total gets here (x is then ~1e-16 of the total).
  SGMCMC_DCHECK(x <= 1e-6 * total)
      << "CategoricalSample: total " << total << " exceeds the sum of the weights by " << x;
  for (i = k - 1; i > 0 && !(w[i] > 0); --i) {
  }
  return i;
}

}  // namespace

int CategoricalSample(Engine& engine, absl::Span<const double> weights) {
  SGMCMC_CHECK(!weights.empty()) << "CategoricalSample: weights must not be empty";
  // Four partial sums and an any-negative flag, so the pass runs at full throughput; a NaN
  // or inf weight shows up in the total. Only a failed check looks for the culprit.
  const size_t k = weights.size();
  const double* w = weights.data();
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  bool negative = false;
  size_t i = 0;
  for (; i + 4 <= k; i += 4) {
    s0 += w[i];
    s1 += w[i + 1];
    s2 += w[i + 2];
    s3 += w[i + 3];
    negative |= (w[i] < 0) | (w[i + 1] < 0) | (w[i + 2] < 0) | (w[i + 3] < 0);
  }
  for (; i < k; ++i) {
    s0 += w[i];
    negative |= w[i] < 0;
  }
  const double total = (s0 + s1) + (s2 + s3);
  if (__builtin_expect(negative || !(total <= kMaxDouble), 0)) {
    for (i = 0; i < k; ++i) {
      SGMCMC_CHECK(w[i] >= 0 && w[i] <= kMaxDouble)
          << "CategoricalSample: weights[" << i << "] must be finite and >= 0, got " << w[i];
    }
  }
  SGMCMC_CHECK(total > 0 && total <= kMaxDouble)
      << "CategoricalSample: weights must have a finite positive sum, got " << total;
  return Scan(weights, UniformDouble(engine), total);
}

int CategoricalSample(Engine& engine, absl::Span<const double> weights, double total) {
  SGMCMC_CHECK(!weights.empty()) << "CategoricalSample: weights must not be empty";
  SGMCMC_CHECK(total > 0 && total <= kMaxDouble)
      << "CategoricalSample: total must be finite and > 0, got " << total;
  return Scan(weights, UniformDouble(engine), total);
}

int LogCategoricalSample(Engine& engine, absl::Span<const double> log_weights) {
  SGMCMC_CHECK(!log_weights.empty()) << "LogCategoricalSample: log_weights must not be empty";
  double max = -std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < log_weights.size(); ++i) {
    SGMCMC_CHECK(log_weights[i] <= kMaxDouble)
        << "LogCategoricalSample: log_weights[" << i << "] must be < +inf and not NaN, got "
        << log_weights[i];
    max = std::max(max, log_weights[i]);
  }
  SGMCMC_CHECK(max > -std::numeric_limits<double>::infinity())
      << "LogCategoricalSample: log_weights must not all be -inf";
  absl::InlinedVector<double, 128> weights(log_weights.size());
  double total = 0;
  for (size_t i = 0; i < log_weights.size(); ++i) {
    weights[i] = std::exp(log_weights[i] - max);
    total += weights[i];
  }
  return Scan(weights, UniformDouble(engine), total);
}

absl::StatusOr<AliasTable> AliasTable::Create(absl::Span<const double> weights) {
  if (weights.empty()) {
    return absl::InvalidArgumentError("AliasTable::Create: weights must not be empty");
  }
  if (weights.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "AliasTable::Create: at most 2^31 - 1 weights supported, got ", weights.size()));
  }
  double total = 0;
  for (size_t i = 0; i < weights.size(); ++i) {
    if (!(weights[i] >= 0 && weights[i] <= kMaxDouble)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "AliasTable::Create: weights[", i, "] must be finite and >= 0, got ", weights[i]));
    }
    total += weights[i];
  }
  if (total == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("AliasTable::Create: all ", weights.size(), " weights are zero"));
  }
  if (!(total <= kMaxDouble)) {
    return absl::InvalidArgumentError("AliasTable::Create: the sum of the weights overflows");
  }

  // Vose: scaled weights K w_i / total average 1; pair each column below 1 with one above
  // and move the excess. Updating the large entry as (large + small) - 1 keeps rounding low.
  const int k = static_cast<int>(weights.size());
  std::vector<double> scaled(k);
  std::vector<int32_t> small, large;
  for (int i = 0; i < k; ++i) {
    scaled[i] = weights[i] / total * k;
    (scaled[i] < 1 ? small : large).push_back(i);
  }
  std::vector<Entry> entries(k);
  constexpr uint64_t kAlways = std::numeric_limits<uint64_t>::max();
  while (!small.empty() && !large.empty()) {
    const int32_t s = small.back();
    small.pop_back();
    const int32_t l = large.back();
    large.pop_back();
    // scaled[s] < 1, so scaled[s] * 2^64 < 2^64 converts exactly-enough to uint64.
    entries[s] = {static_cast<uint64_t>(std::ldexp(scaled[s], 64)), l};
    scaled[l] = (scaled[l] + scaled[s]) - 1;
    (scaled[l] < 1 ? small : large).push_back(l);
  }
  // What is left has scaled weight 1 up to rounding (never a zero weight: the rest would
  // then have to carry a whole unit of excess). Such columns always keep their index.
  for (const int32_t i : large) entries[i] = {kAlways, i};
  for (const int32_t i : small) entries[i] = {kAlways, i};
  return AliasTable(std::move(entries));
}

}  // namespace sgmcmc::rng
