#include "data/embedded_corpus.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sgmcmc::data {
namespace {

using ::testing::EndsWith;

TEST(EmbeddedCorpusTest, FindsKosInRunfiles) {
  const absl::StatusOr<UciCorpusPaths> paths = EmbeddedKosPaths();
  ASSERT_TRUE(paths.ok()) << paths.status();
  EXPECT_THAT(paths->docword, EndsWith("data/kos/docword.kos.txt.gz"));
  EXPECT_THAT(paths->vocab, EndsWith("data/kos/vocab.kos.txt"));
}

TEST(EmbeddedCorpusTest, LoadsKosWithItsPublishedSizes) {
  UciReadSummary summary;
  const absl::StatusOr<Corpus> kos = LoadEmbeddedKos("", &summary);
  ASSERT_TRUE(kos.ok()) << kos.status();
  EXPECT_EQ(kos->num_documents(), kKosNumDocuments);
  EXPECT_EQ(kos->vocabulary_size(), kKosVocabularySize);
  EXPECT_EQ(kos->num_tokens(), kKosNumTokens);
  EXPECT_THAT(summary.docword_path, EndsWith("docword.kos.txt.gz"));
}

}  // namespace
}  // namespace sgmcmc::data
