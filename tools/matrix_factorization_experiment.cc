#include "tools/matrix_factorization_experiment.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <ostream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "data/ratings.h"
#include "data/split.h"
#include "models/mf/distributed_matrix_factorization.h"
#include "models/mf/matrix_factorization.h"
#include "models/mf/matrix_factorization_state.pb.h"
#include "parallel/communicator.h"
#include "rng/engine.h"
#include "samplers/hamcmc.h"
#include "tools/checkpoint_file.h"
#include "tools/tool_support.h"

namespace sgmcmc::tools {

namespace {

// The options field of `method`'s step size (the tool's flag of the same name).
const char* StepField(models::MfMethod method) {
  switch (method) {
    case models::MfMethod::kSgld:
      return "sgld_step";
    case models::MfMethod::kPsgld:
      return "psgld_step";
    case models::MfMethod::kHamcmc:
      return "hamcmc_step";
  }
  return "step_size";
}

// `method`'s chain settings from the experiment's options.
models::MfRunOptions RunOptions(const MatrixFactorizationExperimentOptions& options,
                                models::MfMethod method) {
  models::MfRunOptions run;
  run.method = method;
  run.step_size = method == models::MfMethod::kSgld    ? options.sgld_step
                  : method == models::MfMethod::kPsgld ? options.psgld_step
                                                       : options.hamcmc_step;
  run.hamcmc_warmup_step = options.hamcmc_warmup_step;
  run.hamcmc_gamma = options.hamcmc_gamma;
  run.hamcmc_damping = options.hamcmc_damping;
  run.hamcmc_block_memory = options.hamcmc_block_memory;
  run.hamcmc_initial_metric = options.hamcmc_initial_metric;
  run.init_scale = options.init_scale;
  run.iterations = options.iterations;
  run.burn_in = options.burn_in;
  run.seed = options.seed;
  return run;
}

}  // namespace

absl::Status CheckMatrixFactorizationRank(int rank, int num_rows, int num_cols) {
  const int most = std::min(num_rows, num_cols);
  if (rank <= most) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrFormat(
      "model.rank must be <= min(rows, cols) = %d for this %d x %d matrix, got %d: W H has "
      "rank at most %d, so a larger rank only adds redundant parameters ((rows + cols) x rank)",
      most, num_rows, num_cols, rank, most));
}

