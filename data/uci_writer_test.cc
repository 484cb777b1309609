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
using ::sgmcmc::testing::WriteTestFile;
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

// The streaming writer gives the bytes WriteUciCorpus gives for the same documents, also
// through gzip (read back by the UCI reader).
TEST(UciDocwordWriterTest, StreamsTheSameFileAsWriteUciCorpus) {
  for (const char* name : {"/s.txt", "/s.txt.gz"}) {
    const std::string path = absl::StrCat(::testing::TempDir(), name);
    absl::StatusOr<std::unique_ptr<UciDocwordWriter>> writer =
        UciDocwordWriter::Open(path, /*num_documents=*/3, /*vocabulary_size=*/3,
                               /*num_entries=*/3);
    ASSERT_TRUE(writer.ok()) << writer.status();
    (*writer)->AddDocument({{0, 1}, {2, 3}});
    (*writer)->AddDocument({});
    (*writer)->AddDocument({{1, 1}});
    EXPECT_EQ((*writer)->text_bytes(), 24);
    ASSERT_TRUE((*writer)->Close().ok());
    const std::string vocab = WriteTestFile("s.vocab", "x\ny\nz\n");
    const absl::StatusOr<Corpus> back = ReadUciCorpus(path, vocab);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_THAT(back->tokens, ElementsAre(0, 2, 2, 2, 1));
    EXPECT_THAT(back->doc_offsets, ElementsAre(0, 4, 4, 5));
  }
  EXPECT_EQ(ReadTestFile(absl::StrCat(::testing::TempDir(), "/s.txt")),
            "3\n3\n3\n1 1 1\n1 3 3\n3 2 1\n");
}

TEST(UciDocwordWriterTest, AHeaderThatDoesNotMatchTheDocumentsIsAnError) {
  const std::string path = absl::StrCat(::testing::TempDir(), "/h.txt");
  absl::StatusOr<std::unique_ptr<UciDocwordWriter>> writer =
      UciDocwordWriter::Open(path, 2, 3, 2);
  ASSERT_TRUE(writer.ok()) << writer.status();
  (*writer)->AddDocument({{0, 1}});
  const absl::Status status = (*writer)->Close();
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(status.message()),
              HasSubstr("h.txt: the header says D = 2, NNZ = 2 but 1 documents with 1 entries "
                        "were written"));
  EXPECT_EQ(UciDocwordWriter::Open(path, 2, 0, 2).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(UciDocwordWriter::Open("/no/such/dir/x.txt", 1, 1, 0)
                              .status()
                              .message()),
              HasSubstr("/no/such/dir/x.txt: cannot open for writing"));
}

}  // namespace
}  // namespace sgmcmc::data
