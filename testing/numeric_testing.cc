#include "testing/numeric_testing.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_format.h"
#include "base/check.h"

namespace sgmcmc::testing {

double RelativeErrorWithFloor(double actual, double expected, double floor) {
  SGMCMC_CHECK(floor > 0) << "RelativeErrorWithFloor: floor must be > 0, got " << floor;
  if (std::isnan(actual) || std::isnan(expected)) return std::numeric_limits<double>::infinity();
  if (std::isinf(actual) || std::isinf(expected)) {
    return actual == expected ? 0 : std::numeric_limits<double>::infinity();
  }
  return std::fabs(actual - expected) / std::max(std::fabs(expected), floor);
}

::testing::AssertionResult IsNearRelative(double actual, double expected, double tolerance,
                                          double floor) {
  const double error = RelativeErrorWithFloor(actual, expected, floor);
  if (error <= tolerance) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << absl::StrFormat(
             "actual %.17g vs expected %.17g: relative error (floor %g) %.3g > tolerance %.3g",
             actual, expected, floor, error, tolerance);
}

}  // namespace sgmcmc::testing
