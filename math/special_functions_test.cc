#include "math/special_functions.h"

#include <cmath>
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "testing/numeric_testing.h"

namespace sgmcmc::math {
namespace {

#include "math/testdata/special_functions_reference.inc"

using ::sgmcmc::testing::IsNearRelative;

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(LogGammaTest, MatchesMpmath) {
  for (const auto& row : kLogGammaReference) {
    EXPECT_TRUE(IsNearRelative(LogGamma(row[0]), row[1], 1e-14, 1.0)) << "x=" << row[0];
  }
}

TEST(LogGammaTest, PolesAndNaN) {
  EXPECT_EQ(LogGamma(0.0), kInf);
  EXPECT_EQ(LogGamma(-3.0), kInf);
  EXPECT_TRUE(std::isnan(LogGamma(NAN)));
}

TEST(DigammaTest, MatchesMpmath) {
  for (const auto& row : kDigammaReference) {
    EXPECT_TRUE(IsNearRelative(Digamma(row[0]), row[1], 1e-14, 1.0)) << "x=" << row[0];
  }
}

TEST(DigammaTest, PolesAreNaN) {
  EXPECT_TRUE(std::isnan(Digamma(0.0)));
  EXPECT_TRUE(std::isnan(Digamma(-2.0)));
  EXPECT_TRUE(std::isnan(Digamma(NAN)));
}

TEST(LogBetaTest, MatchesMpmath) {
  for (const auto& row : kLogBetaReference) {
    EXPECT_TRUE(IsNearRelative(LogBeta(row[0], row[1]), row[2], 1e-14, 1.0))
        << "a=" << row[0] << " b=" << row[1];
    EXPECT_EQ(LogBeta(row[0], row[1]), LogBeta(row[1], row[0]));
  }
}

TEST(LogBetaTest, AgreesWithLogGammaWhereNoCancellation) {
  for (double a : {0.2, 1.0, 3.5, 9.0}) {
    for (double b : {0.7, 2.0, 12.0, 40.0}) {
      EXPECT_TRUE(IsNearRelative(LogBeta(a, b), LogGamma(a) + LogGamma(b) - LogGamma(a + b),
                                 1e-13, 1.0));
    }
  }
}

TEST(LogBetaDeathTest, RejectsNonPositiveArguments) {
  EXPECT_DEATH(LogBeta(0.0, 1.0), "LogBeta: a must be > 0");
  EXPECT_DEATH(LogBeta(1.0, -1.0), "LogBeta: b must be > 0");
}

TEST(RegularizedIncompleteBetaTest, MatchesMpmath) {
  for (const auto& row : kIncompleteBetaReference) {
    EXPECT_TRUE(IsNearRelative(RegularizedIncompleteBeta(row[0], row[1], row[2]), row[3],
                               1e-13, 1e-300))
        << "a=" << row[0] << " b=" << row[1] << " x=" << row[2];
  }
}

TEST(RegularizedIncompleteBetaDeathTest, RejectsBadArguments) {
  EXPECT_DEATH(RegularizedIncompleteBeta(0.0, 1.0, 0.5), "a must be > 0");
  EXPECT_DEATH(RegularizedIncompleteBeta(1.0, 0.0, 0.5), "b must be > 0");
  EXPECT_DEATH(RegularizedIncompleteBeta(1.0, 1.0, 1.5), "x must be in \\[0, 1\\]");
}

TEST(RegularizedGammaTest, MatchesMpmath) {
  for (const auto& row : kGammaPQReference) {
    EXPECT_TRUE(IsNearRelative(RegularizedGammaP(row[0], row[1]), row[2], 1e-13, 1e-300))
        << "P a=" << row[0] << " x=" << row[1];
    EXPECT_TRUE(IsNearRelative(RegularizedGammaQ(row[0], row[1]), row[3], 1e-13, 1e-300))
        << "Q a=" << row[0] << " x=" << row[1];
  }
}

TEST(RegularizedGammaDeathTest, RejectsBadArguments) {
  EXPECT_DEATH(RegularizedGammaP(0.0, 1.0), "RegularizedGammaP: a must be > 0");
  EXPECT_DEATH(RegularizedGammaQ(1.0, -1.0), "RegularizedGammaQ: x must be >= 0");
}

TEST(LogSumExpTest, MatchesDirectSumAndAvoidsOverflow) {
  const std::vector<double> small = {0.1, -2.0, 1.5, 0.0};
  double direct = 0;
  for (double v : small) direct += std::exp(v);
  EXPECT_TRUE(IsNearRelative(LogSumExp(small), std::log(direct), 1e-15, 1.0));
  const std::vector<double> huge = {1000.0, 1000.0};
  EXPECT_DOUBLE_EQ(LogSumExp(huge), 1000.0 + std::log(2.0));
  const std::vector<double> tiny = {-1000.0, -1000.0 - std::log(3.0)};
  EXPECT_DOUBLE_EQ(LogSumExp(tiny), -1000.0 + std::log(4.0 / 3.0));
}

TEST(LogSumExpTest, SpecialValues) {
  EXPECT_EQ(LogSumExp({}), -kInf);
  EXPECT_EQ(LogSumExp(std::vector<double>{-kInf, -kInf}), -kInf);
  EXPECT_EQ(LogSumExp(std::vector<double>{-kInf, 2.0}), 2.0);
  EXPECT_EQ(LogSumExp(std::vector<double>{1.0, kInf}), kInf);
  EXPECT_TRUE(std::isnan(LogSumExp(std::vector<double>{1.0, NAN, 3.0})));
  EXPECT_TRUE(std::isnan(LogSumExp(std::vector<double>{NAN, kInf})));
}

TEST(NoncentralChiSquaredCdfTest, MatchesMpmath) {
  for (const auto& row : kNoncentralChiSquaredReference) {
    EXPECT_TRUE(IsNearRelative(NoncentralChiSquaredCdf(row[0], row[1], row[2]), row[3], 1e-12,
                               1e-300))
        << "x=" << row[0] << " df=" << row[1] << " nc=" << row[2];
  }
}

TEST(NoncentralChiSquaredCdfTest, EdgesAndCentralCase) {
  EXPECT_EQ(NoncentralChiSquaredCdf(0.0, 3.0, 1.0), 0.0);
  EXPECT_EQ(NoncentralChiSquaredCdf(-1.0, 3.0, 1.0), 0.0);
  EXPECT_EQ(NoncentralChiSquaredCdf(kInf, 3.0, 1.0), 1.0);
  EXPECT_TRUE(
      IsNearRelative(NoncentralChiSquaredCdf(2.5, 3.0, 0.0), RegularizedGammaP(1.5, 1.25), 1e-15,
                     1e-300));
}

TEST(NoncentralChiSquaredCdfDeathTest, RejectsBadArguments) {
  EXPECT_DEATH(NoncentralChiSquaredCdf(1.0, 0.0, 1.0), "df must be finite and > 0");
  EXPECT_DEATH(NoncentralChiSquaredCdf(1.0, 1.0, -1.0), "noncentrality must be finite");
  EXPECT_DEATH(NoncentralChiSquaredCdf(NAN, 1.0, 1.0), "x is NaN");
}

}  // namespace
}  // namespace sgmcmc::math
