#include "parallel/thread_pool.h"

#include <atomic>
#include <chrono>
#include <numeric>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/random_inputs.h"

namespace sgmcmc::parallel {
namespace {

using ::sgmcmc::testing::RandomInputs;
using ::testing::ElementsAre;

TEST(ThreadPoolTest, ParallelForVisitsEveryIndexOnce) {
  for (int threads : {1, 2, 3, 5}) {
    ThreadPool pool(threads);
    for (int64_t n : {0, 1, 2, 7, 1000}) {
      std::vector<std::atomic<int>> visits(n);
      pool.ParallelFor(10, 10 + n, [&](int64_t i) { visits[i - 10].fetch_add(1); });
      for (int64_t i = 0; i < n; ++i) ASSERT_EQ(visits[i].load(), 1) << threads << " " << i;
    }
  }
}

TEST(ThreadPoolTest, ChunksAreStaticAndContiguous) {
  EXPECT_EQ(ThreadPool::ChunkBounds(0, 10, 3, 0), (std::pair<int64_t, int64_t>(0, 3)));
  EXPECT_EQ(ThreadPool::ChunkBounds(0, 10, 3, 1), (std::pair<int64_t, int64_t>(3, 6)));
  EXPECT_EQ(ThreadPool::ChunkBounds(0, 10, 3, 2), (std::pair<int64_t, int64_t>(6, 10)));
  ThreadPool pool(3);
  std::vector<int> owner(10, -1);
  pool.ParallelForChunks(0, 10, [&](int64_t begin, int64_t end, int thread) {
    for (int64_t i = begin; i < end; ++i) owner[i] = thread;
  });
  EXPECT_THAT(owner, ElementsAre(0, 0, 0, 1, 1, 1, 2, 2, 2, 2));
}

TEST(ThreadPoolTest, ResultsDoNotDependOnThreadCount) {
  // Each item draws from its own stream, so any thread count gives the same numbers.
  auto run = [](int threads) {
    ThreadPool pool(threads);
    std::vector<double> out(1001);
    for (int repeat = 0; repeat < 3; ++repeat) {
      pool.ParallelFor(0, out.size(), [&](int64_t i) {
        RandomInputs inputs(17, i);
        inputs.Discard(repeat);
        out[i] += inputs.Uniform();
      });
    }
    return out;
  };
  const std::vector<double> one = run(1);
  EXPECT_EQ(one, run(2));
  EXPECT_EQ(one, run(4));
}

TEST(ThreadPoolTest, RunOnThreadsRunsEveryThreadConcurrently) {
  ThreadPool pool(3);
  std::atomic<int> arrived{0};
  std::vector<int> ran(3, 0);
  std::atomic<bool> all_met{true};
  pool.RunOnThreads([&](int thread) {
    ++ran[thread];
    arrived.fetch_add(1);
    // A barrier: passes only if the three calls overlap in time (bounded wait, no hang).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (arrived.load() < 3) {
      if (std::chrono::steady_clock::now() > deadline) {
        all_met = false;
        break;
      }
    }
  });
  EXPECT_THAT(ran, ElementsAre(1, 1, 1));
  EXPECT_TRUE(all_met.load());
}

TEST(SpinBarrierTest, PhasesSeeEveryThreadsPreviousPhase) {
  // Each phase reads what every thread wrote in the previous one; without the barrier a fast
  // thread would read a stale (previous phase's) value of a slow one and the check fails.
  constexpr int kThreads = 3, kPhases = 2000;
  ThreadPool pool(kThreads);
  SpinBarrier barrier(kThreads);
  std::vector<std::atomic<int>> value(kThreads);
  for (std::atomic<int>& v : value) v = -1;
  std::atomic<int> mismatches{0};
  pool.RunOnThreads([&](int thread) {
    for (int phase = 0; phase < kPhases; ++phase) {
      value[thread].store(phase, std::memory_order_relaxed);
      barrier.Wait();
      for (int t = 0; t < kThreads; ++t) {
        if (value[t].load(std::memory_order_relaxed) != phase) ++mismatches;
      }
      barrier.Wait();  // nobody writes phase + 1 before everyone has read phase
    }
  });
  EXPECT_EQ(mismatches.load(), 0);
  SpinBarrier alone(1);
  alone.Wait();  // one thread: returns at once
}

TEST(ThreadPoolTest, ManyShortCalls) {
  ThreadPool pool(2);
  int64_t sum = 0;
  std::vector<int64_t> partial(2);
  for (int call = 0; call < 20000; ++call) {
    pool.RunOnThreads([&](int thread) { partial[thread] = call + thread; });
    sum += partial[0] + partial[1];
  }
  EXPECT_EQ(sum, 2 * (int64_t{19999} * 20000 / 2) + 20000);
}

TEST(ThreadPoolTest, BalancedChunkBounds) {
  EXPECT_THAT(ThreadPool::BalancedChunkBounds({1, 1, 1, 1}, 2), ElementsAre(0, 2, 4));
  EXPECT_THAT(ThreadPool::BalancedChunkBounds({10, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 2),
              ElementsAre(0, 1, 11));
  EXPECT_THAT(ThreadPool::BalancedChunkBounds({1, 1, 1, 1, 1, 1, 9}, 3),
              ElementsAre(0, 5, 7, 7));
  EXPECT_THAT(ThreadPool::BalancedChunkBounds({0, 0, 0}, 2), ElementsAre(0, 1, 3));
  EXPECT_THAT(ThreadPool::BalancedChunkBounds({}, 2), ElementsAre(0, 0, 0));
  // The chunk costs are within one item's cost of total / T.
  std::vector<int64_t> cost(1000);
  RandomInputs inputs(3);
  for (int64_t& c : cost) c = static_cast<int64_t>(inputs.UniformInt(500));
  const int64_t total = std::accumulate(cost.begin(), cost.end(), int64_t{0});
  const std::vector<int64_t> bounds = ThreadPool::BalancedChunkBounds(cost, 4);
  for (int t = 0; t < 4; ++t) {
    const int64_t chunk =
        std::accumulate(cost.begin() + bounds[t], cost.begin() + bounds[t + 1], int64_t{0});
    EXPECT_NEAR(chunk, total / 4.0, 2 * 500);
  }
}

TEST(ThreadPoolDeathTest, BadArguments) {
  EXPECT_DEATH(ThreadPool(0), "ThreadPool: num_threads must be >= 1, got 0");
  EXPECT_DEATH(
      {
        ThreadPool pool(2);
        pool.ParallelFor(0, 4, [&](int64_t) { pool.ParallelFor(0, 1, [](int64_t) {}); });
      },
      "called from inside one of the pool's own tasks");
  EXPECT_DEATH(
      {
        ThreadPool pool(1);
        pool.ParallelFor(3, 2, [](int64_t) {});
      },
      "ThreadPool::ParallelFor: begin 3 > end 2");
}

}  // namespace
}  // namespace sgmcmc::parallel
