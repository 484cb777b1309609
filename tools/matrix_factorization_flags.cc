#include "tools/matrix_factorization_flags.h"

#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "models/mf/matrix_factorization.h"
#include "tools/gnuplot.h"
#include "tools/matrix_factorization_experiment.h"
#include "tools/tool_support.h"

using sgmcmc::tools::MatrixFactorizationExperimentOptions;

ABSL_FLAG(std::string, ratings, "",
          "Ratings file (MovieLens u.data / ratings.dat, Jester; plain or .gz); empty: "
          "synthetic ratings from the model.");
ABSL_FLAG(std::string, output_dir, "/tmp/sgmcmc_matrix_factorization",
          "Directory for rmse.csv and rmse.png (created if missing).");
ABSL_FLAG(std::string, methods, "sgld,psgld,hamcmc", "Comma-separated methods.");
ABSL_FLAG(int, rank, 10, "K, the rank of the factorisation.");
ABSL_FLAG(int, blocks, 4, "P, blocks per side (P subsets of P blocks).");
ABSL_FLAG(double, sigma_x, 1.0, "Noise standard deviation (also of the synthetic data).");
ABSL_FLAG(int, iterations, MatrixFactorizationExperimentOptions().iterations,
          "Iterations (samples) per method.");
ABSL_FLAG(int, burn_in, MatrixFactorizationExperimentOptions().burn_in,
          "Samples not averaged (the paper: 50). With --burn_in >= --iterations no prediction is "
          "averaged: the summary says \"no averaged prediction: burn-in B >= iterations I\" and "
          "rmse.csv's average_rmse is empty (as on every row up to the burn-in).");
ABSL_FLAG(int, record_every, MatrixFactorizationExperimentOptions().record_every,
          "Record the RMSE every this many iterations.");
ABSL_FLAG(double, sgld_step, MatrixFactorizationExperimentOptions().sgld_step,
          "Constant DSGLD step.");
ABSL_FLAG(double, psgld_step, MatrixFactorizationExperimentOptions().psgld_step,
          "Constant pSGLD step.");
ABSL_FLAG(double, hamcmc_step, MatrixFactorizationExperimentOptions().hamcmc_step,
          "Constant HAMCMC step.");
ABSL_FLAG(double, hamcmc_warmup_step, MatrixFactorizationExperimentOptions().hamcmc_warmup_step,
          "HAMCMC's SGLD warm-up step.");
ABSL_FLAG(double, hamcmc_gamma, MatrixFactorizationExperimentOptions().hamcmc_gamma,
          "HAMCMC's initial inverse-Hessian scale gamma (the default suits "
          "--hamcmc_initial_metric=diagonal_degree; use 5e-4 with scalar).");
ABSL_FLAG(double, hamcmc_damping, MatrixFactorizationExperimentOptions().hamcmc_damping,
          "HAMCMC's damping lambda (the default suits diagonal_degree; use 1000 with scalar).");
ABSL_FLAG(bool, hamcmc_block_memory, false,
          "HAMCMC: one L-BFGS pair per block (block-diagonal H) instead of one global pair.");
ABSL_FLAG(std::string, hamcmc_initial_metric,
          sgmcmc::models::MfInitialMetricName(MatrixFactorizationExperimentOptions().hamcmc_initial_metric),
          "HAMCMC's initial L-BFGS matrix H^0: scalar (gamma I, pairs damped y + lambda s) "
          "or diagonal_degree (gamma / (1/sigma^2 + the coordinate's largest subset-scaled "
          "rating count / sigma_x^2), a constant, so the chain stays exact; pairs damped in "
          "its metric, y + lambda gamma (H^0)^-1 s).");
ABSL_FLAG(bool, center_ratings, MatrixFactorizationExperimentOptions().center_ratings,
          "Subtract the training ratings' mean mu from the training and test ratings before "
          "sampling and add it back to every prediction (the model X - mu ~ N(W H, "
          "sigma_x^2), mu a fixed offset computed from the training set, not a parameter; "
          "the RMSEs stay on the original scale). The same mu on every rank and on resume.");
ABSL_FLAG(double, init_scale, MatrixFactorizationExperimentOptions().init_scale,
          "Standard deviation of the initial W and H.");
ABSL_FLAG(int, synthetic_rows, MatrixFactorizationExperimentOptions().synthetic_rows,
          "Rows of the synthetic matrix.");
ABSL_FLAG(int, synthetic_cols, MatrixFactorizationExperimentOptions().synthetic_cols,
          "Columns of the synthetic matrix.");
ABSL_FLAG(double, synthetic_density, MatrixFactorizationExperimentOptions().synthetic_density,
          "Observed fraction of the synthetic matrix.");
ABSL_FLAG(uint64_t, seed, 1, "Seed of the data, the split and the chains.");
ABSL_FLAG(std::string, checkpoint_dir, "",
          "Directory of the per-method, per-rank checkpoints "
          "(checkpoint_METHOD_rankR_ofS.pb, written atomically; created if missing); empty: "
          "none.");
ABSL_FLAG(int, checkpoint_every, 0,
          "Write checkpoints every this many iterations (0: when a method ends or stops); "
          "needs --checkpoint_dir.");
