#include "data/uci_stream.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "data/embedded_corpus.h"
#include "data/split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/distribution_testing.h"
#include "testing/file_testing.h"

namespace sgmcmc::data {
namespace {

using ::sgmcmc::testing::WriteTestFile;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// D = 7 documents over W = 4 words; document 4 (docID 5) is empty; document d has d + 1
// tokens of word d % 4, and document 6 one more token, of word 3.
constexpr char kDocword[] =
    "7\n4\n7\n1 1 1\n2 2 2\n3 3 3\n4 4 4\n6 2 6\n7 3 7\n7 4 1\n";

std::vector<int32_t> ExpectedDocument(int d) {
  if (d == 4) return {};
  std::vector<int32_t> tokens(d + 1, d % 4);
  if (d == 6) tokens.push_back(3);
  return tokens;
}

// All batches of a stream until it ends.
std::vector<DocumentMinibatch> Drain(UciMinibatchStream& stream, rng::Engine& engine) {
  std::vector<DocumentMinibatch> batches;
  while (true) {
    DocumentMinibatch batch;
    const absl::StatusOr<bool> more = stream.Next(engine, &batch);
    EXPECT_TRUE(more.ok()) << more.status();
    if (!more.ok() || !*more) break;
    batches.push_back(std::move(batch));
  }
  return batches;
}

TEST(UciStreamTest, EveryDocumentOncePerPassForAnyBuffer) {
  const std::string path = WriteTestFile("stream.txt.gz", kDocword);
  for (int buffer : {1, 2, 3, 100}) {
    for (int batch_size : {1, 3, 7}) {
      UciStreamOptions options;
      options.batch_size = batch_size;
      options.shuffle_buffer_documents = buffer;
      options.max_epochs = 2;
      options.excluded_documents = {2, 5, 2};
      auto stream = UciMinibatchStream::Open(path, options);
      ASSERT_TRUE(stream.ok()) << stream.status();
      EXPECT_EQ(stream->num_streamed_documents(), 5);
      rng::Engine engine(buffer * 10 + batch_size);
      const std::vector<DocumentMinibatch> batches = Drain(*stream, engine);
      std::map<int, int> seen;
      for (size_t b = 0; b < batches.size(); ++b) {
        const DocumentMinibatch& batch = batches[b];
        if (b + 1 < batches.size()) {
          ASSERT_EQ(static_cast<int>(batch.ids.size()), batch_size);
        }
        ASSERT_EQ(batch.documents.num_documents(), static_cast<int>(batch.ids.size()));
        for (size_t j = 0; j < batch.ids.size(); ++j) {
          ++seen[batch.ids[j]];
          const absl::Span<const int32_t> doc = batch.documents.document(j);
          EXPECT_EQ(std::vector<int32_t>(doc.begin(), doc.end()), ExpectedDocument(batch.ids[j]));
        }
      }
      EXPECT_THAT(seen, ElementsAre(std::pair(0, 2), std::pair(1, 2), std::pair(3, 2),
                                    std::pair(4, 2), std::pair(6, 2)))
          << "buffer " << buffer << " batch " << batch_size;
      EXPECT_EQ(stream->passes_completed(), 2);
      EXPECT_EQ(stream->documents_emitted(), 10);
    }
  }
}

TEST(UciStreamTest, BufferOfOneKeepsFileOrderAndUnlimitedPassesWrap) {
  UciStreamOptions options;
  options.batch_size = 4;
  options.shuffle_buffer_documents = 1;
  auto stream = UciMinibatchStream::Open(WriteTestFile("order.txt", kDocword), options);
  ASSERT_TRUE(stream.ok());
  rng::Engine engine(1);
  std::vector<int> ids;
  DocumentMinibatch batch;
  for (int b = 0; b < 7; ++b) {  // 28 documents = 4 passes
    const absl::StatusOr<bool> more = stream->Next(engine, &batch);
    ASSERT_TRUE(more.ok() && *more);
    ids.insert(ids.end(), batch.ids.begin(), batch.ids.end());
  }
  for (size_t i = 0; i < ids.size(); ++i) EXPECT_EQ(ids[i], static_cast<int>(i % 7));
  EXPECT_GE(stream->passes_completed(), 3);
}

TEST(UciStreamTest, SeededReproducibility) {
  const std::string path = WriteTestFile("seeded.txt", kDocword);
  auto run = [&](uint64_t seed) {
    UciStreamOptions options;
    options.batch_size = 3;
    options.shuffle_buffer_documents = 4;
    options.max_epochs = 3;
    auto stream = UciMinibatchStream::Open(path, options);
    rng::Engine engine(seed);
    std::vector<int> ids;
    for (const DocumentMinibatch& batch : Drain(*stream, engine)) {
      ids.insert(ids.end(), batch.ids.begin(), batch.ids.end());
    }
    return ids;
  };
  const std::vector<int> a = run(3);
  EXPECT_EQ(a.size(), 21u);
  EXPECT_EQ(a, run(3));
  EXPECT_NE(a, run(4));
}

// With a buffer holding the whole corpus, a pass is a uniform permutation: the position of
// document 0 among the 7 outputs of the first pass is uniform (DiscreteChiSquaredTest,
// false-failure rate 1e-6), for two seeds.
TEST(UciStreamTest, FullBufferShufflesUniformly) {
  const std::string path = WriteTestFile("uniform.txt", kDocword);
  UciStreamOptions options;
  options.batch_size = 7;
  options.shuffle_buffer_documents = 7;
  options.max_epochs = 1;
  for (uint64_t seed : {1, 2}) {
    rng::Engine engine(seed);
    std::vector<int64_t> positions;
    for (int trial = 0; trial < 3500; ++trial) {
      auto stream = UciMinibatchStream::Open(path, options);
      DocumentMinibatch batch;
      ASSERT_TRUE(*stream->Next(engine, &batch));
      positions.push_back(std::find(batch.ids.begin(), batch.ids.end(), 0) - batch.ids.begin());
    }
    const testing::TestResult result =
        testing::DiscreteChiSquaredTest(positions, [](int64_t) { return 1.0 / 7; }, 0, 6);
    EXPECT_TRUE(result.Passed()) << result;
  }
}

TEST(UciStreamTest, MalformedInputNamesFileAndLine) {
  const std::string path = WriteTestFile("badstream.txt", "3\n2\n3\n1 1 1\n2 5 1\n3 1 1\n");
  UciStreamOptions options;
  options.batch_size = 1;
  options.shuffle_buffer_documents = 1;
  auto stream = UciMinibatchStream::Open(path, options);
  ASSERT_TRUE(stream.ok());
  rng::Engine engine(1);
  DocumentMinibatch batch;
  absl::StatusOr<bool> more = stream->Next(engine, &batch);
  while (more.ok() && *more) more = stream->Next(engine, &batch);
  ASSERT_FALSE(more.ok());
  EXPECT_THAT(std::string(more.status().message()),
              HasSubstr(path + ":5: wordID 5 is outside [1, W = 2]"));

  const std::string short_file = WriteTestFile("short.txt", "3\n2\n4\n1 1 1\n2 2 1\n");
  stream = UciMinibatchStream::Open(short_file, options);
  ASSERT_TRUE(stream.ok());
  more = stream->Next(engine, &batch);
  while (more.ok() && *more) more = stream->Next(engine, &batch);
  EXPECT_THAT(std::string(more.status().message()),
              HasSubstr("file ends after 2 entries but the header says NNZ = 4"));
}

TEST(UciStreamTest, InvalidOptions) {
  const std::string path = WriteTestFile("opts.txt", kDocword);
  UciStreamOptions options;
  options.batch_size = 0;
  EXPECT_THAT(std::string(UciMinibatchStream::Open(path, options).status().message()),
              HasSubstr("batch_size must be >= 1, got 0"));
  options = UciStreamOptions();
  options.shuffle_buffer_documents = 0;
  EXPECT_THAT(std::string(options.Validate().message()),
              HasSubstr("shuffle_buffer_documents must be >= 1, got 0"));
  options = UciStreamOptions();
  options.max_epochs = -1;
  EXPECT_FALSE(options.Validate().ok());
  options = UciStreamOptions();
  options.excluded_documents = {7};
  EXPECT_THAT(std::string(UciMinibatchStream::Open(path, options).status().message()),
              HasSubstr("id 7 is outside [0, D = 7)"));
  options.excluded_documents = {0, 1, 2, 3, 4, 5, 6};
  EXPECT_THAT(std::string(UciMinibatchStream::Open(path, options).status().message()),
              HasSubstr("every document is excluded"));
  EXPECT_EQ(UciMinibatchStream::Open("/no/such.txt", UciStreamOptions()).status().code(),
            absl::StatusCode::kNotFound);
}

TEST(UciStreamTest, StreamsTheKosTrainingDocuments) {
  const absl::StatusOr<UciCorpusPaths> paths = EmbeddedKosPaths();
  ASSERT_TRUE(paths.ok());
  const absl::StatusOr<Corpus> kos = ReadUciCorpus(paths->docword, paths->vocab);
  ASSERT_TRUE(kos.ok());
  rng::Engine split_engine(1, kSplitStream);
  const std::vector<int> test_ids = ChooseTestDocuments(kos->num_documents(), 343, split_engine);
  UciStreamOptions options;
  options.batch_size = 50;
  options.shuffle_buffer_documents = 200;
  options.max_epochs = 1;
  options.excluded_documents = test_ids;
  auto stream = UciMinibatchStream::Open(paths->docword, options);
  ASSERT_TRUE(stream.ok());
  EXPECT_EQ(stream->num_streamed_documents(), 3430 - 343);
  rng::Engine engine(8);
  std::vector<bool> seen(kos->num_documents(), false);
  int64_t tokens = 0;
  for (const DocumentMinibatch& batch : Drain(*stream, engine)) {
    for (size_t j = 0; j < batch.ids.size(); ++j) {
      ASSERT_FALSE(seen[batch.ids[j]]);
      seen[batch.ids[j]] = true;
      const absl::Span<const int32_t> doc = batch.documents.document(j);
      ASSERT_EQ(doc, kos->document(batch.ids[j]));
      tokens += doc.size();
    }
  }
  for (int id : test_ids) EXPECT_FALSE(seen[id]);
  EXPECT_EQ(std::count(seen.begin(), seen.end(), true), 3430 - 343);
  EXPECT_LT(tokens, kos->num_tokens());
}

// D = 23 documents over W = 5 words of irregular sizes, every fifth one (d = 3, 8, ...) empty.
std::string ResumeDocword() {
  std::string entries;
  int num_entries = 0;
  for (int d = 0; d < 23; ++d) {
    if (d % 5 == 3) continue;
    for (int w = 0; w < 5; ++w) {
      if ((d * 7 + w * 3) % 4 == 0) continue;
      absl::StrAppend(&entries, d + 1, " ", w + 1, " ", (d + w) % 3 + 1, "\n");
      ++num_entries;
    }
  }
  return absl::StrCat("23\n5\n", num_entries, "\n", entries);
}

void ExpectSameState(const UciMinibatchStream::State& a, const UciMinibatchStream::State& b) {
  EXPECT_EQ(a.buffer_ids, b.buffer_ids);
  EXPECT_EQ(a.next_document, b.next_document);
  EXPECT_EQ(a.passes_completed, b.passes_completed);
  EXPECT_EQ(a.documents_emitted, b.documents_emitted);
}

// A fresh stream restored from state() at any batch boundary, with the engine restored to
// its position, continues bit-identically to the uninterrupted stream: for shuffle buffers
// smaller than, equal to and larger than D (the latter holding one document from several
// passes), limited and unlimited passes, and excluded documents.
TEST(UciStreamTest, RestoredStreamContinuesBitIdentically) {
  const std::string path = WriteTestFile("resume.txt.gz", ResumeDocword());
  for (int buffer : {1, 4, 20, 60}) {
    for (int max_epochs : {0, 3}) {
      SCOPED_TRACE(absl::StrCat("buffer=", buffer, " max_epochs=", max_epochs));
      UciStreamOptions options;
      options.batch_size = 4;
      options.shuffle_buffer_documents = buffer;
      options.max_epochs = max_epochs;
      options.excluded_documents = {0, 7, 7, 22};
      auto reference = UciMinibatchStream::Open(path, options);
      ASSERT_TRUE(reference.ok()) << reference.status();
      constexpr uint64_t kSeed = 77;
      rng::Engine engine(kSeed);
      std::vector<DocumentMinibatch> batches;
      std::vector<UciMinibatchStream::State> states;
      std::vector<uint64_t> positions;
      for (int b = 0; b < 30; ++b) {
        states.push_back(reference->state());
        positions.push_back(engine.position());
        DocumentMinibatch batch;
        const absl::StatusOr<bool> more = reference->Next(engine, &batch);
        ASSERT_TRUE(more.ok()) << more.status();
        if (!*more) break;
        batches.push_back(std::move(batch));
      }
      ASSERT_GE(batches.size(), 10u);
      for (size_t k = 0; k < states.size(); ++k) {
        SCOPED_TRACE(absl::StrCat("resumed before batch ", k));
        auto resumed = UciMinibatchStream::Open(path, options);
        ASSERT_TRUE(resumed.ok()) << resumed.status();
        const absl::Status restored = resumed->Restore(states[k]);
        ASSERT_TRUE(restored.ok()) << restored;
        ExpectSameState(resumed->state(), states[k]);
        rng::Engine resumed_engine(kSeed);
        resumed_engine.Seek(positions[k]);
        for (size_t b = k; b < batches.size(); ++b) {
          DocumentMinibatch batch;
          const absl::StatusOr<bool> more = resumed->Next(resumed_engine, &batch);
          ASSERT_TRUE(more.ok()) << more.status();
          ASSERT_TRUE(*more) << b;
          ASSERT_EQ(batch.ids, batches[b].ids) << b;
          ASSERT_EQ(batch.documents.tokens, batches[b].documents.tokens) << b;
          ASSERT_EQ(batch.documents.doc_offsets, batches[b].documents.doc_offsets) << b;
        }
        if (batches.size() < 30) {  // the reference ended: so does the resumed stream
          DocumentMinibatch batch;
          const absl::StatusOr<bool> more = resumed->Next(resumed_engine, &batch);
          ASSERT_TRUE(more.ok()) << more.status();
          EXPECT_FALSE(*more);
        }
        EXPECT_EQ(resumed->documents_emitted(), reference->documents_emitted());
      }
    }
  }
}

TEST(UciStreamTest, RestoreRejectsStatesOfAnotherStream) {
  const std::string path = WriteTestFile("resume_bad.txt", ResumeDocword());
  UciStreamOptions options;
  options.batch_size = 4;
  options.shuffle_buffer_documents = 3;
  options.max_epochs = 2;
  options.excluded_documents = {5};
  auto stream = UciMinibatchStream::Open(path, options);
  ASSERT_TRUE(stream.ok()) << stream.status();
  auto expect_error = [&](const UciMinibatchStream::State& state, const std::string& message) {
    const absl::Status status = stream->Restore(state);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(status.message(), message);
  };
  UciMinibatchStream::State state;
  state.buffer_ids = {1, 2, 3, 4};
  expect_error(state,
               "UciMinibatchStream::Restore: State.buffer_ids has 4 ids, more than "
               "shuffle_buffer_documents = 3");
  state.buffer_ids = {1, 5};
  expect_error(state, absl::StrCat("UciMinibatchStream::Restore: State.buffer_ids[1] = 5 is not "
                                   "a streamed document of ",
                                   path));
  state.buffer_ids = {23};
  expect_error(state, absl::StrCat("UciMinibatchStream::Restore: State.buffer_ids[0] = 23 is not "
                                   "a streamed document of ",
                                   path));
  state.buffer_ids = {1};
  state.next_document = 24;
  expect_error(state,
               "UciMinibatchStream::Restore: State.next_document must be in [0, D = 23], got 24");
  state.next_document = 2;
  state.passes_completed = 3;
  expect_error(state,
               "UciMinibatchStream::Restore: State.passes_completed must be in [0, max_epochs = "
               "2] (any >= 0 if 0), got 3");
  state.passes_completed = 1;
  state.documents_emitted = -1;
  expect_error(state,
               "UciMinibatchStream::Restore: State.documents_emitted must be >= 0, got -1");
  state.documents_emitted = 30;
  EXPECT_TRUE(stream->Restore(state).ok());
  ExpectSameState(stream->state(), state);
}

// UciStreamOptions::limits reach the reader.
TEST(UciStreamTest, LimitsApplyToTheStream) {
  const std::string path = WriteTestFile("limited.txt", ResumeDocword());
  UciStreamOptions options;
  options.limits.max_documents = 22;
  const absl::StatusOr<UciMinibatchStream> stream = UciMinibatchStream::Open(path, options);
  ASSERT_FALSE(stream.ok());
  EXPECT_THAT(std::string(stream.status().message()),
              HasSubstr("limited.txt:1: header D (number of documents) must be in [0, 22] "
                        "(UciLimits.max_documents), got 23"));
}

}  // namespace
}  // namespace sgmcmc::data