absl::Status MatrixFactorizationExperimentOptions::Validate() const {
  if (ratings_path.empty() &&
      (synthetic_rows < 1 || synthetic_cols < 1 ||
       !(synthetic_density > 0 && synthetic_density <= 1))) {
    return absl::InvalidArgumentError(absl::StrCat(
        "synthetic_rows and synthetic_cols must be >= 1 and synthetic_density in (0, 1], got ",
        synthetic_rows, ", ", synthetic_cols, ", ", synthetic_density));
  }
  // The synthetic truth W, H and the cells drawn: 10^8 rows or a rank of 10^8 was a bad_alloc
  // before the model's own size check.
  const int64_t cells = int64_t{synthetic_rows} * synthetic_cols;
  const int64_t factors = (int64_t{synthetic_rows} + synthetic_cols) * model.rank;
  if (ratings_path.empty() && (cells > kMaxSyntheticCells || factors > kMaxSyntheticCells)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "synthetic_rows x synthetic_cols and (synthetic_rows + synthetic_cols) x rank must be <= ",
        kMaxSyntheticCells, ", got ", cells, " and ", factors));
  }
  if (methods.empty()) return absl::InvalidArgumentError("methods must not be empty");
  // The one sigma the tool sets (sigma_w, sigma_h keep their defaults).
  if (!(std::isfinite(model.sigma_x) && model.sigma_x > 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("model.sigma_x must be finite and > 0, got ", model.sigma_x));
  }
  // The model's fields as this struct holds them ("model.rank").
  if (absl::Status s = NameFlags(model.Validate(), {{"rank", "model.rank"},
                                                    {"sigma_w", "model.sigma_w"},
                                                    {"sigma_h", "model.sigma_h"},
                                                    {"sigma_x", "model.sigma_x"},
                                                    {"num_blocks", "model.num_blocks"}});
      !s.ok()) {
    return s;
  }
  if (ratings_path.empty()) {
    if (absl::Status s = CheckMatrixFactorizationRank(model.rank, synthetic_rows, synthetic_cols);
        !s.ok()) {
      return s;
    }
  }
  // Every method's chain settings before any method runs, naming this struct's field: the
  // step size of the method's own field ("psgld_step", not the chain's "step_size").
  for (const models::MfMethod method : methods) {
    if (absl::Status s =
            NameFlags(RunOptions(*this, method).Validate(), {{"step_size", StepField(method)}});
        !s.ok()) {
      return s;
    }
    if (method == models::MfMethod::kHamcmc) {
      samplers::HamcmcOptions hamcmc;
      hamcmc.gamma = hamcmc_gamma;
      hamcmc.damping = hamcmc_damping;
      hamcmc.warmup_step = hamcmc_warmup_step;
      if (absl::Status s = NameFlags(hamcmc.Validate(/*num_items=*/1),
                                     {{"HamcmcOptions.gamma", "hamcmc_gamma"},
                                      {"HamcmcOptions.damping", "hamcmc_damping"},
                                      {"HamcmcOptions.warmup_step", "hamcmc_warmup_step"}});
          !s.ok()) {
        return s;
      }
    }
  }
  if (record_every < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("record_every must be >= 1, got ", record_every));
  }
  if (checkpoint_dir.empty()) {
    const char* needs_dir = resume               ? "resume"
                            : stop_after > 0     ? "stop_after"
                            : checkpoint_every > 0 ? "checkpoint_every"
                                                   : nullptr;
    if (needs_dir != nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(needs_dir, " needs a checkpoint_dir"));
    }
  }
  if (checkpoint_every < 0 || stop_after < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "checkpoint_every and stop_after must be >= 0, got ", checkpoint_every, " and ",
        stop_after));
  }
  return absl::OkStatus();
}

std::string MatrixFactorizationCheckpointPath(const std::string& directory,
                                              models::MfMethod method, int rank,
                                              int num_ranks) {
  return absl::StrCat(directory, "/checkpoint_", models::MfMethodName(method), "_rank", rank,
                      "_of", num_ranks, ".pb");
}

namespace {

// The kind of this tool's checkpoint files (tools/checkpoint_file.h).
constexpr absl::string_view kCheckpointKind = "matrix_factorization";

using Clock = std::chrono::steady_clock;

// Everything a checkpoint must agree with (the data by its shape and first and last rating).
// With center_ratings the (centred) ratings and mu are part of it; without, it is as it
// was before the option existed, so older checkpoints still resume.
std::string Fingerprint(const MatrixFactorizationExperimentOptions& o,
                        const data::RatingSplit& split, const models::MfRunOptions& run,
                        double rating_offset) {
  const data::Rating& first = split.train.ratings.front();
  const data::Rating& last = split.train.ratings.back();
  const std::string centring =
      o.center_ratings ? absl::StrFormat(" center_ratings mu=%.17g", rating_offset) : "";
  return absl::StrFormat(
      "ratings=%s synthetic=%dx%d@%.17g test_fraction=%.17g K=%d sigmas=%.17g,%.17g,%.17g "
      "P=%d method=%s step=%.17g psgld=%.17g,%.17g hamcmc=%.17g,%.17g,%.17g,%d,%s init=%.17g "
      "iterations=%d burn_in=%d record_every=%d seed=%d train=%d test=%d "
      "first=%d,%d,%.9g last=%d,%d,%.9g%s",
      o.ratings_path, o.synthetic_rows, o.synthetic_cols, o.synthetic_density, o.test_fraction,
      o.model.rank, o.model.sigma_w, o.model.sigma_h, o.model.sigma_x, o.model.num_blocks,
      models::MfMethodName(run.method), run.step_size, run.psgld_alpha, run.psgld_lambda,
      run.hamcmc_gamma, run.hamcmc_damping, run.hamcmc_warmup_step,
      static_cast<int>(run.hamcmc_block_memory),
      models::MfInitialMetricName(run.hamcmc_initial_metric), run.init_scale,
      run.iterations, run.burn_in, o.record_every, run.seed, split.train.ratings.size(),
      split.test.ratings.size(), first.row, first.col, first.value, last.row, last.col,
      last.value, centring);
}

// A checkpoint of `method` in `directory` written by another rank count ("" if none; the
// first in name order).
std::string OtherRankCountCheckpoint(const std::string& directory, models::MfMethod method,
                                     int num_ranks) {
  const std::string prefix = absl::StrCat("checkpoint_", models::MfMethodName(method), "_rank");
  const std::string own = absl::StrCat("_of", num_ranks, ".pb");
  std::string found;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    const std::string name = entry.path().filename().string();
    if (absl::StartsWith(name, prefix) && absl::EndsWith(name, ".pb") &&
        !absl::EndsWith(name, own) && (found.empty() || entry.path().string() < found)) {
      found = entry.path().string();
    }
  }
  return found;
}

