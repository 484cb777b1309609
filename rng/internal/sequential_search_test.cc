#include "rng/internal/sequential_search.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace sgmcmc::rng_internal {
namespace {

// Geometric pmf p_k = (1 - r) r^k: the exact answer for u is the smallest k with
// 1 - r^(k+1) >= u.
TEST(SequentialSearchTest, InvertsGeometricCdf) {
  const double r = 0.6;
  for (double u : {1e-9, 0.1, 0.39, 0.41, 0.5, 0.8, 0.99, 0.999999}) {
    const int64_t k = SequentialSearch(u, 1 - r, kUnbounded, [r](int64_t) { return r; });
    const int64_t expected = static_cast<int64_t>(std::ceil(std::log1p(-u) / std::log(r) - 1));
    EXPECT_EQ(k, expected) << "u=" << u;
  }
}

// Every k in [0, k_max] is returned for u inside its cdf step, for k_max at every offset in
// the four-term block.
TEST(SequentialSearchTest, HitsEveryIndexUpToKMax) {
  for (int64_t k_max : {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) {
    const double p = 1.0 / (k_max + 1);  // uniform pmf
    for (int64_t k = 0; k <= k_max; ++k) {
      const double u = (k + 0.5) * p;
      EXPECT_EQ(SequentialSearch(u, p, k_max, [](int64_t) { return 1.0; }), k) << "k_max=" << k_max;
    }
  }
}

// Agrees with the textbook one-term loop on a Poisson(3.7) pmf, for u on a fine grid (a
// disagreement needs u within rounding, ~1e-16, of a cdf value).
TEST(SequentialSearchTest, MatchesTextbookLoop) {
  const double mean = 3.7;
  const auto ratio = [mean](int64_t j) { return mean / j; };
  for (int i = 1; i < 100000; ++i) {
    const double u = i * 1e-5 + 3e-7;
    double v = u, p = std::exp(-mean);
    int64_t expected = 0;
    while (v > p) {
      v -= p;
      p *= ratio(++expected);
    }
    ASSERT_EQ(SequentialSearch(u, std::exp(-mean), kUnbounded, ratio), expected) << "u=" << u;
  }
}

TEST(SequentialSearchTest, ReturnsMinusOneWhenMassIsExhausted) {
  // Mass 0.75 on {0, 1, 2}; u above it.
  EXPECT_EQ(SequentialSearch(1.0, 0.25, 2, [](int64_t) { return 1.0; }), -1);
  // Unbounded support whose terms underflow before reaching u.
  EXPECT_EQ(SequentialSearch(0.9, 0.5, kUnbounded, [](int64_t) { return 1e-10; }), -1);
}

TEST(SequentialSearchTest, CallsRatioOnlyInsideSupport) {
  for (int64_t k_max : {1, 2, 3, 4, 5, 6, 7, 8}) {
    std::vector<int64_t> calls;
    SequentialSearch(2.0, 0.1, k_max, [&](int64_t j) {
      calls.push_back(j);
      return 1.0;
    });
    for (int64_t j : calls) {
      EXPECT_GE(j, 1);
      EXPECT_LE(j, k_max);
    }
  }
}

}  // namespace
}  // namespace sgmcmc::rng_internal
