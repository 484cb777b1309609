#include "data/tfidf.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "base/check.h"

namespace sgmcmc::data {

TfidfVocabulary ChooseTfidfVocabulary(const Corpus& train, int max_words) {
  SGMCMC_CHECK(max_words >= 1);
  const int d = train.num_documents();
  SGMCMC_CHECK(d >= 1);
  const int v = train.vocabulary_size();
  std::vector<int64_t> df(v, 0), last_seen(v, -1);
  for (int doc = 0; doc < d; ++doc) {
    for (int32_t w : train.document(doc)) {
      if (last_seen[w] != doc) {
        last_seen[w] = doc;
        ++df[w];
      }
    }
  }
  std::vector<int32_t> order(v);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int32_t a, int32_t b) { return df[a] > df[b]; });
  TfidfVocabulary vocabulary;
  for (int32_t w : order) {
    if (static_cast<int>(vocabulary.words.size()) == max_words) break;
    const double idf = std::log(static_cast<double>(d) / (1.0 + static_cast<double>(df[w])));
    if (df[w] == 0 || !(idf > 0)) continue;
    vocabulary.words.push_back(w);
    vocabulary.idf.push_back(idf);
  }
  return vocabulary;
}

TfidfDocuments TfidfTransform(const Corpus& corpus, const TfidfVocabulary& vocabulary) {
  std::vector<int> row(corpus.vocabulary_size(), -1);
  for (size_t r = 0; r < vocabulary.words.size(); ++r) row[vocabulary.words[r]] = static_cast<int>(r);
  std::vector<Eigen::Triplet<double>> triplets;
  TfidfDocuments out;
  std::vector<double> tf(vocabulary.words.size(), 0.0);
  std::vector<int> touched;
  for (int doc = 0; doc < corpus.num_documents(); ++doc) {
    touched.clear();
    for (int32_t w : corpus.document(doc)) {
      const int r = row[w];
      if (r < 0) continue;
      if (tf[r] == 0) touched.push_back(r);
      tf[r] += 1;
    }
    std::sort(touched.begin(), touched.end());
    double norm2 = 0;
    for (int r : touched) {
      tf[r] *= vocabulary.idf[r];
      norm2 += tf[r] * tf[r];
    }
    if (norm2 > 0) {
      const int column = static_cast<int>(out.source_documents.size());
      const double inv = 1 / std::sqrt(norm2);
      for (int r : touched) triplets.emplace_back(r, column, tf[r] * inv);
      out.source_documents.push_back(doc);
    }
    for (int r : touched) tf[r] = 0;
  }
  out.documents.resize(static_cast<Eigen::Index>(vocabulary.words.size()),
                       static_cast<Eigen::Index>(out.source_documents.size()));
  out.documents.setFromTriplets(triplets.begin(), triplets.end());
  return out;
}

}  // namespace sgmcmc::data
