#include "linalg/running_sums.h"

#include <vector>

#include <cstdint>

#include "gtest/gtest.h"

namespace sgmcmc::linalg {
namespace {

// Uniform on [0, 1) from a 64-bit LCG (Knuth's MMIX constants): masses for the test.
double NextUniform(uint64_t& state) {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return static_cast<double>(state >> 11) * 0x1.0p-53;
}

// The blocked sums are exactly the formula of the header (partial sums added to the total
// before the block), never decrease, rise only at a positive mass, and end at the total; the
// plain ones are the sequential running sum. n = 0 to 13 covers empty, partial and several
// blocks; a third of the masses are zero.
TEST(RunningSumsTest, BlockedAndPlainSums) {
  uint64_t state = 5;
  for (int n = 0; n <= 13; ++n) {
    std::vector<double> masses(n);
    for (double& m : masses) m = NextUniform(state) < 1.0 / 3 ? 0.0 : NextUniform(state);
    std::vector<double> blocked(n), plain(n);
    int calls = 0;
    const double blocked_total = RunningSums(n, true, [&](int j) {
      EXPECT_EQ(j, calls++);
      return masses[j];
    }, blocked.data());
    const double plain_total =
        RunningSums(n, false, [&](int j) { return masses[j]; }, plain.data());
    double total = 0, sequential = 0;
    int j = 0;
    for (; j + 4 <= n; j += 4) {
      const double p0 = masses[j], p1 = p0 + masses[j + 1], p2 = p1 + masses[j + 2],
                   p3 = p2 + masses[j + 3];
      EXPECT_EQ(blocked[j], total + p0);
      EXPECT_EQ(blocked[j + 1], total + p1);
      EXPECT_EQ(blocked[j + 2], total + p2);
      total += p3;
      EXPECT_EQ(blocked[j + 3], total);
    }
    for (; j < n; ++j) EXPECT_EQ(blocked[j], total += masses[j]);
    EXPECT_EQ(blocked_total, total);
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(plain[i], sequential += masses[i]);
      if (i > 0) {
        EXPECT_GE(blocked[i], blocked[i - 1]);
        if (blocked[i] > blocked[i - 1]) EXPECT_GT(masses[i], 0);
      }
    }
    EXPECT_EQ(plain_total, sequential);
  }
}

}  // namespace
}  // namespace sgmcmc::linalg
