#include "rng/internal/shape_parameters.h"

#include <cmath>
#include <limits>

#include "gtest/gtest.h"

namespace sgmcmc::rng_internal {
namespace {

TEST(CheckPositiveFiniteTest, AcceptsPositiveFiniteValues) {
  CheckPositiveFinite("F", "x", 1e-320);
  CheckPositiveFinite("F", "x", 1);
  CheckPositiveFinite("F", "x", std::numeric_limits<double>::max());
}

TEST(CheckPositiveFiniteDeathTest, NamesFunctionArgumentAndValue) {
  EXPECT_DEATH(CheckPositiveFinite("GammaSample", "shape", 0),
               "GammaSample: shape must be finite and > 0, got 0");
  EXPECT_DEATH(CheckPositiveFinite("F", "x", -1), "F: x must be finite and > 0, got -1");
  EXPECT_DEATH(CheckPositiveFinite("F", "x", NAN), "F: x must be finite and > 0, got nan");
  EXPECT_DEATH(CheckPositiveFinite("F", "x", INFINITY), "F: x must be finite and > 0, got inf");
}

TEST(ShapeLogTermTest, ConventionAtZero) {
  const double log_zero = std::log(0.0);
  EXPECT_EQ(ShapeLogTerm(1, log_zero), 0);
  EXPECT_EQ(ShapeLogTerm(0.5, log_zero), INFINITY);
  EXPECT_EQ(ShapeLogTerm(2, log_zero), -INFINITY);
  EXPECT_DOUBLE_EQ(ShapeLogTerm(3, std::log(2.0)), 2 * std::log(2.0));
}

}  // namespace
}  // namespace sgmcmc::rng_internal
