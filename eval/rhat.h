// Split R-hat, the potential scale reduction factor of Gelman et al. (2013), "Bayesian Data
// Analysis", 3rd ed., Sec. 11.4 (eq. 11.4 with each chain split in halves): every chain of
// length n is cut into its first and second halves (a middle draw is dropped when n is odd),
// giving m' = 2m sequences of length n' = floor(n/2); then
//   W = mean_j s_j^2,   B/n' = var_j(mean_j),   var+ = (n'-1)/n' W + B/n',
//   R-hat = sqrt(var+ / W).
// R-hat -> 1 as chains mix; values above ~1.01-1.1 flag chains that disagree with each
// other or drift within themselves (the split catches the latter even for one chain).
//
// Cost: O(m n).
//
// Example:
//   const absl::Span<const double> chains[] = {a, b, c, d};
//   if (SplitRHat(chains) > 1.01) std::cerr << "not converged\n";
#ifndef SGMCMC_EVAL_RHAT_H_
#define SGMCMC_EVAL_RHAT_H_

#include "absl/types/span.h"

namespace sgmcmc::eval {

// At least one chain, all of the same length n >= 4 (checked). NaN if every half-chain is
// constant (W = 0).
double SplitRHat(absl::Span<const absl::Span<const double>> chains);

}  // namespace sgmcmc::eval

#endif  // SGMCMC_EVAL_RHAT_H_
