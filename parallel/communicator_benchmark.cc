// Cost of the thread back end's AllReduceSum (parallel/communicator.h): one call on `size`
// thread-ranks of a vector of n doubles per rank. Time: real time per call (rank 0's loop);
// CPU: the process's CPU time per call, all ranks together (the work, less sensitive to other
// processes on the machine). bytes_per_second counts one rank's n doubles per call.
//
// Measured 2026-11-25 on the shared 2-core machine (a second engineer building: load average
// 3.2-5.7), `./bazelw build --config=bench //parallel:communicator_benchmark`, then
// `nice -n 5 bazel-bin/parallel/communicator_benchmark --benchmark_repetitions=5
// --benchmark_filter=size:S/n:N/`, each configuration at base 8fcab74 (every rank summed all
// size inputs, O(size * n) per rank) and right after it with the reduce-scatter + all-gather
// (O(n) per rank), twice over (rounds 1 and 2). Medians of 5: real µs per call (process CPU
// µs per call, all ranks); GiB/s of one rank's vector per real second; load: 1-minute load
// average before base's run, rounds 1 / 2.
//
// | size | n   | base 1        | base 2        | new 1       | new 2       | load      |
// |------|-----|---------------|---------------|-------------|-------------|-----------|
// | 1    | 1e3 | 0.83 (0.80)   | 1.1 (0.77)    | 0.83 (0.78) | 1.1 (0.77)  | 3.4 / 5.4 |
// | 1    | 1e5 | 115 (110)     | 110 (100)     | 114 (110)   | 100 (97)    | 3.2 / 5.4 |
// | 1    | 1e6 | 1536 (1516)   | 1556 (1460)   | 1528 (1508) | 1506 (1456) | 3.2 / 5.1 |
// | 2    | 1e3 | 12.8 (10.5)   | 101 (100)     | 160 (105)   | 107 (105)   | 3.2 / 4.9 |
// | 2    | 1e5 | 622 (450)     | 462 (460)     | 413 (289)   | 300 (294)   | 4.7 / 4.6 |
// | 2    | 1e6 | 6203 (4310)   | 6216 (4338)   | 2958 (2680) | 4486 (2938) | 4.9 / 4.5 |
// | 4    | 1e3 | 42 (30)       | 40 (29)       | 38 (27)     | 42 (27)     | 5.0 / 4.6 |
// | 4    | 1e5 | 1947 (1239)   | 796 (1311)    | 540 (419)   | 586 (416)   | 5.5 / 5.3 |
// | 4    | 1e6 | 14227 (14109) | 23846 (13949) | 6726 (4923) | 6807 (4707) | 5.7 / 5.5 |
//
// GiB/s, base 1 / base 2 -> new 1 / new 2: size 1: 9.0 / 6.7 -> 9.0 / 6.9 (1e3), 6.5 / 6.8 ->
// 6.6 / 7.4 (1e5), 4.9 / 4.8 -> 4.9 / 5.0 (1e6); size 2: 0.60 / 0.08 -> 0.05 / 0.07 (1e3),
// 1.2 / 1.6 -> 1.8 / 2.5 (1e5), 1.2 / 1.2 -> 2.5 / 1.7 (1e6); size 4: 0.18 / 0.19 -> 0.20 /
// 0.18 (1e3), 0.39 / 0.96 -> 1.4 / 1.3 (1e5), 0.54 / 0.32 -> 1.1 / 1.1 (1e6).
//
// At n = 1e5 and 1e6 the process CPU per call falls 1.5-1.6x at size 2 and ~3x at size 4 (the
// work per rank no longer grows with size); size 1 is unchanged. At n = 1e3 a call is the two
// barriers: at size 2 each repetition is either ~9-13 µs (both ranks running, the barrier's
// poll wins) or ~100-160 µs (a rank asleep while other processes hold the cores), for base
// and new alike (three more alternating runs of 5: base 140-172, 12-111, 55-109 µs; new
// 152-155, 8.5-41, 106-116 µs), so the medians there measure the machine's load, not the sum.
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "benchmark/benchmark.h"
#include "parallel/communicator.h"

namespace sgmcmc::parallel {
namespace {

// range(0) ranks, range(1) doubles. Rank 0 runs the benchmark loop; the other ranks make the
// same number of calls (state.max_iterations, which the loop runs exactly). The values are
// zeros, so that repeated sums neither overflow nor become subnormal.
void BM_ThreadAllReduceSum(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  const int64_t n = state.range(1);
  const benchmark::IterationCount calls = state.max_iterations;
  absl::Status status = RunOnThreads(size, [&](Communicator& comm) -> absl::Status {
    std::vector<double> values(n, 0.0);
    if (comm.rank() == 0) {
      for (auto _ : state) {
        absl::Status s = comm.AllReduceSum(absl::MakeSpan(values));
        if (!s.ok()) return s;
        benchmark::DoNotOptimize(values.data());
      }
      return absl::OkStatus();
    }
    for (benchmark::IterationCount i = 0; i < calls; ++i) {
      absl::Status s = comm.AllReduceSum(absl::MakeSpan(values));
      if (!s.ok()) return s;
    }
    return absl::OkStatus();
  });
  if (!status.ok()) state.SkipWithError(status.ToString().c_str());
  state.SetBytesProcessed(state.iterations() * n * static_cast<int64_t>(sizeof(double)));
}
BENCHMARK(BM_ThreadAllReduceSum)
    ->ArgNames({"size", "n"})
    ->ArgsProduct({{1, 2, 4}, {1000, 100000, 1000000}})
    ->UseRealTime()
    ->MeasureProcessCPUTime()
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace sgmcmc::parallel
