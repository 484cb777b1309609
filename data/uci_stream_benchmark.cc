// Streaming speed: one pass over the embedded KOS docword file (gzip) in minibatches of 50
// through a shuffle buffer of 1000 documents (documents and tokens per second).
//
// Measured (moved from data/uci_stream.h):
// Cost: parsing as ReadUciCorpus plus O(1) per document: a pass over KOS in batches of 50
// takes ~50 ms, ~70 k documents/s (//data:uci_stream_benchmark).
#include "base/check.h"
#include "benchmark/benchmark.h"
#include "data/embedded_corpus.h"
#include "data/uci_stream.h"

namespace sgmcmc::data {
namespace {

void BM_UciMinibatchStreamKosPass(benchmark::State& state) {
  const absl::StatusOr<UciCorpusPaths> paths = EmbeddedKosPaths("");
  SGMCMC_CHECK(paths.ok()) << paths.status();
  UciStreamOptions options;
  options.batch_size = 50;
  options.shuffle_buffer_documents = static_cast<int>(state.range(0));
  options.max_epochs = 1;
  rng::Engine engine(1);
  DocumentMinibatch batch;
  int64_t documents = 0, tokens = 0;
  for (auto _ : state) {
    auto stream = UciMinibatchStream::Open(paths->docword, options);
    SGMCMC_CHECK(stream.ok()) << stream.status();
    while (true) {
      const absl::StatusOr<bool> more = stream->Next(engine, &batch);
      SGMCMC_CHECK(more.ok()) << more.status();
      if (!*more) break;
      documents += batch.ids.size();
      tokens += batch.documents.num_tokens();
    }
  }
  state.SetItemsProcessed(tokens);
  state.counters["documents_per_second"] =
      benchmark::Counter(static_cast<double>(documents), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_UciMinibatchStreamKosPass)->Arg(1)->Arg(1000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace sgmcmc::data
