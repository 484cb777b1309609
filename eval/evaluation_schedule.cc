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

absl::StatusOr<EvaluationSchedule> EvaluationSchedule::Create(
    const data::DocumentCompletionSplit& test, const EvaluationScheduleOptions& options) {
  if (absl::Status s = options.Validate(); !s.ok()) return s;
  absl::StatusOr<DocumentCompletionPerplexity> perplexity = DocumentCompletionPerplexity::Create(
      test, ProtocolPerplexityOptions(options.num_topics, options.alpha, options.eval_sweeps,
                                      options.seed));
  if (!perplexity.ok()) return perplexity.status();
  return EvaluationSchedule(
      *std::move(perplexity), options.iterations,
      options.eval_every > 0 ? options.eval_every : DefaultEvalEvery(options.iterations),
      options.burn_in >= 0 ? options.burn_in : DefaultBurnIn(options.iterations));
}

EvaluationSchedule::EvaluationSchedule(DocumentCompletionPerplexity perplexity, int64_t iterations,
                                       int64_t eval_every, int64_t burn_in)
    : perplexity_(std::move(perplexity)),
      iterations_(iterations),
      eval_every_(eval_every),
      burn_in_(burn_in) {}

double EvaluationSchedule::Evaluate(int64_t iteration, absl::Span<const double> topics,
                                    parallel::ThreadPool* pool) {
  SGMCMC_CHECK(iteration > last_iteration_)
      << "EvaluationSchedule::Evaluate: iteration " << iteration
      << " is not after the last evaluation's, " << last_iteration_;
  if (last_iteration_ < burn_in_) perplexity_.ResetRunningMean();
  last_iteration_ = iteration;
  return perplexity_.Evaluate(topics, pool);
}

EvaluationScheduleState EvaluationSchedule::GetState() const {
  EvaluationScheduleState state;
  *state.mutable_perplexity() = perplexity_.GetState();
  state.set_last_iteration(last_iteration_);
  return state;
}

absl::Status EvaluationSchedule::RestoreState(const EvaluationScheduleState& state) {
  if (state.last_iteration() < -1) {
    return absl::InvalidArgumentError(
        absl::StrCat("EvaluationSchedule::RestoreState: last_iteration must be >= -1, got ",
                     state.last_iteration()));
  }
  if (absl::Status s = perplexity_.RestoreState(state.perplexity()); !s.ok()) return s;
  last_iteration_ = state.last_iteration();
  return absl::OkStatus();
}

}  // namespace sgmcmc::eval
