// Categorical variates: draw an index i with probability proportional to weights[i].
//
//  - CategoricalSample(engine, weights[, total]): inverse-CDF linear scan over unnormalised
//    non-negative weights (Devroye 1986, "Non-Uniform Random Variate Generation", sec.
//    III.2.1), four weights per step (one subtraction per four entries on the loop-carried
//    path, a branch-free pick inside the final block). For weights that change between
//    draws (Gibbs sweeps). O(K) per draw, no set-up, no allocation. Passing the total skips
//    one pass over the weights.
//  - LogCategoricalSample(engine, log_weights): the same from log weights, by subtracting
//    the maximum before exponentiating, so log weights of +-1e5 neither overflow nor all
//    underflow. O(K) exps per draw.
//  - AliasTable: Walker's alias method with Vose's O(K) construction (M. D. Vose 1991, "A
//    linear algorithm for generating random numbers with a given distribution", IEEE TSE
//    17(9)) for many draws from fixed weights. One engine word per draw: the high bits of
//    word * K pick the column, the low 64 bits (uniform on a grid of step K / 2^64 given the
//    column) are the biased coin. Probabilities are exact up to K / 2^64 relative.
//
// Entries with weight 0 (log weight -inf) are never drawn, by all three methods.
//
// Cost: the scan is O(K) per draw (one more pass for the sum when no total is given); log
// weights O(K) exps per draw. AliasTable construction O(K); Sample O(1): one engine word plus
// one 16-byte load, branch-free. Measured: rng/categorical_benchmark.cc.
//
// Example:
//   int topic = sgmcmc::rng::CategoricalSample(engine, topic_weights);
//   ASSIGN_OR_RETURN(auto table, sgmcmc::rng::AliasTable::Create(word_frequencies));
//   int word = table.Sample(engine);
#ifndef SGMCMC_RNG_CATEGORICAL_H_
#define SGMCMC_RNG_CATEGORICAL_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "rng/engine.h"

namespace sgmcmc::rng {

// Index i with probability weights[i] / sum(weights). Requires a non-empty span of finite
// weights >= 0 with a positive sum (checked: O(K) comparisons, no extra pass).
int CategoricalSample(Engine& engine, absl::Span<const double> weights);

// As above with total = sum(weights) supplied by the caller (e.g. kept up to date
// incrementally). Requires non-empty weights and a finite total > 0 (checked); the weights
// being >= 0 and summing to total up to rounding is a precondition checked only in debug
// builds. If rounding leaves the scan past the end, the last positive weight is returned.
int CategoricalSample(Engine& engine, absl::Span<const double> weights, double total);

// Index i with probability exp(log_weights[i]) / sum_j exp(log_weights[j]). Requires a
// non-empty span with no NaN or +inf and at least one entry > -inf (checked).
int LogCategoricalSample(Engine& engine, absl::Span<const double> log_weights);

// Walker/Vose alias table: O(K) construction, O(1) draws.
class AliasTable {
 public:
  // Builds the table for unnormalised weights. Errors (InvalidArgument) name the offending
  // entry: empty weights, more than 2^31 - 1 entries, a negative, NaN or infinite weight, all
  // weights zero, or a sum that overflows.
  static absl::StatusOr<AliasTable> Create(absl::Span<const double> weights);

  // Index i with probability weights[i] / sum(weights); one engine word.
  int Sample(Engine& engine) const {
    const unsigned __int128 product =
        static_cast<unsigned __int128>(engine()) * static_cast<uint64_t>(entries_.size());
    const uint64_t column = static_cast<uint64_t>(product >> 64);
    const Entry& entry = entries_[column];
    // Branch-free select: the coin is close to fair for many columns, so a branch would
    // mispredict often. keep is all ones when the column keeps its own index.
    const uint32_t keep = -static_cast<uint32_t>(static_cast<uint64_t>(product) < entry.threshold);
    const uint32_t alias = static_cast<uint32_t>(entry.alias);
    return static_cast<int>(alias ^ ((alias ^ static_cast<uint32_t>(column)) & keep));
  }

  // Number of categories K.
  int size() const { return static_cast<int>(entries_.size()); }

 private:
  struct Entry {
    // The column keeps its own index when the coin (low 64 bits) is below threshold =
    // P(keep) * 2^64; columns kept with probability 1 have alias = own index.
    uint64_t threshold;
    int32_t alias;
  };

  explicit AliasTable(std::vector<Entry> entries) : entries_(std::move(entries)) {}

  std::vector<Entry> entries_;
};

}  // namespace sgmcmc::rng

#endif  // SGMCMC_RNG_CATEGORICAL_H_
