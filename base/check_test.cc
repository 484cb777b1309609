#include "base/check.h"

#include "gtest/gtest.h"

namespace {

TEST(CheckTest, PassingCheckDoesNothing) {
  int evaluations = 0;
  SGMCMC_CHECK(++evaluations == 1) << "never printed";
  EXPECT_EQ(evaluations, 1);
  SGMCMC_CHECK_LT(1, 2);
}

TEST(CheckDeathTest, FailingCheckNamesConditionAndMessage) {
  EXPECT_DEATH(SGMCMC_CHECK(1 > 2) << "custom " << 42, "check_test.cc:.*Check failed: 1 > 2 custom 42");
  EXPECT_DEATH(SGMCMC_CHECK_EQ(3, 4), "Check failed: .*\\(3 vs 4\\)");
}

}  // namespace
