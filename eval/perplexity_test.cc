#include "eval/perplexity.h"

#include <cmath>
#include <vector>

#include "base/check.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rng/categorical.h"
#include "rng/dirichlet.h"
#include "rng/engine.h"
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
  // Every p_dw <= 1 and < 1 here. (Whether the perplexity is below V is not a consequence
  // of this set-up: the words are uniform, unrelated to the topics; see
  // PerplexityOfDataFromTheModelMatchesEnumeration for the value itself.)
  EXPECT_GT(serial[2], 1);
}

// The exact document-completion predictive of LDA with φ fixed, by enumerating the K^n
// assignments z of the observed words w: p(z | w) ∝ Π_i φ_{z_i w_i} Π_k Γ(n_k + α), and
// E[η_k | w] = Σ_z p(z | w) (n_k + α) / (n + K α) (eq. 15's estimand). Returns E[η | w].
std::vector<double> ExactDocTopics(const std::vector<double>& topics, int num_topics,
                                   int vocabulary_size, double alpha,
                                   const std::vector<int32_t>& words) {
  const int n = static_cast<int>(words.size());
  int64_t states = 1;
  for (int i = 0; i < n; ++i) states *= num_topics;
  std::vector<double> eta(num_topics, 0.0);
  double total = 0;
  for (int64_t code = 0; code < states; ++code) {
    std::vector<int> counts(num_topics, 0);
    double weight = 1;
    int64_t rest = code;
    for (int i = 0; i < n; ++i) {
      const int k = static_cast<int>(rest % num_topics);
      rest /= num_topics;
      ++counts[k];
      weight *= topics[static_cast<size_t>(k) * vocabulary_size + words[i]];
    }
    for (int k = 0; k < num_topics; ++k) weight *= std::exp(std::lgamma(counts[k] + alpha));
    total += weight;
    for (int k = 0; k < num_topics; ++k) {
      eta[k] += weight * (counts[k] + alpha) / (n + num_topics * alpha);
    }
  }
  for (double& e : eta) e /= total;
  return eta;
}

