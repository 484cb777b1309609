#include "data/corpus.h"

#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sgmcmc::data {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Corpus ThreeDocuments() {
  Corpus corpus;
  corpus.vocabulary = {"a", "b", "c"};
  corpus.AddDocument({0, 0, 2});
  corpus.AddDocument({});
  corpus.AddDocument({1});
  return corpus;
}

TEST(CorpusTest, DefaultIsEmpty) {
  Corpus corpus;
  EXPECT_EQ(corpus.num_documents(), 0);
  EXPECT_EQ(corpus.num_tokens(), 0);
  EXPECT_TRUE(corpus.Validate().ok());
}

TEST(CorpusTest, AddDocumentKeepsDocumentsContiguous) {
  const Corpus corpus = ThreeDocuments();
  EXPECT_EQ(corpus.num_documents(), 3);
  EXPECT_EQ(corpus.vocabulary_size(), 3);
  EXPECT_EQ(corpus.num_tokens(), 4);
  EXPECT_THAT(corpus.doc_offsets, ElementsAre(0, 3, 3, 4));
  EXPECT_THAT(corpus.document(0), ElementsAre(0, 0, 2));
  EXPECT_TRUE(corpus.document(1).empty());
  EXPECT_THAT(corpus.document(2), ElementsAre(1));
  EXPECT_EQ(corpus.document_size(0), 3);
  EXPECT_TRUE(corpus.Validate().ok());
}

TEST(CorpusTest, ValidateNamesTheViolation) {
  Corpus corpus = ThreeDocuments();
  corpus.tokens[3] = 7;
  EXPECT_THAT(std::string(corpus.Validate().message()), HasSubstr("token 3 has word id 7"));
  corpus = ThreeDocuments();
  corpus.doc_offsets[2] = 1;
  EXPECT_THAT(std::string(corpus.Validate().message()), HasSubstr("decrease at document 1"));
  corpus = ThreeDocuments();
  corpus.doc_offsets.back() = 3;
  EXPECT_THAT(std::string(corpus.Validate().message()), HasSubstr("end at 3"));
  corpus = ThreeDocuments();
  corpus.doc_offsets.front() = 1;
  EXPECT_THAT(std::string(corpus.Validate().message()), HasSubstr("start with 0"));
}

TEST(CorpusTest, SelectDocumentsCopiesInOrder) {
  const Corpus corpus = ThreeDocuments();
  const std::vector<int> ids = {2, 0, 2};
  const Corpus subset = SelectDocuments(corpus, ids);
  EXPECT_EQ(subset.vocabulary, corpus.vocabulary);
  EXPECT_THAT(subset.doc_offsets, ElementsAre(0, 1, 4, 5));
  EXPECT_THAT(subset.tokens, ElementsAre(1, 0, 0, 2, 1));
  EXPECT_TRUE(subset.Validate().ok());
}

TEST(CorpusDeathTest, DocumentOutOfRange) {
  const Corpus corpus = ThreeDocuments();
  EXPECT_DEATH(corpus.document(3), "Corpus::document: d must be in \\[0, 3\\), got 3");
  EXPECT_DEATH(corpus.document(-1), "got -1");
}

}  // namespace
}  // namespace sgmcmc::data
