#include "models/lda/collapsed_gibbs_lda.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rng/uniform.h"
#include "testing/distribution_testing.h"

namespace sgmcmc::models {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A random corpus: `docs` documents of 3..12 tokens over `vocabulary` words.
data::Corpus RandomCorpus(int docs, int vocabulary, uint64_t seed) {
  rng::Engine engine(seed);
  data::Corpus corpus;
  corpus.vocabulary.resize(vocabulary);
  for (int d = 0; d < docs; ++d) {
    std::vector<int32_t> doc(3 + rng::UniformInt(engine, 10));
    for (int32_t& w : doc) w = static_cast<int32_t>(rng::UniformInt(engine, vocabulary));
    corpus.AddDocument(doc);
  }
  return corpus;
}

// Three topics with disjoint vocabularies (topic k: words 5k..5k+4, uniform); document d
// mixes two distinct random topics a, b in a random proportion f ~ Uniform(0, 1), so the
// pure topics are the only explanation shared by all documents.
data::Corpus SeparatedTopicsCorpus(uint64_t seed) {
  rng::Engine engine(seed);
  data::Corpus corpus;
  corpus.vocabulary.resize(15);
  for (int d = 0; d < 90; ++d) {
    const int a = static_cast<int>(rng::UniformInt(engine, 3));
    const int b = (a + 1 + static_cast<int>(rng::UniformInt(engine, 2))) % 3;
    const double f = rng::UniformDouble(engine);
    std::vector<int32_t> doc(60);
    for (int32_t& w : doc) {
      const int topic = rng::UniformDouble(engine) < f ? a : b;
      w = 5 * topic + static_cast<int32_t>(rng::UniformInt(engine, 5));
    }
    corpus.AddDocument(doc);
  }
  return corpus;
}

CollapsedGibbsLdaOptions Options(int k, double alpha, double beta, uint64_t seed = 1) {
  CollapsedGibbsLdaOptions options;
  options.num_topics = k;
  options.alpha = alpha;
  options.beta = beta;
  options.seed = seed;
  return options;
}

// The conditional of token i equals p(z_i = k, z_\i, w) normalised over k, each joint from
// LogJoint() of the full state with z_i set to k (brute force, no shared code path).
TEST(CollapsedGibbsLdaTest, ConditionalMatchesBruteForceJoint) {
  for (const auto& [alpha, beta] : {std::pair{0.1, 0.01}, std::pair{1.5, 0.7}}) {
    auto lda = CollapsedGibbsLda::Create(RandomCorpus(6, 7, 3), Options(4, alpha, beta));
    ASSERT_TRUE(lda.ok()) << lda.status();
    lda->Sweep();
    const std::vector<int32_t> state(lda->assignments().begin(), lda->assignments().end());
    for (int64_t i : {int64_t{0}, int64_t{5}, lda->num_tokens() - 1}) {
      std::vector<double> conditional(4);
      lda->TokenConditional(i, absl::MakeSpan(conditional));
      std::vector<double> log_joint(4);
      for (int k = 0; k < 4; ++k) {
        std::vector<int32_t> z = state;
        z[i] = k;
        lda->SetAssignments(z);
        log_joint[k] = lda->LogJoint();
      }
      lda->SetAssignments(state);
      const double max = *std::max_element(log_joint.begin(), log_joint.end());
      double total = 0;
      for (double lj : log_joint) total += std::exp(lj - max);
      for (int k = 0; k < 4; ++k) {
        EXPECT_NEAR(conditional[k], std::exp(log_joint[k] - max) / total, 1e-11)
            << "token " << i << " topic " << k << " alpha " << alpha << " beta " << beta;
      }
    }
  }
}

// Redrawing one token repeatedly samples its conditional (which excludes the token itself,
// so every redraw is an independent draw): DiscreteChiSquaredTest at false-failure rate 1e-6,
// over two seeds and two settings of (α, β).
TEST(CollapsedGibbsLdaTest, ResampleTokenDrawsTheConditional) {
  for (const auto& [alpha, beta] : {std::pair{0.1, 0.01}, std::pair{2.0, 0.5}}) {
    for (uint64_t seed : {7, 8}) {
      auto lda = CollapsedGibbsLda::Create(RandomCorpus(8, 6, 5), Options(5, alpha, beta, seed));
      ASSERT_TRUE(lda.ok());
      lda->Sweep();
      const int64_t token = 4;
      std::vector<double> conditional(5);
      lda->TokenConditional(token, absl::MakeSpan(conditional));
      std::vector<int64_t> draws(40000);
      for (int64_t& draw : draws) {
        lda->ResampleToken(token);
        draw = lda->assignments()[token];
      }
      const testing::TestResult result = testing::DiscreteChiSquaredTest(
          draws, [&](int64_t k) { return conditional[k]; }, 0, 4);
      EXPECT_TRUE(result.Passed()) << result;
    }
  }
}

TEST(CollapsedGibbsLdaTest, CountsStayConsistent) {
  const data::Corpus corpus = RandomCorpus(20, 9, 4);
  auto lda = CollapsedGibbsLda::Create(corpus, Options(3, 0.5, 0.1));
  ASSERT_TRUE(lda.ok());
  for (int s = 0; s < 3; ++s) lda->Sweep();
  EXPECT_EQ(lda->num_sweeps(), 3);
  std::vector<int> topic(3, 0);
  for (int32_t z : lda->assignments()) ++topic[z];
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(lda->topic_count(k), topic[k]);
    int by_word = 0, by_doc = 0;
    for (int w = 0; w < 9; ++w) by_word += lda->word_topic_count(w, k);
    for (int d = 0; d < 20; ++d) by_doc += lda->doc_topic_count(d, k);
    EXPECT_EQ(by_word, topic[k]);
    EXPECT_EQ(by_doc, topic[k]);
  }
  std::vector<double> phi(3 * 9);
  lda->TopicWordDistributions(absl::MakeSpan(phi));
  for (int k = 0; k < 3; ++k) {
    double sum = 0;
    for (int w = 0; w < 9; ++w) sum += phi[k * 9 + w];
    EXPECT_NEAR(sum, 1.0, 1e-12);
  }
  EXPECT_NEAR(phi[0], (lda->word_topic_count(0, 0) + 0.1) / (lda->topic_count(0) + 0.9), 1e-15);
}

