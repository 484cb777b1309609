// LdaTopicUpdate::kLazy (samplers::LazyScir inside Lda): the same chain in law as kEager in the
// full LDA loop (minibatches that leave words out, Gibbs counts that depend on ω), and the
// determinism guarantees of Lda (any thread count; checkpoints).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "data/corpus.h"
#include "gtest/gtest.h"
#include "models/lda/lda.h"
#include "models/lda/testing.h"
#include "parallel/thread_pool.h"
#include "samplers/scir.h"
#include "samplers/scir_lazy.h"
#include "testing/distribution_testing.h"

namespace sgmcmc::models {
namespace {

LdaOptions LazyOptions() {
  LdaOptions options = LdaPresetOptions(LdaPreset::kScirFast);
  options.num_topics = 4;
  options.minibatch_size = 10;
  options.gibbs_sweeps = 6;
  options.seed = 99;
  options.topic_update = LdaTopicUpdate::kLazy;
  return options;
}

std::vector<double> TopicsOf(const Lda& lda) {
  std::vector<double> topics(static_cast<size_t>(lda.num_topics()) * lda.vocabulary_size());
  lda.Topics(absl::MakeSpan(topics));
  return topics;
}

TEST(LdaLazyTest, ValidateNamesTheField) {
  LdaOptions o = LazyOptions();
  EXPECT_TRUE(o.Validate(100).ok());
  o.sampler = LdaSampler::kSgrld;
  EXPECT_NE(std::string(o.Validate(100).message()).find("sampler must be kScir with topic_update"),
            std::string::npos);
  o = LazyOptions();
  o.count_estimator = LdaCountEstimator::kPersistentJoint;
  o.minibatch_size = 100;
  EXPECT_NE(std::string(o.Validate(100).message()).find("kPersistentJoint"), std::string::npos);
  o = LazyOptions();
  o.topic_update = static_cast<LdaTopicUpdate>(5);
  EXPECT_NE(std::string(o.Validate(100).message()).find("LdaOptions.topic_update"),
            std::string::npos);
  EXPECT_EQ(LdaTopicUpdateName(LdaTopicUpdate::kLazy), "lazy");
  EXPECT_EQ(LdaTopicUpdateName(LdaTopicUpdate::kEager), "eager");
}

TEST(LdaLazyTest, BitIdenticalForAnyThreadCountAndPools) {
  // V = 320, 10 of 80 documents per minibatch: most entries pooled between their reads.
  const data::Corpus corpus = BlockCorpus(4, 80, 80, 30, 4);
  std::vector<double> reference;
  for (int threads : {0, 1, 2, 3}) {
    std::unique_ptr<parallel::ThreadPool> pool;
    if (threads > 0) pool = std::make_unique<parallel::ThreadPool>(threads);
    auto lda = Lda::Create(corpus, LazyOptions(), pool.get());
    ASSERT_TRUE(lda.ok()) << lda.status();
    for (int m = 0; m < 6; ++m) lda->Step();
    const auto& lazy = dynamic_cast<const samplers::LazyScir&>(lda->sampler());
    EXPECT_GT(lazy.pooled(0), 100) << "threads=" << threads;
    const std::vector<double> topics = TopicsOf(*lda);
    if (reference.empty()) {
      reference = topics;
    } else {
      EXPECT_EQ(topics, reference) << "threads=" << threads;
    }
  }
}

// A checkpointed run and the run restored from its checkpoint continue bit for bit (the
// checkpoint materialises every entry, in both).
TEST(LdaLazyTest, RestoredRunContinuesBitIdentically) {
  const data::Corpus corpus = BlockCorpus(4, 150, 80, 30, 5);
  parallel::ThreadPool pool(2);
  auto first = Lda::Create(corpus, LazyOptions(), &pool);
  ASSERT_TRUE(first.ok());
  for (int m = 0; m < 3; ++m) first->Step();
  const LdaState state = first->State();
  auto resumed = Lda::Create(corpus, LazyOptions(), nullptr);
  ASSERT_TRUE(resumed.ok());
  ASSERT_TRUE(resumed->Restore(state).ok());
  EXPECT_EQ(TopicsOf(*resumed), TopicsOf(*first));
  for (int m = 3; m < 8; ++m) {
    first->Step();
    resumed->Step();
  }
  EXPECT_EQ(TopicsOf(*resumed), TopicsOf(*first));
  const LdaState a = resumed->State(), b = first->State();
  EXPECT_EQ(std::vector<double>(a.topics().parameters().begin(), a.topics().parameters().end()),
            std::vector<double>(b.topics().parameters().begin(), b.topics().parameters().end()));
}

// The joint law of the topics after kIterations LDA iterations (V = 20, minibatches of 2 of
// 20 documents of 4 tokens, so each iteration reads at most 8 words and leaves the others
// out; Gibbs counts that depend on ω; the step size decaying every iteration) is the same for
// kLazy as for kEager: log ω of every entry, the log row sums log θ_k·, and two joint
// statistics (ω_00 ω_11, and the number of entries above 0.2), by two-sample KS tests over
// kReplicates seeds of each, each at testing::kFalseFailureRate = 1e-6: 2 x 20 + 2 + 2 = 44
// tests, a false failure with probability < 1e-4.
TEST(LdaLazyTest, JointLawOfTopicsEqualsEager) {
  constexpr int kReplicates = 15000, kIterations = 4, kTopics = 2;
  const data::Corpus corpus = BlockCorpus(kTopics, 10, 20, 4, 11, /*mixing=*/0.3);
  const int vocabulary = corpus.vocabulary_size();
  ASSERT_EQ(vocabulary, 20);
  const int num_stats = kTopics * vocabulary + kTopics + 2;
  std::vector<std::vector<double>> stats[2];
  for (auto& s : stats) s.assign(num_stats, {});
  for (int which = 0; which < 2; ++which) {
    for (int r = 0; r < kReplicates; ++r) {
      LdaOptions options = LazyOptions();
      options.num_topics = kTopics;
      options.minibatch_size = 2;
      options.gibbs_sweeps = 2;
      options.beta = 0.3;
      options.seed = static_cast<uint64_t>(r);
      options.topic_update = which == 0 ? LdaTopicUpdate::kEager : LdaTopicUpdate::kLazy;
      auto lda = Lda::Create(corpus, options, nullptr);
      ASSERT_TRUE(lda.ok()) << lda.status();
      for (int m = 0; m < kIterations; ++m) lda->Step();
      const std::vector<double> topics = TopicsOf(*lda);
      int s = 0, large = 0;
      for (double w : topics) {
        stats[which][s++].push_back(std::log(w));
        large += w > 0.2;
      }
      for (int k = 0; k < kTopics; ++k) {
        stats[which][s++].push_back(
            which == 0 ? dynamic_cast<const samplers::Scir&>(lda->sampler()).log_normalizer(k)
                       : dynamic_cast<const samplers::LazyScir&>(lda->sampler()).log_normalizer(k));
      }
      stats[which][s++].push_back(topics[0] * topics[vocabulary + 1]);
      stats[which][s++].push_back(large);
    }
  }
  for (int s = 0; s < num_stats; ++s) {
    const testing::TestResult result =
        testing::TwoSampleKolmogorovSmirnovTest(stats[0][s], stats[1][s]);
    EXPECT_TRUE(result.Passed()) << "statistic " << s << ": " << result;
  }
}

}  // namespace
}  // namespace sgmcmc::models
