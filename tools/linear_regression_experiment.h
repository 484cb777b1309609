// The experiments of //tools:linear_regression (tools/linear_regression.cc is its command
// line): the synthetic experiments of Simsekli et al. (2016), "Stochastic Quasi-Newton
// Langevin Monte Carlo", Sec. 4.1, on Bayesian linear regression theta ~ N(0, I),
// x_n ~ N(a_n' theta, sigma^2) (models/linear_regression.h) with correlated covariates,
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

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "models/linear_regression.h"
#include "tools/tool_support.h"

namespace sgmcmc::tools {

enum class LinearRegressionMethod { kSgld, kPsgld, kSgrld, kHamcmc2, kHamcmc3 };

// The method's name in tables and plots: "SGLD", "pSGLD", "SGRLD", "HAMCMC (M=2)", ...
const char* LinearRegressionMethodLabel(LinearRegressionMethod method);

// Sampler hyper-parameters of one method in one experiment.
struct LinearRegressionTuning {
  double a = 0;       // eps_t = (a / t)^0.51
  double lambda = 0;  // HAMCMC damping lambda (unused by the others)
  double gamma = 0;   // HAMCMC initial scale, H^0 = gamma I, in units of sigma^2 / N
  // HAMCMC's SGLD warm-up step: SGLD's last step (a_SGLD / T)^0.51 in the same experiment,
  // the smallest of its schedule, hence stable; the warm-up only has to start the pairs.
  double warmup_step = 0;
};

struct LinearRegressionOptions {
  // Seed of the data and of every chain.
  uint64_t seed = 1;
  // T, iterations per chain, >= 100 (the paper: 20000).
  int64_t iterations = 20000;
  // N, data items, >= 100; the minibatch is N/100 (the paper's N_Omega).
  int64_t num_items = 1000;
  // sigma^2 of the observations (the paper: 10); checked by the data model.
  double noise_variance = 10;
  // Covariate correlation structure: equicorrelated (one very stiff posterior direction) or
  // autoregressive (AR(1), a spread of stiff directions).
  models::CorrelatedDataOptions::Structure structure =
      models::CorrelatedDataOptions::Structure::kEquicorrelated;
  // Correlation rho of the covariates (makes the posterior correlated); checked by the data
  // model.
  double correlation = 0.9;
  // Largest over smallest covariate scale (makes the posterior badly scaled); checked by the
  // data model.
  double scale_ratio = 1;
  // D of Figure 2, each in [1, 2000].
  std::vector<int> dimensions = {10, 100};
  // Chains (seeds) per method: averaged per Figure 2 curve (mean, min and max), and Figure 1's
  // error curves and R-hat over chains, >= 1. Default 5 (2 before the spread was reported).
  int replications = 5;
  // Figure 2 records the error every this many iterations, in [1, iterations].
  int eval_every = 20;
  // The Figure 2 estimate restarts after this many iterations, in [0, iterations): 0 is the
  // paper's eq. 12 (every sample from t = 1); T/2 discards the first half as burn-in.
  int64_t estimate_burn_in = 0;
  // a of eps_t = (a/t)^0.51 per method, finite and >= 0; 0 = the tuned default. a_hamcmc is
  // HAMCMC's with M = 2 and 3.
  double a_sgld = 0;
  double a_psgld = 0;
  double a_sgrld = 0;
  double a_hamcmc = 0;
  // HAMCMC damping lambda, >= 0; 0 = the tuned default.
  double hamcmc_lambda = 0;
  // HAMCMC initial scale gamma (H^0 = gamma I) in units of sigma^2/N, >= 0; 0 = the tuned
  // default.
  double hamcmc_gamma = 0;
  // HAMCMC skips pairs with s'y <= threshold |s| |y|; a value near 1 skips every pair
  // (H = gamma I: an ablation that leaves SGLD with step gamma eps_t).
  double hamcmc_curvature_threshold = 1e-10;
  // pSGLD running-average decay alpha and regulariser lambda; checked by the sampler.
  double psgld_alpha = 0.99;
  double psgld_lambda = 1e-5;
  // Grid-search a (and HAMCMC's lambda and gamma) per method on short runs with another
  // seed before running; values given above (> 0) are not searched.
  bool tune = false;
  // Receives the progress lines ("[fig1 SGLD] 12000/20000 ...") and the tuning results; null:
  // none.
  std::ostream* progress = nullptr;

  // N_Omega = max(1, N / 100).
  int64_t batch_size() const { return std::max<int64_t>(1, num_items / 100); }