TEST(CollapsedGibbsLdaTest, RecoversWellSeparatedTopics) {
  for (uint64_t seed : {1, 2, 3}) {
    const data::Corpus corpus = SeparatedTopicsCorpus(seed);
    auto lda = CollapsedGibbsLda::Create(corpus, Options(3, 0.1, 0.01, seed));
    ASSERT_TRUE(lda.ok());
    const double initial = lda->LogJoint();
    // The separated state z_sep (every token on its word's block, z = w / 5) scores the log
    // joint of the posterior's mode region; recorded, then the uniform start restored.
    const std::vector<int32_t> start(lda->assignments().begin(), lda->assignments().end());
    std::vector<int32_t> separated(start.size());
    for (size_t i = 0; i < separated.size(); ++i) separated[i] = corpus.tokens[i] / 5;
    lda->SetAssignments(separated);
    const double separated_log_joint = lda->LogJoint();
    lda->SetAssignments(start);
    // The set-up makes recovery worth about N ln 3 = 5400 ln 3 ≈ 5900 nats of word likelihood
    // (each topic's 1800 tokens on 5 words instead of 15; Stirling terms O(K V log n_k) ≈ 300),
    // and the document part only gains from concentration (measured: 9500-9700 in all).
    EXPECT_GT(separated_log_joint, initial + 5000) << "seed " << seed;
    for (int s = 0; s < 100; ++s) lda->Sweep();
    // Near the mode a posterior draw differs from z_sep (up to relabelling, which the log joint
    // ignores) only by tokens on an off-block topic. A token of word w (block b) in document d
    // goes to topic k != b with odds at most (α + n_dk)(n_kw + β)/(n_k + Vβ) over
    // (α + n_db − 1) n_bw/n_b, ≈ 60 · 0.01/1800 over 0.1 · 0.2 = 0.017 for the worst token (the
    // lone b-token of a document otherwise all k); summed over the corpus the expected number
    // of such tokens is below 5 per topic, and at most 36 at a 1e-6 rate (Poisson tail). Each
    // costs at most -log(β/(n_k 60)) ≈ 16 nats of log joint, so 36 · 16 < 600.
    EXPECT_GT(lda->LogJoint(), separated_log_joint - 600) << "seed " << seed;
    std::vector<double> phi(3 * 15);
    lda->TopicWordDistributions(absl::MakeSpan(phi));
    // Every true topic is matched by a learned topic with >= 98% of its mass on its 5 words:
    // by the count above at most 36 of its n_k ≈ 1800 tokens (2%) are off-block at a 1e-6
    // rate, and the prior adds 10β/n_k ≈ 0.006%; a topic merging two would have ~50%.
    std::vector<bool> used(3, false);
    for (int truth = 0; truth < 3; ++truth) {
      int best = -1;
      double best_mass = 0;
      for (int k = 0; k < 3; ++k) {
        double mass = 0;
        for (int w = 5 * truth; w < 5 * truth + 5; ++w) mass += phi[k * 15 + w];
        if (mass > best_mass) best_mass = mass, best = k;
      }
      EXPECT_GT(best_mass, 0.98) << "seed " << seed << " topic " << truth;
      EXPECT_FALSE(used[best]) << "seed " << seed;
      used[best] = true;
    }
  }
}