// Restores `chain` and the trace from this rank's checkpoint when every rank has one;
// collective. FailedPrecondition when only checkpoints of another rank count exist
// (`other_rank_count`, one of them, or "").
// The tool's own part of a checkpoint (the chain checks the rest): trace records at strictly
// increasing iterations in [1, the chain's iteration] with finite, non-negative,
// non-decreasing seconds, and finite, non-negative sampler seconds. (RMSEs are kept as
// recorded: the running average's is NaN during burn-in.)
absl::Status CheckRunRecord(const models::MfChainState& state) {
  if (!(std::isfinite(state.sampler_seconds()) && state.sampler_seconds() >= 0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "sampler_seconds must be finite and >= 0, got ", state.sampler_seconds()));
  }
  int64_t last_iteration = 0;
  double last_seconds = 0;
  for (int i = 0; i < state.trace_size(); ++i) {
    const models::MfTraceRecord& r = state.trace(i);
    if (r.iteration() <= last_iteration || r.iteration() > state.iteration()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "trace[", i, "].iteration is ", r.iteration(), ", expected in (", last_iteration,
          ", ", state.iteration(), "]"));
    }
    if (!(std::isfinite(r.seconds()) && r.seconds() >= last_seconds)) {
      return absl::InvalidArgumentError(absl::StrCat("trace[", i, "].seconds is ", r.seconds(),
                                                     ", expected finite and >= ",
                                                     last_seconds));
    }
    last_iteration = r.iteration();
    last_seconds = r.seconds();
  }
  return absl::OkStatus();
}

