#include "eval/evaluation_schedule.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sgmcmc::eval {
namespace {

using ::testing::DoubleEq;
using ::testing::HasSubstr;

// One test document: observed {1, 2}, held out {0}. With K = 1, η̂ = 1 whatever the Gibbs
// sweeps do, so an evaluation with φ = (a, ...) scores p = a exactly.
data::DocumentCompletionSplit OneDocument() {
  data::DocumentCompletionSplit split;
  split.observed.vocabulary.resize(3);
  split.held_out.vocabulary.resize(3);
  split.observed.AddDocument({1, 2});
  split.held_out.AddDocument({0});
  return split;
}

std::vector<double> Unigram(double a) { return {a, (1 - a) / 2, (1 - a) / 2}; }

EvaluationScheduleOptions Options(int64_t iterations, int64_t eval_every, int64_t burn_in) {
  EvaluationScheduleOptions options;
  options.iterations = iterations;
  options.eval_every = eval_every;
  options.burn_in = burn_in;
  options.num_topics = 1;
  options.eval_sweeps = 4;
  return options;
}

TEST(EvaluationScheduleTest, Defaults) {
  EXPECT_EQ(DefaultEvalEvery(1000), 50);
  EXPECT_EQ(DefaultEvalEvery(10), 1);
  EXPECT_EQ(DefaultBurnIn(1000), 500);
  EXPECT_EQ(DefaultBurnIn(7), 3);
  const PerplexityOptions p = ProtocolPerplexityOptions(5, 0.2, 21, 9);
  EXPECT_EQ(p.num_topics, 5);
  EXPECT_EQ(p.alpha, 0.2);
  EXPECT_EQ(p.num_sweeps, 21);
  EXPECT_EQ(p.burn_in, 10);
  EXPECT_EQ(p.seed, 9u);
  auto schedule = EvaluationSchedule::Create(OneDocument(), Options(1000, 0, -1));
  ASSERT_TRUE(schedule.ok()) << schedule.status();
  EXPECT_EQ(schedule->eval_every(), 50);
  EXPECT_EQ(schedule->burn_in(), 500);
  EXPECT_EQ(schedule->last_iteration(), -1);
}

TEST(EvaluationScheduleTest, DueEveryEvalEveryAndAtTheEnd) {
  auto schedule = EvaluationSchedule::Create(OneDocument(), Options(10, 3, 5));
  ASSERT_TRUE(schedule.ok());
  std::vector<int64_t> due;
  for (int64_t m = 1; m <= 10; ++m) {
    if (schedule->IsDue(m)) due.push_back(m);
  }
  EXPECT_THAT(due, ::testing::ElementsAre(3, 6, 9, 10));
}

// Evaluations at 3, 6, 9, 10 with burn-in 5: 3 stands alone; 6 is the first at >= 5 and
// restarts the mean; 9 and 10 join it. (A rule resetting only at iterations <= burn_in would
// keep 3 in the mean at 6.)
TEST(EvaluationScheduleTest, RunningMeanOverTheEvaluationsAfterBurnIn) {
  auto schedule = EvaluationSchedule::Create(OneDocument(), Options(10, 3, 5));
  ASSERT_TRUE(schedule.ok());
  EXPECT_THAT(schedule->Evaluate(3, Unigram(0.1)), DoubleEq(1 / 0.1));
  EXPECT_THAT(schedule->Evaluate(6, Unigram(0.2)), DoubleEq(1 / 0.2));
  EXPECT_EQ(schedule->perplexity().num_evaluations(), 1);
  EXPECT_THAT(schedule->Evaluate(9, Unigram(0.3)), DoubleEq(1 / 0.25));
  EXPECT_THAT(schedule->Evaluate(10, Unigram(0.4)), DoubleEq(1 / 0.3));
  EXPECT_THAT(schedule->perplexity().last_perplexity(), DoubleEq(1 / 0.4));
  EXPECT_EQ(schedule->perplexity().num_evaluations(), 3);
  EXPECT_EQ(schedule->last_iteration(), 10);
}

TEST(EvaluationScheduleTest, BurnInZeroAveragesEveryEvaluation) {
  auto schedule = EvaluationSchedule::Create(OneDocument(), Options(4, 1, 0));
  ASSERT_TRUE(schedule.ok());
  schedule->Evaluate(1, Unigram(0.1));
  schedule->Evaluate(2, Unigram(0.3));
  EXPECT_THAT(schedule->perplexity().perplexity(), DoubleEq(1 / 0.2));
}

TEST(EvaluationScheduleTest, RestoredStateContinuesBitIdentically) {
  data::DocumentCompletionSplit split;
  split.observed.vocabulary.resize(3);
  split.held_out.vocabulary.resize(3);
  split.observed.AddDocument({0, 1, 2, 2});
  split.held_out.AddDocument({1, 2});
  EvaluationScheduleOptions options = Options(10, 3, 5);
  options.num_topics = 2;
  const std::vector<double> a = {0.5, 0.5, 0.0, 0.0, 0.2, 0.8};
  const std::vector<double> b = {0.2, 0.3, 0.5, 0.6, 0.3, 0.1};
  auto uninterrupted = EvaluationSchedule::Create(split, options);
  auto first = EvaluationSchedule::Create(split, options);
  auto resumed = EvaluationSchedule::Create(split, options);
  ASSERT_TRUE(uninterrupted.ok() && first.ok() && resumed.ok());
  uninterrupted->Evaluate(3, a);
  first->Evaluate(3, a);
  ASSERT_TRUE(resumed->RestoreState(first->GetState(), 3).ok());
  EXPECT_EQ(resumed->last_iteration(), 3);
  for (auto* s : {&*uninterrupted, &*resumed}) {
    s->Evaluate(6, b);  // restarts the mean: the restored schedule knows 3 was burn-in
    s->Evaluate(9, a);
  }
  EXPECT_EQ(resumed->perplexity().perplexity(), uninterrupted->perplexity().perplexity());
  EXPECT_EQ(resumed->perplexity().num_evaluations(), 2);
  EXPECT_EQ(resumed->GetState().SerializeAsString(), uninterrupted->GetState().SerializeAsString());

  EvaluationScheduleState bad = first->GetState();
  bad.set_last_iteration(-2);
  EXPECT_THAT(std::string(resumed->RestoreState(bad, 3).message()),
              HasSubstr("last_iteration must be >= -1, got -2"));
  bad = first->GetState();
  bad.mutable_perplexity()->mutable_doc_topics()->RemoveLast();
  EXPECT_THAT(std::string(resumed->RestoreState(bad, 3).message()), HasSubstr("doc_topics"));
  // Found by //fuzz:lda_checkpoint_fuzzer and //fuzz:dp_checkpoint_fuzzer: evaluations ahead
  // of the sampler, and a probability sum that made the next perplexity NaN.
  const std::string before = resumed->GetState().SerializeAsString();
  EXPECT_THAT(std::string(resumed->RestoreState(first->GetState(), 2).message()),
              HasSubstr("last_iteration 3 is past the run's iterations completed (2)"));
  EXPECT_EQ(resumed->GetState().SerializeAsString(), before);
  bad = first->GetState();
  bad.mutable_perplexity()->set_probability_sum(0, -1e-3);
  EXPECT_THAT(std::string(resumed->RestoreState(bad, 3).message()),
              HasSubstr("probability_sum[0] = -0.001 must be in [0, num_evaluations = 1]"));
  bad = first->GetState();
  bad.mutable_perplexity()->set_probability_sum(0, 1.5);
  EXPECT_THAT(std::string(resumed->RestoreState(bad, 3).message()),
              HasSubstr("probability_sum[0] = 1.5"));
  bad = first->GetState();
  bad.mutable_perplexity()->set_doc_topics(1, NAN);
  EXPECT_THAT(std::string(resumed->RestoreState(bad, 3).message()),
              HasSubstr("doc_topics[1] = nan must be in [0, 1]"));
}

TEST(EvaluationScheduleTest, OptionsValidate) {
  EXPECT_TRUE(EvaluationScheduleOptions().Validate().ok());
  auto message = [](EvaluationScheduleOptions o) { return std::string(o.Validate().message()); };
  EvaluationScheduleOptions o;
  o.iterations = 0;
  EXPECT_THAT(message(o), HasSubstr("iterations must be >= 1, got 0"));
  o = EvaluationScheduleOptions();
  o.eval_every = -1;
  EXPECT_THAT(message(o), HasSubstr("eval_every must be >= 1"));
  o = EvaluationScheduleOptions();
  o.burn_in = -2;
  EXPECT_THAT(message(o), HasSubstr("burn_in must be >= 0"));
  o = EvaluationScheduleOptions();
  o.eval_sweeps = 1;
  EXPECT_THAT(message(o), HasSubstr("eval_sweeps must be >= 2, got 1"));
  o = EvaluationScheduleOptions();
  o.alpha = 0;
  EXPECT_THAT(message(o), HasSubstr("alpha must be finite and > 0"));
  EXPECT_FALSE(EvaluationSchedule::Create(OneDocument(), o).ok());
}

TEST(EvaluationScheduleDeathTest, EvaluationsMoveForward) {
  auto schedule = EvaluationSchedule::Create(OneDocument(), Options(10, 3, 5));
  ASSERT_TRUE(schedule.ok());
  schedule->Evaluate(3, Unigram(0.1));
  EXPECT_DEATH(schedule->Evaluate(3, Unigram(0.1)), "not after the last evaluation's, 3");
}

// The cadence alone follows the same rule as the schedule: evaluations before burn-in each
// restart the running mean, from the first at an iteration >= burn_in on they accumulate.
TEST(EvaluationCadenceTest, DueAndBurnInRuleAsTheSchedule) {
  EXPECT_THAT(std::string(EvaluationCadence::Create(0, 1, 0).status().message()),
              HasSubstr("iterations must be >= 1, got 0"));
  EXPECT_THAT(std::string(EvaluationCadence::Create(10, 0, 0).status().message()),
              HasSubstr("eval_every must be >= 1, got 0"));
  EXPECT_THAT(std::string(EvaluationCadence::Create(10, 3, -1).status().message()),
              HasSubstr("burn_in must be >= 0, got -1"));
  auto cadence = EvaluationCadence::Create(10, 3, 5);
  ASSERT_TRUE(cadence.ok());
  std::vector<int64_t> due;
  for (int64_t m = 1; m <= 10; ++m) {
    if (cadence->IsDue(m)) due.push_back(m);
  }
  EXPECT_EQ(due, (std::vector<int64_t>{3, 6, 9, 10}));
  EXPECT_TRUE(cadence->BeginEvaluation(3));  // first
  EXPECT_TRUE(cadence->BeginEvaluation(6));  // previous (3) before burn-in
  const EvaluationCadenceState state = cadence->GetState();
  EXPECT_FALSE(cadence->BeginEvaluation(9));  // previous (6) after burn-in
  EXPECT_FALSE(cadence->BeginEvaluation(10));

  auto resumed = EvaluationCadence::Create(10, 3, 5);
  ASSERT_TRUE(resumed->RestoreState(state, 6).ok());
  EXPECT_EQ(resumed->last_iteration(), 6);
  EXPECT_FALSE(resumed->BeginEvaluation(9));
  EvaluationCadenceState bad;
  bad.set_last_iteration(-2);
  EXPECT_THAT(std::string(resumed->RestoreState(bad, 9).message()),
              HasSubstr("last_iteration must be >= -1, got -2"));
  bad.set_last_iteration(9);
  EXPECT_THAT(std::string(resumed->RestoreState(bad, 8).message()),
              HasSubstr("last_iteration 9 is past the run's iterations completed (8)"));
  bad.set_last_iteration(11);
  EXPECT_THAT(std::string(resumed->RestoreState(bad, 12).message()),
              HasSubstr("or its total (10)"));
  EXPECT_EQ(resumed->last_iteration(), 9);
}

}  // namespace
}  // namespace sgmcmc::eval