TEST(CollapsedGibbsLdaTest, SeededReproducibility) {
  const data::Corpus corpus = RandomCorpus(30, 12, 9);
  auto run = [&](uint64_t seed) {
    auto lda = CollapsedGibbsLda::Create(corpus, Options(4, 0.1, 0.01, seed));
    for (int s = 0; s < 3; ++s) lda->Sweep();
    return std::vector<int32_t>(lda->assignments().begin(), lda->assignments().end());
  };
  const std::vector<int32_t> a = run(5);
  EXPECT_EQ(a, run(5));
  EXPECT_NE(a, run(6));
  // Pinned: a change in the random stream or the scan order is a visible diff.
  EXPECT_THAT(std::vector<int32_t>(a.begin(), a.begin() + 10), ElementsAre(2, 2, 1, 2, 2, 2, 2, 2, 1, 2));
}

TEST(CollapsedGibbsLdaTest, InvalidInput) {
  const data::Corpus corpus = RandomCorpus(2, 3, 1);
  EXPECT_THAT(std::string(CollapsedGibbsLda::Create(corpus, Options(0, 0.1, 0.1)).status().message()),
              HasSubstr("CollapsedGibbsLdaOptions.num_topics must be >= 1, got 0"));
  EXPECT_THAT(std::string(CollapsedGibbsLda::Create(corpus, Options(2, -1, 0.1)).status().message()),
              HasSubstr("alpha must be finite and > 0, got -1"));
  EXPECT_THAT(std::string(CollapsedGibbsLda::Create(corpus, Options(2, 0.1, 0)).status().message()),
              HasSubstr("beta must be finite and > 0, got 0"));
  data::Corpus broken = corpus;
  broken.tokens[0] = 99;
  EXPECT_FALSE(CollapsedGibbsLda::Create(broken, Options(2, 0.1, 0.1)).ok());
  EXPECT_THAT(std::string(CollapsedGibbsLda::Create(data::Corpus(), Options(2, 0.1, 0.1))
                              .status()
                              .message()),
              HasSubstr("no vocabulary"));
  // A mistyped K: (2 + 3) x 2^30 count-table entries was a std::bad_alloc abort.
  EXPECT_THAT(std::string(CollapsedGibbsLda::Create(corpus, Options(1 << 30, 0.1, 0.1))
                              .status()
                              .message()),
              HasSubstr("count-table entries, more than 2^31"));
}

TEST(CollapsedGibbsLdaDeathTest, BadArguments) {
  auto lda = CollapsedGibbsLda::Create(RandomCorpus(2, 3, 1), Options(2, 0.1, 0.1));
  ASSERT_TRUE(lda.ok());
  std::vector<double> small(1);
  EXPECT_DEATH(lda->TokenConditional(0, absl::MakeSpan(small)),
               "TokenConditional: out must have K = 2 entries, got 1");
  EXPECT_DEATH(lda->TopicWordDistributions(absl::MakeSpan(small)),
               "TopicWordDistributions: out must have K \\* V = 6 entries, got 1");
  EXPECT_DEATH(lda->SetAssignments({0}), "SetAssignments: need");
}

}  // namespace
}  // namespace sgmcmc::models
