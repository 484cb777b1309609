// Raw-text reading speed: ReadTextLines on ~8 MB of synthetic text (KOS words with stop
// words, punctuation and numbers mixed in), tokenizing, building the vocabulary and the corpus
// (bytes and kept tokens per second).
//
// Measured (moved from data/text_reader.h):
// Cost: one pass over the text (tokenizing, one hash lookup per token) + O(V log V) + O(N):
// ~60 MB/s (//data:text_reader_benchmark); the 11,314 files of 20news-bydate-train (~22 MB)
// take ~2.5 s.
#include <cstdio>
#include <string>

#include "base/check.h"
#include "benchmark/benchmark.h"
#include "data/embedded_corpus.h"
#include "data/text_reader.h"
#include "rng/engine.h"
#include "rng/uniform.h"

namespace sgmcmc::data {
namespace {

// Writes the text once: 20,000 lines of 60 words each.
const std::string& SyntheticText(int64_t* bytes) {
  static int64_t size = 0;
  static const std::string* path = [] {
    absl::StatusOr<Corpus> kos = LoadEmbeddedKos();
    SGMCMC_CHECK(kos.ok()) << kos.status();
    const char* tmp = std::getenv("TEST_TMPDIR");
    auto* out = new std::string(std::string(tmp != nullptr ? tmp : "/tmp") + "/synthetic.txt");
    std::FILE* file = std::fopen(out->c_str(), "w");
    SGMCMC_CHECK(file != nullptr) << "cannot write " << *out;
    rng::Engine engine(1);
    const char* extras[] = {"the", "and", "of", "2004", "--", "It's", "a"};
    std::string line;
    for (int l = 0; l < 20000; ++l) {
      line.clear();
      for (int i = 0; i < 60; ++i) {
        if (rng::UniformInt(engine, 3) == 0) {
          line += extras[rng::UniformInt(engine, 7)];
        } else {
          line += kos->vocabulary[rng::UniformInt(engine, kos->vocabulary_size())];
        }
        line += rng::UniformInt(engine, 8) == 0 ? ", " : " ";
      }
      line += "\n";
      size += static_cast<int64_t>(line.size());
      std::fputs(line.c_str(), file);
    }
    std::fclose(file);
    return out;
  }();
  *bytes = size;
  return *path;
}

void BM_TextReaderLines(benchmark::State& state) {
  int64_t bytes = 0;
  const std::string& path = SyntheticText(&bytes);
  TextReadSummary summary;
  for (auto _ : state) {
    absl::StatusOr<Corpus> corpus = ReadTextLines(path, TextCorpusOptions(), &summary);
    SGMCMC_CHECK(corpus.ok()) << corpus.status();
    benchmark::DoNotOptimize(corpus->tokens.data());
  }
  state.SetBytesProcessed(state.iterations() * bytes);
  state.SetItemsProcessed(state.iterations() * summary.tokens_kept);
}
BENCHMARK(BM_TextReaderLines)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace sgmcmc::data
