// The one shared numeric matcher of sgmcmc's tests (testonly): relative error with an
// absolute floor, for comparing computed values with high-precision reference values.
//
//   error(actual, expected, floor) = |actual - expected| / max(|expected|, floor)
//
// i.e. a relative error where |expected| >= floor and an absolute error scaled by 1/floor
// below it (so a reference value of 0, or one where a function crosses 0, does not demand
// infinite relative accuracy). NaN or a mismatched infinity counts as an infinite error;
// equal infinities as 0.
//
// Cost: O(1).
//
// Example:
//   EXPECT_TRUE(IsNearRelative(LogGamma(x), expected, /*tolerance=*/1e-14, /*floor=*/1.0));
//   max_error = std::max(max_error, RelativeErrorWithFloor(value, expected, 1.0));
#ifndef SGMCMC_TESTING_NUMERIC_TESTING_H_
#define SGMCMC_TESTING_NUMERIC_TESTING_H_

#include "gtest/gtest.h"

namespace sgmcmc::testing {

// |actual - expected| / max(|expected|, floor); floor > 0.
double RelativeErrorWithFloor(double actual, double expected, double floor);

// Success iff RelativeErrorWithFloor(actual, expected, floor) <= tolerance; the failure
// message prints both values to 17 digits and the error.
::testing::AssertionResult IsNearRelative(double actual, double expected, double tolerance,
                                          double floor);

}  // namespace sgmcmc::testing

#endif  // SGMCMC_TESTING_NUMERIC_TESTING_H_