ABSL_FLAG(bool, resume, false,
          "Continue every method from its checkpoints in --checkpoint_dir when they exist "
          "(same flags, data and rank count, else an error; a method without checkpoints "
          "starts afresh); the RMSE trace is bit-identical to an uninterrupted run's.");
ABSL_FLAG(int, stop_after, 0,
          "Stop every method after this many iterations, writing checkpoints, as if "
          "interrupted (0: run to the end); no rmse.csv is written; needs --checkpoint_dir.");

namespace sgmcmc::tools {

absl::StatusOr<MatrixFactorizationExperimentOptions> MatrixFactorizationOptionsFromFlags() {
  MatrixFactorizationExperimentOptions o;
  o.ratings_path = absl::GetFlag(FLAGS_ratings);
  if (!o.ratings_path.empty()) o.ratings_path = FromWorkingDirectory(o.ratings_path);
  absl::StatusOr<std::vector<models::MfMethod>> methods =
      models::ParseMfMethods(absl::GetFlag(FLAGS_methods));
  if (!methods.ok()) return AsFlagError(methods.status());
  o.methods = *std::move(methods);
  o.model.rank = absl::GetFlag(FLAGS_rank);
  o.model.num_blocks = absl::GetFlag(FLAGS_blocks);
  o.model.sigma_x = absl::GetFlag(FLAGS_sigma_x);
  o.iterations = absl::GetFlag(FLAGS_iterations);
  o.burn_in = absl::GetFlag(FLAGS_burn_in);
  o.record_every = absl::GetFlag(FLAGS_record_every);
  o.sgld_step = absl::GetFlag(FLAGS_sgld_step);
  o.psgld_step = absl::GetFlag(FLAGS_psgld_step);
  o.hamcmc_step = absl::GetFlag(FLAGS_hamcmc_step);
  o.hamcmc_warmup_step = absl::GetFlag(FLAGS_hamcmc_warmup_step);
  o.hamcmc_gamma = absl::GetFlag(FLAGS_hamcmc_gamma);
  o.hamcmc_damping = absl::GetFlag(FLAGS_hamcmc_damping);
  o.hamcmc_block_memory = absl::GetFlag(FLAGS_hamcmc_block_memory);
  absl::StatusOr<models::MfInitialMetric> metric =
      models::ParseMfInitialMetric(absl::GetFlag(FLAGS_hamcmc_initial_metric));
  if (!metric.ok()) return AsFlagError(metric.status());
  o.hamcmc_initial_metric = *metric;
  o.center_ratings = absl::GetFlag(FLAGS_center_ratings);
  o.init_scale = absl::GetFlag(FLAGS_init_scale);
  o.synthetic_rows = absl::GetFlag(FLAGS_synthetic_rows);
  o.synthetic_cols = absl::GetFlag(FLAGS_synthetic_cols);
  o.synthetic_density = absl::GetFlag(FLAGS_synthetic_density);
  o.seed = absl::GetFlag(FLAGS_seed);
  o.checkpoint_dir = absl::GetFlag(FLAGS_checkpoint_dir);
  if (!o.checkpoint_dir.empty()) o.checkpoint_dir = FromWorkingDirectory(o.checkpoint_dir);
  o.checkpoint_every = absl::GetFlag(FLAGS_checkpoint_every);
  o.resume = absl::GetFlag(FLAGS_resume);
  o.stop_after = absl::GetFlag(FLAGS_stop_after);
  o.progress = &std::cerr;
  if (absl::Status s = o.Validate(); !s.ok()) return AsFlagError(s);
  // The output directory before the run, not after it (a stopped run writes none).
  if (o.stop_after == 0) {
    if (absl::Status s = CreateOutputDirectory(
            FromWorkingDirectory(absl::GetFlag(FLAGS_output_dir)), "--output_dir");
        !s.ok()) {
      return s;
    }
  }
  return o;
}

absl::Status WriteMatrixFactorizationOutputs(const char* argv0,
                                             const MatrixFactorizationResult& result,
                                             bool plot) {
  // Relative to where `bazel run` was started (was: inside the runfiles tree).
  const std::string dir = FromWorkingDirectory(absl::GetFlag(FLAGS_output_dir));
  std::cout << MatrixFactorizationSummary(result);
  if (result.stopped) return absl::OkStatus();
  if (absl::Status s = CreateOutputDirectory(dir, "--output_dir"); !s.ok()) return s;
  if (absl::Status s = WriteFile(dir + "/rmse.csv", MatrixFactorizationTraceCsv(result));
      !s.ok()) {
    return s;
  }
  std::cout << "wrote " << dir << "/rmse.csv\n";
  if (plot) {
    absl::Status s =
        RunGnuplotScript(argv0, "sgmcmc/tools/plots/matrix_factorization.gp", dir);
    if (s.ok()) {
      std::cout << "wrote " << dir << "/rmse.png\n";
    } else {
      std::cout << "figure skipped: " << s.message() << "\n";
    }
  }
  return absl::OkStatus();
}

}  // namespace sgmcmc::tools
