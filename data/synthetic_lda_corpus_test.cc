#include "data/synthetic_lda_corpus.h"

#include <cmath>
#include <numeric>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/distribution_testing.h"

namespace sgmcmc::data {
namespace {

using ::sgmcmc::testing::DiscreteChiSquaredTest;
using ::sgmcmc::testing::MeanZTest;
using ::sgmcmc::testing::TestResult;
using ::testing::HasSubstr;

// Creates the corpus and keeps its topics (K x V, row-major).
SyntheticLdaCorpus CreateKeepingTopics(const SyntheticLdaOptions& options,
                                       std::vector<double>& topics) {
  topics.clear();
  absl::StatusOr<SyntheticLdaCorpus> corpus =
      SyntheticLdaCorpus::Create(options, [&](int k, absl::Span<const double> row) {
        EXPECT_EQ(static_cast<size_t>(k) * row.size(), topics.size());
        topics.insert(topics.end(), row.begin(), row.end());
      });
  EXPECT_TRUE(corpus.ok()) << corpus.status();
  return std::move(*corpus);
}

std::vector<WordCount> Draw(const SyntheticLdaCorpus& corpus, DocumentSet set, int64_t d) {
  SyntheticLdaCorpus::Scratch scratch;
  std::vector<WordCount> entries;
  corpus.Document(set, d, scratch, entries);
  return entries;
}

TEST(SyntheticLdaCorpusTest, ZipfBaseMeasure) {
  const std::vector<double> b = SyntheticLdaCorpus::ZipfBaseMeasure(4, 1.0);
  const double h = 1 + 1.0 / 2 + 1.0 / 3 + 1.0 / 4;
  EXPECT_NEAR(b[0], 1 / h, 1e-16);
  EXPECT_NEAR(b[3], 0.25 / h, 1e-16);
  EXPECT_THAT(SyntheticLdaCorpus::ZipfBaseMeasure(3, 0.0),
              ::testing::ElementsAre(1.0 / 3, 1.0 / 3, 1.0 / 3));
}

// A document depends only on (seed, set, d): drawn in another order, after other documents
// or by another object, it is the same; other seeds, sets and documents differ.
TEST(SyntheticLdaCorpusTest, DocumentsAreCounterBasedAndDeterministic) {
  SyntheticLdaOptions options;
  options.num_topics = 20;
  options.vocabulary_size = 500;
  std::vector<double> topics_a, topics_b;
  const SyntheticLdaCorpus a = CreateKeepingTopics(options, topics_a);
  const SyntheticLdaCorpus b = CreateKeepingTopics(options, topics_b);
  EXPECT_EQ(topics_a, topics_b);
  std::vector<std::vector<WordCount>> forward;
  for (int d = 0; d < 50; ++d) forward.push_back(Draw(a, DocumentSet::kTraining, d));
  for (int d = 49; d >= 0; --d) {
    EXPECT_EQ(Draw(b, DocumentSet::kTraining, d), forward[d]) << d;
  }
  EXPECT_NE(Draw(a, DocumentSet::kHeldOut, 3), forward[3]);
  EXPECT_NE(forward[4], forward[3]);
  options.seed = 2;
  std::vector<double> topics_c;
  const SyntheticLdaCorpus c = CreateKeepingTopics(options, topics_c);
  EXPECT_NE(topics_c, topics_a);
  EXPECT_NE(Draw(c, DocumentSet::kTraining, 3), forward[3]);
  // Entries: ascending distinct words with positive counts.
  for (const auto& entries : forward) {
    for (size_t i = 0; i < entries.size(); ++i) {
      EXPECT_GE(entries[i].count, 1);
      if (i > 0) EXPECT_LT(entries[i - 1].word, entries[i].word);
    }
  }
}

// φ_kw ~ Beta(β V b_w, β V (1 − b_w)) marginally: mean b_w, variance b_w (1 − b_w) / (β V + 1).
// A z-test per word over K = 4000 independent topics at the default false-failure rate.
TEST(SyntheticLdaCorpusTest, TopicsHaveTheZipfBaseMeasureAsMean) {
  SyntheticLdaOptions options;
  options.num_topics = 4000;
  options.vocabulary_size = 6;
  options.beta = 0.5;
  options.zipf_exponent = 1.2;
  std::vector<double> topics;
  CreateKeepingTopics(options, topics);
  const std::vector<double> b = SyntheticLdaCorpus::ZipfBaseMeasure(6, 1.2);
  for (int k = 0; k < options.num_topics; ++k) {
    EXPECT_NEAR(std::accumulate(&topics[6 * k], &topics[6 * k + 6], 0.0), 1, 1e-12);
  }
  for (int w = 0; w < 6; ++w) {
    std::vector<double> column;
    for (int k = 0; k < options.num_topics; ++k) column.push_back(topics[6 * k + w]);
    const TestResult result = MeanZTest(column, b[w], b[w] * (1 - b[w]) / (0.5 * 6 + 1));
    EXPECT_TRUE(result.Passed()) << "word " << w << ": " << result;
  }
}

// The joint law of a 3-token document's words: P(w_1..w_3) = Σ_z P(z) Π φ_{z_n w_n} with the
// Dirichlet-multinomial P(z) = Π_n (α + #{j < n: z_j = z_n}) / (n − 1 + K α). The sorted word
// triple (a <= b <= c, cell a V² + b V + c) is compared with it by a chi-squared test at the
// default false-failure rate, with α = 0.3 so that tokens share topics often (an urn that
// drew topics independently would fail).
TEST(SyntheticLdaCorpusTest, WordTriplesFollowTheLdaJointLaw) {
  SyntheticLdaOptions options;
  options.num_topics = 3;
  options.vocabulary_size = 3;
  options.beta = 0.3;
  options.zipf_exponent = 0.5;
  options.alpha = 0.3;
  options.length_law = SyntheticLdaOptions::LengthLaw::kFixed;
  options.mean_document_length = 3;
  std::vector<double> phi;
  const SyntheticLdaCorpus corpus = CreateKeepingTopics(options, phi);
  const int k = 3, v = 3;
  const double alpha = options.alpha;
  std::vector<double> pmf(v * v * v, 0);
  for (int z = 0; z < k * k * k; ++z) {
    const int zs[3] = {z / 9, z / 3 % 3, z % 3};
    double pz = 1;
    for (int n = 0; n < 3; ++n) {
      int same = 0;
      for (int j = 0; j < n; ++j) same += zs[j] == zs[n];
      pz *= (alpha + same) / (n + k * alpha);
    }
    for (int w = 0; w < v * v * v; ++w) {
      int ws[3] = {w / 9, w / 3 % 3, w % 3};
      const double p = pz * phi[zs[0] * v + ws[0]] * phi[zs[1] * v + ws[1]] *
                       phi[zs[2] * v + ws[2]];
      std::sort(ws, ws + 3);
      pmf[ws[0] * 9 + ws[1] * 3 + ws[2]] += p;
    }
  }
  std::vector<int64_t> cells;
  for (int d = 0; d < 200000; ++d) {
    std::vector<int> words;
    for (const WordCount& e : Draw(corpus, DocumentSet::kTraining, d)) {
      words.insert(words.end(), e.count, e.word);
    }
    ASSERT_EQ(words.size(), 3u);
    cells.push_back(words[0] * 9 + words[1] * 3 + words[2]);
  }
  const TestResult result =
      DiscreteChiSquaredTest(cells, [&](int64_t c) { return pmf[c]; }, 0, 26);
  EXPECT_TRUE(result.Passed()) << result;
}

// Poisson lengths: mean and variance λ (z-test of the mean); fixed lengths: exactly λ.
TEST(SyntheticLdaCorpusTest, DocumentLengths) {
  SyntheticLdaOptions options;
  options.num_topics = 5;
  options.vocabulary_size = 50;
  options.mean_document_length = 7.5;
  std::vector<double> phi;
  const SyntheticLdaCorpus poisson = CreateKeepingTopics(options, phi);
  std::vector<double> lengths;
  for (int d = 0; d < 20000; ++d) {
    int total = 0;
    for (const WordCount& e : Draw(poisson, DocumentSet::kHeldOut, d)) total += e.count;
    lengths.push_back(total);
  }
  const TestResult result = MeanZTest(lengths, 7.5, 7.5);
  EXPECT_TRUE(result.Passed()) << result;
  options.length_law = SyntheticLdaOptions::LengthLaw::kFixed;
  options.mean_document_length = 200;
  const SyntheticLdaCorpus fixed = CreateKeepingTopics(options, phi);
  for (int d = 0; d < 20; ++d) {
    int total = 0;
    for (const WordCount& e : Draw(fixed, DocumentSet::kTraining, d)) total += e.count;
    EXPECT_EQ(total, 200);
  }
}

// Stream stability: these change only if the generator's use of the streams does (then every
// synthetic corpus of a given seed changes; say so in the commit).
TEST(SyntheticLdaCorpusTest, PinnedDocument) {
  SyntheticLdaOptions options;
  options.num_topics = 4;
  options.vocabulary_size = 30;
  options.mean_document_length = 12;
  options.beta = 1;
  std::vector<double> phi;
  const SyntheticLdaCorpus corpus = CreateKeepingTopics(options, phi);
  std::string text;
  for (const WordCount& e : Draw(corpus, DocumentSet::kTraining, 7)) {
    absl::StrAppend(&text, e.word, ":", e.count, " ");
  }
  EXPECT_EQ(text, "0:5 1:1 2:1 3:1 4:3 5:2 6:1 10:2 21:1 22:1 25:1 ");
}

TEST(SyntheticLdaCorpusTest, InvalidOptionsAreNamed) {
  auto error = [](SyntheticLdaOptions options) {
    return std::string(
        SyntheticLdaCorpus::Create(options, [](int, absl::Span<const double>) {})
            .status()
            .message());
  };
  SyntheticLdaOptions options;
  options.num_topics = 0;
  EXPECT_THAT(error(options), HasSubstr("num_topics must be >= 1, got 0"));
  options = {};
  options.vocabulary_size = -1;
  EXPECT_THAT(error(options), HasSubstr("vocabulary_size must be >= 1"));
  options = {};
  options.alpha = 0;
  EXPECT_THAT(error(options), HasSubstr("alpha must be finite and > 0"));
  options = {};
  options.beta = NAN;
  EXPECT_THAT(error(options), HasSubstr("beta must be finite and > 0"));
  options = {};
  options.zipf_exponent = -1;
  EXPECT_THAT(error(options), HasSubstr("zipf_exponent must be in [0, 100]"));
  options = {};
  options.length_law = SyntheticLdaOptions::LengthLaw::kFixed;
  options.mean_document_length = 2.5;
  EXPECT_THAT(error(options), HasSubstr("an integer in [1, 1e6] for fixed lengths, got 2.5"));
  options = {};
  options.mean_document_length = 0;
  EXPECT_THAT(error(options), HasSubstr("(0, 1e6] for Poisson lengths"));
  options = {};
  options.vocabulary_size = 100000;
  options.zipf_exponent = 100;
  EXPECT_THAT(error(options), HasSubstr("underflows to 0 at word"));
}

}  // namespace
}  // namespace sgmcmc::data
