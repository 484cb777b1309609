// Cost of a ThreadPool call: an empty ParallelFor (wake-up and join), and a loop of
// independent work items (throughput and scaling with threads).
//
// Measured (moved from parallel/thread_pool.h):
// Cost: one wake-up of the workers per call, ~7 µs with 2 threads (condition variables; see
// //parallel:thread_pool_benchmark); keep per-call work well above that.
// BM_ThreadPoolCallAfterSerialWork/2 (2026-11-25, shared 2-core machine, load ~1.5): an
// empty call after 10 / 100 / 1000 µs of serial work took 11-67 / 15-75 / 76-82 µs when the
// workers slept at once, 0.9 / 5.5 / 46 µs with a 200 µs yielding poll before sleeping, and
// 0.8 / 34 / 43 µs with today's 50 µs busy poll (load ~1). The poll was cut to 50 µs and
// stopped yielding because a yielding thread on a loaded machine loses its time slice to the
// other processes: the lda tool at 2 threads with two busy processes on the 2 cores took
// 5.3 s per 100 K = 100 iterations with the yielding poll and spin barriers, 3.2-3.5 s with
// polls that sleep after 50 µs (bench/README, "Polls that sleep").
#include <chrono>
#include <cmath>
#include <vector>

#include "benchmark/benchmark.h"
#include "parallel/thread_pool.h"

namespace sgmcmc::parallel {
namespace {

void BM_ThreadPoolEmptyCall(benchmark::State& state) {
  ThreadPool pool(static_cast<int>(state.range(0)));
  for (auto _ : state) pool.RunOnThreads([](int) {});
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ThreadPoolEmptyCall)->Arg(1)->Arg(2)->UseRealTime();

// An empty call after the caller worked alone for range(1) µs (the serial part between two
// calls, as in an LDA iteration's set-up): the wake-up and join once the workers have waited
// that long. Only the call is timed.
void BM_ThreadPoolCallAfterSerialWork(benchmark::State& state) {
  ThreadPool pool(static_cast<int>(state.range(0)));
  const auto gap = std::chrono::microseconds(state.range(1));
  for (auto _ : state) {
    const auto work_start = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - work_start < gap) {
    }
    const auto start = std::chrono::steady_clock::now();
    pool.RunOnThreads([](int) {});
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ThreadPoolCallAfterSerialWork)
    ->ArgsProduct({{2}, {10, 100, 1000}})
    ->Iterations(2000)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

void BM_ThreadPoolParallelFor(benchmark::State& state) {
  ThreadPool pool(static_cast<int>(state.range(0)));
  constexpr int kItems = 1 << 16;
  std::vector<double> out(kItems);
  for (auto _ : state) {
    pool.ParallelFor(0, kItems, [&](int64_t i) { out[i] = std::sqrt(out[i] + i); });
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * kItems);
}
BENCHMARK(BM_ThreadPoolParallelFor)->Arg(1)->Arg(2)->UseRealTime();

}  // namespace
}  // namespace sgmcmc::parallel
