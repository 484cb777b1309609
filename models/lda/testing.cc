#include "models/lda/testing.h"

#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "base/check.h"
#include "data/embedded_corpus.h"
#include "rng/engine.h"
#include "rng/uniform.h"

namespace sgmcmc::models {

std::vector<double> MakeSyntheticTopics(int num_topics, int vocabulary_size, int focus,
                                        uint64_t seed) {
  SGMCMC_CHECK(num_topics >= 1 && vocabulary_size >= 2 && focus >= 1)
      << "MakeSyntheticTopics: need K >= 1, V >= 2, focus >= 1";
  rng::Engine engine(seed, 1);
  std::vector<double> topics(static_cast<size_t>(num_topics) * vocabulary_size);
  for (int k = 0; k < num_topics; ++k) {
    double* row = topics.data() + static_cast<size_t>(k) * vocabulary_size;
    double sum = 0;
    for (int w = 0; w < vocabulary_size; ++w) {
      row[w] = 1e-4 * rng::UniformDouble(engine);
      sum += row[w];
    }
    for (int j = 0; j < focus; ++j) {
      const int w = static_cast<int>(rng::UniformInt(engine, vocabulary_size));
      const double extra = rng::UniformDouble(engine);
      row[w] += extra;
      sum += extra;
    }
    for (int w = 0; w < vocabulary_size; ++w) row[w] /= sum;
  }
  return topics;
}

SyntheticLda MakeSyntheticLda(const SyntheticLdaOptions& options) {
  SGMCMC_CHECK(options.num_documents >= 1 && options.length >= 1 &&
               options.topics_per_document >= 1)
      << "MakeSyntheticLda: need D >= 1, length >= 1, topics_per_document >= 1";
  const int vocabulary_size = options.vocabulary_size;
  SyntheticLda out;
  out.topics = MakeSyntheticTopics(options.num_topics, vocabulary_size, options.focus,
                                   options.seed);
  for (int w = 0; w < vocabulary_size; ++w) out.corpus.vocabulary.push_back("w" + std::to_string(w));
  rng::Engine engine(options.seed, 2);
  std::vector<int> doc_topics(options.topics_per_document);
  std::vector<int32_t> doc(options.length);
  for (int d = 0; d < options.num_documents; ++d) {
    for (int& k : doc_topics) k = static_cast<int>(rng::UniformInt(engine, options.num_topics));
    for (int i = 0; i < options.length; ++i) {
      const int k = doc_topics[rng::UniformInt(engine, options.topics_per_document)];
      const double* row = out.topics.data() + static_cast<size_t>(k) * vocabulary_size;
      double x = rng::UniformDouble(engine);
      int w = 0;
      for (; w < vocabulary_size - 1; ++w) {
        x -= row[w];
        if (x <= 0) break;
      }
      doc[i] = w;
    }
    out.corpus.AddDocument(doc);
  }
  return out;
}

const data::Corpus& EmbeddedKos() {
  static const data::Corpus* kos = [] {
    absl::StatusOr<data::Corpus> corpus = data::LoadEmbeddedKos();
    SGMCMC_CHECK(corpus.ok()) << corpus.status();
    return new data::Corpus(*std::move(corpus));
  }();
  return *kos;
}

data::Corpus BlockCorpus(int num_topics, int block, int num_documents, int length,
                         uint64_t seed, double mixing) {
  data::Corpus corpus;
  for (int w = 0; w < num_topics * block; ++w) corpus.vocabulary.push_back("w" + std::to_string(w));
  rng::Engine engine(seed, 3);
  std::vector<int32_t> doc(length);
  for (int d = 0; d < num_documents; ++d) {
    for (int i = 0; i < length; ++i) {
      const int k = (d + (rng::UniformDouble(engine) < mixing ? 1 : 0)) % num_topics;
      doc[i] = static_cast<int32_t>(k * block + rng::UniformInt(engine, block));
    }
    corpus.AddDocument(doc);
  }
  return corpus;
}

}  // namespace sgmcmc::models
