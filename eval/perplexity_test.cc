#include "eval/perplexity.h"

#include <cmath>
#include <vector>

#include "base/check.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rng/uniform.h"
#include "testing/distribution_testing.h"

namespace sgmcmc::eval {
namespace {

using ::sgmcmc::testing::DiscreteChiSquaredTest;
using ::sgmcmc::testing::TestResult;
using ::testing::HasSubstr;

// Test documents given directly as (observed, held-out) parts over `vocabulary_size` words.
data::DocumentCompletionSplit MakeSplit(int vocabulary_size,
                                        const std::vector<std::vector<int32_t>>& observed,
                                        const std::vector<std::vector<int32_t>>& held_out) {
  data::DocumentCompletionSplit split;
  split.observed.vocabulary.resize(vocabulary_size);
  split.held_out.vocabulary.resize(vocabulary_size);
  for (const auto& doc : observed) split.observed.AddDocument(doc);
  for (const auto& doc : held_out) split.held_out.AddDocument(doc);
  return split;
}

PerplexityOptions Options(int num_topics, double alpha, int sweeps, int burn_in) {
  PerplexityOptions options;
  options.num_topics = num_topics;
  options.alpha = alpha;
  options.num_sweeps = sweeps;
  options.burn_in = burn_in;
  return options;
}

// An evaluator of valid arguments.
DocumentCompletionPerplexity Make(const data::DocumentCompletionSplit& split,
                                  const PerplexityOptions& options) {
  absl::StatusOr<DocumentCompletionPerplexity> perplexity =
      DocumentCompletionPerplexity::Create(split, options);
  SGMCMC_CHECK(perplexity.ok()) << perplexity.status();
  return *std::move(perplexity);
}

template <typename T>
std::vector<T> Vec(const google::protobuf::RepeatedField<T>& values) {
  return {values.begin(), values.end()};
}

// φ for K = 2, V = 3.
const std::vector<double> kTopics = {0.5, 0.5, 0.0,   //
                                     0.0, 0.2, 0.8};

TEST(PerplexityTest, HandComputedRunningMeanOfEstimates) {
  // Two test documents; held out: doc 0 = {word 0, word 1}, doc 1 = {word 2}.
  DocumentCompletionPerplexity perplexity =
      Make(MakeSplit(3, {{}, {}}, {{0, 1}, {2}}), Options(2, 0.5, 2, 1));
  EXPECT_TRUE(std::isnan(perplexity.perplexity()));
  // Evaluation 1: η̂_0 = (0.6, 0.4), η̂_1 = (0.1, 0.9).
  //   p(doc0, w0) = 0.6*0.5 = 0.3; p(doc0, w1) = 0.6*0.5 + 0.4*0.2 = 0.38;
  //   p(doc1, w2) = 0.9*0.8 = 0.72.
  perplexity.AddEstimate({0.6, 0.4, 0.1, 0.9}, kTopics);
  const double first = std::exp(-(std::log(0.3) + std::log(0.38) + std::log(0.72)) / 3);
  EXPECT_NEAR(perplexity.perplexity(), first, 1e-12 * first);
  EXPECT_NEAR(perplexity.last_perplexity(), first, 1e-12 * first);
  // Evaluation 2: η̂_0 = (1, 0), η̂_1 = (0.5, 0.5): p = 0.5, 0.5, 0.4.
  perplexity.AddEstimate({1.0, 0.0, 0.5, 0.5}, kTopics);
  const double last = std::exp(-(std::log(0.5) + std::log(0.5) + std::log(0.4)) / 3);
  const double running =
      std::exp(-(std::log(0.4) + std::log(0.44) + std::log(0.56)) / 3);  // means of p
  EXPECT_NEAR(perplexity.last_perplexity(), last, 1e-12 * last);
  EXPECT_NEAR(perplexity.perplexity(), running, 1e-12 * running);
  EXPECT_EQ(perplexity.num_evaluations(), 2);
  EXPECT_EQ(perplexity.num_held_out_tokens(), 3);
  perplexity.ResetRunningMean();
  EXPECT_EQ(perplexity.num_evaluations(), 0);
  perplexity.AddEstimate({1.0, 0.0, 0.5, 0.5}, kTopics);
  EXPECT_NEAR(perplexity.perplexity(), last, 1e-12 * last);
}

TEST(PerplexityTest, DocumentsWithoutObservedTokensUseUniformProportions) {
  // η̂ = (1/2, 1/2): p(w0) = 0.25, p(w2) = 0.4, perplexity = (0.25 * 0.4)^(-1/2).
  DocumentCompletionPerplexity perplexity =
      Make(MakeSplit(3, {{}, {}}, {{0}, {2}}), Options(2, 0.1, 4, 2));
  EXPECT_NEAR(perplexity.Evaluate(kTopics), 1 / std::sqrt(0.1), 1e-12);
}

TEST(PerplexityTest, OneTopicIsTheUnigramPerplexity) {
  // With K = 1, η̂ = 1 whatever the Gibbs sampler does: perplexity = exp(-mean log φ_w).
  const std::vector<double> unigram = {0.2, 0.3, 0.5};
  DocumentCompletionPerplexity perplexity =
      Make(MakeSplit(3, {{0, 1, 1}, {2}}, {{0, 2}, {1}}), Options(1, 0.1, 3, 1));
  const double expected = std::exp(-(std::log(0.2) + std::log(0.5) + std::log(0.3)) / 3);
  EXPECT_NEAR(perplexity.Evaluate(unigram), expected, 1e-12 * expected);
  EXPECT_NEAR(perplexity.Evaluate(unigram), expected, 1e-12 * expected);
}

// One observed token of word 1 per document: every sweep redraws its topic independently from
// p(z = k) ∝ α φ_k1, so with burn_in 0 and S sweeps η̂_d0 = (m/S + α)/(1 + 2α) with
// m ~ Binomial(S, π), π = φ_01 / (φ_01 + φ_11) = 0.5 / 0.7. The m recovered from η̂ of 3000
// documents (independent streams) are tested against the binomial pmf by DiscreteChiSquaredTest
// (false-failure rate 1e-6), for two seeds and two α.
TEST(PerplexityTest, GibbsEstimateFollowsTheExactConditional) {
  constexpr int kDocs = 3000, kSweeps = 8;
  for (double alpha : {0.1, 2.0}) {
    for (uint64_t seed : {1, 2}) {
      PerplexityOptions options = Options(2, alpha, kSweeps, 0);
      options.seed = seed;
      DocumentCompletionPerplexity perplexity =
          Make(MakeSplit(3, std::vector<std::vector<int32_t>>(kDocs, {1}),
                         std::vector<std::vector<int32_t>>(kDocs, {2})),
               options);
      perplexity.Evaluate(kTopics);
      std::vector<int64_t> m(kDocs);
      for (int d = 0; d < kDocs; ++d) {
        const double eta0 = perplexity.doc_topics()[2 * d];
        const double x = (eta0 * (1 + 2 * alpha) - alpha) * kSweeps;
        m[d] = std::llround(x);
        ASSERT_NEAR(x, m[d], 1e-9);
        ASSERT_NEAR(perplexity.doc_topics()[2 * d + 1], 1 - eta0, 1e-12);
      }
      const double pi = 0.5 / 0.7;
      const TestResult result = DiscreteChiSquaredTest(
          m,
          [&](int64_t k) {
            return std::exp(std::lgamma(kSweeps + 1.0) - std::lgamma(k + 1.0) -
                            std::lgamma(kSweeps - k + 1.0) + k * std::log(pi) +
                            (kSweeps - k) * std::log1p(-pi));
          },
          0, kSweeps);
      EXPECT_TRUE(result.Passed()) << "alpha " << alpha << " seed " << seed << ": " << result;
    }
  }
}

TEST(PerplexityTest, SameResultForAnyThreadCount) {
  rng::Engine engine(11);
  constexpr int kTopicsK = 5, kVocabulary = 40;
  std::vector<double> topics(kTopicsK * kVocabulary);
  for (double& x : topics) x = rng::UniformDouble(engine);
  for (int k = 0; k < kTopicsK; ++k) {
    double sum = 0;
    for (int w = 0; w < kVocabulary; ++w) sum += topics[k * kVocabulary + w];
    for (int w = 0; w < kVocabulary; ++w) topics[k * kVocabulary + w] /= sum;
  }
  std::vector<std::vector<int32_t>> observed(37), held_out(37);
  for (int d = 0; d < 37; ++d) {
    for (int i = 0; i < 5 + d; ++i) {
      (i % 10 == 0 ? held_out : observed)[d].push_back(rng::UniformInt(engine, kVocabulary));
    }
  }
  const data::DocumentCompletionSplit split = MakeSplit(kVocabulary, observed, held_out);
  auto run = [&](int threads) {
    DocumentCompletionPerplexity perplexity = Make(split, Options(kTopicsK, 0.3, 6, 3));
    parallel::ThreadPool pool(threads);
    std::vector<double> trace;
    for (int e = 0; e < 3; ++e) trace.push_back(perplexity.Evaluate(topics, &pool));
    trace.insert(trace.end(), perplexity.doc_topics().begin(), perplexity.doc_topics().end());
    return trace;
  };
  const std::vector<double> serial = [&] {
    DocumentCompletionPerplexity perplexity = Make(split, Options(kTopicsK, 0.3, 6, 3));
    std::vector<double> trace;
    for (int e = 0; e < 3; ++e) trace.push_back(perplexity.Evaluate(topics));
    trace.insert(trace.end(), perplexity.doc_topics().begin(), perplexity.doc_topics().end());
    return trace;
  }();
  EXPECT_EQ(serial, run(1));
  EXPECT_EQ(serial, run(2));
  EXPECT_EQ(serial, run(3));
  // A better-than-uniform model: perplexity below V.
  EXPECT_LT(serial[2], kVocabulary);
  EXPECT_GT(serial[2], 1);
}

TEST(PerplexityTest, ZeroProbabilityGivesInfinitePerplexity) {
  DocumentCompletionPerplexity perplexity = Make(MakeSplit(3, {{2}}, {{2}}), Options(2, 0.1, 2, 1));
  EXPECT_TRUE(std::isinf(perplexity.Evaluate({0.5, 0.5, 0.0, 0.5, 0.5, 0.0})));
}

TEST(PerplexityTest, OptionsValidate) {
  EXPECT_TRUE(PerplexityOptions().Validate().ok());
  EXPECT_THAT(std::string(Options(0, 0.1, 2, 1).Validate().message()),
              HasSubstr("num_topics must be >= 1, got 0"));
  EXPECT_THAT(std::string(Options(2, 0.0, 2, 1).Validate().message()),
              HasSubstr("alpha must be finite and > 0, got 0"));
  EXPECT_THAT(std::string(Options(2, 0.1, 0, 0).Validate().message()),
              HasSubstr("num_sweeps must be >= 1, got 0"));
  EXPECT_THAT(std::string(Options(2, 0.1, 2, 2).Validate().message()),
              HasSubstr("burn_in must be in [0, num_sweeps = 2), got 2"));
}

TEST(PerplexityTest, RestoredStateContinuesBitIdentically) {
  const auto split = MakeSplit(3, {{0, 1, 2, 2, 1}, {2, 2}, {}}, {{1, 0}, {2}, {0}});
  const std::vector<double> other = {0.2, 0.3, 0.5, 0.6, 0.3, 0.1};
  DocumentCompletionPerplexity uninterrupted = Make(split, Options(2, 0.3, 4, 2));
  DocumentCompletionPerplexity first = Make(split, Options(2, 0.3, 4, 2));
  for (auto* p : {&uninterrupted, &first}) p->Evaluate(kTopics);
  DocumentCompletionPerplexity resumed = Make(split, Options(2, 0.3, 4, 2));
  ASSERT_TRUE(resumed.RestoreState(first.GetState()).ok());
  EXPECT_EQ(resumed.num_evaluations(), 1);
  for (auto* p : {&uninterrupted, &resumed}) {
    p->Evaluate(other);
    p->Evaluate(kTopics);
  }
  EXPECT_EQ(resumed.perplexity(), uninterrupted.perplexity());
  EXPECT_EQ(resumed.last_perplexity(), uninterrupted.last_perplexity());
  const PerplexityState a = resumed.GetState(), b = uninterrupted.GetState();
  EXPECT_EQ(Vec(a.assignments()), Vec(b.assignments()));
  EXPECT_EQ(Vec(a.engine_positions()), Vec(b.engine_positions()));
  EXPECT_EQ(Vec(a.probability_sum()), Vec(b.probability_sum()));
  EXPECT_EQ(Vec(a.doc_topics()), Vec(b.doc_topics()));

  PerplexityState state = first.GetState();
  state.mutable_probability_sum()->RemoveLast();
  EXPECT_THAT(std::string(resumed.RestoreState(state).message()),
              HasSubstr("probability_sum has 3 entries, expected 4"));
  state = first.GetState();
  state.set_assignments(1, 2);
  EXPECT_THAT(std::string(resumed.RestoreState(state).message()),
              HasSubstr("assignments[1] = 2 must be in [0, 2)"));
}

TEST(PerplexityTest, CreateRejectsBadArguments) {
  auto bad =
      DocumentCompletionPerplexity::Create(MakeSplit(3, {{}}, {{0}}), Options(2, 0.1, 2, 2));
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(bad.status().message()),
              ::testing::ContainsRegex("DocumentCompletionPerplexity: .*burn_in"));
  bad = DocumentCompletionPerplexity::Create(MakeSplit(3, {{}}, {{0}, {1}}),
                                             Options(2, 0.1, 2, 1));
  EXPECT_THAT(std::string(bad.status().message()),
              HasSubstr("observed and held-out parts have 1 and 2 documents"));
}

TEST(PerplexityDeathTest, BadArguments) {
  DocumentCompletionPerplexity perplexity = Make(MakeSplit(3, {{}}, {{0}}), Options(2, 0.1, 2, 1));
  EXPECT_DEATH(perplexity.Evaluate({0.5, 0.5}),
               "topics must have K \\* V = 2 \\* 3 entries, got 2");
  EXPECT_DEATH(perplexity.AddEstimate({1.0}, kTopics), "doc_topics must have D_test \\* K = 2");
}

}  // namespace
}  // namespace sgmcmc::eval
