#include "parallel/thread_pool.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "base/check.h"
#include "parallel/poll.h"

namespace sgmcmc::parallel {
namespace {

using internal::MayPoll;
using internal::PollFor;

// The pool whose task the current thread is running, to catch re-entrant calls.
thread_local const ThreadPool* current_pool = nullptr;

// Marks the current thread as running a task of `pool` for the lifetime of the object.
class TaskScope {
 public:
  explicit TaskScope(const ThreadPool* pool) : previous_(current_pool) { current_pool = pool; }
  ~TaskScope() { current_pool = previous_; }

 private:
  const ThreadPool* previous_;
};


}  // namespace

ThreadPool::ThreadPool(int num_threads)
    : num_threads_(num_threads), poll_(MayPoll(num_threads)) {
  SGMCMC_CHECK(num_threads >= 1) << "ThreadPool: num_threads must be >= 1, got " << num_threads;
  workers_.reserve(num_threads - 1);
  for (int t = 1; t < num_threads; ++t) workers_.emplace_back([this, t] { WorkerLoop(t); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  work_ready_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void ThreadPool::WorkerLoop(int thread) {
  uint64_t seen = 0;
  while (true) {
    const absl::FunctionRef<void(int)>* task;
    PollFor(poll_, [&] { return generation_.load(std::memory_order_acquire) != seen; });
    {
      std::unique_lock<std::mutex> lock(mutex_);
      work_ready_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      task = task_;
    }
    {
      TaskScope scope(this);
      (*task)(thread);
    }
    bool last;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      last = --pending_ == 0;
    }
    if (last) work_done_.notify_one();
  }
}

void ThreadPool::RunOnThreads(absl::FunctionRef<void(int thread)> fn) {
  SGMCMC_CHECK(current_pool != this)
      << "ThreadPool::RunOnThreads: called from inside one of the pool's own tasks";
  std::lock_guard<std::mutex> call_lock(call_mutex_);
  if (num_threads_ > 1) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      task_ = &fn;
      pending_ = num_threads_ - 1;
      ++generation_;
    }
    work_ready_.notify_all();
  }
  {
    TaskScope scope(this);
    fn(0);
  }
  if (num_threads_ > 1) {
    PollFor(poll_, [&] { return pending_.load(std::memory_order_acquire) == 0; });
    std::unique_lock<std::mutex> lock(mutex_);
    work_done_.wait(lock, [&] { return pending_ == 0; });
    task_ = nullptr;
  }
}

std::pair<int64_t, int64_t> ThreadPool::ChunkBounds(int64_t begin, int64_t end,
                                                    int num_chunks, int t) {
  const int64_t n = end - begin;
  // n * t fits in int64 for any realistic loop (n < 2^56 with T < 256).
  return {begin + n * t / num_chunks, begin + n * (t + 1) / num_chunks};
}

std::vector<int64_t> ThreadPool::BalancedChunkBounds(absl::Span<const int64_t> cost,
                                                     int num_chunks) {
  SGMCMC_CHECK(num_chunks >= 1)
      << "ThreadPool::BalancedChunkBounds: num_chunks must be >= 1, got " << num_chunks;
  int64_t total = 0;
  for (int64_t c : cost) {
    SGMCMC_CHECK(c >= 0) << "ThreadPool::BalancedChunkBounds: costs must be >= 0, got " << c;
    total += c;
  }
  const int64_t n = static_cast<int64_t>(cost.size());
  std::vector<int64_t> bounds(num_chunks + 1, n);
  if (total == 0) {  // nothing to balance: equal item counts
    for (int t = 0; t < num_chunks; ++t) bounds[t] = ChunkBounds(0, n, num_chunks, t).first;
    return bounds;
  }
  bounds[0] = 0;
  int64_t before = 0;  // cumulative cost of items [0, i)
  int t = 1;
  for (int64_t i = 0; i < n && t < num_chunks; ++i) {
    // Boundary t is the first i with before * T >= t * total (exact integer comparison,
    // in 128 bits).
    while (t < num_chunks && static_cast<__int128>(before) * num_chunks >=
                                 static_cast<__int128>(t) * total) {
      bounds[t++] = i;
    }
    before += cost[i];
  }
  return bounds;
}

void ThreadPool::ParallelForChunks(int64_t begin, int64_t end,
                                   absl::FunctionRef<void(int64_t, int64_t, int)> fn) {
  SGMCMC_CHECK(begin <= end) << "ThreadPool::ParallelForChunks: begin " << begin
                             << " > end " << end;
  RunOnThreads([&](int thread) {
    const auto [chunk_begin, chunk_end] = ChunkBounds(begin, end, num_threads_, thread);
    if (chunk_begin < chunk_end) fn(chunk_begin, chunk_end, thread);
  });
}

void ThreadPool::ParallelFor(int64_t begin, int64_t end, absl::FunctionRef<void(int64_t)> fn) {
  SGMCMC_CHECK(begin <= end) << "ThreadPool::ParallelFor: begin " << begin << " > end " << end;
  ParallelForChunks(begin, end, [&](int64_t chunk_begin, int64_t chunk_end, int) {
    for (int64_t i = chunk_begin; i < chunk_end; ++i) fn(i);
  });
}

void ForChunksOnPool(ThreadPool* pool, int64_t n,
                     absl::FunctionRef<void(int64_t, int64_t, int)> fn) {
  if (pool == nullptr) {
    if (n > 0) fn(0, n, 0);
    return;
  }
  pool->ParallelForChunks(0, n, fn);
}

SpinBarrier::SpinBarrier(int count) : count_(count), poll_(MayPoll(count)) {
  SGMCMC_CHECK(count >= 1) << "SpinBarrier: count must be >= 1, got " << count;
}

void SpinBarrier::Wait() {
  // Sequentially consistent on generation_ and sleepers_: either the last thread sees a
  // sleeper (and wakes it under the mutex) or the sleeper sees the new generation before it
  // waits, so no wake-up is lost.
  const uint64_t generation = generation_.load(std::memory_order_seq_cst);
  if (arrived_.fetch_add(1, std::memory_order_acq_rel) == count_ - 1) {
    // The last to arrive resets the count before releasing the others, so their next Wait
    // counts afresh.
    arrived_.store(0, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_seq_cst);
    if (sleepers_.load(std::memory_order_seq_cst) > 0) {
      std::lock_guard<std::mutex> lock(mutex_);
      released_.notify_all();
    }
    return;
  }
  auto released = [&] { return generation_.load(std::memory_order_seq_cst) != generation; };
  if (PollFor(poll_, released)) return;
  std::unique_lock<std::mutex> lock(mutex_);
  sleepers_.fetch_add(1, std::memory_order_seq_cst);
  released_.wait(lock, released);
  sleepers_.fetch_sub(1, std::memory_order_relaxed);
}

}  // namespace sgmcmc::parallel