absl::Status MaybeResume(const std::string& path, const std::string& other_rank_count,
                         const std::string& fingerprint, parallel::Communicator& comm,
                         models::DistributedMfChain& chain,
                         std::vector<models::MfTracePoint>& trace, double& seconds) {
  std::vector<double> present = {std::filesystem::exists(path) ? 1.0 : 0.0};
  if (absl::Status s = comm.AllReduceSum(absl::MakeSpan(present)); !s.ok()) return s;
  if (present[0] == 0) {
    absl::Status local;
    if (!other_rank_count.empty()) {
      local = absl::FailedPreconditionError(absl::StrCat(
          "no checkpoint ", path, " for ", comm.size(), " rank(s), but ", other_rank_count,
          " was written by another rank count; resume with that count or use another "
          "checkpoint directory"));
    }
    return comm.AgreeOnStatus(local);
  }
  absl::Status local;
  if (present[0] != comm.size()) {
    local = absl::FailedPreconditionError(absl::StrCat(
        "only ", present[0], " of ", comm.size(), " ranks have a checkpoint like ", path));
  }
  models::MfChainState state;
  if (local.ok()) {
    absl::StatusOr<std::string> bytes = ReadCheckpoint(path, kCheckpointKind);
    if (!bytes.ok()) {
      local = bytes.status();
    } else if (bytes->empty()) {
      local = absl::DataLossError(absl::StrCat(path, ": empty checkpoint file"));
    } else if (!state.ParseFromString(*bytes)) {
      local = absl::DataLossError(absl::StrCat(path, ": not an MfChainState"));
    } else if (state.options_fingerprint() != fingerprint) {
      local = absl::FailedPreconditionError(
          absl::StrCat(path, ": written with other options or data; checkpoint: ",
                       state.options_fingerprint(), "; this run: ", fingerprint));
    } else {
      local = chain.RestoreState(state);
      if (local.ok()) local = CheckRunRecord(state);
      if (!local.ok()) local = absl::Status(local.code(), absl::StrCat(path, ": ", local.message()));
    }
  }
  if (absl::Status agreed = comm.AgreeOnStatus(local); !agreed.ok()) return agreed;
  // Each rank writes its own file, so a rank that died between two ranks' writes leaves files
  // of different iterations, each whole and checksummed: refuse the set, never mix it.
  std::vector<double> iterations(comm.size(), 0.0);
  iterations[comm.rank()] = static_cast<double>(chain.iteration());
  if (absl::Status s = comm.AllReduceSum(absl::MakeSpan(iterations)); !s.ok()) return s;
  if (std::adjacent_find(iterations.begin(), iterations.end(), std::not_equal_to<>()) !=
      iterations.end()) {
    std::string listed;
    for (int r = 0; r < comm.size(); ++r) {
      absl::StrAppend(&listed, r == 0 ? "" : ", ", "rank ", r, " at iteration ",
                      static_cast<int64_t>(iterations[r]));
    }
    return absl::FailedPreconditionError(absl::StrCat(
        "the checkpoints like ", path, " are of different iterations (", listed,
        "): a rank stopped between two ranks' checkpoint writes; resume from a whole set or "
        "start over"));
  }
  trace.clear();
  for (const models::MfTraceRecord& r : state.trace()) {
    trace.push_back({r.iteration(), r.seconds(), r.sample_rmse(), r.average_rmse()});
  }
  seconds = state.sampler_seconds();
  return absl::OkStatus();
}

absl::Status SaveCheckpoint(const std::string& path, const std::string& fingerprint,
                            const models::DistributedMfChain& chain,
                            const std::vector<models::MfTracePoint>& trace, double seconds) {
  models::MfChainState state = chain.SaveState();
  for (const models::MfTracePoint& p : trace) {
    models::MfTraceRecord& r = *state.add_trace();
    r.set_iteration(p.iteration);
    r.set_seconds(p.seconds);
    r.set_sample_rmse(p.sample_rmse);
    r.set_average_rmse(p.average_rmse);
  }
  state.set_sampler_seconds(seconds);
  state.set_options_fingerprint(fingerprint);
  // Atomic and checksummed: a whole checkpoint, whose damage a resume detects.
  return WriteCheckpoint(path, kCheckpointKind, state.SerializeAsString());
}

