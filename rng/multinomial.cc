#include "rng/multinomial.h"

#include <cstdint>
#include <limits>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "base/check.h"
#include "rng/binomial.h"

namespace sgmcmc::rng {

void MultinomialSample(Engine& engine, int64_t n, absl::Span<const double> probs,
                       absl::Span<int64_t> counts) {
  SGMCMC_CHECK(n >= 0 && n <= kMaxBinomialTrials)
      << "MultinomialSample: n must be in [0, 2^62], got " << n;
  SGMCMC_CHECK(!probs.empty()) << "MultinomialSample: probs must not be empty";
  SGMCMC_CHECK_EQ(counts.size(), probs.size())
      << "MultinomialSample: counts and probs must have the same size";
  const int k = static_cast<int>(probs.size());
  // tail[i] = probs[i] + ... + probs[k - 1]; fl(a + b) >= a for b >= 0, so the
  // conditional probabilities probs[i] / tail[i] never exceed 1.
  absl::InlinedVector<double, 64> tail(k + 1);
  tail[k] = 0;
  for (int i = k - 1; i >= 0; --i) {
    SGMCMC_CHECK(probs[i] >= 0 && probs[i] <= std::numeric_limits<double>::max())
        << "MultinomialSample: probs[" << i << "] must be finite and >= 0, got " << probs[i];
    tail[i] = probs[i] + tail[i + 1];
  }
  SGMCMC_CHECK(tail[0] > 0 && tail[0] <= std::numeric_limits<double>::max())
      << "MultinomialSample: probs must have a finite positive sum, got " << tail[0];
  int64_t remaining = n;
  for (int i = 0; i < k; ++i) {
    if (remaining == 0 || probs[i] == 0) {
      counts[i] = 0;
      continue;
    }
    counts[i] = BinomialSample(engine, remaining, probs[i] / tail[i]);
    remaining -= counts[i];
  }
}

}  // namespace sgmcmc::rng
