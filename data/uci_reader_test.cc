#include "data/uci_reader.h"

#include <string>

#include "data/embedded_corpus.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/file_testing.h"

namespace sgmcmc::data {
namespace {

using ::sgmcmc::testing::ReadRawTestFile;
using ::sgmcmc::testing::WriteRawTestFile;
using ::sgmcmc::testing::WriteTestFile;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kVocab[] = "apple\nbanana\ncherry\n";

// Reads docword `contents` (written to `name`) with the three-word vocabulary above.
absl::StatusOr<Corpus> Read(absl::string_view name, absl::string_view contents,
                            UciReadSummary* summary = nullptr) {
  const std::string vocab = WriteTestFile(absl::StrCat(name, ".vocab"), kVocab);
  return ReadUciCorpus(WriteTestFile(name, contents), vocab, summary);
}

// Expects reading `contents` to fail with InvalidArgument "<path>:<line>: ...<message>...".
void ExpectError(absl::string_view contents, int line, absl::string_view message) {
  static int counter = 0;
  const std::string name = absl::StrCat("bad", ++counter, ".txt");
  const absl::StatusOr<Corpus> corpus = Read(name, contents);
  ASSERT_FALSE(corpus.ok()) << contents;
  EXPECT_EQ(corpus.status().code(), absl::StatusCode::kInvalidArgument);
  const std::string expected_prefix =
      absl::StrCat(::testing::TempDir(), "/", name, ":", line, ": ");
  EXPECT_THAT(std::string(corpus.status().message()), HasSubstr(expected_prefix))
      << corpus.status();
  EXPECT_THAT(std::string(corpus.status().message()), HasSubstr(message)) << corpus.status();
}

TEST(UciReaderTest, ExpandsCountsInFileOrderPlainAndGzip) {
  const char kDocword[] = "3\n3\n4\n1 3 2\n1 1 1\n3 2 3\n3 3 0\n";
  for (const char* name : {"ok.txt", "ok.txt.gz"}) {
    UciReadSummary summary;
    const absl::StatusOr<Corpus> corpus = Read(name, kDocword, &summary);
    ASSERT_TRUE(corpus.ok()) << corpus.status();
    EXPECT_THAT(corpus->vocabulary, ElementsAre("apple", "banana", "cherry"));
    EXPECT_EQ(corpus->num_documents(), 3);
    EXPECT_THAT(corpus->document(0), ElementsAre(2, 2, 0));
    EXPECT_TRUE(corpus->document(1).empty());
    EXPECT_THAT(corpus->document(2), ElementsAre(1, 1, 1));
    EXPECT_TRUE(corpus->Validate().ok());
    EXPECT_EQ(summary.num_documents, 3);
    EXPECT_EQ(summary.vocabulary_size, 3);
    EXPECT_EQ(summary.num_entries, 4);
    EXPECT_EQ(summary.num_tokens, 6);
    EXPECT_EQ(summary.num_empty_documents, 1);
    EXPECT_EQ(summary.num_zero_count_entries, 1);
    EXPECT_EQ(summary.num_blank_lines, 0);
    EXPECT_EQ(summary.uncompressed_bytes, sizeof(kDocword) - 1);
    EXPECT_THAT(summary.BriefReport(), HasSubstr("3 documents (1 empty)"));
    EXPECT_THAT(summary.BriefReport(), HasSubstr("(1 with count 0)"));
  }
}

TEST(UciReaderTest, TrailingEmptyDocumentsAndBlankLinesAreCounted) {
  UciReadSummary summary;
  const absl::StatusOr<Corpus> corpus =
      Read("blank.txt", "4\n3\n1\n2 1 5\n\n  \n", &summary);
  ASSERT_TRUE(corpus.ok()) << corpus.status();
  EXPECT_THAT(corpus->doc_offsets, ElementsAre(0, 0, 5, 5, 5));
  EXPECT_EQ(summary.num_empty_documents, 3);
  EXPECT_EQ(summary.num_blank_lines, 2);
}

TEST(UciReaderTest, ToleratesSpacesTabsAndCrlf) {
  const absl::StatusOr<Corpus> corpus = Read("crlf.txt", " 1\r\n3\t\r\n1\r\n1\t 2   2 \r\n");
  ASSERT_TRUE(corpus.ok()) << corpus.status();
  EXPECT_THAT(corpus->tokens, ElementsAre(1, 1));
}

TEST(UciReaderTest, BadHeader) {
  ExpectError("", 1, "file ends before the header line D");
  ExpectError("x\n3\n0\n", 1, "expected the header line D (number of documents)");
  ExpectError("2\n", 2, "file ends before the header line W");
  ExpectError("2\n0\n0\n", 2, "header W (vocabulary size) must be in [1, ");
  ExpectError("2\n3 4\n0\n", 2, "expected the header line W");
  ExpectError("2\n3\n-1\n", 3, "expected the header line NNZ");
  ExpectError("2\n3\n99999999999999999999\n", 3, "expected the header line NNZ");
  ExpectError("2\n3\n", 3, "file ends before the header line NNZ");
}

TEST(UciReaderTest, EntriesOutOfRange) {
  ExpectError("2\n3\n2\n1 1 1\n3 1 1\n", 5, "docID 3 is outside [1, D = 2]");
  ExpectError("2\n3\n1\n0 1 1\n", 4, "docID 0 is outside [1, D = 2]");
  ExpectError("2\n3\n1\n1 4 1\n", 4, "wordID 4 is outside [1, W = 3]");
  ExpectError("2\n3\n1\n1 0 1\n", 4, "wordID 0 is outside [1, W = 3]");
  ExpectError("2\n3\n1\n1 1 3000000000\n", 4, "count 3000000000 exceeds the limit");
}

TEST(UciReaderTest, NonNumericAndMissingFields) {
  ExpectError("2\n3\n1\n1 x 1\n", 4, "field 2 (wordID) is not a non-negative integer: 'x'");
  ExpectError("2\n3\n1\n1 1 -2\n", 4, "field 3 (count) is not a non-negative integer: '-2'");
  ExpectError("2\n3\n1\n1.5 1 1\n", 4, "field 1 (docID)");
  ExpectError("2\n3\n1\n1 1\n", 4, "expected 3 fields \"docID wordID count\", got 2");
  ExpectError("2\n3\n1\n1 1 1 1\n", 4, "got more than 3");
}

TEST(UciReaderTest, CountMismatchWithNnz) {
  ExpectError("2\n3\n3\n1 1 1\n2 2 2\n", 5, "file ends after 2 entries but the header says NNZ = 3");
  ExpectError("2\n3\n1\n1 1 1\n2 2 2\n", 5, "more entries than NNZ = 1");
}

TEST(UciReaderTest, OrderAndDuplicates) {
  ExpectError("2\n3\n2\n2 1 1\n1 1 1\n", 5, "docID 1 after docID 2: entries must be sorted");
  ExpectError("2\n3\n3\n1 1 1\n1 2 1\n1 1 4\n", 6, "wordID 1 appears twice in docID 1");
}

TEST(UciReaderTest, VocabularyMismatch) {
  const std::string docword = WriteTestFile("v.txt", "1\n4\n1\n1 4 1\n");
  const absl::StatusOr<Corpus> corpus =
      ReadUciCorpus(docword, WriteTestFile("v.vocab", kVocab));
  ASSERT_FALSE(corpus.ok());
  EXPECT_THAT(std::string(corpus.status().message()),
              HasSubstr("v.vocab: has 3 words, the docword header says W = 4"));
}

TEST(UciReaderTest, VocabularyBlankLines) {
  int64_t blank = 0;
  absl::StatusOr<std::vector<std::string>> words =
      ReadUciVocabulary(WriteTestFile("trailing.vocab", " a \nb\r\n\n\n"), 2, &blank);
  ASSERT_TRUE(words.ok()) << words.status();
  EXPECT_THAT(*words, ElementsAre("a", "b"));
  EXPECT_EQ(blank, 2);
  const std::string path = WriteTestFile("hole.vocab", "a\n\nb\n");
  words = ReadUciVocabulary(path, -1);
  ASSERT_FALSE(words.ok());
  EXPECT_THAT(std::string(words.status().message()),
              HasSubstr(path + ":2: blank line inside the vocabulary (word 2 is missing"));
}

TEST(UciReaderTest, MissingFiles) {
  const absl::StatusOr<Corpus> corpus = ReadUciCorpus("/no/such/docword.txt", "/no/vocab");
  EXPECT_EQ(corpus.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(corpus.status().message()), HasSubstr("/no/such/docword.txt"));
}

TEST(UciReaderTest, TruncatedGzipIsDataLoss) {
  std::string text = "200\n3\n200\n";
  for (int d = 1; d <= 200; ++d) text += absl::StrCat(d, " ", 1 + d % 3, " ", d, "\n");
  const std::string full = ReadRawTestFile(WriteTestFile("full.txt.gz", text));
  const std::string path = WriteRawTestFile("cut.txt.gz", full.substr(0, full.size() - 12));
  const absl::StatusOr<Corpus> corpus =
      ReadUciCorpus(path, WriteTestFile("cut.vocab", kVocab));
  ASSERT_FALSE(corpus.ok());
  EXPECT_THAT(std::string(corpus.status().message()), HasSubstr(path));
}

TEST(UciDocumentReaderTest, DocumentsInOrderAndRewind) {
  auto reader = UciDocumentReader::Open(WriteTestFile("docs.txt.gz", "4\n3\n3\n2 3 2\n2 1 1\n3 2 1\n"));
  ASSERT_TRUE(reader.ok()) << reader.status();
  EXPECT_EQ(reader->header().num_documents, 4);
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<std::vector<int32_t>> documents;
    int d;
    std::vector<int32_t> tokens;
    while (true) {
      const absl::StatusOr<bool> more = reader->Next(&d, &tokens);
      ASSERT_TRUE(more.ok()) << more.status();
      if (!*more) break;
      EXPECT_EQ(d, static_cast<int>(documents.size()));
      documents.push_back(tokens);
    }
    EXPECT_THAT(documents, ElementsAre(ElementsAre(), ElementsAre(2, 2, 0), ElementsAre(1),
                                       ElementsAre()));
    const absl::StatusOr<bool> again = reader->Next(&d, &tokens);
    ASSERT_TRUE(again.ok());
    EXPECT_FALSE(*again);
    ASSERT_TRUE(reader->Rewind().ok());
  }
}

TEST(UciReaderTest, ReadsTheEmbeddedKosCorpus) {
  const absl::StatusOr<UciCorpusPaths> paths = EmbeddedKosPaths();
  ASSERT_TRUE(paths.ok()) << paths.status();
  UciReadSummary summary;
  const absl::StatusOr<Corpus> kos = ReadUciCorpus(paths->docword, paths->vocab, &summary);
  ASSERT_TRUE(kos.ok()) << kos.status();
  EXPECT_EQ(kos->num_documents(), 3430);
  EXPECT_EQ(kos->vocabulary_size(), 6906);
  EXPECT_EQ(kos->num_tokens(), 467714);
  EXPECT_EQ(summary.num_entries, 353160);
  EXPECT_EQ(summary.num_empty_documents, 0);
  EXPECT_EQ(summary.num_zero_count_entries, 0);
  EXPECT_EQ(summary.uncompressed_bytes, 4075212);
  EXPECT_TRUE(kos->Validate().ok());
  // First entries of docword.kos.txt: "1 61 2", "1 76 1", "1 89 1".
  EXPECT_THAT(kos->document(0).subspan(0, 4), ElementsAre(60, 60, 75, 88));
  EXPECT_EQ(kos->vocabulary[0], "aarp");
}

// A three-line header cannot make the reader allocate without bound: D, W and NNZ beyond
// UciLimits are refused at their header line, and the running token total at the entry that
// crosses UciLimits::max_tokens.
TEST(UciReaderTest, HeaderAndTokenTotalAreCapped) {
  // The defaults: a header asking for ~2^31 documents, words or entries is refused before any
  // allocation (these used to reserve 16 GB of offsets, 8 GB of word slots, or 2^64 bytes).
  ExpectError("2147483647\n3\n0\n", 1,
              "header D (number of documents) must be in [0, 134217728] "
              "(UciLimits.max_documents), got 2147483647");
  ExpectError("2\n2147483647\n0\n", 2,
              "header W (vocabulary size) must be in [1, 33554432] "
              "(UciLimits.max_vocabulary_size), got 2147483647");
  ExpectError("2\n3\n9223372036854775807\n", 3,
              "header NNZ (number of entries) must be in [0, 4294967296] "
              "(UciLimits.max_tokens), got 9223372036854775807");

  // Small limits, to reach the token cap with small files.
  UciLimits limits;
  limits.max_tokens = 10;
  limits.max_documents = 3;
  limits.max_vocabulary_size = 3;
  const std::string vocab = WriteTestFile("limits.vocab", kVocab);
  auto read = [&](absl::string_view name, absl::string_view contents) {
    return ReadUciCorpus(WriteTestFile(name, contents), vocab, nullptr, limits);
  };
  // Exactly 10 tokens: accepted.
  const absl::StatusOr<Corpus> ten = read("ten.txt", "3\n3\n3\n1 1 4\n2 2 3\n3 3 3\n");
  ASSERT_TRUE(ten.ok()) << ten.status();
  EXPECT_EQ(ten->num_tokens(), 10);
  // 11 tokens: refused at the entry that crosses the cap (line 6), gzip or not.
  for (const char* name : {"eleven.txt", "eleven.txt.gz"}) {
    const absl::StatusOr<Corpus> eleven = read(name, "3\n3\n3\n1 1 4\n2 2 3\n3 3 4\n");
    ASSERT_FALSE(eleven.ok());
    EXPECT_EQ(eleven.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(eleven.status().message(),
              absl::StrCat(::testing::TempDir(), "/", name,
                           ":6: count 4 brings the tokens of this pass to 11, more than "
                           "UciLimits.max_tokens = 10"));
  }
  // A single huge count is refused before its tokens are expanded.
  const absl::StatusOr<Corpus> huge = read("huge.txt", "3\n3\n1\n2 1 2000000000\n");
  ASSERT_FALSE(huge.ok());
  EXPECT_THAT(std::string(huge.status().message()),
              HasSubstr("huge.txt:4: count 2000000000 brings the tokens of this pass to "
                        "2000000000, more than UciLimits.max_tokens = 10"));
  // The header limits follow the options.
  const absl::StatusOr<Corpus> many = read("many.txt", "4\n3\n0\n");
  ASSERT_FALSE(many.ok());
  EXPECT_THAT(std::string(many.status().message()),
              HasSubstr("many.txt:1: header D (number of documents) must be in [0, 3] "
                        "(UciLimits.max_documents), got 4"));
  const absl::StatusOr<Corpus> entries = read("entries.txt", "3\n3\n11\n");
  ASSERT_FALSE(entries.ok());
  EXPECT_THAT(std::string(entries.status().message()),
              HasSubstr("entries.txt:3: header NNZ (number of entries) must be in [0, 10] "
                        "(UciLimits.max_tokens), got 11"));

  // The document reader counts tokens per pass: a rewind starts the count again.
  auto reader = UciDocumentReader::Open(
      WriteTestFile("passes.txt", "3\n3\n3\n1 1 4\n2 2 3\n3 3 3\n"), limits);
  ASSERT_TRUE(reader.ok()) << reader.status();
  for (int pass = 0; pass < 3; ++pass) {
    int d;
    std::vector<int32_t> tokens;
    int64_t total = 0;
    while (true) {
      const absl::StatusOr<bool> more = reader->Next(&d, &tokens);
      ASSERT_TRUE(more.ok()) << more.status();
      if (!*more) break;
      total += tokens.size();
    }
    EXPECT_EQ(total, 10);
    ASSERT_TRUE(reader->Rewind().ok());
  }
}

TEST(UciReaderTest, InvalidLimits) {
  const std::string path = WriteTestFile("valid.txt", "1\n3\n1\n1 1 1\n");
  UciLimits limits;
  limits.max_tokens = 0;
  EXPECT_EQ(UciDocumentReader::Open(path, limits).status().message(),
            "UciLimits.max_tokens must be >= 1, got 0");
  limits = UciLimits();
  limits.max_documents = -1;
  EXPECT_EQ(UciDocumentReader::Open(path, limits).status().message(),
            "UciLimits.max_documents must be >= 0, got -1");
  limits = UciLimits();
  limits.max_vocabulary_size = 0;
  EXPECT_EQ(ReadUciCorpus(path, WriteTestFile("valid.vocab", kVocab), nullptr, limits)
                .status()
                .message(),
            "UciLimits.max_vocabulary_size must be >= 1, got 0");
}

}  // namespace
}  // namespace sgmcmc::data
