// linear_regression: reproduces the synthetic experiments of Simsekli et al. (2016),
// "Stochastic Quasi-Newton Langevin Monte Carlo", Sec. 4.1: SGLD, pSGLD, SGRLD and HAMCMC on
// Bayesian linear regression with correlated covariates, against the exact Gaussian posterior
// (the experiments, --tune and the outputs: tools/linear_regression_experiment.h; the flags
// are the fields of LinearRegressionOptions).
//
// Outputs in --output_dir: fig1_<method>.csv (retained draws, CmdStan CSV layout with lp__),
// fig1_contours.csv, fig1_summary.csv, fig1_trace.csv, fig2_D<d>.csv (iteration, then mean
// error and seconds per method), fig2_D<d>_spread.csv (their min and max over the
// replications), fig2_summary.csv, and figure1.png / figure1_error.png / figure2.png (gnuplot,
// tools/plots/linear_regression.gp). A summary table goes to stdout, progress to stderr; Figure
// 1's table and fig1_summary.csv have ESS, R-hat and the kernel Stein discrepancy (KSD) of
// each method's draws against the exact posterior (per chain and pooled, with the level of as
// many iid exact draws).
//
// Example:
//   bazel run //tools:linear_regression                      # defaults (5 chains), ~40 s CPU
//   bazel run //tools:linear_regression -- --seed=7 --replications=2 --output_dir=/tmp/lr
#include <chrono>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/status_macros.h"
#include "tools/gnuplot.h"
#include "tools/hamcmc_stiff_direction.h"
#include "tools/linear_regression_experiment.h"
#include "tools/linear_regression_report.h"
#include "tools/linear_regression_types.h"
#include "tools/tool_support.h"

using sgmcmc::tools::LinearRegressionOptions;

ABSL_FLAG(uint64_t, seed, LinearRegressionOptions().seed,
          "Seed of the data and of every chain (printed and recorded).");
ABSL_FLAG(std::string, output_dir, "/tmp/sgmcmc_linear_regression",
          "Directory for the CSVs and PNGs (created if missing).");
ABSL_FLAG(int64_t, iterations, LinearRegressionOptions().iterations,
          "T, iterations per chain (the paper: 20000).");
ABSL_FLAG(int64_t, num_items, LinearRegressionOptions().num_items,
          "N, data items; the minibatch is N/100 (the paper's N_Omega).");
ABSL_FLAG(double, noise_variance, LinearRegressionOptions().noise_variance,
          "sigma^2 of the observations (the paper: 10).");
ABSL_FLAG(std::string, covariates, "equicorrelated",
          "Covariate correlation structure: equicorrelated (one very stiff posterior "
          "direction) or autoregressive (AR(1), a spread of stiff directions).");
ABSL_FLAG(double, correlation, LinearRegressionOptions().correlation,
          "Correlation rho of the covariates; makes the posterior correlated.");
ABSL_FLAG(double, scale_ratio, LinearRegressionOptions().scale_ratio,
          "Largest over smallest covariate scale; makes the posterior badly scaled.");
ABSL_FLAG(std::string, dimensions, absl::StrJoin(LinearRegressionOptions().dimensions, ","),
          "Comma-separated D of Figure 2.");
ABSL_FLAG(bool, figure1, true, "Run Figure 1 (D = 2 samples over the posterior contours).");
ABSL_FLAG(bool, figure2, true, "Run Figure 2 (error versus iterations and time).");
ABSL_FLAG(int, replications, LinearRegressionOptions().replications,
          "Chains (seeds) averaged per Figure 2 curve.");
ABSL_FLAG(int, eval_every, LinearRegressionOptions().eval_every,
          "Figure 2 records the error every this many iterations.");
ABSL_FLAG(int64_t, estimate_burn_in, LinearRegressionOptions().estimate_burn_in,
          "The Figure 2 estimate restarts after this many iterations (0: the paper's eq. 12 "
          "from t = 1).");
ABSL_FLAG(bool, hamcmc_diagnostics, false,
          "Also measure HAMCMC's inverse-Hessian approximation along the stiffest posterior "
          "direction (M = 2 and 3, every D; one chain each) and print the table.");
