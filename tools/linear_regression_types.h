// The options and results of the linear-regression experiments of //tools:linear_regression
// (see tools/linear_regression_experiment.h for the experiments themselves), and the method
// table shared by the experiment libraries.
#ifndef SGMCMC_TOOLS_LINEAR_REGRESSION_TYPES_H_
#define SGMCMC_TOOLS_LINEAR_REGRESSION_TYPES_H_

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "models/regression/linear_regression.h"

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
  // HAMCMC damping lambda, finite and >= 0; 0 = the tuned default.
  double hamcmc_lambda = 0;
  // HAMCMC initial scale gamma (H^0 = gamma I) in units of sigma^2/N, finite and >= 0; 0 =
  // the tuned default.
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

namespace linear_regression_internal {

// The names of one method.
struct MethodInfo {
  LinearRegressionMethod method;
  const char* key;    // file and column names
  const char* label;  // tables and plots
};

inline constexpr MethodInfo kMethods[] = {
    {LinearRegressionMethod::kSgld, "sgld", "SGLD"},
    {LinearRegressionMethod::kPsgld, "psgld", "pSGLD"},
    {LinearRegressionMethod::kSgrld, "sgrld", "SGRLD"},
    {LinearRegressionMethod::kHamcmc2, "hamcmc_m2", "HAMCMC (M=2)"},
    {LinearRegressionMethod::kHamcmc3, "hamcmc_m3", "HAMCMC (M=3)"},
};

// The kMethods entry of `method`.
const MethodInfo& Info(LinearRegressionMethod method);

bool IsHamcmc(LinearRegressionMethod method);

}  // namespace linear_regression_internal
}  // namespace sgmcmc::tools

#endif  // SGMCMC_TOOLS_LINEAR_REGRESSION_TYPES_H_
