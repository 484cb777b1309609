// Effective sample size of MCMC draws by Geyer's initial monotone sequence estimator
// (Geyer 1992, "Practical Markov chain Monte Carlo", Stat. Sci. 7(4), Sec. 3.3), in the
// multi-chain form of Stan and BDA3 (Gelman et al. 2013, Sec. 11.5; Vehtari et al. 2021,
// "Rank-normalization, folding, and localization", eq. 10, without the rank normalisation):
//   rho_t = 1 - (W - mean_j gamma_{j,t}) / var+,   var+ = (n-1)/n W + B/n,
//   P_k = rho_{2k} + rho_{2k+1} summed while positive and made monotone non-increasing,
//   tau = -1 + 2 sum_k P_k,   ESS = m n / max(tau, 1 / log10(m n)),
// with gamma_{j,t} the autocovariance of chain j (eval/autocovariance.h), W the mean
// within-chain variance and B/n the variance of the chain means. With one chain rho_t is
// the sample autocorrelation (up to a 1/(n-1) term). For an AR(1) chain with coefficient phi
// the estimate converges to n (1 - phi) / (1 + phi).
//
// The estimator assumes autocorrelations that decay (as for reversible chains). A sampler
// whose draws interleave M subchains (HAMCMC moves theta_t from theta_{t-M}) has periodic
// autocorrelations (rho_M ~ 1 while rho_1 ~ 0) that stop the sequence early and overstate
// the ESS: pass its M subchains as separate chains instead.
//
// Cost: O(m n log n) (FFT autocovariances).
//
// Example:
//   double ess = EffectiveSampleSize(draws_of_theta_1);
//   double ess4 = EffectiveSampleSize({chain_a, chain_b, chain_c, chain_d});
#ifndef SGMCMC_EVAL_ESS_H_
#define SGMCMC_EVAL_ESS_H_

#include <vector>

#include "absl/types/span.h"

namespace sgmcmc::eval {

// Chains of equal length n >= 4 and at least one chain (checked). Draws with zero
// within-chain variance have no defined autocorrelation: the result is NaN.
double EffectiveSampleSize(absl::Span<const absl::Span<const double>> chains);

// One chain of length n >= 4.
double EffectiveSampleSize(absl::Span<const double> chain);

}  // namespace sgmcmc::eval

#endif  // SGMCMC_EVAL_ESS_H_
