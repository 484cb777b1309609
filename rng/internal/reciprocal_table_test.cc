#include "rng/internal/reciprocal_table.h"

#include "gtest/gtest.h"

namespace sgmcmc::rng_internal {
namespace {

TEST(ReciprocalTableTest, EntriesAreCorrectlyRoundedReciprocals) {
  EXPECT_EQ(kReciprocals[0], 0.0);
  for (int k = 1; k < kReciprocalTableSize; ++k) {
    volatile double denominator = k;  // forces a run-time division
    EXPECT_EQ(kReciprocals[k], 1.0 / denominator) << "k=" << k;
  }
}

}  // namespace
}  // namespace sgmcmc::rng_internal
