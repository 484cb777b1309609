#include "data/uci_writer.h"

#include <string>

#include "data/embedded_corpus.h"
#include "data/uci_reader.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/file_testing.h"

namespace sgmcmc::data {
namespace {

using ::sgmcmc::testing::ReadRawTestFile;
using ::sgmcmc::testing::ReadTestFile;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(UciWriterTest, WritesSortedCountsAndEmptyDocuments) {
  Corpus corpus;
  corpus.vocabulary = {"x", "y", "z"};
  corpus.AddDocument({2, 0, 2, 2});
  corpus.AddDocument({});
  corpus.AddDocument({1});
  const std::string docword = absl::StrCat(::testing::TempDir(), "/w.txt");
  const std::string vocab = absl::StrCat(::testing::TempDir(), "/w.vocab");
  ASSERT_TRUE(WriteUciCorpus(corpus, docword, vocab).ok());
  EXPECT_EQ(ReadTestFile(docword), "3\n3\n3\n1 1 1\n1 3 3\n3 2 1\n");
  EXPECT_EQ(ReadTestFile(vocab), "x\ny\nz\n");
  const absl::StatusOr<Corpus> back = ReadUciCorpus(docword, vocab);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_THAT(back->tokens, ElementsAre(0, 2, 2, 2, 1));
  EXPECT_EQ(back->doc_offsets, corpus.doc_offsets);
}

TEST(UciWriterTest, KosRoundTripsExactlyThroughGzip) {
  const absl::StatusOr<Corpus> kos = LoadEmbeddedKos();
  ASSERT_TRUE(kos.ok()) << kos.status();
  const std::string docword = absl::StrCat(::testing::TempDir(), "/kos.txt.gz");
  const std::string vocab = absl::StrCat(::testing::TempDir(), "/kos.vocab");
  ASSERT_TRUE(WriteUciCorpus(*kos, docword, vocab).ok());
  // gzip really applied: the compressed file is much smaller than its 4 MB of text.
  EXPECT_LT(ReadRawTestFile(docword).size(), 2000000u);
  const absl::StatusOr<Corpus> back = ReadUciCorpus(docword, vocab);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->vocabulary, kos->vocabulary);
  EXPECT_EQ(back->doc_offsets, kos->doc_offsets);
  EXPECT_EQ(back->tokens, kos->tokens);
}

TEST(UciWriterTest, UnwritablePathIsAnError) {
  Corpus corpus;
  corpus.vocabulary = {"x"};
  const absl::Status status = WriteUciCorpus(corpus, "/no/such/dir/d.txt", "/no/such/v.txt");
  EXPECT_FALSE(status.ok());
  EXPECT_THAT(std::string(status.message()), HasSubstr("/no/such/dir/d.txt"));
}

TEST(UciWriterTest, InvalidCorpusIsRejected) {
  Corpus corpus;
  corpus.vocabulary = {"x"};
  corpus.AddDocument({0});
  corpus.tokens[0] = 5;
  const std::string dir = ::testing::TempDir();
  EXPECT_EQ(WriteUciCorpus(corpus, dir + "/i.txt", dir + "/i.vocab").code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace sgmcmc::data
