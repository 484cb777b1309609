// Autocovariance of a scalar series by FFT (Wiener-Khinchin), the building block of the
// effective sample size (eval/ess.h):
//   gamma_k = (1/n) sum_{t=0}^{n-1-k} (x_t - xbar)(x_{t+k} - xbar),   k = 0, ..., n-1,
// the biased (1/n) estimator Geyer (1992) and Stan use, which keeps the sequence positive
// semi-definite.
//
// Implementation: zero-pad to a power of two >= 2n, one forward radix-2 FFT, |.|^2, one
// inverse FFT. Exact up to rounding (relative error ~ 1e-15 log n).
//
// Cost: O(n log n) time, O(n) memory.
//
// Example:
//   std::vector<double> acov = Autocovariance(chain);   // acov[0] is the variance
#ifndef SGMCMC_EVAL_AUTOCOVARIANCE_H_
#define SGMCMC_EVAL_AUTOCOVARIANCE_H_

#include <vector>

#include "absl/types/span.h"

namespace sgmcmc::eval {

// gamma_0 .. gamma_{n-1}; empty for an empty series.
std::vector<double> Autocovariance(absl::Span<const double> series);

}  // namespace sgmcmc::eval

#endif  // SGMCMC_EVAL_AUTOCOVARIANCE_H_
