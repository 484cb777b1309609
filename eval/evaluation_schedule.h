// EvaluationSchedule: the evaluation protocol of an LDA training run (docs/ALGORITHMS.md,
// "Evaluation protocol shared by all LDA samplers"; Patterson & Teh 2013, §5.1): the
// document-completion perplexity (eval/perplexity.h) after every `eval_every` iterations and
// after the last, each evaluation discarding the first half of its Gibbs sweeps, and the
// running mean of p_dw (eq. 14) over the evaluations after `burn_in` iterations.
//
// Burn-in rule: an evaluation restarts the running mean when the previous one was made
// before `burn_in` iterations (or there was none). So before burn-in each evaluation stands
// alone, and from the first evaluation at an iteration >= burn_in on the running mean is over
// exactly the evaluations at iterations >= burn_in.
//
// EvaluationCadence is the schedule and the burn-in rule alone, without an evaluator: the part
// of the protocol runs share whose evaluator is not the document-completion perplexity (the DP
// mixture's held-out log predictive, tools/dp_mixture_run.h, keeps its own running mean and
// restarts it when BeginEvaluation says so). EvaluationSchedule is a cadence plus the
// perplexity evaluator.
//
// Cost: that of the evaluations (eval/perplexity.h); the schedule itself is O(1).
//
// Example:
//   EvaluationScheduleOptions options;
//   options.iterations = 1000;  // eval_every 50, burn_in 500 by default
//   SGMCMC_ASSIGN_OR_RETURN(EvaluationSchedule schedule,
//                           EvaluationSchedule::Create(split.test, options));
//   for (int64_t m = 1; m <= 1000; ++m) {
//     ... one training iteration ...
//     if (schedule.IsDue(m)) schedule.Evaluate(m, topics, &pool);
//   }
#ifndef SGMCMC_EVAL_EVALUATION_SCHEDULE_H_
#define SGMCMC_EVAL_EVALUATION_SCHEDULE_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "data/split.h"
#include "eval/evaluation_schedule_state.pb.h"
#include "eval/perplexity.h"
#include "parallel/thread_pool.h"

namespace sgmcmc::eval {

// Gibbs sweeps per test document per evaluation when a run does not say.
inline constexpr int kDefaultEvalSweeps = 20;

// The protocol's defaults: an evaluation every 5% of the iterations (at least every
// iteration), burn-in half of the iterations.
int64_t DefaultEvalEvery(int64_t iterations);
int64_t DefaultBurnIn(int64_t iterations);

// The evaluator of the protocol: `eval_sweeps` (>= 1) Gibbs sweeps per test document, the
// first half (eval_sweeps / 2) discarded.
PerplexityOptions ProtocolPerplexityOptions(int num_topics, double alpha, int eval_sweeps,
                                            uint64_t seed);

struct EvaluationScheduleOptions {
  // Training iterations (or sweeps) of the run; >= 1. Default 1000.
  int64_t iterations = 1000;
  // Evaluate after every this many iterations, and after the last; >= 1, or 0 for
  // DefaultEvalEvery(iterations). Default 0.
  int64_t eval_every = 0;
  // Evaluations at fewer iterations than this do not enter the running mean; >= 0, or -1 for
  // DefaultBurnIn(iterations). Default -1.
  int64_t burn_in = -1;
  // Gibbs sweeps per test document per evaluation, the first half discarded; >= 2.
  // Default kDefaultEvalSweeps.
  int eval_sweeps = kDefaultEvalSweeps;
  // Of the model evaluated: number of topics K (>= 1) and document-topic Dirichlet α
  // (finite, > 0). Defaults 50 and 0.1.
  int num_topics = 50;
  double alpha = 0.1;
  // Seed of the evaluator's per-document streams. Default 1.
  uint64_t seed = 1;

