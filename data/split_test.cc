#include "data/split.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "data/embedded_corpus.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sgmcmc::data {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(SplitTest, DocumentCompletionHoldsOutEveryTenthToken) {
  Corpus docs;
  docs.vocabulary.resize(30);
  std::vector<int32_t> doc(23);
  std::iota(doc.begin(), doc.end(), 0);
  docs.AddDocument(doc);
  docs.AddDocument({});
  docs.AddDocument({7});
  const DocumentCompletionSplit split = SplitForDocumentCompletion(docs);
  EXPECT_THAT(split.held_out.document(0), ElementsAre(0, 10, 20));
  EXPECT_EQ(split.observed.document(0).size(), 20u);
  EXPECT_EQ(split.observed.document(0)[0], 1);
  EXPECT_EQ(split.observed.document(0)[9], 11);
  EXPECT_TRUE(split.held_out.document(1).empty());
  EXPECT_TRUE(split.observed.document(1).empty());
  EXPECT_THAT(split.held_out.document(2), ElementsAre(7));
  EXPECT_TRUE(split.observed.document(2).empty());
  EXPECT_EQ(split.observed.vocabulary_size(), 30);
  EXPECT_TRUE(split.observed.Validate().ok());
  EXPECT_TRUE(split.held_out.Validate().ok());
}

TEST(SplitTest, OtherPeriods) {
  Corpus docs;
  docs.vocabulary.resize(5);
  docs.AddDocument({0, 1, 2, 3, 4});
  const DocumentCompletionSplit split = SplitForDocumentCompletion(docs, 2);
  EXPECT_THAT(split.held_out.document(0), ElementsAre(0, 2, 4));
  EXPECT_THAT(split.observed.document(0), ElementsAre(1, 3));
}

TEST(SplitTest, ChooseTestDocumentsIsSeededSortedAndDistinct) {
  rng::Engine a(7, kSplitStream), b(7, kSplitStream), c(8, kSplitStream);
  const std::vector<int> ids = ChooseTestDocuments(1000, 100, a);
  EXPECT_EQ(ids, ChooseTestDocuments(1000, 100, b));
  EXPECT_NE(ids, ChooseTestDocuments(1000, 100, c));
  EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
  EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end());
  EXPECT_GE(ids.front(), 0);
  EXPECT_LT(ids.back(), 1000);
  rng::Engine pinned(1, kSplitStream);
  EXPECT_THAT(ChooseTestDocuments(10, 3, pinned), ElementsAre(1, 7, 8));
}

TEST(SplitTest, SplitCorpusPartitionsKos) {
  const absl::StatusOr<Corpus> kos = LoadEmbeddedKos();
  ASSERT_TRUE(kos.ok()) << kos.status();
  rng::Engine engine(1, kSplitStream);
  const absl::StatusOr<HeldOutSplit> split = SplitCorpus(*kos, HeldOutOptions(), engine);
  ASSERT_TRUE(split.ok()) << split.status();
  EXPECT_EQ(split->test_ids.size(), 343u);
  EXPECT_EQ(split->train_ids.size(), 3430u - 343u);
  std::vector<int> all = split->train_ids;
  all.insert(all.end(), split->test_ids.begin(), split->test_ids.end());
  std::sort(all.begin(), all.end());
  std::vector<int> expected(3430);
  std::iota(expected.begin(), expected.end(), 0);
  EXPECT_EQ(all, expected);
  EXPECT_EQ(split->train.num_documents(), 3087);
  EXPECT_EQ(split->train.num_tokens() + split->test.observed.num_tokens() +
                split->test.held_out.num_tokens(),
            kos->num_tokens());
  for (int j : {0, 100, 342}) {
    const auto original = kos->document(split->test_ids[j]);
    ASSERT_EQ(split->test.held_out.document(j).size(), (original.size() + 9) / 10);
    EXPECT_EQ(split->test.held_out.document(j)[0], original[0]);
  }
  // Pins the KOS split (every sampler and peer is compared on it).
  EXPECT_THAT(std::vector<int>(split->test_ids.begin(), split->test_ids.begin() + 5),
              ElementsAre(35, 44, 45, 59, 66));
}

TEST(SplitTest, InvalidOptions) {
  Corpus corpus;
  corpus.vocabulary = {"a"};
  corpus.AddDocument({0});
  corpus.AddDocument({0});
  rng::Engine engine(1);
  HeldOutOptions options;
  options.test_fraction = 1.0;
  EXPECT_THAT(std::string(SplitCorpus(corpus, options, engine).status().message()),
              HasSubstr("HeldOutOptions.test_fraction must be in (0, 1), got 1"));
  options = HeldOutOptions();
  options.holdout_period = 1;
  EXPECT_THAT(std::string(SplitCorpus(corpus, options, engine).status().message()),
              HasSubstr("holdout_period must be >= 2"));
  options = HeldOutOptions();
  options.num_test_documents = 2;
  EXPECT_THAT(std::string(SplitCorpus(corpus, options, engine).status().message()),
              HasSubstr("num_test_documents must be < the number of documents (2), got 2"));
  options.num_test_documents = -1;
  EXPECT_FALSE(SplitCorpus(corpus, options, engine).ok());
  Corpus one;
  one.vocabulary = {"a"};
  one.AddDocument({0});
  EXPECT_THAT(std::string(SplitCorpus(one, HeldOutOptions(), engine).status().message()),
              HasSubstr("need at least 2 documents"));
}

TEST(SplitDeathTest, BadArguments) {
  rng::Engine engine(1);
  EXPECT_DEATH(ChooseTestDocuments(3, 4, engine),
               "ChooseTestDocuments: num_test must be in \\[0, 3\\], got 4");
  EXPECT_DEATH(SplitForDocumentCompletion(Corpus(), 1),
               "SplitForDocumentCompletion: holdout_period must be >= 2, got 1");
}

}  // namespace
}  // namespace sgmcmc::data
