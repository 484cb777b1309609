// Fisher-Yates shuffles driven by an rng::Engine (Knuth, TAOCP vol. 2, Algorithm 3.4.2P),
// with UniformInt's unbiased bounded integers, so the result depends only on the engine's
// stream (unlike std::shuffle, whose draws differ between standard libraries).
//
// Cost: one engine word per element moved; O(n) for Shuffle, O(count) for PartialShuffle.
//
// Example:
//   std::vector<int> ids = {0, 1, 2, 3, 4};
//   PartialShuffle(engine, absl::MakeSpan(ids), 2);  // ids[0], ids[1]: a uniform 2-subset
#ifndef SGMCMC_DATA_SHUFFLE_H_
#define SGMCMC_DATA_SHUFFLE_H_

#include <cstddef>
#include <utility>

#include "absl/types/span.h"
#include "base/check.h"
#include "rng/engine.h"
#include "rng/uniform.h"

namespace sgmcmc::data {

// Moves a uniformly random ordered sample of `count` of the elements into values[0, count);
// the rest keep the remaining elements in some order. 0 <= count <= values.size() (checked).
template <typename T>
void PartialShuffle(rng::Engine& engine, absl::Span<T> values, size_t count) {
  SGMCMC_CHECK(count <= values.size())
      << "PartialShuffle: count must be <= values.size() = " << values.size() << ", got "
      << count;
  const size_t n = values.size();
  for (size_t i = 0; i < count && i + 1 < n; ++i) {
    const size_t j = i + static_cast<size_t>(rng::UniformInt(engine, n - i));
    using std::swap;
    swap(values[i], values[j]);
  }
}

// A uniformly random permutation of `values`.
template <typename T>
void Shuffle(rng::Engine& engine, absl::Span<T> values) {
  PartialShuffle(engine, values, values.size());
}

}  // namespace sgmcmc::data

#endif  // SGMCMC_DATA_SHUFFLE_H_
