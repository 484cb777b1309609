#include "eval/lda_gibbs.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "rng/uniform.h"
#include "testing/distribution_testing.h"

namespace sgmcmc::eval {
namespace {

// Each chi-squared test below fails with probability testing::kFalseFailureRate = 1e-6 when the
// sampler draws from the stated distribution: `Passed()` compares the p-value of Pearson's
// statistic (cells with expected count < 5 pooled) with 1e-6.

// A K x V topic matrix with skewed random rows (cubed uniforms) and, with probability
// `zero_fraction`, exact zeros; every row is normalised to sum to 1.
std::vector<double> RandomTopics(int num_topics, int vocabulary_size, double zero_fraction,
                                 uint64_t seed) {
  rng::Engine engine(seed, 77);
  std::vector<double> topics(static_cast<size_t>(num_topics) * vocabulary_size);
  for (int k = 0; k < num_topics; ++k) {
    double* row = topics.data() + static_cast<size_t>(k) * vocabulary_size;
    double sum = 0;
    for (int w = 0; w < vocabulary_size; ++w) {
      const double u = rng::UniformDouble(engine);
      row[w] = rng::UniformDouble(engine) < zero_fraction ? 0.0 : u * u * u;
      sum += row[w];
    }
    if (sum == 0) row[0] = sum = 1;
    for (int w = 0; w < vocabulary_size; ++w) row[w] /= sum;
  }
  return topics;
}

// A full K x V topic matrix (test reference).
struct TopicMatrixView {
  const std::vector<double>& values;
  int num_topics;
  int vocabulary_size;
  double at(int k, int w) const { return values[static_cast<size_t>(k) * vocabulary_size + w]; }
};

// The table of the minibatch whose distinct words are `distinct` (local id u = distinct[u]).
MinibatchTopicTable TableFor(const TopicMatrixView& topics, double alpha,
                             const std::vector<int32_t>& distinct) {
  std::vector<double> columns(topics.num_topics * distinct.size());
  for (int k = 0; k < topics.num_topics; ++k) {
    for (size_t u = 0; u < distinct.size(); ++u) {
      columns[k * distinct.size() + u] = topics.at(k, distinct[u]);
    }
  }
  return MinibatchTopicTable::Build(
      TopicColumnsView{columns, topics.num_topics, static_cast<int>(distinct.size())}, alpha);
}

// The distinct words of `words` in order of first appearance and the local id of every token.
struct LocalWords {
  std::vector<int32_t> distinct;
  std::vector<int32_t> local;
};
LocalWords MakeLocal(const std::vector<int32_t>& words, int vocabulary_size) {
  LocalWords out;
  std::vector<int32_t> index(vocabulary_size, -1);
  for (int32_t w : words) {
    if (index[w] < 0) {
      index[w] = static_cast<int32_t>(out.distinct.size());
      out.distinct.push_back(w);
    }
    out.local.push_back(index[w]);
  }
  return out;
}

// p(z_i = k | z_{\i}) ∝ (α + n_k^{\i}) π_{k, w_i}, normalised; a word with an all-zero column
// counts as equally likely under every topic (the documented convention).
std::vector<double> ExactConditional(const TopicMatrixView& topics, double alpha,
                                     const std::vector<int32_t>& words,
                                     const std::vector<int32_t>& z, int i) {
  std::vector<double> counts(topics.num_topics, 0.0);
  for (size_t j = 0; j < z.size(); ++j) {
    if (static_cast<int>(j) != i) counts[z[j]] += 1;
  }
  double column_sum = 0;
  for (int k = 0; k < topics.num_topics; ++k) column_sum += topics.at(k, words[i]);
  std::vector<double> p(topics.num_topics);
  double total = 0;
  for (int k = 0; k < topics.num_topics; ++k) {
    const double pi = column_sum > 0 ? topics.at(k, words[i]) : 1.0;
    p[k] = (alpha + counts[k]) * pi;
    total += p[k];
  }
  for (double& x : p) x /= total;
  return p;
}

TEST(SparseTopicCountsTest, MatchesDenseCountsUnderRandomUpdates) {
  constexpr int kTopics = 37;
  SparseTopicCounts sparse(kTopics);
  std::vector<int> dense(kTopics, 0);
  rng::Engine engine(11);
  for (int step = 0; step < 20000; ++step) {
    const int k = static_cast<int>(rng::UniformInt(engine, kTopics));
    if (dense[k] > 0 && rng::UniformDouble(engine) < 0.5) {
      sparse.Decrement(k);
      --dense[k];
    } else {
      sparse.Increment(k);
      ++dense[k];
    }
    if (step % 97 == 0) {
      int nonzero = 0;
      for (int t = 0; t < kTopics; ++t) {
        ASSERT_EQ(sparse.count(t), dense[t]) << "topic " << t << " step " << step;
        nonzero += dense[t] > 0;
      }
      ASSERT_EQ(sparse.num_nonzero(), nonzero);
      std::vector<int> seen(kTopics, 0);
      for (const auto& e : sparse.entries()) {
        ASSERT_GT(e.count, 0);
        ASSERT_EQ(e.count, dense[e.topic]);
        ASSERT_EQ(++seen[e.topic], 1) << "topic listed twice";
      }
    }
  }
  sparse.Clear();
  EXPECT_EQ(sparse.num_nonzero(), 0);
  for (int t = 0; t < kTopics; ++t) EXPECT_EQ(sparse.count(t), 0);
  sparse.Increment(5);
  EXPECT_EQ(sparse.count(5), 1);
}

// IncrementEntry(j) is Increment of the j-th listed topic: same counts, same list order.
TEST(SparseTopicCountsTest, IncrementEntryEqualsIncrementOfItsTopic) {
  constexpr int kTopics = 23;
  SparseTopicCounts by_entry(kTopics), by_topic(kTopics);
  rng::Engine engine(12);
  for (int step = 0; step < 5000; ++step) {
    const int k = static_cast<int>(rng::UniformInt(engine, kTopics));
    const double u = rng::UniformDouble(engine);
    if (by_topic.count(k) > 0 && u < 0.4) {
      by_entry.Decrement(k);
      by_topic.Decrement(k);
    } else if (by_topic.num_nonzero() > 0 && u < 0.8) {
      const int j = static_cast<int>(rng::UniformInt(engine, by_topic.num_nonzero()));
      by_topic.Increment(by_topic.entries()[j].topic);
      by_entry.IncrementEntry(j);
    } else {
      by_entry.Increment(k);
      by_topic.Increment(k);
    }
    ASSERT_EQ(by_entry.num_nonzero(), by_topic.num_nonzero()) << "step " << step;
    for (int j = 0; j < by_topic.num_nonzero(); ++j) {
      ASSERT_EQ(by_entry.entries()[j].topic, by_topic.entries()[j].topic) << "step " << step;
      ASSERT_EQ(by_entry.entries()[j].count, by_topic.entries()[j].count) << "step " << step;
    }
  }
}

// DecrementKeeping leaves entry `keep` listed at count zero, follows it when a removal moves
// it, and with keep = -1 is Decrement.
TEST(SparseTopicCountsTest, DecrementKeepingKeepsAndFollowsTheKeptEntry) {
  SparseTopicCounts counts(10);
  for (int k : {3, 5, 7}) counts.Increment(k);
  int keep = 0;  // topic 3's entry
  counts.DecrementKeeping(3, keep);
  EXPECT_EQ(keep, 0);
  ASSERT_EQ(counts.num_nonzero(), 3);
  EXPECT_EQ(counts.entries()[0].topic, 3);
  EXPECT_EQ(counts.entries()[0].count, 0);
  counts.IncrementEntry(0);
  EXPECT_EQ(counts.count(3), 1);
  keep = 2;  // topic 7's entry, the last: removing topic 5 moves it to index 1
  counts.DecrementKeeping(5, keep);
  EXPECT_EQ(keep, 1);
  ASSERT_EQ(counts.num_nonzero(), 2);
  EXPECT_EQ(counts.entries()[1].topic, 7);
  EXPECT_EQ(counts.index(7), 1);
  EXPECT_EQ(counts.index(5), -1);
  EXPECT_EQ(counts.count(5), 0);
  keep = -1;
  counts.DecrementKeeping(3, keep);
  EXPECT_EQ(keep, -1);
  ASSERT_EQ(counts.num_nonzero(), 1);
  EXPECT_EQ(counts.entries()[0].topic, 7);
  EXPECT_EQ(counts.count(3), 0);
  EXPECT_EQ(counts.index(7), 0);
}

TEST(SparseTopicCountsDeathTest, DecrementOfZeroCountDies) {
#ifndef NDEBUG
  SparseTopicCounts counts(4);
  EXPECT_DEATH(counts.Decrement(2), "SparseTopicCounts::Decrement: topic 2 has count 0");
#endif
}

// Sweeps `kRepetitions` times from the assignments z (each time from a fresh stream) and
// checks that the first token's new topic follows its exact conditional given the others
// (chi-squared), never landing on a topic of probability 0. With `first_topic` >= 0 the first
// token must have drawn that topic (its word allows no other), and the second token is
// checked instead, given the first token's new topic.
void ExpectFirstTokenFollowsExactConditional(const TopicMatrixView& topics, double alpha,
                                             const std::vector<int32_t>& words,
                                             const std::vector<int32_t>& z, uint64_t seed,
                                             int32_t first_topic = -1) {
  constexpr int kRepetitions = 30000;
  const LocalWords local = MakeLocal(words, topics.vocabulary_size);
  const MinibatchTopicTable table = TableFor(topics, alpha, local.distinct);
  const int token = first_topic >= 0 ? 1 : 0;
  std::vector<int32_t> given = z;
  if (first_topic >= 0) given[0] = first_topic;
  const std::vector<double> exact = ExactConditional(topics, alpha, words, given, token);
  std::vector<int64_t> draws(kRepetitions);
  DocumentGibbsState doc(local.local, topics.num_topics);
  for (int r = 0; r < kRepetitions; ++r) {
    doc.SetAssignments(z);
    rng::Engine engine(seed, 1000 + r);
    GibbsSweep(table, engine, doc);
    if (first_topic >= 0) ASSERT_EQ(doc.assignments()[0], first_topic);
    draws[r] = doc.assignments()[token];
    ASSERT_GT(exact[draws[r]], 0) << "drew topic " << draws[r] << " of probability 0";
  }
  const auto result = testing::DiscreteChiSquaredTest(
      draws, [&](int64_t k) { return exact[k]; }, 0, topics.num_topics - 1);
  EXPECT_TRUE(result.Passed()) << result;
}

struct SingleTokenCase {
  int num_topics;
  double alpha;
  double zero_fraction;
  int doc_length;
  uint64_t seed;
};

// The first token's new topic after one sweep has exactly the conditional given the others'
// starting topics: tested across K (incl. K = 1), α (alias bucket rare to dominant), sparse
// topics with exact zeros, and seeds.
TEST(GibbsSweepTest, FirstTokenFollowsExactConditional) {
  const std::vector<SingleTokenCase> cases = {
      {1, 0.1, 0.0, 5, 1},     {3, 0.1, 0.0, 12, 2},    {3, 5.0, 0.3, 12, 3},
      {20, 0.01, 0.5, 40, 4},  {20, 0.5, 0.0, 40, 5},   {20, 50.0, 0.2, 40, 6},
      {100, 0.1, 0.0, 150, 7}, {100, 0.1, 0.6, 150, 8}, {100, 2.0, 0.0, 30, 9},
      {7, 0.001, 0.0, 200, 10}};
  constexpr int kVocabulary = 25;
  for (const SingleTokenCase& c : cases) {
    SCOPED_TRACE(::testing::Message() << "K=" << c.num_topics << " alpha=" << c.alpha
                                    << " zeros=" << c.zero_fraction);
    const std::vector<double> values =
        RandomTopics(c.num_topics, kVocabulary, c.zero_fraction, c.seed);
    const TopicMatrixView topics{values, c.num_topics, kVocabulary};
    rng::Engine setup(c.seed, 1);
    std::vector<int32_t> words(c.doc_length), z(c.doc_length);
    for (int i = 0; i < c.doc_length; ++i) {
      // Few distinct words, so repeated words and the per-word tables are exercised; topics
      // concentrated on a few values so some n_dk are large and most are zero.
      words[i] = static_cast<int32_t>(rng::UniformInt(setup, 6));
      z[i] = static_cast<int32_t>(rng::UniformInt(setup, std::min(c.num_topics, 4)) *
                                  (c.num_topics > 4 ? c.num_topics / 4 : 1));
    }
    ExpectFirstTokenFollowsExactConditional(topics, c.alpha, words, z, c.seed);
  }
}

// A document of `doc_length` tokens over 6 words whose tokens use `present` topics spread over
// [0, K) (each at least twice, so still present without the first token); the first token's
// new topic is checked against its exact conditional (ExpectFirstTokenFollowsExactConditional).
struct ManyTopicsCase {
  int num_topics;
  int present;
  double alpha;
  double zero_fraction;
  uint64_t seed;
};

// With `pending` the first token's word (id 6, no other token's) has probability under one
// topic only, k*, the topic of slot present / 2, so that the first draw is k* and the second
// token's draw finds it pending at an entry inside the list (ExpectFirstTokenFollowsExact-
// Conditional's second-token check); the second token's word (id 7) is likeliest under k*, so
// that the pending token's share of its mass, π_{k* w}, is large enough to be tested.
void ExpectManyTopicsCase(const ManyTopicsCase& c, int doc_length, bool pending = false) {
  SCOPED_TRACE(::testing::Message() << "K=" << c.num_topics << " present=" << c.present
                                    << " alpha=" << c.alpha << " zeros=" << c.zero_fraction
                                    << " pending=" << pending);
  constexpr int kVocabulary = 25;
  constexpr int kOneTopicWord = 6, kSecondWord = 7;
  std::vector<double> values = RandomTopics(c.num_topics, kVocabulary, c.zero_fraction, c.seed);
  const int32_t k_star =
      static_cast<int32_t>((c.present / 2) * static_cast<int64_t>(c.num_topics) / c.present);
  if (pending) {
    for (int k = 0; k < c.num_topics; ++k) {
      values[static_cast<size_t>(k) * kVocabulary + kOneTopicWord] = k == k_star ? 0.5 : 0.0;
    }
    values[static_cast<size_t>(k_star) * kVocabulary + kSecondWord] = 0.5;
  }
  const TopicMatrixView topics{values, c.num_topics, kVocabulary};
  rng::Engine setup(c.seed, 1);
  std::vector<int32_t> words(doc_length), z(doc_length);
  for (int i = 0; i < doc_length; ++i) {
    words[i] = static_cast<int32_t>(rng::UniformInt(setup, 6));
    // `present` topics spread over [0, K): each of them at tokens t and t + present, the
    // rest drawn among them.
    const int slot = i < 2 * c.present ? i % c.present
                                       : static_cast<int>(rng::UniformInt(setup, c.present));
    z[i] = static_cast<int32_t>(slot * static_cast<int64_t>(c.num_topics) / c.present);
  }
  if (pending) {
    words[0] = kOneTopicWord;
    words[1] = kSecondWord;
  }
  ExpectFirstTokenFollowsExactConditional(topics, c.alpha, words, z, c.seed,
                                          pending ? k_star : -1);
}

// The same with many topics present in the document, 7 to 40: from 8 on the cumulative
// masses are formed in blocks of four, here with remainders of 0 to 3 topics, and from 16 on
// the search goes by blocks too; with exact zeros among the masses.
TEST(GibbsSweepTest, FirstTokenFollowsExactConditionalWithManyTopicsPresent) {
  const std::vector<ManyTopicsCase> cases = {
      {20, 8, 0.01, 0.0, 61},  {20, 9, 0.1, 0.5, 62},   {50, 13, 0.1, 0.3, 63},
      {100, 16, 0.01, 0.6, 64}, {100, 23, 1.0, 0.0, 65}, {100, 40, 0.1, 0.2, 66},
      {12, 12, 0.5, 0.4, 67},  {100, 7, 0.1, 0.3, 68}};
  for (const ManyTopicsCase& c : cases) ExpectManyTopicsCase(c, /*doc_length=*/120);
}

// Issue 29's large K, with as many topics per document as generated 200-token documents hold
// there (models/lda/gibbs_benchmark.cc, BM_LdaGibbsSweepGenerated: ~30 to ~165; here 30 to
// 80, to keep the test short): K = 1000 and 5000, where the α bucket's table spans 63 and 313
// blocks (searched by groups of 16 blocks, then blocks), α = 0.01 (sparse bucket dominant) and
// α = 1 (α bucket dominant), with and without exact zeros. Same test and false-failure rate
// (1e-6 per case) as above.
TEST(GibbsSweepTest, FirstTokenFollowsExactConditionalAtLargeK) {
  const std::vector<ManyTopicsCase> cases = {{1000, 30, 0.01, 0.3, 71},
                                             {1000, 60, 1.0, 0.0, 72},
                                             {5000, 40, 0.01, 0.0, 73},
                                             {5000, 80, 1.0, 0.5, 74}};
  // Short documents (each topic twice, 20 more tokens): the test needs the first token only.
  for (const ManyTopicsCase& c : cases) ExpectManyTopicsCase(c, 2 * c.present + 20);
}

// The second token, while the first token's new topic is pending (not yet in the counts: the
// draw adds its π at its entry q, gibbs.cc), with q inside the list of 9 to 60 topics present:
// the flat search below 16 topics and the blocked one from 16 on, with x below and above q.
// The first token's topic k* (entry present / 2) is forced by its word; the second token's
// exact conditional is then given the first's new topic. Same test and rate as above.
TEST(GibbsSweepTest, SecondTokenFollowsExactConditionalWithThePendingToken) {
  const std::vector<ManyTopicsCase> cases = {{20, 9, 0.1, 0.3, 81},
                                             {100, 23, 0.01, 0.0, 82},
                                             {1000, 30, 0.01, 0.3, 83},
                                             {1000, 60, 1.0, 0.0, 84}};
  for (const ManyTopicsCase& c : cases) {
    ExpectManyTopicsCase(c, 2 * c.present + 20, /*pending=*/true);
  }
}

TEST(GibbsSweepTest, WordWithAllZeroColumnUsesDocumentCountsOnly) {
  constexpr int kTopics = 5;
  constexpr int kVocabulary = 3;
  std::vector<double> values = RandomTopics(kTopics, kVocabulary, 0.0, 21);
  // Word 1 gets zero probability under every topic; renormalise the rows over words 0, 2.
  for (int k = 0; k < kTopics; ++k) {
    double* row = values.data() + k * kVocabulary;
    row[1] = 0;
    const double sum = row[0] + row[2];
    row[0] /= sum;
    row[2] /= sum;
  }
  const TopicMatrixView topics{values, kTopics, kVocabulary};
  const std::vector<int32_t> words = {1, 0, 2, 0, 1};
  const std::vector<int32_t> z = {0, 3, 3, 1, 3};
  const LocalWords local = MakeLocal(words, kVocabulary);
  const MinibatchTopicTable table = TableFor(topics, 0.7, local.distinct);
  const std::vector<double> exact = ExactConditional(topics, 0.7, words, z, 0);
  // Sanity of the reference: p(k) ∝ 0.7 + n_k with n = (0, 1, 0, 3, 0).
  EXPECT_NEAR(exact[3], 3.7 / (5 * 0.7 + 4), 1e-15);

  std::vector<int64_t> draws(20000);
  DocumentGibbsState doc(local.local, kTopics);
  for (size_t r = 0; r < draws.size(); ++r) {
    doc.SetAssignments(z);
    rng::Engine engine(22, r);
    GibbsSweep(table, engine, doc);
    draws[r] = doc.assignments()[0];
  }
  const auto result = testing::DiscreteChiSquaredTest(
      draws, [&](int64_t k) { return exact[k]; }, 0, kTopics - 1);
  EXPECT_TRUE(result.Passed()) << result;
}

// Exact law of (initialisation + `sweeps` systematic-scan sweeps) for a small document, by
// enumerating all K^n joint states: the initialisation draws z_i from p(z_i | z_{<i}) and a
// sweep applies the single-site kernels T_0, ..., T_{n-1} in order.
std::vector<double> ExactJointLaw(const TopicMatrixView& topics, double alpha,
                                  const std::vector<int32_t>& words, int sweeps) {
  const int n = static_cast<int>(words.size());
  const int k_topics = topics.num_topics;
  int states = 1;
  for (int i = 0; i < n; ++i) states *= k_topics;
  auto decode = [&](int s) {
    std::vector<int32_t> z(n);
    for (int i = 0; i < n; ++i, s /= k_topics) z[i] = s % k_topics;
    return z;
  };
  auto encode = [&](const std::vector<int32_t>& z) {
    int s = 0;
    for (int i = n - 1; i >= 0; --i) s = s * k_topics + z[i];
    return s;
  };
  // Initialisation: sequential conditionals over growing prefixes.
  std::vector<double> law(states, 0.0);
  for (int s = 0; s < states; ++s) {
    const std::vector<int32_t> z = decode(s);
    double p = 1;
    for (int i = 0; i < n; ++i) {
      const std::vector<int32_t> prefix_words(words.begin(), words.begin() + i + 1);
      const std::vector<int32_t> prefix_z(z.begin(), z.begin() + i + 1);
      p *= ExactConditional(topics, alpha, prefix_words, prefix_z, i)[z[i]];
    }
    law[s] = p;
  }
  for (int sweep = 0; sweep < sweeps; ++sweep) {
    for (int i = 0; i < n; ++i) {
      std::vector<double> next(states, 0.0);
      for (int s = 0; s < states; ++s) {
        if (law[s] == 0) continue;
        std::vector<int32_t> z = decode(s);
        const std::vector<double> p = ExactConditional(topics, alpha, words, z, i);
        for (int k = 0; k < k_topics; ++k) {
          z[i] = k;
          next[encode(z)] += law[s] * p[k];
        }
      }
      law.swap(next);
    }
  }
  return law;
}

TEST(GibbsSweepTest, InitialisationPlusSweepsMatchExactJointLaw) {
  struct Case {
    int num_topics;
    double alpha;
    std::vector<int32_t> words;
    int sweeps;
    uint64_t seed;
  };
  const std::vector<Case> cases = {{3, 0.1, {0, 1, 0, 2}, 0, 31},
                                   {3, 0.1, {0, 1, 0, 2}, 2, 32},
                                   {4, 1.5, {2, 2, 3}, 1, 33},
                                   {2, 0.01, {0, 1, 1, 3, 0}, 3, 34},
                                   {5, 0.3, {4, 1, 4}, 2, 35}};
  constexpr int kVocabulary = 5;
  constexpr int kRepetitions = 60000;
  for (const Case& c : cases) {
    const std::vector<double> values = RandomTopics(c.num_topics, kVocabulary, 0.2, c.seed);
    const TopicMatrixView topics{values, c.num_topics, kVocabulary};
    const std::vector<double> law = ExactJointLaw(topics, c.alpha, c.words, c.sweeps);
    const LocalWords local = MakeLocal(c.words, kVocabulary);
    const MinibatchTopicTable table = TableFor(topics, c.alpha, local.distinct);
    DocumentGibbsState doc(local.local, c.num_topics);
    std::vector<int64_t> draws(kRepetitions);
    for (int r = 0; r < kRepetitions; ++r) {
      rng::Engine engine(c.seed, r);
      InitializeAssignments(table, engine, doc);
      for (int s = 0; s < c.sweeps; ++s) GibbsSweep(table, engine, doc);
      int64_t code = 0;
      for (int i = doc.size() - 1; i >= 0; --i) code = code * c.num_topics + doc.assignments()[i];
      draws[r] = code;
      // The sparse counts always agree with the assignments.
      std::vector<int> counts(c.num_topics, 0);
      for (int32_t k : doc.assignments()) ++counts[k];
      for (int k = 0; k < c.num_topics; ++k) ASSERT_EQ(doc.counts().count(k), counts[k]);
    }
    const auto result = testing::DiscreteChiSquaredTest(
        draws, [&](int64_t s) { return law[s]; }, 0, static_cast<int64_t>(law.size()) - 1);
    EXPECT_TRUE(result.Passed()) << "K=" << c.num_topics << " sweeps=" << c.sweeps << " "
                                 << result;
  }
}

TEST(GibbsSweepTest, SameEngineStateGivesSameAssignments) {
  const std::vector<double> values = RandomTopics(10, 8, 0.1, 41);
  const TopicMatrixView topics{values, 10, 8};
  const std::vector<int32_t> words = {0, 1, 2, 3, 4, 5, 6, 7, 0, 1};
  const LocalWords local = MakeLocal(words, 8);
  const MinibatchTopicTable table = TableFor(topics, 0.1, local.distinct);
  DocumentGibbsState a(local.local, 10), b(local.local, 10);
  rng::Engine ea(5, 6), eb(5, 6);
  InitializeAssignments(table, ea, a);
  InitializeAssignments(table, eb, b);
  for (int s = 0; s < 5; ++s) {
    GibbsSweep(table, ea, a);
    GibbsSweep(table, eb, b);
  }
  EXPECT_EQ(std::vector<int32_t>(a.assignments().begin(), a.assignments().end()),
            std::vector<int32_t>(b.assignments().begin(), b.assignments().end()));
  EXPECT_EQ(ea.position(), eb.position());
}

// Stream stability: these assignments change only if the sampler's use of the engine does.
TEST(GibbsSweepTest, PinnedAssignments) {
  const std::vector<double> values = RandomTopics(6, 5, 0.0, 71);
  const TopicMatrixView topics{values, 6, 5};
  const std::vector<int32_t> words = {0, 1, 2, 3, 4, 0, 1, 2, 2, 4, 3, 1};
  const LocalWords local = MakeLocal(words, 5);
  const MinibatchTopicTable table = TableFor(topics, 3.0, local.distinct);
  DocumentGibbsState doc(local.local, 6);
  rng::Engine engine(2024, 9);
  InitializeAssignments(table, engine, doc);
  GibbsSweep(table, engine, doc);
  GibbsSweep(table, engine, doc);
  EXPECT_EQ(std::vector<int32_t>(doc.assignments().begin(), doc.assignments().end()),
            (std::vector<int32_t>{3, 2, 0, 1, 2, 0, 0, 0, 0, 2, 3, 2}));
  EXPECT_EQ(engine.position(), 53u);  // 36 bucket choices + 17 α-bucket draws
}

TEST(MinibatchTopicTableTest, ColumnsAndAlphaMasses) {
  const std::vector<double> values = RandomTopics(4, 6, 0.0, 51);
  const TopicMatrixView topics{values, 4, 6};
  const std::vector<int32_t> words = {5, 0, 3};
  const MinibatchTopicTable table = TableFor(topics, 0.25, words);
  EXPECT_EQ(table.num_words(), 3);
  EXPECT_EQ(table.num_topics(), 4);
  for (int u = 0; u < 3; ++u) {
    double sum = 0;
    for (int k = 0; k < 4; ++k) {
      EXPECT_EQ(table.at(k, u), topics.at(k, words[u]));
      sum += topics.at(k, words[u]);
    }
    EXPECT_NEAR(table.alpha_mass(u), 0.25 * sum, 1e-15);
  }
}

// The α bucket draws k ∝ π_kw: K below, at and across multiples of kAlphaBlock (one block,
// a partial last block, several blocks), exact zeros (whole blocks of them at zero_fraction
// 0.9), an all-zero column (then uniform), several seeds. Each chi-squared test fails with
// probability 1e-6 under the stated law (see the top of the file).
TEST(MinibatchTopicTableTest, AlphaBucketDrawsFollowTheColumn) {
  struct Case {
    int num_topics;
    double zero_fraction;
    uint64_t seed;
  };
  const std::vector<Case> cases = {{1, 0.0, 1},   {5, 0.0, 2},    {16, 0.3, 3}, {17, 0.0, 4},
                                   {33, 0.5, 5},  {100, 0.0, 6},  {100, 0.9, 7}, {100, 0.0, 8},
                                   {250, 0.7, 9}, {48, 0.95, 10}, {1000, 0.3, 11},
                                   {4099, 0.0, 12}};
  constexpr int kVocabulary = 3;
  constexpr int kDraws = 200000;
  for (const Case& c : cases) {
    std::vector<double> values = RandomTopics(c.num_topics, kVocabulary, c.zero_fraction, c.seed);
    // Word 2 gets an all-zero column (documented: then equally likely under every topic).
    for (int k = 0; k < c.num_topics; ++k) values[k * kVocabulary + 2] = 0;
    const TopicMatrixView topics{values, c.num_topics, kVocabulary};
    const MinibatchTopicTable table = TableFor(topics, 0.5, {0, 1, 2});
    for (int u = 0; u < kVocabulary; ++u) {
      double sum = 0;
      for (int k = 0; k < c.num_topics; ++k) sum += topics.at(k, u);
      rng::Engine engine(c.seed, 100 + u);
      std::vector<int64_t> draws(kDraws);
      for (int64_t& d : draws) d = table.SampleAlphaBucket(u, engine);
      // One engine word per draw.
      EXPECT_EQ(engine.position(), static_cast<uint64_t>(kDraws));
      const auto result = testing::DiscreteChiSquaredTest(
          draws,
          [&](int64_t k) { return sum > 0 ? topics.at(k, u) / sum : 1.0 / c.num_topics; }, 0,
          c.num_topics - 1);
      EXPECT_TRUE(result.Passed()) << "K=" << c.num_topics << " zeros=" << c.zero_fraction
                                   << " word " << u << " " << result;
      // A topic with π_kw = 0 is never drawn.
      if (sum > 0) {
        for (int64_t k : draws) ASSERT_GT(topics.at(k, u), 0.0) << "K=" << c.num_topics;
      }
    }
  }
}

// The α mass of an all-zero column is α K and of any other column α Σ_k π_kw.
// The α bucket's search (groups of kAlphaBlock blocks, then blocks, then topics) finds
// the same topic as the plain inversion it replaces, draw for draw: the block sums recomputed
// here in the table's order (each block in topic order, then the running sum), the first block
// whose running sum exceeds y = U x total by a scan of every block, then the first topic
// inside it whose running sum exceeds the rest. K from one group to 313 blocks (partial last
// group and block), with exact zeros.
TEST(MinibatchTopicTableTest, AlphaBucketEqualsPlainInversion) {
  constexpr int kBlock = MinibatchTopicTable::kAlphaBlock;
  constexpr int kDraws = 20000;
  for (const int num_topics : {16, 255, 256, 257, 1000, 4099, 5000}) {
    SCOPED_TRACE(::testing::Message() << "K=" << num_topics);
    const std::vector<double> values = RandomTopics(num_topics, 2, 0.5, num_topics);
    const TopicMatrixView topics{values, num_topics, 2};
    const MinibatchTopicTable table = TableFor(topics, 0.5, {0, 1});
    for (int u = 0; u < 2; ++u) {
      const int num_blocks = (num_topics + kBlock - 1) / kBlock;
      std::vector<double> blocks(num_blocks);
      double running = 0;
      for (int b = 0; b < num_blocks; ++b) {
        double block_sum = 0;
        for (int k = b * kBlock; k < std::min((b + 1) * kBlock, num_topics); ++k) {
          block_sum += topics.at(k, u);
        }
        blocks[b] = running += block_sum;
      }
      rng::Engine engine(num_topics, u), reference(num_topics, u);
      for (int r = 0; r < kDraws; ++r) {
        double y = rng::UniformDouble(reference) * running;
        if (!(y < running)) y = std::nextafter(running, 0.0);
        int b = 0;
        while (blocks[b] <= y) ++b;
        const double rest = y - (b == 0 ? 0.0 : blocks[b - 1]);
        int expected = -1, last_positive = b * kBlock;
        double sum = 0;
        for (int k = b * kBlock; k < std::min((b + 1) * kBlock, num_topics); ++k) {
          sum += topics.at(k, u);
          if (rest < sum) {
            expected = k;
            break;
          }
          if (topics.at(k, u) > 0) last_positive = k;
        }
        if (expected < 0) expected = last_positive;
        ASSERT_EQ(table.SampleAlphaBucket(u, engine), expected) << "draw " << r << " word " << u;
      }
    }
  }
}

TEST(MinibatchTopicTableTest, AllZeroColumnHasUniformAlphaMass) {
  std::vector<double> values = RandomTopics(37, 2, 0.0, 57);
  for (int k = 0; k < 37; ++k) values[k * 2 + 1] = 0;
  const MinibatchTopicTable table = MinibatchTopicTable::Build(TopicColumnsView{values, 37, 2}, 0.5);
  EXPECT_EQ(table.alpha_mass(1), 0.5 * 37);
  for (int k = 0; k < 37; ++k) EXPECT_EQ(table.at(k, 1), 1.0);
}

// Same size, columns, α masses, and α-bucket draws from equal engines.
void ExpectSameTables(const MinibatchTopicTable& a, const MinibatchTopicTable& b) {
  ASSERT_EQ(a.num_words(), b.num_words());
  ASSERT_EQ(a.num_topics(), b.num_topics());
  for (int u = 0; u < a.num_words(); ++u) {
    EXPECT_EQ(a.alpha_mass(u), b.alpha_mass(u));
    for (int k = 0; k < a.num_topics(); ++k) EXPECT_EQ(a.at(k, u), b.at(k, u));
    rng::Engine engine_a(3, u), engine_b(3, u);
    for (int i = 0; i < 50; ++i) {
      EXPECT_EQ(a.SampleAlphaBucket(u, engine_a), b.SampleAlphaBucket(u, engine_b));
    }
  }
}

TEST(MinibatchTopicTableTest, SlicesSetSeparatelyEqualOneBuild) {
  const std::vector<double> values = RandomTopics(21, 9, 0.4, 56);
  const TopicColumnsView topics{values, 21, 9};
  const MinibatchTopicTable reference = MinibatchTopicTable::Build(topics, 0.2);
  MinibatchTopicTable table = MinibatchTopicTable::Allocate(21, 9, 0.2);
  // Columns [4, 9) and then [0, 4), each as its own 21 x W slice.
  for (const auto& [first, width] : std::vector<std::pair<int, int>>{{4, 5}, {0, 4}}) {
    std::vector<double> slice(21 * width);
    for (int k = 0; k < 21; ++k) {
      for (int j = 0; j < width; ++j) slice[k * width + j] = topics.at(k, first + j);
    }
    table.SetColumns(first, TopicColumnsView{slice, 21, width});
  }
  ExpectSameTables(table, reference);
  for (int u = 0; u < 9; ++u) {
    for (int k = 0; k < 21; ++k) EXPECT_EQ(table.at(k, u), topics.at(k, u));
  }
}

TEST(MinibatchTopicTableTest, ColumnsSetOneByOneEqualOneBuild) {
  // Column 5 all zero: FinishColumn's uniform fallback on this path too.
  std::vector<double> values = RandomTopics(21, 9, 0.4, 57);
  for (int k = 0; k < 21; ++k) values[k * 9 + 5] = 0;
  const TopicColumnsView topics{values, 21, 9};
  const MinibatchTopicTable reference = MinibatchTopicTable::Build(topics, 0.2);
  MinibatchTopicTable table = MinibatchTopicTable::Allocate(21, 9, 0.2);
  for (int u : {3, 8, 0, 1, 2, 4, 5, 6, 7}) {
    std::vector<double> column(21);
    for (int k = 0; k < 21; ++k) column[k] = topics.at(k, u);
    table.SetColumn(u, column.data());
  }
  ExpectSameTables(table, reference);
}

TEST(MinibatchTopicTableTest, ColumnRangesFilledSeparatelyEqualOneBuild) {
  const std::vector<double> values = RandomTopics(6, 40, 0.3, 52);
  const TopicColumnsView topics{values, 6, 40};
  const MinibatchTopicTable whole = MinibatchTopicTable::Build(topics, 0.3);
  MinibatchTopicTable parts = MinibatchTopicTable::Allocate(6, 40, 0.3);
  parts.FillColumns(topics, 25, 40);
  parts.FillColumns(topics, 0, 25);
  ExpectSameTables(whole, parts);
}

// GatherColumns from a K x V matrix at some words equals Build on the K x U matrix of those
// columns (a word listed twice, an all-zero column among them).
TEST(MinibatchTopicTableTest, GatheredColumnsEqualOneBuild) {
  constexpr int K = 21, V = 30;
  std::vector<double> full = RandomTopics(K, V, 0.4, 58);
  for (int k = 0; k < K; ++k) full[k * V + 6] = 0;
  const std::vector<int32_t> words = {29, 6, 0, 17, 6, 3, 11, 12, 28};
  const int U = static_cast<int>(words.size());
  std::vector<double> gathered(K * U);
  for (int k = 0; k < K; ++k) {
    for (int u = 0; u < U; ++u) gathered[k * U + u] = full[k * V + words[u]];
  }
  const MinibatchTopicTable reference =
      MinibatchTopicTable::Build(TopicColumnsView{gathered, K, U}, 0.2);
  MinibatchTopicTable table = MinibatchTopicTable::Allocate(K, U, 0.2);
  table.GatherColumns(full, V, words);
  ExpectSameTables(table, reference);
}

TEST(MinibatchTopicTableTest, ResetTableEqualsFreshTable) {
  const std::vector<double> first = RandomTopics(4, 30, 0.2, 54);
  const std::vector<double> second = RandomTopics(4, 12, 0.2, 55);
  MinibatchTopicTable reused = MinibatchTopicTable::Build(TopicColumnsView{first, 4, 30}, 0.3);
  rng::Engine engine(1);
  for (int u = 0; u < 30; ++u) reused.SampleAlphaBucket(u, engine);
  reused.Reset(4, 12, 0.7);
  reused.FillColumns(TopicColumnsView{second, 4, 12}, 0, 12);
  const MinibatchTopicTable fresh = MinibatchTopicTable::Build(TopicColumnsView{second, 4, 12}, 0.7);
  ASSERT_EQ(reused.num_words(), 12);
  ExpectSameTables(reused, fresh);
}

TEST(MinibatchTopicTableDeathTest, BadArgumentsDie) {
  const std::vector<double> values = RandomTopics(2, 3, 0.0, 61);
  const TopicColumnsView topics{values, 2, 3};
  EXPECT_DEATH(MinibatchTopicTable::Build(topics, 0.0),
               "MinibatchTopicTable::Allocate: alpha must be > 0");
  const TopicColumnsView wrong_shape{values, 3, 3};
  EXPECT_DEATH(MinibatchTopicTable::Build(wrong_shape, 0.1), "topics must be 3 x 3, got 3 x 3 with 6");
  MinibatchTopicTable table = MinibatchTopicTable::Allocate(2, 3, 0.1);
  EXPECT_DEATH(table.FillColumns(topics, 2, 4), "column range \\[2, 4\\) is not inside");
  EXPECT_DEATH(table.SetColumns(2, TopicColumnsView{values, 2, 3}),
               "SetColumns: columns \\[2, 5\\) are not inside \\[0, 3\\]");
  EXPECT_DEATH(table.SetColumns(0, TopicColumnsView{values, 3, 2}),
               "SetColumns: block must be 2 x W, got 3 x 2");
  EXPECT_DEATH(table.SetColumn(3, values.data()),
               "SetColumn: column 3 is not inside \\[0, 3\\)");
  const std::vector<int32_t> two_words = {0, 1};
  EXPECT_DEATH(table.GatherColumns(values, 3, two_words),
               "GatherColumns: 2 words for a table of 3");
  std::vector<double> bad = values;
  bad[1] = -0.5;
  EXPECT_DEATH(MinibatchTopicTable::Build(TopicColumnsView{bad, 2, 3}, 0.1),
               "column 1 has a negative, NaN or infinite entry");
  bad[1] = std::nan("");
  EXPECT_DEATH(MinibatchTopicTable::Build(TopicColumnsView{bad, 2, 3}, 0.1),
               "column 1 has a negative, NaN or infinite entry");
  bad[1] = std::numeric_limits<double>::infinity();
  EXPECT_DEATH(MinibatchTopicTable::Build(TopicColumnsView{bad, 2, 3}, 0.1),
               "column 1 has a negative, NaN or infinite entry");
}

TEST(DocumentGibbsStateDeathTest, BadAssignmentsDie) {
  const std::vector<int32_t> words = {0, 1, 0};
  DocumentGibbsState doc(words, 4);
  EXPECT_DEATH(doc.SetAssignments(std::vector<int32_t>{0, 1}), "expected 3 assignments, got 2");
  EXPECT_DEATH(doc.SetAssignments(std::vector<int32_t>{0, 4, 1}), "assignment 1 is 4");
}

}  // namespace
}  // namespace sgmcmc::eval
