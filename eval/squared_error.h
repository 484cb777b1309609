// SquaredError: ||estimate - truth||^2, the posterior-mean error the HAMCMC paper (Simsekli
// et al. 2016, Sec. 4.1, Figure 2) plots against iterations and wall-clock time.
//
// Cost: O(D).
//
// Example:
//   double error = SquaredError(moments.mean(), exact_posterior_mean);
#ifndef SGMCMC_EVAL_SQUARED_ERROR_H_
#define SGMCMC_EVAL_SQUARED_ERROR_H_

#include "absl/types/span.h"

namespace sgmcmc::eval {

// Spans of equal length (checked).
double SquaredError(absl::Span<const double> estimate, absl::Span<const double> truth);

}  // namespace sgmcmc::eval

#endif  // SGMCMC_EVAL_SQUARED_ERROR_H_
