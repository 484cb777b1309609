// Test helper: synthetic corpora for the DP mixture samplers of models/dp/mixture.h and
// models/dp/stochastic_slice.h.
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

namespace sgmcmc::models {

// A mixture of `num_components` = weights.size() multinomials with disjoint supports:
// component c puts mass 1/width on words [c width, (c + 1) width). Users get `tokens` tokens
// each; the true labels are appended to *labels. All draws from rng::Engine(seed).
data::Corpus SeparatedMixture(absl::Span<const double> weights, int width, int num_users,
                              int tokens, uint64_t seed, std::vector<int>* labels);

}  // namespace sgmcmc::models

#endif  // SGMCMC_MODELS_DP_MIXTURE_TESTING_H_
