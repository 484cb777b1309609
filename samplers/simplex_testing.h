// Test and benchmark helpers for the simplex samplers (testonly): random sparse count
// matrices shaped like an LDA minibatch's topic-word counts, a checked sampler factory, and
// the sample fourth central moment that testing::VarianceZTest needs when the true one is
// unknown (SCIR's θ_M).
//
// Cost: O(rows x cols) uniforms; O(n) for the moment.
//
// Example:
//   SimplexCounts counts = RandomSparseCounts(100, 10000, /*density=*/0.01, /*seed=*/1);
#ifndef SGMCMC_SAMPLERS_SIMPLEX_TESTING_H_
#define SGMCMC_SAMPLERS_SIMPLEX_TESTING_H_

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "base/check.h"
#include "rng/engine.h"
#include "rng/uniform.h"
#include "samplers/count_model.h"
#include "samplers/simplex_sampler.h"

namespace sgmcmc::samplers {

// Each entry is non-zero with probability `density`, with a scaled count uniform on
// {1, ..., 100} times 2.5 (a minibatch scale N/n).
inline SimplexCounts RandomSparseCounts(int rows, int cols, double density, uint64_t seed) {
  rng::Engine engine(seed);
  SimplexCounts counts(rows, cols);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      if (rng::UniformDouble(engine) < density) {
        counts.Append(r, c, 2.5 * static_cast<double>(1 + rng::UniformInt(engine, 100)));
      }
    }
  }
  return counts;
}

// A Scir or Sgrld (T) with the given shape, prior and seed; the options must be valid.
template <typename T>
T MakeSimplexSampler(int rows, int cols, std::vector<double> alpha, uint64_t seed) {
  absl::StatusOr<T> sampler = T::Create(SimplexSamplerOptions{rows, cols, std::move(alpha), seed});
  SGMCMC_CHECK(sampler.ok()) << sampler.status();
  return *std::move(sampler);
}

// (1/n) Σ (x_i − x̄)⁴; x non-empty.
inline double FourthCentralMoment(const std::vector<double>& x) {
  double mean = 0;
  for (double v : x) mean += v;
  mean /= static_cast<double>(x.size());
  double m4 = 0;
  for (double v : x) m4 += std::pow(v - mean, 4);
  return m4 / static_cast<double>(x.size());
}

}  // namespace sgmcmc::samplers

#endif  // SGMCMC_SAMPLERS_SIMPLEX_TESTING_H_
