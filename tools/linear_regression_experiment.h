// The experiments of //tools:linear_regression (tools/linear_regression.cc is its command
// line): the synthetic experiments of Simsekli et al. (2016), "Stochastic Quasi-Newton
// Langevin Monte Carlo", Sec. 4.1, on Bayesian linear regression theta ~ N(0, I),
// x_n ~ N(a_n' theta, sigma^2) (models/regression/linear_regression.h) with correlated covariates,
// against the exact Gaussian posterior.
//
//  Figure 1: D = 2, sigma^2 = 10, N_Omega = N/100, T = 20000 iterations of SGLD, pSGLD,
//    SGRLD (dense metric) and HAMCMC (M = 2); the first half is burn-in; the retained samples
//    are drawn over the contours of the true posterior.
//  Figure 2: the error ||theta-bar - theta-hat_t||^2 between the posterior mean and the
//    running estimate theta-hat_t = sum_s eps_s theta_s / sum_s eps_s (the paper's eq. 12)
//    versus iteration and versus wall-clock time (sampler steps only), for D = 10 and
//    D = 100, with SGLD, pSGLD, SGRLD and HAMCMC with M = 2 and 3; every method uses the
//    step eps_t = (a/t)^0.51 with its own a (defaults tuned with `tune`, see below), and
//    the curves average `replications` chains with different seeds.
//
// Each experiment's data comes from stream 1000 + D of `seed`; Figure 1's chain r (0-based)
// uses stream 1 + r, Figure 2's replication r stream 100 + r.
//
// `tune` picks a (and HAMCMC's lambda and gamma) per method and experiment on short runs
// (T/4 iterations, chains with seed + 1000) over the same grids for every method, as the
// paper did ("tried several values ... with the same rigor"): by the mean error of the
// sample covariance over 8 chains (Figure 1) or the worst over 3 chains of the mean log
// error of the running mean over the second half of the run (Figure 2). It reports the
// chosen values on `progress`; the built-in defaults are its output for the default settings.
//
// Every method runs `replications` chains (default 5) in both figures; Figure 1 draws the first
// chain's samples and reports the covariance error, split R-hat and kernel Stein discrepancy
// (KSD, against the exact posterior's score, in its whitened coordinates; V-statistic of the
// draws thinned to 2000: kLinearRegressionKsdDraws below) of each chain and R-hat and KSD of
// all chains pooled; both figures report the error against iterations and seconds as the
// mean, min and max over the chains.
//
// Outputs: fig1_<method>.csv (retained draws, CmdStan CSV layout with lp__), fig1_contours.csv,
// fig1_summary.csv and fig1_trace.csv (LinearRegressionFigure1Files); fig2_D<d>.csv (iteration,
// then mean error and seconds per method), fig2_D<d>_spread.csv and fig2_summary.csv
// (LinearRegressionFigure2Files).
//
// Cost: dominated by the chains, T steps each (20000 steps of D = 100 dense SGRLD: ~7 s;
// every other chain at the defaults well under 0.1 s; with 5 replications ~40 s in all).
// Figure 1's KSDs add ~12 ms each, 24 at the defaults (~0.3 s).
// `tune` adds, per method and experiment, 19 settings (HAMCMC: 475) of 8 (Figure 1) or 3
// chains of T/4 iterations.
//
// The pieces: tools/linear_regression_types.h (options and results), linear_regression_chain.h
// (data, samplers, runs), linear_regression_tuning.h (defaults and `tune`),
// linear_regression_report.h (output files and tables) and hamcmc_stiff_direction.h (the
// HAMCMC diagnostic).
//
// Example:
//   LinearRegressionOptions options;
//   options.iterations = 2000;
//   SGMCMC_ASSIGN_OR_RETURN(const LinearRegressionFigure1 figure1,
//                           RunLinearRegressionFigure1(options));
//   SGMCMC_ASSIGN_OR_RETURN(const OutputFiles files,
//                           LinearRegressionFigure1Files(options, figure1, dir));
//   SGMCMC_RETURN_IF_ERROR(WriteFiles(dir, files));
#ifndef SGMCMC_TOOLS_LINEAR_REGRESSION_EXPERIMENT_H_
#define SGMCMC_TOOLS_LINEAR_REGRESSION_EXPERIMENT_H_

#include "absl/status/statusor.h"
#include "tools/linear_regression_types.h"

namespace sgmcmc::tools {

// Figure 1. InvalidArgument if `options` are not valid (or from the data model or samplers).
absl::StatusOr<LinearRegressionFigure1> RunLinearRegressionFigure1(
    const LinearRegressionOptions& options);

// One dimension of Figure 2. Errors as RunLinearRegressionFigure1.
absl::StatusOr<LinearRegressionFigure2> RunLinearRegressionFigure2(
    const LinearRegressionOptions& options, int dimension);

}  // namespace sgmcmc::tools

#endif  // SGMCMC_TOOLS_LINEAR_REGRESSION_EXPERIMENT_H_