  // OK, or InvalidArgument naming the first field out of range.
  absl::Status Validate() const;
};

class EvaluationCadence {
 public:
  // iterations >= 1, eval_every >= 1, burn_in >= 0; InvalidArgument naming the argument.
  static absl::StatusOr<EvaluationCadence> Create(int64_t iterations, int64_t eval_every,
                                                  int64_t burn_in);

  // Whether a run evaluates after `iteration` completed iterations: a multiple of eval_every,
  // or the last.
  bool IsDue(int64_t iteration) const {
    return iteration % eval_every_ == 0 || iteration == iterations_;
  }

  // Records an evaluation after `iteration` completed iterations, after the previous
  // evaluation's (checked). Returns whether the running mean restarts before this evaluation
  // enters it (the burn-in rule above: the previous evaluation, if any, was made before
  // burn_in iterations).
  bool BeginEvaluation(int64_t iteration);

  // Iterations completed at the last evaluation; -1 before the first.
  int64_t last_iteration() const { return last_iteration_; }
  int64_t iterations() const { return iterations_; }
  int64_t eval_every() const { return eval_every_; }
  int64_t burn_in() const { return burn_in_; }

  // For checkpoints: a cadence made with the same arguments continues identically after
  // RestoreState(GetState()).
  EvaluationCadenceState GetState() const;
  // `completed_iterations` is where the restored run's sampler stands: the evaluations cannot
  // be ahead of it (the next BeginEvaluation CHECKs its order). InvalidArgument naming the
  // field if last_iteration is below -1 or above min(iterations(), completed_iterations).
  absl::Status RestoreState(const EvaluationCadenceState& state, int64_t completed_iterations);

 private:
  EvaluationCadence(int64_t iterations, int64_t eval_every, int64_t burn_in)
      : iterations_(iterations), eval_every_(eval_every), burn_in_(burn_in) {}

  int64_t iterations_;
  int64_t eval_every_;
  int64_t burn_in_;
  int64_t last_iteration_ = -1;
};

class EvaluationSchedule {
 public:
  // Evaluates on the test documents `test` (copied). InvalidArgument naming the field if
  // options.Validate() fails or the split is inconsistent (DocumentCompletionPerplexity).
  static absl::StatusOr<EvaluationSchedule> Create(const data::DocumentCompletionSplit& test,
                                                   const EvaluationScheduleOptions& options);

  // Whether a run evaluates after `iteration` completed iterations: a multiple of eval_every,
  // or the last.
  bool IsDue(int64_t iteration) const { return cadence_.IsDue(iteration); }

  // Evaluates topics φ (K x V, as DocumentCompletionPerplexity::Evaluate) after `iteration`
  // completed iterations, after the previous evaluation's (checked), restarting the running
  // mean first by the burn-in rule above. Returns the running perplexity. `pool` may be null.
  double Evaluate(int64_t iteration, absl::Span<const double> topics,
                  parallel::ThreadPool* pool = nullptr);

  // Iterations completed at the last evaluation; -1 before the first.
  int64_t last_iteration() const { return cadence_.last_iteration(); }
  // The running perplexity, the last evaluation's alone, and the evaluator's other outputs.
  const DocumentCompletionPerplexity& perplexity() const { return perplexity_; }
  int64_t eval_every() const { return cadence_.eval_every(); }
  int64_t burn_in() const { return cadence_.burn_in(); }

  // For checkpoints: a schedule made from the same split and options continues
  // bit-identically after RestoreState(GetState()).
  EvaluationScheduleState GetState() const;
  // InvalidArgument naming the field if the state does not fit this split and options, or its
  // last_iteration is above `completed_iterations` (EvaluationCadence::RestoreState).
  absl::Status RestoreState(const EvaluationScheduleState& state, int64_t completed_iterations);

 private:
  EvaluationSchedule(DocumentCompletionPerplexity perplexity, EvaluationCadence cadence);

  DocumentCompletionPerplexity perplexity_;
  EvaluationCadence cadence_;
};

}  // namespace sgmcmc::eval

#endif  // SGMCMC_EVAL_EVALUATION_SCHEDULE_H_
