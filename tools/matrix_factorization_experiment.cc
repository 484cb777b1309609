#include "tools/matrix_factorization_experiment.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "data/ratings.h"
#include "data/split.h"
#include "models/matrix_factorization.h"
#include "parallel/communicator.h"
#include "rng/engine.h"

namespace sgmcmc::tools {

absl::Status MatrixFactorizationExperimentOptions::Validate() const {
  if (ratings_path.empty() &&
      (synthetic_rows < 1 || synthetic_cols < 1 ||
       !(synthetic_density > 0 && synthetic_density <= 1))) {
    return absl::InvalidArgumentError(absl::StrCat(
        "synthetic_rows and synthetic_cols must be >= 1 and synthetic_density in (0, 1], got ",
        synthetic_rows, ", ", synthetic_cols, ", ", synthetic_density));
  }
  if (methods.empty()) return absl::InvalidArgumentError("methods must not be empty");
  if (record_every < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("record_every must be >= 1, got ", record_every));
  }
  return model.Validate();
}

absl::StatusOr<MatrixFactorizationResult> RunMatrixFactorizationExperiment(
    const MatrixFactorizationExperimentOptions& options, parallel::Communicator& comm) {
  if (absl::Status s = options.Validate(); !s.ok()) return s;
  MatrixFactorizationResult result;
  result.num_ranks = comm.size();
  data::RatingMatrix all;
  if (options.ratings_path.empty()) {
    rng::Engine engine(options.seed, /*stream=*/2);
    all = models::GenerateSyntheticRatings(options.synthetic_rows, options.synthetic_cols,
                                           options.synthetic_density, options.model, engine)
              .matrix;
    result.noise_level = options.model.sigma_x;
  } else {
    absl::StatusOr<data::RatingMatrix> read = data::ReadRatings(options.ratings_path);
    // Every rank reads; they agree on the outcome so that none waits for a failed one.
    absl::Status agreed = comm.AgreeOnStatus(read.status());
    if (!agreed.ok()) return agreed;
    all = std::move(*read);
    result.noise_level = std::numeric_limits<double>::quiet_NaN();
  }
  rng::Engine split_engine(options.seed, data::kSplitStream);
  absl::StatusOr<data::RatingSplit> split =
      data::SplitRatings(all, options.test_fraction, split_engine);
  if (!split.ok()) return split.status();
  result.num_rows = all.num_rows;
  result.num_cols = all.num_cols;
  result.num_train = static_cast<int64_t>(split->train.ratings.size());
  result.num_test = static_cast<int64_t>(split->test.ratings.size());
  absl::StatusOr<std::unique_ptr<models::MatrixFactorization>> model =
      models::MatrixFactorization::Create(split->train, options.model, &comm);
  if (!model.ok()) return model.status();
  for (models::MfMethod method : options.methods) {
    models::MfRunOptions run;
    run.method = method;
    run.step_size = method == models::MfMethod::kSgld    ? options.sgld_step
                    : method == models::MfMethod::kPsgld ? options.psgld_step
                                                         : options.hamcmc_step;
    run.hamcmc_warmup_step = options.hamcmc_warmup_step;
    run.hamcmc_gamma = options.hamcmc_gamma;
    run.hamcmc_damping = options.hamcmc_damping;
    run.init_scale = options.init_scale;
    run.iterations = options.iterations;
    run.burn_in = options.burn_in;
    run.seed = options.seed;
    absl::StatusOr<std::vector<models::MfTracePoint>> trace =
        models::RunMatrixFactorization(**model, split->test, run, options.record_every);
    if (!trace.ok()) return trace.status();
    MatrixFactorizationMethodResult m;
    m.method = method;
    m.trace = std::move(*trace);
    // Each iteration processes one subset, |Omega_s| ~ N / P on average; HAMCMC evaluates
    // two gradients per iteration but the count is of ratings sampled, as in the paper.
    const double seconds = m.trace.back().seconds;
    const double ratings = static_cast<double>(options.iterations) *
                           static_cast<double>(result.num_train) / options.model.num_blocks;
    m.ratings_per_second_per_rank = seconds > 0 ? ratings / seconds / comm.size() : 0;
    result.methods.push_back(std::move(m));
  }
  return result;
}

std::string MatrixFactorizationTraceCsv(const MatrixFactorizationResult& result) {
  std::string csv = "method,iteration,seconds,sample_rmse,average_rmse\n";
  for (const MatrixFactorizationMethodResult& m : result.methods) {
    for (const models::MfTracePoint& p : m.trace) {
      absl::StrAppendFormat(&csv, "%s,%d,%.6f,%.6f,%.6f\n", models::MfMethodName(m.method),
                            p.iteration, p.seconds, p.sample_rmse, p.average_rmse);
    }
  }
  return csv;
}

std::string MatrixFactorizationSummary(const MatrixFactorizationResult& result) {
  std::string out = absl::StrFormat(
      "%d x %d matrix, %d train / %d test ratings, %d rank(s)%s\n", result.num_rows,
      result.num_cols, result.num_train, result.num_test, result.num_ranks,
      std::isnan(result.noise_level)
          ? ""
          : absl::StrFormat(", noise level (best RMSE) %.4f", result.noise_level));
  for (const MatrixFactorizationMethodResult& m : result.methods) {
    absl::StrAppendFormat(&out,
                          "%-7s final averaged test RMSE %.4f after %d iterations, %.2f s, "
                          "%.3g ratings/s per rank\n",
                          models::MfMethodName(m.method), m.trace.back().average_rmse,
                          m.trace.back().iteration, m.trace.back().seconds,
                          m.ratings_per_second_per_rank);
  }
  return out;
}

}  // namespace sgmcmc::tools
