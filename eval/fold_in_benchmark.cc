// Cost of the fold-in (eval/fold_in.h) at K = 100 and 1000: FoldIn::Transform of 200
// documents of 100 tokens drawn from the LDA generative model (V = 5000; topics from
// Dirichlet(0.05) over the words, document proportions from Dirichlet(0.1)), with those
// topics, α = 0.01, one thread. items_per_second = documents per second; the counter
// em_steps is the EM steps per document (SQUAREM's, to the default tolerance).
//
// Measured (2026-11-29 15:35 UTC, CPU 1, AVX-512, five alternating runs each, documents/s,
// median): one word at a time (018a31b): K = 100 8.1 k, K = 1000 622; four words' sums at a
// time, then their four terms per load and store of the accumulator while the four columns
// are in L1 (the same bits, the same 30.4 and 38.7 EM steps per document): K = 100 10.4 k,
// K = 1000 800 (+29%). With all the word sums first and the accumulation in a second pass over
// the columns: 10.3 k and 717. Eight words at a time was no faster.
#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "base/check.h"
#include "benchmark/benchmark.h"
#include "data/corpus.h"
#include "eval/fold_in.h"
#include "rng/categorical.h"
#include "rng/dirichlet.h"
#include "rng/engine.h"

namespace sgmcmc::eval {
namespace {

constexpr int kVocabulary = 5000;
constexpr int kDocuments = 200;
constexpr int kTokens = 100;

void BM_FoldIn(benchmark::State& state) {
  const int num_topics = static_cast<int>(state.range(0));
  rng::Engine engine(1);
  std::vector<double> topics(static_cast<size_t>(num_topics) * kVocabulary);
  for (int k = 0; k < num_topics; ++k) {
    rng::DirichletSample(engine, std::vector<double>(kVocabulary, 0.05),
                         absl::MakeSpan(topics.data() + static_cast<size_t>(k) * kVocabulary,
                                        kVocabulary));
  }
  data::Corpus documents;
  documents.vocabulary.resize(kVocabulary);
  documents.doc_offsets = {0};
  std::vector<double> theta(num_topics);
  for (int d = 0; d < kDocuments; ++d) {
    rng::DirichletSample(engine, std::vector<double>(num_topics, 0.1), absl::MakeSpan(theta));
    for (int i = 0; i < kTokens; ++i) {
      const int k = rng::CategoricalSample(engine, theta);
      documents.tokens.push_back(rng::CategoricalSample(
          engine, absl::MakeConstSpan(topics.data() + static_cast<size_t>(k) * kVocabulary,
                                      kVocabulary)));
    }
    documents.doc_offsets.push_back(static_cast<int64_t>(documents.tokens.size()));
  }
  FoldInOptions options;
  options.alpha = 0.01;
  FoldIn fold_in = *FoldIn::Create(documents, num_topics, options);
  std::vector<double> doc_topics(static_cast<size_t>(kDocuments) * num_topics);
  int64_t steps = 0;
  for (auto _ : state) {
    SGMCMC_CHECK(fold_in.Transform(topics, absl::MakeSpan(doc_topics)).ok());
    steps += fold_in.last_iterations();
    benchmark::DoNotOptimize(doc_topics.data());
  }
  state.SetItemsProcessed(state.iterations() * kDocuments);
  state.counters["em_steps"] =
      static_cast<double>(steps) / static_cast<double>(state.iterations() * kDocuments);
}
BENCHMARK(BM_FoldIn)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace sgmcmc::eval
