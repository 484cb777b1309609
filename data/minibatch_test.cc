#include "data/minibatch.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/distribution_testing.h"

namespace sgmcmc::data {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAreArray;

std::vector<int> Range(int n) {
  std::vector<int> ids(n);
  std::iota(ids.begin(), ids.end(), 0);
  return ids;
}

TEST(GatherDocumentsTest, CopiesTheDocumentsInOrder) {
  Corpus corpus;
  corpus.vocabulary = {"a", "b", "c"};
  corpus.AddDocument({0, 1});
  corpus.AddDocument({2});
  corpus.AddDocument({});
  DocumentMinibatch batch;
  GatherDocuments(corpus, {1, 0, 2, 1}, &batch);
  EXPECT_THAT(batch.ids, ElementsAre(1, 0, 2, 1));
  EXPECT_THAT(batch.documents.doc_offsets, ElementsAre(0, 1, 3, 3, 4));
  EXPECT_THAT(batch.documents.tokens, ElementsAre(2, 0, 1, 2));
  EXPECT_TRUE(batch.documents.vocabulary.empty());
  GatherDocuments(corpus, {2}, &batch);  // reuse
  EXPECT_THAT(batch.documents.doc_offsets, ElementsAre(0, 0));
  EXPECT_DEATH(GatherDocuments(corpus, {3}, &batch), "Corpus::document");
}

TEST(EpochMinibatcherTest, EveryDocumentOncePerEpoch) {
  auto batches = EpochMinibatcher::Create({10, 11, 12, 13, 14, 15}, 3);
  ASSERT_TRUE(batches.ok());
  rng::Engine engine(4);
  for (int epoch = 1; epoch <= 3; ++epoch) {
    std::vector<int> seen;
    for (int b = 0; b < 2; ++b) {
      const absl::Span<const int> batch = batches->Next(engine);
      seen.insert(seen.end(), batch.begin(), batch.end());
    }
    EXPECT_THAT(seen, UnorderedElementsAreArray({10, 11, 12, 13, 14, 15}));
    EXPECT_EQ(batches->epochs_started(), epoch);
  }
}

TEST(EpochMinibatcherTest, BatchesStraddlingEpochsAreFull) {
  auto batches = EpochMinibatcher::Create(Range(5), 3);
  ASSERT_TRUE(batches.ok());
  rng::Engine engine(1);
  std::vector<int> stream;
  for (int b = 0; b < 10; ++b) {
    const absl::Span<const int> batch = batches->Next(engine);
    ASSERT_EQ(batch.size(), 3u);
    stream.insert(stream.end(), batch.begin(), batch.end());
  }
  // The concatenated stream is a sequence of permutations of the pool.
  for (int epoch = 0; epoch < 6; ++epoch) {
    EXPECT_THAT(std::vector<int>(stream.begin() + 5 * epoch, stream.begin() + 5 * epoch + 5),
                UnorderedElementsAreArray(Range(5)));
  }
  auto large = EpochMinibatcher::Create({7, 8}, 5);
  ASSERT_TRUE(large.ok());
  EXPECT_EQ(large->Next(engine).size(), 5u);
}

TEST(EpochMinibatcherTest, SeededAndPinned) {
  auto run = [](uint64_t seed) {
    auto batches = EpochMinibatcher::Create(Range(100), 4);
    rng::Engine engine(seed);
    std::vector<int> stream;
    for (int i = 0; i < 60; ++i) {
      const absl::Span<const int> batch = batches->Next(engine);
      stream.insert(stream.end(), batch.begin(), batch.end());
    }
    return stream;
  };
  EXPECT_EQ(run(9), run(9));
  EXPECT_NE(run(9), run(10));
  auto pinned = EpochMinibatcher::Create(Range(10), 4);
  rng::Engine engine(42);
  const absl::Span<const int> first = pinned->Next(engine);
  EXPECT_THAT(std::vector<int>(first.begin(), first.end()), ElementsAre(4, 0, 1, 6));
}

// The first id of each epoch is uniform over the pool (DiscreteChiSquaredTest, false-failure
// rate 1e-6), for two seeds.
TEST(EpochMinibatcherTest, EpochOrderIsUniform) {
  for (uint64_t seed : {2, 3}) {
    auto batches = EpochMinibatcher::Create(Range(8), 8);
    rng::Engine engine(seed);
    std::vector<int64_t> first;
    for (int epoch = 0; epoch < 16000; ++epoch) first.push_back(batches->Next(engine)[0]);
    const testing::TestResult result =
        testing::DiscreteChiSquaredTest(first, [](int64_t) { return 1.0 / 8; }, 0, 7);
    EXPECT_TRUE(result.Passed()) << result;
  }
}

TEST(EpochMinibatcherTest, RestoreResumesExactly) {
  auto a = EpochMinibatcher::Create(Range(7), 3);
  rng::Engine engine(5);
  for (int i = 0; i < 4; ++i) a->Next(engine);
  const EpochMinibatcher::State saved = a->state();
  const uint64_t position = engine.position();
  a->Next(engine);
  const absl::Span<const int> next = a->Next(engine);
  const std::vector<int> expected(next.begin(), next.end());

  auto b = EpochMinibatcher::Create(Range(7), 3);
  ASSERT_TRUE(b->Restore(saved).ok());
  rng::Engine resumed(5);
  resumed.Seek(position);
  b->Next(resumed);
  const absl::Span<const int> second = b->Next(resumed);
  EXPECT_EQ(std::vector<int>(second.begin(), second.end()), expected);

  EpochMinibatcher::State bad = saved;
  bad.permutation[0] = 99;
  EXPECT_THAT(std::string(b->Restore(bad).message()), HasSubstr("not a permutation"));
  bad = saved;
  bad.position = 8;
  EXPECT_THAT(std::string(b->Restore(bad).message()), HasSubstr("position must be in [0, 7]"));
}

TEST(EpochMinibatcherTest, InvalidArguments) {
  EXPECT_THAT(std::string(EpochMinibatcher::Create({}, 2).status().message()),
              HasSubstr("pool of document ids is empty"));
  EXPECT_THAT(std::string(EpochMinibatcher::Create({1}, 0).status().message()),
              HasSubstr("batch_size must be >= 1, got 0"));
}

}  // namespace
}  // namespace sgmcmc::data
