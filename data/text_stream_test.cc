#include "data/text_stream.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "data/text_reader.h"
#include "data/uci_stream.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/file_testing.h"

namespace sgmcmc::data {
namespace {

using ::sgmcmc::testing::WriteTestFile;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TextCorpusOptions WithVocabulary(const std::string& vocabulary) {
  TextCorpusOptions options;
  options.vocabulary_path = WriteTestFile("stream_vocab.txt", vocabulary);
  return options;
}

std::vector<std::vector<int32_t>> ReadPass(DocumentReader& reader) {
  std::vector<std::vector<int32_t>> documents;
  int d = -1;
  std::vector<int32_t> tokens;
  while (true) {
    absl::StatusOr<bool> more = reader.Next(&d, &tokens);
    EXPECT_TRUE(more.ok()) << more.status();
    if (!more.ok() || !*more) break;
    EXPECT_EQ(d, static_cast<int>(documents.size()));
    documents.push_back(tokens);
  }
  return documents;
}

TEST(TextStreamTest, LinesAreDocumentsOverTheFixedVocabularyAndPassesRepeat) {
  const TextCorpusOptions options = WithVocabulary("apple\nbanana\ncherry\n");
  // Line 2 has no word of the vocabulary: an empty document, kept so ids are line numbers.
  const std::string path =
      WriteTestFile("stream_docs.txt.gz", "Apple banana the apple\nzebra\ncherry, BANANA!\n");
  auto reader = TextDocumentReader::Open(path, options);
  ASSERT_TRUE(reader.ok()) << reader.status();
  EXPECT_EQ((*reader)->num_documents(), 3);
  EXPECT_EQ((*reader)->vocabulary_size(), 3);
  const std::vector<std::vector<int32_t>> expected = {{0, 1, 0}, {}, {2, 1}};
  EXPECT_EQ(ReadPass(**reader), expected);
  ASSERT_TRUE((*reader)->Rewind().ok());
  EXPECT_EQ(ReadPass(**reader), expected);
  EXPECT_EQ((*reader)->tokens_kept(), 10);
  EXPECT_EQ((*reader)->tokens_out_of_vocabulary(), 2);  // "zebra" twice ("the": stop word)

  // The same documents as the in-memory reader with the same vocabulary.
  TextCorpusOptions keep_empty = options;
  keep_empty.min_document_tokens = 0;
  auto corpus = ReadTextLines(path, keep_empty);
  ASSERT_TRUE(corpus.ok()) << corpus.status();
  for (int d = 0; d < corpus->num_documents(); ++d) {
    EXPECT_THAT(std::vector<int32_t>(corpus->document(d).begin(), corpus->document(d).end()),
                ::testing::ContainerEq(expected[d]));
  }
}

TEST(TextStreamTest, DirectoryFilesAreDocumentsInPathOrder) {
  const TextCorpusOptions options = WithVocabulary("apple\nbanana\n");
  std::filesystem::create_directories(::testing::TempDir() + "/stream_dir/b");
  const std::string a = WriteTestFile("stream_dir/b/2.txt", "banana\nbanana apple");
  WriteTestFile("stream_dir/a.txt", "apple");
  auto reader = TextDocumentReader::Open(
      std::filesystem::path(a).parent_path().parent_path().string(), options);
  ASSERT_TRUE(reader.ok()) << reader.status();
  EXPECT_THAT(ReadPass(**reader), ElementsAre(ElementsAre(0), ElementsAre(1, 1, 0)));
}

TEST(TextStreamTest, StreamsShuffledMinibatchesAndResumes) {
  const TextCorpusOptions options = WithVocabulary("apple\nbanana\ncherry\n");
  std::string text;
  for (int d = 0; d < 40; ++d) text += d % 3 == 0 ? "apple\n" : d % 3 == 1 ? "banana\n" : "cherry\n";
  const std::string path = WriteTestFile("stream_many.txt", text);
  UciStreamOptions stream_options;
  stream_options.batch_size = 3;
  stream_options.shuffle_buffer_documents = 7;
  stream_options.max_epochs = 2;
  auto open = [&] {
    auto reader = TextDocumentReader::Open(path, options);
    EXPECT_TRUE(reader.ok()) << reader.status();
    return UciMinibatchStream::Open(*std::move(reader), stream_options);
  };
  auto stream = open();
  ASSERT_TRUE(stream.ok()) << stream.status();
  rng::Engine engine(5);
  DocumentMinibatch batch;
  for (int i = 0; i < 9; ++i) ASSERT_TRUE(*stream->Next(engine, &batch));
  const UciMinibatchStream::State state = stream->state();
  const uint64_t position = engine.position();
  std::vector<int> rest;
  std::vector<int32_t> rest_tokens;
  while (*stream->Next(engine, &batch)) {
    rest.insert(rest.end(), batch.ids.begin(), batch.ids.end());
    for (int j = 0; j < static_cast<int>(batch.ids.size()); ++j) {
      EXPECT_THAT(batch.documents.document(j), ElementsAre(batch.ids[j] % 3));
    }
    rest_tokens.insert(rest_tokens.end(), batch.documents.tokens.begin(),
                       batch.documents.tokens.end());
  }
  auto resumed = open();
  ASSERT_TRUE(resumed.ok());
  ASSERT_TRUE(resumed->Restore(state).ok());
  engine.Seek(position);
  std::vector<int> again;
  std::vector<int32_t> again_tokens;
  while (*resumed->Next(engine, &batch)) {
    again.insert(again.end(), batch.ids.begin(), batch.ids.end());
    again_tokens.insert(again_tokens.end(), batch.documents.tokens.begin(),
                        batch.documents.tokens.end());
  }
  EXPECT_EQ(rest, again);
  EXPECT_EQ(rest_tokens, again_tokens);
  EXPECT_EQ(static_cast<int>(rest.size()) + 27, 80);
}

TEST(TextStreamTest, BadInputIsAnErrorNamingIt) {
  TextCorpusOptions no_vocabulary;
  const std::string path = WriteTestFile("stream_bad.txt", "apple\n");
  auto reader = TextDocumentReader::Open(path, no_vocabulary);
  EXPECT_THAT(std::string(reader.status().message()), HasSubstr("needs a fixed vocabulary"));
  reader = TextDocumentReader::Open("/nonexistent/stream.txt", WithVocabulary("a\nb\n"));
  EXPECT_EQ(reader.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(reader.status().message()), HasSubstr("/nonexistent/stream.txt"));
  reader = TextDocumentReader::Open(path, WithVocabulary("apple\npear\napple\n"));
  EXPECT_THAT(std::string(reader.status().message()), HasSubstr(":3: word 'apple' appears twice"));
  reader = TextDocumentReader::Open(WriteTestFile("stream_empty.txt", ""), WithVocabulary("a\nb\n"));
  EXPECT_THAT(std::string(reader.status().message()), HasSubstr("no documents"));
  reader = TextDocumentReader::Open("-", WithVocabulary("a\nb\n"));
  EXPECT_THAT(std::string(reader.status().message()), HasSubstr("standard input"));
}

}  // namespace
}  // namespace sgmcmc::data
