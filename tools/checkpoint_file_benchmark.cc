// Framing and unframing a checkpoint of range(0) bytes (tools/checkpoint_file.h), in memory:
// the cost the checksum adds to a tool's checkpoint write or read, besides the file I/O.

#include <string>

#include "benchmark/benchmark.h"
#include "tools/checkpoint_file.h"

namespace sgmcmc::tools {
namespace {

std::string Payload(int64_t bytes) {
  std::string payload(static_cast<size_t>(bytes), '\0');
  for (size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<char>(i * 131 + 7);
  return payload;
}

void BM_FrameCheckpoint(benchmark::State& state) {
  const std::string payload = Payload(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(FrameCheckpoint("lda", payload));
  state.SetBytesProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_FrameCheckpoint)->Arg(1 << 16)->Arg(1 << 24);

void BM_UnframeCheckpoint(benchmark::State& state) {
  const std::string file = FrameCheckpoint("lda", Payload(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(UnframeCheckpoint("x.pb", "lda", file));
  state.SetBytesProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_UnframeCheckpoint)->Arg(1 << 16)->Arg(1 << 24);

}  // namespace
}  // namespace sgmcmc::tools
