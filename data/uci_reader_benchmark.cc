// Reading speed of the UCI reader on the embedded KOS corpus, gzip and plain (uncompressed
// bytes per second and tokens per second).
//
// Measured (moved from data/uci_reader.h):
// Cost: one pass, O(NNZ + N) time: ~100 MB/s plain, ~70 MB/s gzip (uncompressed bytes), i.e.
// KOS (4.1 MB of text, 1.05 MB gzip) loads in ~0.055 s (//data:uci_reader_benchmark).
//
// Measured (moved from data/line_reader.h):
// Cost: one memchr per line over 1 MiB blocks, plus inflate for gzip input; the UCI reader on
// top of it parses ~100 MB/s of plain and ~70 MB/s (uncompressed) of gzip text
// (//data:uci_reader_benchmark).
#include <cstdio>
#include <string>

#include "base/check.h"
#include "benchmark/benchmark.h"
#include "data/embedded_corpus.h"
#include "data/uci_reader.h"
#include "zlib.h"

namespace sgmcmc::data {
namespace {

const UciCorpusPaths& KosPaths() {
  static const UciCorpusPaths* paths = [] {
    absl::StatusOr<UciCorpusPaths> found = EmbeddedKosPaths("");
    SGMCMC_CHECK(found.ok()) << found.status();
    return new UciCorpusPaths(*found);
  }();
  return *paths;
}

// A decompressed copy of the KOS docword file in the temporary directory.
const std::string& PlainKosDocword() {
  static const std::string* path = [] {
    const char* tmp = std::getenv("TEST_TMPDIR");
    auto* out = new std::string(std::string(tmp != nullptr ? tmp : "/tmp") +
                                "/docword.kos.plain.txt");
    gzFile in = gzopen(KosPaths().docword.c_str(), "rb");
    std::FILE* file = std::fopen(out->c_str(), "wb");
    SGMCMC_CHECK(in != nullptr && file != nullptr) << "PlainKosDocword: cannot copy";
    char buffer[1 << 16];
    int read;
    while ((read = gzread(in, buffer, sizeof(buffer))) > 0) std::fwrite(buffer, 1, read, file);
    gzclose(in);
    std::fclose(file);
    return out;
  }();
  return *path;
}

void ReadKos(benchmark::State& state, const std::string& docword) {
  UciReadSummary summary;
  for (auto _ : state) {
    absl::StatusOr<Corpus> corpus = ReadUciCorpus(docword, KosPaths().vocab, &summary);
    SGMCMC_CHECK(corpus.ok()) << corpus.status();
    benchmark::DoNotOptimize(corpus->tokens.data());
  }
  state.SetBytesProcessed(state.iterations() * summary.uncompressed_bytes);
  state.SetItemsProcessed(state.iterations() * summary.num_tokens);
}

void BM_UciReaderKosGzip(benchmark::State& state) { ReadKos(state, KosPaths().docword); }
BENCHMARK(BM_UciReaderKosGzip)->Unit(benchmark::kMillisecond);

void BM_UciReaderKosPlain(benchmark::State& state) { ReadKos(state, PlainKosDocword()); }
BENCHMARK(BM_UciReaderKosPlain)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace sgmcmc::data
