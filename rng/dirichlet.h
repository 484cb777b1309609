// Dirichlet variates (linear and log space) and the Dirichlet log density.
//
// X_i = G_i / sum_j G_j with independent G_i ~ Gamma(alpha_i, 1) (e.g. Devroye 1986,
// "Non-Uniform Random Variate Generation", XI.4). LogDirichletSample draws log G_i with
// LogGammaSample and normalises by log-sum-exp, so it is finite for tiny concentrations
// (alpha_i = 1e-3 and below, as in sparse LDA topics; Baker et al. 2018, section 3), where the
// G_i underflow. DirichletSample takes that log-space path whenever some alpha_i < 1 and
// exponentiates; components may then be exactly 0 (too small for a double) but still sum to 1.
//
// Cost: O(K): K gamma draws (in log space when some alpha_i < 1). Measured:
// rng/dirichlet_benchmark.cc.
//
// Example:
//   sgmcmc::rng::Engine engine(/*seed=*/1);
//   std::vector<double> alpha = {0.5, 1.0, 2.0}, x(3);
//   sgmcmc::rng::DirichletSample(engine, alpha, absl::MakeSpan(x));
//   double lp = sgmcmc::rng::DirichletLogPdf(x, alpha);
#ifndef SGMCMC_RNG_DIRICHLET_H_
#define SGMCMC_RNG_DIRICHLET_H_

#include "absl/types/span.h"
#include "rng/engine.h"

namespace sgmcmc::rng {

// Draws Dir(alpha) into out. alpha non-empty with finite entries > 0; out.size() ==
// alpha.size(). out is non-negative and sums to 1 up to rounding.
void DirichletSample(Engine& engine, absl::Span<const double> alpha, absl::Span<double> out);

// Draws Dir(alpha) as log components: log_out[i] = log X_i, finite for every valid alpha
// (log-sum-exp of log_out is 0 up to rounding). Preconditions as DirichletSample.
void LogDirichletSample(Engine& engine, absl::Span<const double> alpha, absl::Span<double> log_out);

// log of the Dir(alpha) density at x:
// log Gamma(sum alpha) - sum log Gamma(alpha_i) + sum (alpha_i - 1) log x_i.
// -inf if some x_i < 0; at x_i = 0 the term follows alpha_i <, =, > 1 (+inf, 0, -inf).
// x must lie on the simplex: x.size() == alpha.size() and |sum x - 1| <= 1e-6 (checked).
double DirichletLogPdf(absl::Span<const double> x, absl::Span<const double> alpha);

}  // namespace sgmcmc::rng

#endif  // SGMCMC_RNG_DIRICHLET_H_