// One method's chain on this rank; collective. Returns the trace (partial if stopped).
absl::StatusOr<std::vector<models::MfTracePoint>> RunChain(
    const MatrixFactorizationExperimentOptions& options, const data::RatingSplit& split,
    const models::MfRunOptions& run, double rating_offset, parallel::Communicator& comm,
    double& seconds, int& completed, std::string& diverged) {
  absl::StatusOr<std::unique_ptr<models::DistributedMfChain>> created =
      models::DistributedMfChain::Create(split.train, split.test, options.model, run, comm);
  if (!created.ok()) return created.status();
  models::DistributedMfChain& chain = **created;
  std::vector<models::MfTracePoint> trace;
  seconds = 0;
  std::ostream* const progress = comm.rank() == 0 ? options.progress : nullptr;
  const std::string fingerprint = Fingerprint(options, split, run, rating_offset);
  std::string path;
  if (!options.checkpoint_dir.empty()) {
    absl::Status made = CreateOutputDirectory(options.checkpoint_dir, "checkpoint directory");
    if (absl::Status agreed = comm.AgreeOnStatus(made); !agreed.ok()) return agreed;
    path = MatrixFactorizationCheckpointPath(options.checkpoint_dir, run.method, comm.rank(),
                                             comm.size());
    if (options.resume) {
      const std::string other =
          OtherRankCountCheckpoint(options.checkpoint_dir, run.method, comm.size());
      if (absl::Status s = MaybeResume(path, other, fingerprint, comm, chain, trace, seconds);
          !s.ok()) {
        return s;
      }
      if (progress != nullptr && chain.iteration() > 0) {
        *progress << absl::StrFormat("[%s] resumed from %s at iteration %d\n",
                                     models::MfMethodName(run.method), path, chain.iteration())
                  << std::flush;
      }
    }
  }
  auto save = [&]() -> absl::Status {
    if (path.empty()) return absl::OkStatus();
    return comm.AgreeOnStatus(SaveCheckpoint(path, fingerprint, chain, trace, seconds));
  };
  // A communicator error inside the chain concerns this rank alone: fail the rank, so that
  // the others' collectives return an error (threads) or the job ends (MPI), never a hang.
  auto fail = [&](const absl::Status& status) {
    comm.Fail(status);
    return status;
  };
  const int end = options.stop_after > 0 ? std::min(run.iterations, options.stop_after)
                                         : run.iterations;
  for (int t = static_cast<int>(chain.iteration()) + 1; t <= end; ++t) {
    const Clock::time_point start = Clock::now();
    if (absl::Status s = chain.Step(); !s.ok()) return fail(s);
    seconds += std::chrono::duration<double>(Clock::now() - start).count();
    if (t > run.burn_in) {
      if (absl::Status s = chain.AddToAverage(); !s.ok()) return fail(s);
    }
    if (t % options.record_every == 0 || t == run.iterations) {
      absl::StatusOr<models::MfEvaluation> e = chain.Evaluate();
      if (!e.ok()) return fail(e.status());
      models::MfTracePoint point;
      point.iteration = t;
      point.seconds = seconds;
      point.sample_rmse = e->sample_rmse;
      point.average_rmse = t > run.burn_in ? e->average_rmse
                                           : std::numeric_limits<double>::quiet_NaN();
      // The RMSEs are reduced over the ranks: every rank sees the divergence and stops here
      // (no checkpoint: a resume would diverge again).
      if (!std::isfinite(point.sample_rmse) ||
          (t > run.burn_in && !std::isfinite(point.average_rmse))) {
        diverged = absl::StrCat("diverged at iteration ", t, " (test RMSE ", point.sample_rmse,
                                ")");
        if (progress != nullptr) {
          *progress << absl::StrFormat("[%s] %s\n", models::MfMethodName(run.method), diverged)
                    << std::flush;
        }
        completed = t;
        return trace;
      }
      trace.push_back(point);
      // About ten progress lines per method: the records that cross a tenth of the run.
      const int tenth = std::max(1, run.iterations / 10);
      if (progress != nullptr &&
          (t / tenth != (t - options.record_every) / tenth || t == run.iterations)) {
        *progress << absl::StrFormat(
                         "[%s] iteration %d/%d, %.1fs sampling, test RMSE %.4f%s\n",
                         models::MfMethodName(run.method), t, run.iterations, seconds,
                         point.sample_rmse,
                         t > run.burn_in ? absl::StrFormat(" (averaged %.4f)", point.average_rmse)
                                         : std::string(" (burn-in)"))
                  << std::flush;
      }
    }
    if (options.checkpoint_every > 0 && t % options.checkpoint_every == 0 && t < end) {
      if (absl::Status s = save(); !s.ok()) return s;
    }
  }
  if (absl::Status s = save(); !s.ok()) return s;
  completed = static_cast<int>(chain.iteration());
  return trace;
}

