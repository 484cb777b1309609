// Pseudo-random INPUTS for tests and benchmarks of the packages that must not depend on //rng
// (linalg, parallel and testing itself, see //visibility:BUILD): a thin wrapper around
// std::mt19937_64 with the few draws those tests need. Not a variate generator of the library
// (that is //rng, the only source of randomness of samplers and tools); the draws are
// deterministic for a given (seed, stream) with libstdc++, which is all a test input needs.
//
// Cost: one mt19937_64 step per uniform, a few per normal (std::normal_distribution).
//
// Example:
//   sgmcmc::testing::RandomInputs inputs(/*seed=*/17);
//   std::vector<double> x(1024);
//   for (double& v : x) v = inputs.Uniform(0.01, 50);
#ifndef SGMCMC_TESTING_RANDOM_INPUTS_H_
#define SGMCMC_TESTING_RANDOM_INPUTS_H_

#include <cstdint>
#include <random>

#include "absl/types/span.h"

namespace sgmcmc::testing {

class RandomInputs {
 public:
  // Different (seed, stream) pairs give unrelated sequences (std::seed_seq mixes both).
  explicit RandomInputs(uint64_t seed, uint64_t stream = 0);

  // Uniform on [0, 1) and on [lo, hi) (lo < hi, both finite).
  double Uniform();
  double Uniform(double lo, double hi);
  // Uniform on {0, ..., n - 1}; n >= 1.
  int64_t UniformInt(int64_t n);
  // Standard normal draws.
  double Normal();
  void FillNormal(absl::Span<double> out);
  // Skips n draws of the underlying engine.
  void Discard(uint64_t n) { engine_.discard(n); }

 private:
  std::mt19937_64 engine_;
};

}  // namespace sgmcmc::testing

#endif  // SGMCMC_TESTING_RANDOM_INPUTS_H_