// Documents drawn from LDA itself (η_d ~ Dir(α), z ~ η_d, w ~ φ_z), 4 observed and 2 held-out
// tokens each, K = 3, V = 6. The running perplexity must match the exact one,
// P* = exp(-Σ log p*_dw / N) with p*_dw = Σ_k E[η_dk | observed] φ_kw by enumeration.
//
// Tolerance: the running estimate is p̄_dw = mean over E evaluations of p^e_dw = Σ_k η̂^e_dk
// φ_kw (η̂^e from doc_topics() after each evaluation; the test first checks that the reported
// perplexity is exactly exp(-Σ log p̄_dw / N) of these). Each p^e_d is a batch mean over 15
// kept sweeps of a 4-token Gibbs chain that mixes within a few sweeps, so the E batch means of
// one document are nearly independent and the variance of mean_e of
// x_de = Σ_{i held out} (p^e_di/p*_di − 1) is estimated by s_d²/E (batch means). Documents use
// independent streams, so L = Σ_d Σ_i log(p̄_di / p*_di) = -N log(P̂/P*) has standard deviation
// σ = (Σ_d s_d²/E)^{1/2} (linearised; the second-order term, about -Σ Var(p̄)/(2p*²), is
// estimated and added back as the bias b). |L - b| <= 5σ is a false-failure rate of ~6e-7.
// A Gibbs conditional that forgets to remove the token's own assignment makes η̂ too peaked and
// fails this by 18σ (checked by planting it).
TEST(PerplexityTest, PerplexityOfDataFromTheModelMatchesEnumeration) {
  constexpr int kK = 3, kV = 6, kDocs = 40, kObserved = 4, kHeldOut = 2, kEvaluations = 1000;
  constexpr double kAlpha = 0.3;
  const std::vector<double> topics = {0.50, 0.40, 0.04, 0.02, 0.02, 0.02,   //
                                      0.02, 0.03, 0.50, 0.40, 0.03, 0.02,   //
                                      0.05, 0.02, 0.02, 0.01, 0.40, 0.50};
  rng::Engine engine(2024);
  std::vector<std::vector<int32_t>> observed(kDocs), held_out(kDocs);
  for (int d = 0; d < kDocs; ++d) {
    std::vector<double> eta(kK);
    rng::DirichletSample(engine, std::vector<double>(kK, kAlpha), absl::MakeSpan(eta));
    for (int i = 0; i < kObserved + kHeldOut; ++i) {
      const int k = rng::CategoricalSample(engine, eta);
      const int32_t w = rng::CategoricalSample(
          engine, absl::MakeConstSpan(topics.data() + static_cast<size_t>(k) * kV, kV));
      (i < kObserved ? observed : held_out)[d].push_back(w);
    }
  }
  std::vector<std::vector<double>> exact(kDocs);  // p*_dw per held-out token
  double exact_log_sum = 0;
  for (int d = 0; d < kDocs; ++d) {
    const std::vector<double> eta = ExactDocTopics(topics, kK, kV, kAlpha, observed[d]);
    for (int32_t w : held_out[d]) {
      double p = 0;
      for (int k = 0; k < kK; ++k) p += eta[k] * topics[k * kV + w];
      exact[d].push_back(p);
      exact_log_sum += std::log(p);
    }
  }
  const double exact_perplexity = std::exp(-exact_log_sum / (kDocs * kHeldOut));

  DocumentCompletionPerplexity perplexity =
      Make(MakeSplit(kV, observed, held_out), Options(kK, kAlpha, 20, 5));
  std::vector<std::vector<std::vector<double>>> p(  // [d][i][e]
      kDocs, std::vector<std::vector<double>>(kHeldOut, std::vector<double>(kEvaluations)));
  for (int e = 0; e < kEvaluations; ++e) {
    perplexity.Evaluate(topics);
    for (int d = 0; d < kDocs; ++d) {
      for (int i = 0; i < kHeldOut; ++i) {
        double pe = 0;
        for (int k = 0; k < kK; ++k) {
          pe += perplexity.doc_topics()[d * kK + k] * topics[k * kV + held_out[d][i]];
        }
        p[d][i][e] = pe;
      }
    }
  }
  double log_ratio_sum = 0, variance = 0, bias = 0, running_log_sum = 0;
  for (int d = 0; d < kDocs; ++d) {
    std::vector<double> x(kEvaluations, 0.0);
    for (int i = 0; i < kHeldOut; ++i) {
      double mean = 0, square = 0;
      for (int e = 0; e < kEvaluations; ++e) {
        mean += p[d][i][e] / kEvaluations;
        x[e] += p[d][i][e] / exact[d][i] - 1;
      }
      for (int e = 0; e < kEvaluations; ++e) square += std::pow(p[d][i][e] - mean, 2);
      running_log_sum += std::log(mean);
      log_ratio_sum += std::log(mean / exact[d][i]);
      bias -= square / (kEvaluations - 1) / kEvaluations / (2 * exact[d][i] * exact[d][i]);
    }
    const testing::SampleMoments moments = testing::ComputeMoments(x);
    variance += moments.variance / kEvaluations;
  }
  const double reported = std::exp(-running_log_sum / (kDocs * kHeldOut));
  EXPECT_NEAR(perplexity.perplexity(), reported, 1e-12 * reported);
  const double sigma = std::sqrt(variance);
  EXPECT_LE(std::abs(log_ratio_sum - bias), 5 * sigma)
      << "perplexity " << perplexity.perplexity() << ", exact " << exact_perplexity
      << "; z " << (log_ratio_sum - bias) / sigma << ", N log-ratio " << log_ratio_sum << ", bias " << bias << ", sigma " << sigma;
  // The set-up is informative: the exact perplexity is well below V (a property of these
  // topics and α, computed, not hoped for).
  EXPECT_LT(exact_perplexity, kV - 1.0);
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
  EXPECT_THAT(std::string(Options(2, 1e308, 2, 1).Validate().message()),
              HasSubstr("num_topics x alpha = 2 x 1e+308 must be finite"));
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
