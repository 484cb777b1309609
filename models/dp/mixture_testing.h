// Test helper: synthetic corpora for the DP mixture samplers of models/dp/mixture.h and
// models/dp/stochastic_slice.h, and a tiny one for checks against the enumerated posterior.
//
// Example:
//   std::vector<int> labels;
//   const data::Corpus corpus = SeparatedMixture({0.5, 0.3, 0.2}, 4, 400, 6, 7, &labels);
#ifndef SGMCMC_MODELS_DP_MIXTURE_TESTING_H_
#define SGMCMC_MODELS_DP_MIXTURE_TESTING_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "data/corpus.h"
#include "models/dp/component_model.h"

namespace sgmcmc::models {

// A mixture of `num_components` = weights.size() multinomials with disjoint supports:
// component c puts mass 1/width on words [c width, (c + 1) width). Users get `tokens` tokens
// each; the true labels are appended to *labels. All draws from rng::Engine(seed).
data::Corpus SeparatedMixture(absl::Span<const double> weights, int width, int num_users,
                              int tokens, uint64_t seed, std::vector<int>* labels);

// Five users over three words, two pairs and an in-between bag (the data of models/dp/neal8_test),
// so that the posterior spreads over many of the 52 partitions: as a corpus (each bag's
// tokens in word order) for the slice samplers, and as the count matrix of the enumerated
// posterior (models/dp/partition_testing.h).
data::Corpus TinyPartitionCorpus();
CountMatrix TinyPartitionCounts();

}  // namespace sgmcmc::models

#endif  // SGMCMC_MODELS_DP_MIXTURE_TESTING_H_
