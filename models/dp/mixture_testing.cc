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

namespace {
constexpr double kTinyCounts[5][3] = {{5, 0, 1}, {4, 1, 0}, {0, 5, 1}, {1, 4, 0}, {2, 2, 2}};
}  // namespace

data::Corpus TinyPartitionCorpus() {
  data::Corpus corpus;
  corpus.vocabulary = {"a", "b", "c"};
  for (const auto& counts : kTinyCounts) {
    std::vector<int32_t> bag;
    for (int w = 0; w < 3; ++w) bag.insert(bag.end(), static_cast<int>(counts[w]), w);
    corpus.AddDocument(bag);
  }
  return corpus;
}

CountMatrix TinyPartitionCounts() {
  CountMatrix data{3, {}};
  for (const auto& counts : kTinyCounts) {
    data.values.insert(data.values.end(), counts, counts + 3);
  }
  return data;
}

}  // namespace sgmcmc::models
