#include "data/embedded_msweb.h"

#include "gtest/gtest.h"

namespace sgmcmc::data {
namespace {

TEST(EmbeddedMswebTest, LoadsTheSubset) {
  absl::StatusOr<EmbeddedMsweb> msweb = LoadEmbeddedMsweb();
  ASSERT_TRUE(msweb.ok()) << msweb.status();
  EXPECT_EQ(msweb->train.corpus.num_documents(), kEmbeddedMswebTrainUsers);
  EXPECT_EQ(msweb->test.corpus.num_documents(), kEmbeddedMswebTestUsers);
  EXPECT_EQ(msweb->train.corpus.vocabulary_size(), kMswebVroots);
  EXPECT_EQ(msweb->test.corpus.vocabulary_size(), kMswebVroots);
  EXPECT_EQ(msweb->train.corpus.num_tokens(), 12350);
  EXPECT_EQ(msweb->test.corpus.num_tokens(), 3071);
  EXPECT_EQ(msweb->train.vroots.ids.front(), 1000);
  EXPECT_EQ(msweb->train.vroots.ids.back(), 1297);
  EXPECT_EQ(msweb->train.case_ids.front(), 10001);
  // UCI's first user visited Vroots 1000, 1001, 1002 (words 0, 1, 2).
  EXPECT_EQ(msweb->train.corpus.document(0).size(), 3u);
  EXPECT_EQ(msweb->train.corpus.document(0)[2], 2);
}

}  // namespace
}  // namespace sgmcmc::data