// Subtracts the training ratings' mean from the training and test ratings and returns it.
// The same on every rank: each rank holds the whole split, summed in the same order.
double CenterRatings(data::RatingSplit& split) {
  double sum = 0;
  for (const data::Rating& r : split.train.ratings) sum += r.value;
  const double mu =
      split.train.ratings.empty() ? 0 : sum / static_cast<double>(split.train.ratings.size());
  for (std::vector<data::Rating>* ratings : {&split.train.ratings, &split.test.ratings}) {
    for (data::Rating& r : *ratings) r.value = static_cast<float>(r.value - mu);
  }
  return mu;
}

}  // namespace

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
  if (absl::Status s = CheckMatrixFactorizationRank(options.model.rank, all.num_rows,
                                                    all.num_cols);
      !s.ok()) {
    return s;
  }
  rng::Engine split_engine(options.seed, data::kSplitStream);
  absl::StatusOr<data::RatingSplit> split =
      data::SplitRatings(all, options.test_fraction, split_engine);
  if (!split.ok()) return split.status();
  result.num_rows = all.num_rows;
  result.num_cols = all.num_cols;
  result.num_train = static_cast<int64_t>(split->train.ratings.size());
  result.num_test = static_cast<int64_t>(split->test.ratings.size());
  result.iterations = options.iterations;
  result.burn_in = options.burn_in;
  if (options.center_ratings) {
    result.ratings_centered = true;
    result.rating_offset = CenterRatings(*split);
  }
  for (models::MfMethod method : options.methods) {
    const models::MfRunOptions run = RunOptions(options, method);
    double seconds = 0;
    int completed = 0;
    std::string diverged;
    absl::StatusOr<std::vector<models::MfTracePoint>> trace = RunChain(
        options, *split, run, result.rating_offset, comm, seconds, completed, diverged);
    if (!trace.ok()) return trace.status();
    if (diverged.empty() && completed < options.iterations) {
      result.stopped = true;
      continue;
    }
    MatrixFactorizationMethodResult m;
    m.method = method;
    m.trace = std::move(*trace);
    m.diverged = std::move(diverged);
    // Each iteration processes one subset, |Omega_s| ~ N / P on average; HAMCMC evaluates
    // two gradients per iteration but the count is of ratings sampled, as in the paper.
    const double ratings = static_cast<double>(options.iterations) *
                           static_cast<double>(result.num_train) / options.model.num_blocks;
    m.ratings_per_second_per_rank = seconds > 0 ? ratings / seconds / comm.size() : 0;
    result.methods.push_back(std::move(m));
  }
  if (result.stopped) result.methods.clear();
  return result;
}

std::string MatrixFactorizationTraceCsv(const MatrixFactorizationResult& result) {
  std::string csv = "method,iteration,seconds,sample_rmse,average_rmse\n";
  for (const MatrixFactorizationMethodResult& m : result.methods) {
    if (!m.diverged.empty()) continue;
    for (const models::MfTracePoint& p : m.trace) {
      // No averaged prediction yet (burn-in): an empty field, not "nan".
      absl::StrAppendFormat(
          &csv, "%s,%d,%.6f,%.6f,%s\n", models::MfMethodName(m.method), p.iteration, p.seconds,
          p.sample_rmse,
          std::isnan(p.average_rmse) ? "" : absl::StrFormat("%.6f", p.average_rmse));
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
  if (result.ratings_centered) {
    absl::StrAppendFormat(&out, "centred ratings: training mean %.4f added to every prediction\n",
                          result.rating_offset);
  }
  if (result.stopped) absl::StrAppend(&out, "stopped (stop_after); checkpoints written\n");
  for (const MatrixFactorizationMethodResult& m : result.methods) {
    if (!m.diverged.empty()) {
      absl::StrAppendFormat(&out, "%-7s DIVERGED: %s, after %.2f s; not in rmse.csv\n",
                            models::MfMethodName(m.method), m.diverged,
                            m.trace.empty() ? 0.0 : m.trace.back().seconds);
      continue;
    }
    const models::MfTracePoint& last = m.trace.back();
    // NaN only when every iteration was burn-in (a finite average is checked in RunChain).
    const std::string rmse =
        std::isnan(last.average_rmse)
            ? absl::StrFormat("no averaged prediction: burn-in %d >= iterations %d, last "
                              "sample's test RMSE %.4f",
                              result.burn_in, result.iterations, last.sample_rmse)
            : absl::StrFormat("final averaged test RMSE %.4f", last.average_rmse);
    absl::StrAppendFormat(&out, "%-7s %s after %d iterations, %.2f s, %.3g ratings/s per rank\n",
                          models::MfMethodName(m.method), rmse, last.iteration, last.seconds,
                          m.ratings_per_second_per_rank);
  }
  return out;
}

}  // namespace sgmcmc::tools
