#include "models/dp/mixture_testing.h"

#include "absl/strings/str_cat.h"
#include "rng/categorical.h"
#include "rng/engine.h"
#include "rng/uniform.h"

namespace sgmcmc::models {

data::Corpus SeparatedMixture(absl::Span<const double> weights, int width, int num_users,
                              int tokens, uint64_t seed, std::vector<int>* labels) {
  const int k = static_cast<int>(weights.size());
  data::Corpus corpus;
  for (int w = 0; w < k * width; ++w) corpus.vocabulary.push_back(absl::StrCat("w", w));
  rng::Engine engine(seed);
  std::vector<int32_t> bag(tokens);
  for (int i = 0; i < num_users; ++i) {
    const int c = rng::CategoricalSample(engine, weights);
    labels->push_back(c);
    for (int32_t& w : bag) w = c * width + static_cast<int32_t>(rng::UniformInt(engine, width));
    corpus.AddDocument(bag);
  }
  return corpus;
}

}  // namespace sgmcmc::models
