// Fuzz target: the payload of the lda tool's checkpoint (tools/lda_checkpoint.proto, inside
// the frame of tools/checkpoint_file.h), restored the way tools/lda_run.cc resumes: the
// sampler state into models::Lda (Lda::Restore) and the evaluations into
// eval::EvaluationSchedule (RestoreState), both made for a small fixed corpus and options.
// Contract: a payload that does not parse is refused (the tool's DataLoss); a restore either
// fails with InvalidArgument (the tool stops with it), or takes the state exactly
// (State()/GetState() give it back) and leaves a run that continues as the tool continues it:
// steps whose topics stay finite rows on the simplex, and evaluations after the restored
// schedule's last one (Evaluate CHECKs that order).
//
// SGMCMC_FUZZ_WRITE_SEED=path: also writes a valid payload (3 iterations) to `path` (how
// fuzz/corpus/lda_checkpoint/valid was made).
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "base/check.h"
#include "data/corpus.h"
#include "data/split.h"
#include "eval/evaluation_schedule.h"
#include "fuzz/fuzz_support.h"
#include "models/lda/lda.h"
#include "tools/lda_checkpoint.pb.h"

namespace sgmcmc::fuzz {
namespace {

constexpr int64_t kIterations = 6;

struct Fixture {
  data::Corpus train;
  data::DocumentCompletionSplit test;
  models::LdaOptions options;
  eval::EvaluationScheduleOptions eval_options;
};

const Fixture& GetFixture() {
  static const Fixture* fixture = [] {
    auto* f = new Fixture;
    f->train.vocabulary = {"a", "b", "c", "d", "e"};
    f->train.AddDocument({0, 1, 1, 2});
    f->train.AddDocument({3, 4, 4});
    f->train.AddDocument({0, 2, 4, 1, 3});
    data::Corpus test;
    test.vocabulary = f->train.vocabulary;
    test.AddDocument({0, 1, 2, 3, 4, 0});
    test.AddDocument({4, 4, 3, 1});
    f->test = data::SplitForDocumentCompletion(test, 2);
    f->options = models::LdaPresetOptions(models::LdaPreset::kScirFast);
    f->options.num_topics = 2;
    f->options.minibatch_size = 2;
    f->options.gibbs_sweeps = 2;
    f->eval_options.iterations = kIterations;
    f->eval_options.eval_every = 2;
    f->eval_options.burn_in = 2;
    f->eval_options.eval_sweeps = 2;
    f->eval_options.num_topics = f->options.num_topics;
    return f;
  }();
  return *fixture;
}

models::Lda MakeLda() {
  absl::StatusOr<models::Lda> lda = models::Lda::Create(GetFixture().train, GetFixture().options,
                                                        /*pool=*/nullptr);
  SGMCMC_CHECK(lda.ok()) << lda.status();
  return std::move(*lda);
}

eval::EvaluationSchedule MakeSchedule() {
  absl::StatusOr<eval::EvaluationSchedule> schedule =
      eval::EvaluationSchedule::Create(GetFixture().test, GetFixture().eval_options);
  SGMCMC_CHECK(schedule.ok()) << schedule.status();
  return std::move(*schedule);
}

std::vector<double> CheckedTopics(const models::Lda& lda) {
  std::vector<double> topics(static_cast<size_t>(lda.num_topics()) * lda.vocabulary_size());
  lda.Topics(absl::MakeSpan(topics));
  for (int k = 0; k < lda.num_topics(); ++k) {
    double sum = 0;
    for (int w = 0; w < lda.vocabulary_size(); ++w) {
      const double p = topics[static_cast<size_t>(k) * lda.vocabulary_size() + w];
      SGMCMC_CHECK(std::isfinite(p) && p >= 0) << p;
      sum += p;
    }
    SGMCMC_CHECK_LE(std::abs(sum - 1), 1e-9) << "topic " << k;
  }
  return topics;
}

// The tool's loop (tools/lda_run.cc RunTrainer) from the restored position, a few steps.
void Continue(models::Lda& lda, eval::EvaluationSchedule& schedule) {
  for (int step = 0; step < 3 && lda.iteration() < kIterations; ++step) {
    lda.Step();
    const std::vector<double> topics = CheckedTopics(lda);
    if (schedule.IsDue(lda.iteration())) {
      SGMCMC_CHECK_GT(lda.iteration(), schedule.last_iteration())
          << "a restored schedule has evaluated past the restored sampler";
      const double perplexity = schedule.Evaluate(lda.iteration(), topics);
      SGMCMC_CHECK(std::isfinite(perplexity) && perplexity > 0) << perplexity;
    }
  }
}

void MaybeWriteSeed() {
  static bool done = false;
  const char* path = std::getenv("SGMCMC_FUZZ_WRITE_SEED");
  if (done || path == nullptr) return;
  done = true;
  models::Lda lda = MakeLda();
  eval::EvaluationSchedule schedule = MakeSchedule();
  for (int m = 1; m <= 3; ++m) {
    lda.Step();
    if (schedule.IsDue(m)) schedule.Evaluate(m, CheckedTopics(lda));
  }
  tools::LdaCheckpoint checkpoint;
  checkpoint.set_settings("fuzz");
  checkpoint.set_run_name("fuzz");
  *checkpoint.mutable_lda() = lda.State();
  *checkpoint.mutable_evaluation() = schedule.GetState();
  std::ofstream(path, std::ios::binary) << checkpoint.SerializeAsString();
}

void FuzzOne(const std::string& payload) {
  MaybeWriteSeed();
  tools::LdaCheckpoint checkpoint;
  if (!checkpoint.ParseFromString(payload)) return;  // the tool: DataLoss "not an LdaCheckpoint"
  checkpoint.DiscardUnknownFields();

  models::Lda lda = MakeLda();
  const absl::Status restored = lda.Restore(checkpoint.lda());
  if (!restored.ok()) {
    // InvalidArgument, or FailedPrecondition for a state of another count estimator; the tool
    // stops with either (a failed restore may have set some rows).
    SGMCMC_CHECK(restored.code() == absl::StatusCode::kInvalidArgument ||
                 restored.code() == absl::StatusCode::kFailedPrecondition)
        << restored;
    return;
  }
  SGMCMC_CHECK(lda.State().SerializeAsString() == checkpoint.lda().SerializeAsString())
      << "Lda::Restore accepted a state it does not give back";

  eval::EvaluationSchedule schedule = MakeSchedule();
  const absl::Status schedule_restored =
      schedule.RestoreState(checkpoint.evaluation(), lda.iteration());
  if (!schedule_restored.ok()) {
    SGMCMC_CHECK(schedule_restored.code() == absl::StatusCode::kInvalidArgument)
        << schedule_restored;
    return;
  }
  SGMCMC_CHECK(schedule.GetState().SerializeAsString() ==
               checkpoint.evaluation().SerializeAsString())
      << "EvaluationSchedule::RestoreState accepted a state it does not give back";
  Continue(lda, schedule);
}

}  // namespace
}  // namespace sgmcmc::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sgmcmc::fuzz::FuzzOne(std::string(sgmcmc::fuzz::AsText(data, size)));
  return 0;
}