ABSL_FLAG(double, a_sgld, 0, "a of eps_t = (a/t)^0.51 for SGLD; 0 = the tuned default.");
ABSL_FLAG(double, a_psgld, 0, "a for pSGLD; 0 = the tuned default.");
ABSL_FLAG(double, a_sgrld, 0, "a for SGRLD; 0 = the tuned default.");
ABSL_FLAG(double, a_hamcmc, 0, "a for HAMCMC (M = 2 and 3); 0 = the tuned default.");
ABSL_FLAG(double, hamcmc_lambda, 0, "HAMCMC damping lambda; 0 = the tuned default.");
ABSL_FLAG(double, hamcmc_gamma, 0,
          "HAMCMC initial scale gamma (H^0 = gamma I) in units of sigma^2/N; 0 = the tuned "
          "default.");
ABSL_FLAG(double, hamcmc_curvature_threshold, LinearRegressionOptions().hamcmc_curvature_threshold,
          "HAMCMC skips pairs with s'y <= threshold |s| |y|; a value near 1 skips every pair "
          "(H = gamma I: an ablation that leaves SGLD with step gamma eps_t).");
ABSL_FLAG(double, psgld_alpha, LinearRegressionOptions().psgld_alpha,
          "pSGLD running-average decay alpha.");
ABSL_FLAG(double, psgld_lambda, LinearRegressionOptions().psgld_lambda,
          "pSGLD regulariser lambda.");
ABSL_FLAG(bool, tune, false,
          "Grid-search a (and HAMCMC's lambda and gamma) per method on short runs with "
          "another seed before running; values given by flags are not searched.");
ABSL_FLAG(bool, plot, true, "Draw figure1.png and figure2.png with gnuplot (if on PATH).");

namespace sgmcmc::tools {
namespace {

absl::StatusOr<LinearRegressionOptions> OptionsFromFlags() {
  LinearRegressionOptions options;
  options.seed = absl::GetFlag(FLAGS_seed);
  options.iterations = absl::GetFlag(FLAGS_iterations);
  options.num_items = absl::GetFlag(FLAGS_num_items);
  options.noise_variance = absl::GetFlag(FLAGS_noise_variance);
  options.correlation = absl::GetFlag(FLAGS_correlation);
  options.scale_ratio = absl::GetFlag(FLAGS_scale_ratio);
  options.replications = absl::GetFlag(FLAGS_replications);
  options.eval_every = absl::GetFlag(FLAGS_eval_every);
  options.estimate_burn_in = absl::GetFlag(FLAGS_estimate_burn_in);
  options.a_sgld = absl::GetFlag(FLAGS_a_sgld);
  options.a_psgld = absl::GetFlag(FLAGS_a_psgld);
  options.a_sgrld = absl::GetFlag(FLAGS_a_sgrld);
  options.a_hamcmc = absl::GetFlag(FLAGS_a_hamcmc);
  options.hamcmc_lambda = absl::GetFlag(FLAGS_hamcmc_lambda);
  options.hamcmc_gamma = absl::GetFlag(FLAGS_hamcmc_gamma);
  options.hamcmc_curvature_threshold = absl::GetFlag(FLAGS_hamcmc_curvature_threshold);
  options.psgld_alpha = absl::GetFlag(FLAGS_psgld_alpha);
  options.psgld_lambda = absl::GetFlag(FLAGS_psgld_lambda);
  options.tune = absl::GetFlag(FLAGS_tune);
  const std::string covariates = absl::GetFlag(FLAGS_covariates);
  if (covariates == "equicorrelated") {
    options.structure = models::CorrelatedDataOptions::Structure::kEquicorrelated;
  } else if (covariates == "autoregressive") {
    options.structure = models::CorrelatedDataOptions::Structure::kAutoregressive;
  } else {
    return absl::InvalidArgumentError(absl::StrCat(
        "--covariates must be equicorrelated or autoregressive, got \"", covariates, "\""));
  }
  options.dimensions.clear();
  for (absl::string_view part : absl::StrSplit(absl::GetFlag(FLAGS_dimensions), ',')) {
    int d = 0;
    if (!absl::SimpleAtoi(part, &d)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--dimensions: bad dimension \"", part, "\" (want integers in [1, 2000])"));
    }
    options.dimensions.push_back(d);
  }
  SGMCMC_RETURN_IF_ERROR(AsFlagError(options.Validate()));
  return options;
}

