// ThreadPool: a fixed set of worker threads for data-parallel loops with static scheduling.
//
// ParallelFor(begin, end, fn) splits [begin, end) into num_threads() contiguous chunks of
// (almost) equal size, chunk t = [begin + t*n/T, begin + (t+1)*n/T), and runs chunk t on
// thread t (thread 0 is the caller). The partition depends only on (begin, end, T), never on
// timing, so when every item uses its own rng stream (e.g. rng::Engine(seed, item)) and writes
// only its own outputs, results are bit-identical for any scheduling. With the same T they are
// also identical across runs; with per-item streams and per-item outputs they are identical
// for any T. RunOnThreads(fn) is the primitive: fn(t) for every t, concurrently, e.g. over
// balanced chunks from BalancedChunkBounds() for items of unequal cost.
//
// Calls are blocking and serialised (one loop at a time per pool); calling the pool from
// inside one of its own tasks is a programming error (checked), as it would deadlock.
// SpinBarrier separates phases inside one RunOnThreads call (a phase that needs every
// thread's previous phase done) without a second wake-up of the workers.
//
// Cost: one wake-up of the workers per call (condition variables), O(T); keep per-call work
// well above it. After a call the workers busy-poll for the next one for 50 µs before they
// sleep, and the caller polls for the workers' end likewise: a call that follows the previous
// one within that time (a loop's next iteration after a short serial step) finds them awake.
// SpinBarrier::Wait: one atomic increment, then polling until the last thread arrives (no
// system call when the threads run at once), sleeping after 50 µs. The polls never yield:
// on a loaded machine a yielding thread loses its time slice to the other processes for
// milliseconds, while a sleeping one is woken at once. With more threads than cores
// (std::thread::hardware_concurrency) nothing polls: the threads sleep at once.
// Measured: parallel/thread_pool_benchmark.cc.
//
// Example:
//   parallel::ThreadPool pool(/*num_threads=*/2);
//   pool.ParallelFor(0, num_docs, [&](int64_t d) {
//     rng::Engine engine(seed, /*stream=*/d);
//     SampleDocument(d, engine);
//   });
#ifndef SGMCMC_PARALLEL_THREAD_POOL_H_
#define SGMCMC_PARALLEL_THREAD_POOL_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/types/span.h"

namespace sgmcmc::parallel {

class ThreadPool {
 public:
  // Starts num_threads - 1 workers (the caller is thread 0); num_threads >= 1 (checked).
  explicit ThreadPool(int num_threads);
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;
  // Joins the workers.
  ~ThreadPool();

  int num_threads() const { return num_threads_; }

  // Runs fn(t) for t = 0, ..., num_threads() - 1, concurrently (fn(0) on the caller), and
  // returns when all have returned.
  void RunOnThreads(absl::FunctionRef<void(int thread)> fn);

  // Runs fn(chunk_begin, chunk_end, thread) for the static contiguous chunks of [begin, end)
  // (empty chunks are skipped). begin <= end (checked).
  void ParallelForChunks(int64_t begin, int64_t end,
                         absl::FunctionRef<void(int64_t, int64_t, int)> fn);

  // Runs fn(i) for every i in [begin, end), chunk t on thread t. begin <= end (checked).
  void ParallelFor(int64_t begin, int64_t end, absl::FunctionRef<void(int64_t)> fn);

  // Chunk t of [begin, end) split into num_chunks contiguous parts whose sizes differ by at
  // most one: [begin + t*n/T, begin + (t+1)*n/T) with n = end - begin, T = num_chunks.
  static std::pair<int64_t, int64_t> ChunkBounds(int64_t begin, int64_t end, int num_chunks,
                                                 int t);

  // Splits items 0..n-1 with non-negative costs `cost` into num_chunks contiguous chunks of
  // nearly equal total cost: returns num_chunks + 1 ascending boundaries b (b[0] = 0,
  // b[num_chunks] = n), chunk t being [b[t], b[t+1]). Boundary t is the first item whose
  // cumulative cost before it reaches t/T of the total. Deterministic. O(n).
  static std::vector<int64_t> BalancedChunkBounds(absl::Span<const int64_t> cost,
                                                  int num_chunks);

 private:
  void WorkerLoop(int thread);

  const int num_threads_;
  const bool poll_;  // num_threads_ <= cores: workers and caller busy-poll before sleeping
  std::vector<std::thread> workers_;
  std::mutex call_mutex_;  // serialises RunOnThreads calls

  std::mutex mutex_;  // guards the fields below
  std::condition_variable work_ready_;
  std::condition_variable work_done_;
  const absl::FunctionRef<void(int)>* task_ = nullptr;
  // Written under mutex_; atomic for the polls before sleeping (PollFor in the .cc).
  std::atomic<uint64_t> generation_{0};  // incremented per call
  std::atomic<int> pending_{0};          // workers still running the current call
  bool stop_ = false;
};

// A reusable barrier for the `count` threads of one RunOnThreads call: Wait() returns once
// all `count` have called it (the k-th Wait of each thread pairs with the k-th of the others),
// and everything a thread wrote before its Wait is visible to all after theirs. A waiter
// busy-polls for up to 50 µs (not at all when there are more threads than cores) and then
// sleeps until the last thread arrives, so it is fast
// when the threads run at once and does not take the processor from the others when they do
// not (a loaded machine, more threads than cores).
class SpinBarrier {
 public:
  // count >= 1 (checked).
  explicit SpinBarrier(int count);
  SpinBarrier(const SpinBarrier&) = delete;
  SpinBarrier& operator=(const SpinBarrier&) = delete;

  void Wait();

 private:
  const int count_;
  const bool poll_;  // count_ <= cores
  std::atomic<int> arrived_{0};
  std::atomic<uint64_t> generation_{0};
  std::atomic<int> sleepers_{0};  // waiters past their poll, asleep on released_
  std::mutex mutex_;
  std::condition_variable released_;
};

// fn(chunk_begin, chunk_end, thread) over the static chunks of [0, n): on `pool`
// (ParallelForChunks), or, when it is null, once over the whole range on the calling thread
// as thread 0 (not at all when n <= 0).
void ForChunksOnPool(ThreadPool* pool, int64_t n,
                     absl::FunctionRef<void(int64_t, int64_t, int)> fn);

}  // namespace sgmcmc::parallel

#endif  // SGMCMC_PARALLEL_THREAD_POOL_H_
