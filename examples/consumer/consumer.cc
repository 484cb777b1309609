// Estimates pi from 10^6 uniform points with sgmcmc's counter-based engine, one stream per
// half of the work, checks the result is reproducible, and checks the mean of Gamma(3, 1)
// draws (a generator target with its own dependencies).
#include <cstdio>

#include "rng/engine.h"
#include "rng/gamma.h"
#include "rng/uniform.h"

namespace {

int CountInside(uint64_t seed, uint64_t stream, int n) {
  sgmcmc::rng::Engine engine(seed, stream);
  int inside = 0;
  for (int i = 0; i < n; ++i) {
    const double x = sgmcmc::rng::UniformDouble(engine);
    const double y = sgmcmc::rng::UniformDouble(engine);
    inside += (x * x + y * y < 1.0);
  }
  return inside;
}

}  // namespace

int main() {
  constexpr int kHalf = 500000;
  const int inside = CountInside(7, 0, kHalf) + CountInside(7, 1, kHalf);
  const double pi = 4.0 * inside / (2 * kHalf);
  std::printf("consumer: pi ~= %.4f from 10^6 points (seed 7, streams 0 and 1)\n", pi);
  const bool reproducible = inside == CountInside(7, 0, kHalf) + CountInside(7, 1, kHalf);
  const bool close = pi > 3.13 && pi < 3.15;
  sgmcmc::rng::Engine engine(7, 2);
  double sum = 0;
  for (int i = 0; i < 100000; ++i) sum += sgmcmc::rng::GammaSample(engine, 3.0);
  const double mean = sum / 100000;  // 3 +- 0.0055 (sd sqrt(3/1e5)); 6 sd bounds below
  std::printf("consumer: mean of 10^5 Gamma(3, 1) draws = %.4f\n", mean);
  const bool gamma_ok = mean > 2.967 && mean < 3.033;
  if (!reproducible || !close || !gamma_ok) {
    std::printf("consumer: FAILED (reproducible=%d, close=%d, gamma=%d)\n", reproducible, close,
                gamma_ok);
    return 1;
  }
  return 0;
}