void Plot(const std::string& output_dir, const char* argv0) {
  const absl::Status status =
      RunGnuplotScript(argv0, "sgmcmc/tools/plots/linear_regression.gp", output_dir);
  if (status.ok()) {
    std::cout << "Figures: " << output_dir << "/figure1.png, " << output_dir
              << "/figure1_error.png, " << output_dir << "/figure2.png\n";
  } else {
    std::cout << "PNGs skipped (the CSVs are written): " << status.message() << "\n";
  }
}

absl::Status Run(const char* argv0) {
  SGMCMC_ASSIGN_OR_RETURN(LinearRegressionOptions options, OptionsFromFlags());
  const std::string output_dir = FromWorkingDirectory(absl::GetFlag(FLAGS_output_dir));
  if (output_dir.empty()) return absl::InvalidArgumentError("--output_dir is empty");
  SGMCMC_RETURN_IF_ERROR(CreateOutputDirectory(output_dir, "--output_dir"));
  std::cout << absl::StrFormat(
      "linear_regression: seed=%d T=%d N=%d N_Omega=%d sigma^2=%g covariates=%s rho=%g "
      "scale_ratio=%g dimensions=%s replications=%d tune=%d\n",
      options.seed, options.iterations, options.num_items, options.batch_size(),
      options.noise_variance, absl::GetFlag(FLAGS_covariates), options.correlation,
      options.scale_ratio, absl::StrJoin(options.dimensions, ","), options.replications,
      options.tune);
  const auto start = std::chrono::steady_clock::now();
  options.progress = &std::cerr;
  std::optional<LinearRegressionFigure1> figure1;
  if (absl::GetFlag(FLAGS_figure1)) {
    SGMCMC_ASSIGN_OR_RETURN(figure1, RunLinearRegressionFigure1(options));
    SGMCMC_ASSIGN_OR_RETURN(const OutputFiles files,
                            LinearRegressionFigure1Files(options, *figure1, output_dir));
    SGMCMC_RETURN_IF_ERROR(WriteFiles(output_dir, files));
  }
  std::vector<LinearRegressionFigure2> figure2;
  for (int d : absl::GetFlag(FLAGS_figure2) ? options.dimensions : std::vector<int>()) {
    SGMCMC_ASSIGN_OR_RETURN(LinearRegressionFigure2 result, RunLinearRegressionFigure2(options, d));
    figure2.push_back(std::move(result));
  }
  if (!figure2.empty()) {
    SGMCMC_RETURN_IF_ERROR(WriteFiles(output_dir, LinearRegressionFigure2Files(options, figure2)));
  }
  std::cout << LinearRegressionSummary(options, figure1 ? &*figure1 : nullptr, figure2);
  if (absl::GetFlag(FLAGS_hamcmc_diagnostics)) {
    std::vector<HamcmcStiffDirection> diagnostics;
    for (int d : options.dimensions) {
      for (const LinearRegressionMethod method :
           {LinearRegressionMethod::kHamcmc2, LinearRegressionMethod::kHamcmc3}) {
        SGMCMC_ASSIGN_OR_RETURN(HamcmcStiffDirection result,
                                DiagnoseHamcmcStiffDirection(options, d, method));
        diagnostics.push_back(result);
      }
    }
    std::cout << HamcmcStiffDirectionTable(diagnostics);
  }
  if (absl::GetFlag(FLAGS_plot)) Plot(output_dir, argv0);
  std::cout << absl::StrFormat("Done in %.1f s; outputs in %s (seed %d)\n", SecondsSince(start),
                               output_dir, options.seed);
  return absl::OkStatus();
}

}  // namespace
}  // namespace sgmcmc::tools

int main(int argc, char** argv) {
  return sgmcmc::tools::ToolMain(
      argc, argv,
      "Reproduces Figures 1 and 2 of Simsekli et al. (2016), HAMCMC on Bayesian linear "
      "regression: samples over the true posterior (D = 2) and posterior-mean error versus "
      "iterations and time (D = 10, 100). Writes CSVs (and PNGs via gnuplot) to "
      "--output_dir.",
      sgmcmc::tools::Run);
}
