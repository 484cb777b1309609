#include "testing/random_inputs.h"

#include <random>

#include "base/check.h"

namespace sgmcmc::testing {
namespace {

std::mt19937_64 SeededEngine(uint64_t seed, uint64_t stream) {
  std::seed_seq seq{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32),
                    static_cast<uint32_t>(stream), static_cast<uint32_t>(stream >> 32)};
  return std::mt19937_64(seq);
}

}  // namespace

RandomInputs::RandomInputs(uint64_t seed, uint64_t stream)
    : engine_(SeededEngine(seed, stream)) {}

double RandomInputs::Uniform() { return std::uniform_real_distribution<double>(0, 1)(engine_); }

double RandomInputs::Uniform(double lo, double hi) {
  SGMCMC_CHECK(lo < hi) << "RandomInputs::Uniform: need lo < hi, got " << lo << ", " << hi;
  return std::uniform_real_distribution<double>(lo, hi)(engine_);
}

int64_t RandomInputs::UniformInt(int64_t n) {
  SGMCMC_CHECK(n >= 1) << "RandomInputs::UniformInt: n must be >= 1, got " << n;
  return std::uniform_int_distribution<int64_t>(0, n - 1)(engine_);
}

double RandomInputs::Normal() { return std::normal_distribution<double>(0, 1)(engine_); }

void RandomInputs::FillNormal(absl::Span<double> out) {
  std::normal_distribution<double> normal(0, 1);
  for (double& x : out) x = normal(engine_);
}

}  // namespace sgmcmc::testing