  // InvalidArgument naming the field, e.g. "iterations must be >= 100, got 5". The data model
  // and the samplers check the remaining values when the experiments run.
  absl::Status Validate() const;
};

// A run (Figure 2, or Figure 1's chains): the error of the step-weighted running mean every
// eval_every iterations, with the cumulative time spent in Step() (the estimator's bookkeeping
// is not timed).
// Averaged over chains (replications), errors and seconds are the means and the *_min, *_max
// vectors the spread over the chains (for one chain they equal the values).
struct LinearRegressionTrace {
  std::vector<int64_t> iterations;
  std::vector<double> seconds;
  std::vector<double> errors;
  std::vector<double> seconds_min, seconds_max;
  std::vector<double> errors_min, errors_max;
};

// One Figure 1 chain: its retained draws and their summaries.
struct LinearRegressionFigure1Row {
  LinearRegressionMethod method = LinearRegressionMethod::kSgld;
  LinearRegressionTuning tuning;
  std::vector<double> draws;      // the T - T/2 retained theta, 2 per draw
  std::vector<double> log_joint;  // log p(theta, x) per retained draw
  double mean_error = 0;          // ||theta-bar - mean of retained draws||^2
  double covariance_error = 0;    // ||Sigma-hat - Sigma||_F / ||Sigma||_F
  double ess[2] = {0, 0};         // per coordinate (eval/ess.h)
  double rhat[2] = {0, 0};        // split R-hat per coordinate
  double warmup_seconds = 0;      // burn-in
  double seconds = 0;             // the whole chain
  // Over the `replications` chains (streams 1, 2, ...; the draws above are the first's):
  // the eq. 12 error of the running mean against iterations and time (as Figure 2's), the
  // covariance error of each chain's retained draws, the worst coordinate's split R-hat of
  // each chain, and the split R-hat of all chains together (each split into its M
  // sub-chains for HAMCMC), the larger of the two coordinates.
  LinearRegressionTrace trace;
  std::vector<double> chain_covariance_errors;
  std::vector<double> chain_rhats;
  double pooled_rhat = 0;
  // Kernel Stein discrepancy against the exact posterior (see kLinearRegressionKsdDraws): of
  // the first chain (the draws above), of each chain, and of all chains pooled.
  double ksd = 0;
  std::vector<double> chain_ksds;
  double pooled_ksd = 0;
};

// Figure 1's KSD (eval/kernel_stein_discrepancy.h, IMQ kernel with c = 1, beta = -1/2, the
// V-statistic) of retained draws against the exact posterior N(theta_bar, Sigma), computed in its
// whitened coordinates z = L^-1 (theta - theta_bar), Sigma = L L', where the target is N(0, I) with
// score s(z) = L' grad log p(theta | x) = -z. (On theta itself the c = 1 kernel is 3-14x wider than
// the posterior, whose standard deviations are ~0.07-0.3, and the KSD is then mostly the
// precision-weighted error of the sample mean: over seeds 1..8 it put SGRLD's first chain below
// SGLD's in only 5 seeds, and its pooled value at up to 0.91 of SGLD's. In z the value is
// scale-free: it is the KSD on theta over the Stein set {L g : g in the IMQ unit ball on z}.) Each
// chain's T - T/2 retained draws are thinned by the stride ceil(n / kLinearRegressionKsdDraws),
// i.e. to at most this many (every 5th of 10000 at the defaults), and the pooled value thins all
// chains' draws together by one stride to about as many, so every value has the same n and the same
// iid level. ~10 ms per KSD at n = 2000.
inline constexpr int kLinearRegressionKsdDraws = 2000;

struct LinearRegressionFigure1 {
  models::GaussianPosterior exact;               // D = 2
  std::vector<LinearRegressionFigure1Row> rows;  // SGLD, pSGLD, SGRLD, HAMCMC (M=2)
  // The reference for the KSD columns: sqrt(E V) for as many iid draws from the exact
  // posterior as one chain's thinned draws n, sqrt(4 / n), since E V = E k0(z, z) / n and
  // k0(z, z) = |z|^2 + 2 here.
  double ksd_iid = 0;
};

struct LinearRegressionFigure2 {
  int dimension = 0;
  std::vector<LinearRegressionMethod> methods;  // all five
  std::vector<LinearRegressionTuning> tunings;
  std::vector<LinearRegressionTrace> traces;  // averaged over replications
};

// The mechanism behind HAMCMC's gap to SGRLD on a posterior with one stiff direction, measured
// on one chain (seed, stream 100: Figure 2's first replication) in dimension D with the
// resolved tuning. With P the exact posterior precision, v its top eigenvector (eigenvalue
// lambda_1) and u_2 ... u_D the others, before every HAMCMC step t > 2M (warm-up excluded):
//   ratio_t     = (v' H_t^-1 v) / (v' (P + lambda I) v): the curvature H_t assigns to v over
//                 the damped target's; below 1, H_t is too large along v;
//   stiff_gain  = eps_t v' H_t P v: the contraction of the linearised step along v is
//                 |1 - stiff_gain|, so the step overshoots (grows the error) when it is > 2;
//   bulk_gain   = eps_t mean_{k>=2} u_k' H_t P u_k: how far a step moves the other directions
//                 (SGRLD's is eps_t in every direction);
//   alignment   = max over the M-1 pairs in memory of D (v's)^2 / |s|^2 (1 for a direction
//                 uniform on the sphere, D when s = v).
// Cost: one chain of T steps plus D + 2 L-BFGS products per step (O(M D^2)), and an O(D^3)
// eigendecomposition.
struct HamcmcStiffDirection {
  LinearRegressionMethod method = LinearRegressionMethod::kHamcmc2;
  LinearRegressionTuning tuning;
  int dimension = 0;
  double stiff_eigenvalue = 0;  // lambda_1
  double bulk_eigenvalue = 0;   // mean of the other eigenvalues
  int64_t steps = 0;            // HAMCMC steps measured (t = 2M+1 ... T)
  // Quantiles at kQuantileLevels over the steps.
  static constexpr double kQuantileLevels[5] = {0.01, 0.1, 0.5, 0.9, 0.99};
  double ratio[5] = {};
  double stiff_gain[5] = {};
  double bulk_gain[5] = {};
  double alignment[5] = {};
  double overshoot_fraction = 0;  // share of the steps with stiff_gain > 2
  // The same share among the steps whose alignment is below / at or above its median.
  double overshoot_fraction_low_alignment = 0;
  double overshoot_fraction_high_alignment = 0;
  // sum_t bulk_gain_t / M: the bulk directions' integrated progress per sub-chain (HAMCMC's
  // sample t moves theta_{t-M}), against SGRLD's sum_t eps_t with its tuned a.
  double bulk_progress = 0;
  double sgrld_progress = 0;
  // The first t with |theta_t - theta_bar|^2 > 1e6 (|theta_bar|^2 + tr Sigma) or not finite
  // (the steps before it are measured), 0 if none.
  int64_t diverged_at = 0;
  // ||theta_bar - theta_hat_T||^2 (eq. 12) of this chain; infinite if it diverged.
  double final_error = 0;
};

// InvalidArgument as RunLinearRegressionFigure2, or if `method` is not HAMCMC.
absl::StatusOr<HamcmcStiffDirection> DiagnoseHamcmcStiffDirection(
    const LinearRegressionOptions& options, int dimension, LinearRegressionMethod method);

// The table of DiagnoseHamcmcStiffDirection results.
std::string HamcmcStiffDirectionTable(const std::vector<HamcmcStiffDirection>& results);

// Figure 1. InvalidArgument if `options` are not valid (or from the data model or samplers).
absl::StatusOr<LinearRegressionFigure1> RunLinearRegressionFigure1(
    const LinearRegressionOptions& options);

// One dimension of Figure 2. Errors as RunLinearRegressionFigure1.
absl::StatusOr<LinearRegressionFigure2> RunLinearRegressionFigure2(
    const LinearRegressionOptions& options, int dimension);

// fig1_contours.csv, fig1_<method>.csv, fig1_summary.csv and fig1_trace.csv (the eq. 12 error
// against iterations and seconds: mean, min and max over the chains); the draws' CmdStan header
// records its path in `output_dir`.
absl::StatusOr<OutputFiles> LinearRegressionFigure1Files(const LinearRegressionOptions& options,
                                                         const LinearRegressionFigure1& figure1,
                                                         const std::string& output_dir);

// fig2_D<d>.csv (mean error and seconds per method), fig2_D<d>_spread.csv (their min and max
// over the replications) per dimension and fig2_summary.csv.
OutputFiles LinearRegressionFigure2Files(const LinearRegressionOptions& options,
                                         const std::vector<LinearRegressionFigure2>& figure2);

// The tables of both figures (either may be empty) with the paper's claim checked: HAMCMC
// below SGLD and pSGLD in error versus iterations.
std::string LinearRegressionSummary(const LinearRegressionOptions& options,
                                    const LinearRegressionFigure1* figure1,
                                    const std::vector<LinearRegressionFigure2>& figure2);

}  // namespace sgmcmc::tools

#endif  // SGMCMC_TOOLS_LINEAR_REGRESSION_EXPERIMENT_H_
