#include "data/corpus_loader.h"

#include <string>
#include <vector>

#include "data/uci_reader.h"
#include "data/uci_writer.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rng/engine.h"

namespace sgmcmc::data {
namespace {

using ::testing::HasSubstr;

// 20 documents of 12 tokens over 6 words, written as UCI files under `name`.
CorpusConfig WriteCorpus(const std::string& name) {
  Corpus corpus;
  for (int w = 0; w < 6; ++w) corpus.vocabulary.push_back("w" + std::to_string(w));
  for (int d = 0; d < 20; ++d) {
    std::vector<int32_t> doc;
    for (int i = 0; i < 12; ++i) doc.push_back((d + i / 4) % 6);
    corpus.AddDocument(doc);
  }
  CorpusConfig config;
  const std::string prefix = ::testing::TempDir() + "/" + name;
  config.mutable_uci()->set_docword(prefix + ".docword.txt");
  config.mutable_uci()->set_vocab(prefix + ".vocab.txt");
  EXPECT_TRUE(WriteUciCorpus(corpus, config.uci().docword(), config.uci().vocab()).ok());
  return config;
}

TEST(CorpusLoaderTest, HeldOutSplitIsSplitCorpusWithTheSplitStream) {
  const CorpusConfig config = WriteCorpus("split");
  HeldOutOptions held_out;
  held_out.num_test_documents = 5;
  auto loaded = LoadCorpusAndSplit(config, held_out, 7, "");
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_THAT(loaded->description, HasSubstr("5 held-out test documents (seed 7)"));
  EXPECT_EQ(loaded->train.num_documents(), 15);
  EXPECT_EQ(loaded->test.observed.num_documents(), 5);
  EXPECT_EQ(loaded->test.held_out.num_tokens(), 5 * 2);  // tokens 0 and 10 of 12

  auto corpus = ReadUciCorpus(config.uci().docword(), config.uci().vocab());
  ASSERT_TRUE(corpus.ok());
  rng::Engine engine(7, kSplitStream);
  auto split = SplitCorpus(*corpus, held_out, engine);
  ASSERT_TRUE(split.ok());
  EXPECT_EQ(loaded->train.tokens, split->train.tokens);
  EXPECT_EQ(loaded->test.observed.tokens, split->test.observed.tokens);
  EXPECT_EQ(loaded->test.held_out.tokens, split->test.held_out.tokens);
}

TEST(CorpusLoaderTest, SeparateTestCorpusIsHeldOutWhole) {
  CorpusConfig config = WriteCorpus("train");
  *config.mutable_test_uci() = WriteCorpus("test").uci();
  auto loaded = LoadCorpusAndSplit(config, HeldOutOptions(), 1, "");
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->train.num_documents(), 20);
  EXPECT_EQ(loaded->test.observed.num_documents(), 20);
  EXPECT_THAT(loaded->description, HasSubstr("test corpus "));
}

TEST(CorpusLoaderTest, ErrorsNameTheField) {
  CorpusConfig config;
  config.mutable_uci()->set_docword("/nonexistent/docword.txt");
  EXPECT_EQ(LoadCorpusAndSplit(config, HeldOutOptions(), 1, "").status().message(),
            "corpus.uci.docword and corpus.uci.vocab are both required");
  config.mutable_uci()->set_vocab("/nonexistent/vocab.txt");
  auto loaded = LoadCorpusAndSplit(config, HeldOutOptions(), 1, "");
  EXPECT_THAT(std::string(loaded.status().message()), HasSubstr("corpus: "));
  EXPECT_THAT(std::string(loaded.status().message()), HasSubstr("/nonexistent/"));
  config.mutable_text();
  EXPECT_EQ(LoadCorpusAndSplit(config, HeldOutOptions(), 1, "").status().message(),
            "corpus.text.path is required");

  config = WriteCorpus("errors");
  config.mutable_test_uci()->set_docword("/nonexistent/test.txt");
  EXPECT_THAT(std::string(LoadCorpusAndSplit(config, HeldOutOptions(), 1, "").status().message()),
              HasSubstr("corpus.test_uci.docword and corpus.test_uci.vocab"));
  config.clear_test_uci();
  HeldOutOptions too_many;
  too_many.num_test_documents = 20;
  EXPECT_THAT(std::string(LoadCorpusAndSplit(config, too_many, 1, "").status().message()),
              HasSubstr("test_documents: "));
}

}  // namespace
}  // namespace sgmcmc::data
