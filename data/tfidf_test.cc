#include "data/tfidf.h"

#include <cmath>
#include <vector>

#include "data/corpus.h"
#include "gtest/gtest.h"

namespace sgmcmc::data {
namespace {

Corpus Small() {
  Corpus corpus;
  corpus.vocabulary = {"a", "b", "c", "d"};
  corpus.AddDocument({0, 0, 1});     // a a b
  corpus.AddDocument({1, 2});        // b c
  corpus.AddDocument({0, 3, 3, 3});  // a d d d
  corpus.AddDocument({1});           // b
  return corpus;
}

TEST(TfidfTest, VocabularyByDocumentFrequencyWithPositiveIdf) {
  // df: a 2, b 3, c 1, d 1; D = 4: idf = log(4/3), log(1) = 0 (dropped), log 2, log 2.
  const TfidfVocabulary vocabulary = ChooseTfidfVocabulary(Small(), 3);
  EXPECT_EQ(vocabulary.words, (std::vector<int32_t>{0, 2, 3}));
  EXPECT_DOUBLE_EQ(vocabulary.idf[0], std::log(4.0 / 3.0));
  EXPECT_DOUBLE_EQ(vocabulary.idf[1], std::log(2.0));
  EXPECT_EQ(ChooseTfidfVocabulary(Small(), 1).words, (std::vector<int32_t>{0}));
}

TEST(TfidfTest, TransformIsUnitAndDropsEmptyDocuments) {
  const Corpus corpus = Small();
  const TfidfDocuments out = TfidfTransform(corpus, ChooseTfidfVocabulary(corpus, 3));
  // Document 3 ("b") has no kept word.
  EXPECT_EQ(out.source_documents, (std::vector<int>{0, 1, 2}));
  ASSERT_EQ(out.documents.rows(), 3);
  ASSERT_EQ(out.documents.cols(), 3);
  for (int d = 0; d < 3; ++d) EXPECT_NEAR(out.documents.col(d).norm(), 1.0, 1e-15);
  EXPECT_DOUBLE_EQ(out.documents.coeff(0, 0), 1.0);  // a a b: only a is kept
  // a d d d: (log(4/3), 3 log 2) normalised.
  const double a = std::log(4.0 / 3.0), d = 3 * std::log(2.0);
  EXPECT_NEAR(out.documents.coeff(0, 2), a / std::hypot(a, d), 1e-15);
  EXPECT_NEAR(out.documents.coeff(2, 2), d / std::hypot(a, d), 1e-15);
}

}  // namespace
}  // namespace sgmcmc::data
