// Synthetic LDA corpora for tests and benchmarks (testonly).
//
// MakeSyntheticLda draws K topics over V words, each putting most of its mass on `focus`
// random words (the rest spread thinly, so every π_kw > 0), and D documents of `length`
// tokens, each document mixing `topics_per_document` topics chosen uniformly (equal weights).
// Sweeping such documents with the generating topics reproduces the sparse n_dk of a trained
// model; with unrelated topics, the spread-out n_dk of early training.
//
// Cost: O(K V + D length V) (words drawn by inversion; setup code, not timed).
//
// Example:
//   SyntheticLda lda = MakeSyntheticLda({.num_topics = 100, .vocabulary_size = 6906});
//   Lda::Create(lda.corpus, options, &pool);
#ifndef SGMCMC_MODELS_LDA_TESTING_H_
#define SGMCMC_MODELS_LDA_TESTING_H_

#include <cstdint>
#include <vector>

#include "data/corpus.h"

namespace sgmcmc::models {

struct SyntheticLdaOptions {
  int num_topics = 100;        // K >= 1
  int vocabulary_size = 6906;  // V >= 2 (KOS's)
  int num_documents = 50;      // D >= 1
  int length = 150;            // tokens per document, >= 1
  int topics_per_document = 4; // >= 1
  int focus = 100;             // words carrying most of a topic's mass, >= 1
  uint64_t seed = 1;
};

struct SyntheticLda {
  std::vector<double> topics;  // K x V row-major, rows on the simplex
  data::Corpus corpus;
};

SyntheticLda MakeSyntheticLda(const SyntheticLdaOptions& options);

// The embedded KOS corpus (data::LoadEmbeddedKos), loaded once per process and never freed;
// CHECK-fails if it cannot be read (tests and benchmarks only).
const data::Corpus& EmbeddedKos();

// A corpus from LDA with `num_topics` topics on disjoint blocks of `block` words (uniform
// within the block); document d draws each token from topic d % K with probability
// 1 - `mixing`, else from topic (d + 1) % K. Word w is named "w<w>".
data::Corpus BlockCorpus(int num_topics, int block, int num_documents, int length,
                         uint64_t seed, double mixing = 0.2);

// Topics alone (as in MakeSyntheticLda), e.g. unrelated topics to sweep a corpus with.
std::vector<double> MakeSyntheticTopics(int num_topics, int vocabulary_size, int focus,
                                        uint64_t seed);

}  // namespace sgmcmc::models

#endif  // SGMCMC_MODELS_LDA_TESTING_H_
