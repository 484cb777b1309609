#include "eval/evaluation_schedule.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/check.h"

namespace sgmcmc::eval {

int64_t DefaultEvalEvery(int64_t iterations) { return std::max<int64_t>(1, iterations / 20); }

int64_t DefaultBurnIn(int64_t iterations) { return iterations / 2; }

PerplexityOptions ProtocolPerplexityOptions(int num_topics, double alpha, int eval_sweeps,
                                            uint64_t seed) {
  PerplexityOptions options;
  options.num_topics = num_topics;
  options.alpha = alpha;
  options.num_sweeps = eval_sweeps;
  options.burn_in = eval_sweeps / 2;
  options.seed = seed;
  return options;
}

absl::Status EvaluationScheduleOptions::Validate() const {
  auto error = [](auto&&... parts) {
    return absl::InvalidArgumentError(absl::StrCat("EvaluationScheduleOptions.", parts...));
  };
  if (iterations < 1) return error("iterations must be >= 1, got ", iterations);
  if (eval_every < 0) return error("eval_every must be >= 1 (or 0: default), got ", eval_every);
  if (burn_in < -1) return error("burn_in must be >= 0 (or -1: default), got ", burn_in);
  if (eval_sweeps < 2) return error("eval_sweeps must be >= 2, got ", eval_sweeps);
  if (num_topics < 1) return error("num_topics must be >= 1, got ", num_topics);
  if (!(alpha > 0) || !std::isfinite(alpha)) {
    return error("alpha must be finite and > 0, got ", alpha);
  }
  return absl::OkStatus();
}

absl::StatusOr<EvaluationCadence> EvaluationCadence::Create(int64_t iterations, int64_t eval_every,
                                                            int64_t burn_in) {
  auto error = [](auto&&... parts) {
    return absl::InvalidArgumentError(absl::StrCat("EvaluationCadence::Create: ", parts...));
  };
  if (iterations < 1) return error("iterations must be >= 1, got ", iterations);
  if (eval_every < 1) return error("eval_every must be >= 1, got ", eval_every);
  if (burn_in < 0) return error("burn_in must be >= 0, got ", burn_in);
  return EvaluationCadence(iterations, eval_every, burn_in);
}

bool EvaluationCadence::BeginEvaluation(int64_t iteration) {
  SGMCMC_CHECK(iteration > last_iteration_)
      << "EvaluationCadence::BeginEvaluation: iteration " << iteration
      << " is not after the last evaluation's, " << last_iteration_;
  const bool restart = last_iteration_ < burn_in_;
  last_iteration_ = iteration;
  return restart;
}

EvaluationCadenceState EvaluationCadence::GetState() const {
  EvaluationCadenceState state;
  state.set_last_iteration(last_iteration_);
  return state;
}

absl::Status EvaluationCadence::RestoreState(const EvaluationCadenceState& state,
                                             int64_t completed_iterations) {
  if (state.last_iteration() < -1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "EvaluationCadenceState.last_iteration must be >= -1, got ", state.last_iteration()));
  }
  // Found by //fuzz:dp_checkpoint_fuzzer: a cadence ahead of the sampler crashed the next
  // BeginEvaluation's order check instead of refusing the checkpoint.
  if (state.last_iteration() > std::min(iterations_, completed_iterations)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "EvaluationCadenceState.last_iteration ", state.last_iteration(),
        " is past the run's iterations completed (", completed_iterations, ") or its total (",
        iterations_, ")"));
  }
  last_iteration_ = state.last_iteration();
  return absl::OkStatus();
}

absl::StatusOr<EvaluationSchedule> EvaluationSchedule::Create(
    const data::DocumentCompletionSplit& test, const EvaluationScheduleOptions& options) {
  if (absl::Status s = options.Validate(); !s.ok()) return s;
  absl::StatusOr<DocumentCompletionPerplexity> perplexity = DocumentCompletionPerplexity::Create(
      test, ProtocolPerplexityOptions(options.num_topics, options.alpha, options.eval_sweeps,
                                      options.seed));
  if (!perplexity.ok()) return perplexity.status();
  absl::StatusOr<EvaluationCadence> cadence = EvaluationCadence::Create(
      options.iterations,
      options.eval_every > 0 ? options.eval_every : DefaultEvalEvery(options.iterations),
      options.burn_in >= 0 ? options.burn_in : DefaultBurnIn(options.iterations));
  if (!cadence.ok()) return cadence.status();
  return EvaluationSchedule(*std::move(perplexity), *std::move(cadence));
}

EvaluationSchedule::EvaluationSchedule(DocumentCompletionPerplexity perplexity,
                                       EvaluationCadence cadence)
    : perplexity_(std::move(perplexity)), cadence_(std::move(cadence)) {}

double EvaluationSchedule::Evaluate(int64_t iteration, absl::Span<const double> topics,
                                    parallel::ThreadPool* pool) {
  if (cadence_.BeginEvaluation(iteration)) perplexity_.ResetRunningMean();
  return perplexity_.Evaluate(topics, pool);
}

EvaluationScheduleState EvaluationSchedule::GetState() const {
  EvaluationScheduleState state;
  *state.mutable_perplexity() = perplexity_.GetState();
  state.set_last_iteration(cadence_.last_iteration());
  return state;
}

absl::Status EvaluationSchedule::RestoreState(const EvaluationScheduleState& state,
                                              int64_t completed_iterations) {
  if (state.last_iteration() < -1) {
    return absl::InvalidArgumentError(
        absl::StrCat("EvaluationSchedule::RestoreState: last_iteration must be >= -1, got ",
                     state.last_iteration()));
  }
  EvaluationCadenceState cadence;
  cadence.set_last_iteration(state.last_iteration());
  EvaluationCadence restored = cadence_;
  if (absl::Status s = restored.RestoreState(cadence, completed_iterations); !s.ok()) return s;
  if (absl::Status s = perplexity_.RestoreState(state.perplexity()); !s.ok()) return s;
  cadence_ = restored;
  return absl::OkStatus();
}

}  // namespace sgmcmc::eval
