#include "data/text_reader.h"

#include <filesystem>
#include <string>

#include "data/uci_reader.h"
#include "data/uci_writer.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/file_testing.h"

namespace sgmcmc::data {
namespace {

using ::sgmcmc::testing::WriteTestFile;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Word ids of document d, as words.
std::vector<std::string> Words(const Corpus& corpus, int d) {
  std::vector<std::string> words;
  for (int32_t w : corpus.document(d)) words.push_back(corpus.vocabulary[w]);
  return words;
}

constexpr char kLines[] =
    "Apples and pears; apples!\n"
    "The pears are ripe.\n"
    "\n"
    "Zebra apples zebra 42\n"
    "the and of\n";

TEST(TextReaderTest, OneDocumentPerLine) {
  TextReadSummary summary;
  const absl::StatusOr<Corpus> corpus =
      ReadTextLines(WriteTestFile("lines.txt.gz", kLines), TextCorpusOptions(), &summary);
  ASSERT_TRUE(corpus.ok()) << corpus.status();
  EXPECT_THAT(corpus->vocabulary, ElementsAre("apples", "pears", "ripe", "zebra"));
  ASSERT_EQ(corpus->num_documents(), 3);
  EXPECT_THAT(Words(*corpus, 0), ElementsAre("apples", "pears", "apples"));
  EXPECT_THAT(Words(*corpus, 1), ElementsAre("pears", "ripe"));
  EXPECT_THAT(Words(*corpus, 2), ElementsAre("zebra", "apples", "zebra"));
  EXPECT_EQ(summary.documents_read, 5);
  EXPECT_EQ(summary.documents_dropped, 2);  // the empty line and the all-stop-word line
  EXPECT_EQ(summary.documents_kept, 3);
  EXPECT_EQ(summary.tokenizer.stop_words, 6);  // and, the, are, the, and, of
  EXPECT_EQ(summary.tokens_kept, 8);
  EXPECT_EQ(summary.vocabulary_size, 4);
  EXPECT_THAT(summary.BriefReport(), HasSubstr("5 read, 3 kept, 2 dropped"));
  EXPECT_THAT(summary.BriefReport(), HasSubstr("6 stop words"));
}

TEST(TextReaderTest, MinimumDocumentFrequencyAndCap) {
  TextCorpusOptions options;
  options.min_document_frequency = 2;
  options.min_document_tokens = 0;
  TextReadSummary summary;
  absl::StatusOr<Corpus> corpus =
      ReadTextLines(WriteTestFile("df.txt", kLines), options, &summary);
  ASSERT_TRUE(corpus.ok());
  EXPECT_THAT(corpus->vocabulary, ElementsAre("apples", "pears"));  // df 3 and 2
  EXPECT_EQ(corpus->num_documents(), 5);  // empty documents kept with min_document_tokens 0
  EXPECT_EQ(summary.dropped_rare, 3);     // ripe, zebra x2
  EXPECT_EQ(summary.distinct_words, 4);

  options.min_document_frequency = 1;
  options.max_vocabulary_size = 2;  // apples (4), zebra (2) and pears (2): tie -> pears
  corpus = ReadTextLines(WriteTestFile("cap.txt", kLines), options, &summary);
  ASSERT_TRUE(corpus.ok());
  EXPECT_THAT(corpus->vocabulary, ElementsAre("apples", "pears"));
  EXPECT_EQ(summary.dropped_by_cap, 3);  // ripe, zebra x2
}

TEST(TextReaderTest, FixedVocabulary) {
  TextCorpusOptions options;
  options.vocabulary_path = WriteTestFile("fixed.vocab", "zebra\npears\n");
  TextReadSummary summary;
  const absl::StatusOr<Corpus> corpus =
      ReadTextLines(WriteTestFile("fixed.txt", kLines), options, &summary);
  ASSERT_TRUE(corpus.ok()) << corpus.status();
  EXPECT_THAT(corpus->vocabulary, ElementsAre("zebra", "pears"));
  ASSERT_EQ(corpus->num_documents(), 3);
  EXPECT_THAT(corpus->document(2), ElementsAre(0, 0));
  EXPECT_EQ(summary.dropped_out_of_vocabulary, 4);  // apples x3, ripe

  options.vocabulary_path = WriteTestFile("dup.vocab", "a\nb\na\n");
  const absl::StatusOr<Corpus> bad = ReadTextLines(WriteTestFile("x.txt", kLines), options);
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("dup.vocab:3: word 'a' appears twice"));
  options.min_document_frequency = 2;
  EXPECT_THAT(std::string(options.Validate().message()), HasSubstr("vocabulary_path fixes"));
}

TEST(TextReaderTest, OneDocumentPerFileInSortedOrder) {
  const std::string dir = ::testing::TempDir() + "/docs";
  std::filesystem::create_directories(dir + "/sub");
  WriteTestFile("docs/b.txt", "banana bread\nbanana");
  WriteTestFile("docs/a.txt", "apple pie");
  WriteTestFile("docs/sub/c.txt.gz", "cherry\ncherry tart");
  const absl::StatusOr<std::vector<std::string>> files = ListFilesRecursively(dir);
  ASSERT_TRUE(files.ok());
  EXPECT_THAT(*files, ElementsAre(dir + "/a.txt", dir + "/b.txt", dir + "/sub/c.txt.gz"));
  TextReadSummary summary;
  const absl::StatusOr<Corpus> corpus = ReadTextCorpus(dir, TextCorpusOptions(), &summary);
  ASSERT_TRUE(corpus.ok()) << corpus.status();
  ASSERT_EQ(corpus->num_documents(), 3);
  EXPECT_THAT(Words(*corpus, 0), ElementsAre("apple", "pie"));
  EXPECT_THAT(Words(*corpus, 1), ElementsAre("banana", "bread", "banana"));
  EXPECT_THAT(Words(*corpus, 2), ElementsAre("cherry", "cherry", "tart"));
  EXPECT_EQ(summary.documents_read, 3);
}

TEST(TextReaderTest, RoundTripThroughUci) {
  const absl::StatusOr<Corpus> corpus =
      ReadTextLines(WriteTestFile("rt.txt", kLines), TextCorpusOptions());
  ASSERT_TRUE(corpus.ok());
  const std::string docword = ::testing::TempDir() + "/rt.docword.txt";
  const std::string vocab = ::testing::TempDir() + "/rt.vocab.txt";
  ASSERT_TRUE(WriteUciCorpus(*corpus, docword, vocab).ok());
  const absl::StatusOr<Corpus> back = ReadUciCorpus(docword, vocab);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->vocabulary, corpus->vocabulary);
  EXPECT_EQ(back->doc_offsets, corpus->doc_offsets);
  // The UCI format stores counts: each document comes back grouped by word id.
  EXPECT_THAT(back->document(0), ElementsAre(0, 0, 1));
  EXPECT_THAT(back->document(2), ElementsAre(0, 3, 3));
}

TEST(TextReaderTest, Errors) {
  EXPECT_EQ(ReadTextLines("/no/such/file.txt", TextCorpusOptions()).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(ListFilesRecursively("/no/such/dir").status().code(), absl::StatusCode::kNotFound);
  TextCorpusOptions options;
  options.min_document_frequency = 0;
  EXPECT_THAT(std::string(ReadTextLines("x", options).status().message()),
              HasSubstr("min_document_frequency must be >= 1, got 0"));
  options = TextCorpusOptions();
  options.max_vocabulary_size = -1;
  EXPECT_THAT(std::string(options.Validate().message()),
              HasSubstr("max_vocabulary_size must be >= 0, got -1"));
  options = TextCorpusOptions();
  options.min_document_tokens = -1;
  EXPECT_THAT(std::string(options.Validate().message()),
              HasSubstr("min_document_tokens must be >= 0, got -1"));
}

}  // namespace
}  // namespace sgmcmc::data
