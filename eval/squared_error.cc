#include "eval/squared_error.h"

#include "base/check.h"

namespace sgmcmc::eval {

double SquaredError(absl::Span<const double> estimate, absl::Span<const double> truth) {
  SGMCMC_CHECK(estimate.size() == truth.size())
      << "SquaredError: lengths differ, " << estimate.size() << " vs " << truth.size();
  double sum = 0;
  for (size_t j = 0; j < estimate.size(); ++j) {
    const double d = estimate[j] - truth[j];
    sum += d * d;
  }
  return sum;
}

}  // namespace sgmcmc::eval
