// Bounded busy polling before a blocking wait, for the waits of parallel/: the ThreadPool's
// workers and caller, SpinBarrier, and the thread communicator's barrier. Internal to the
// package.
//
// A wait that ends within kPoll (threads arriving a few microseconds apart, the next call of a
// loop after a short serial step) costs no system call and no wake-up. The poll does not
// yield: on a loaded machine (other processes on the cores) a yielding thread gives its time
// slice to the other process and comes back milliseconds later, where a thread asleep on a
// condition variable is woken at once; so past kPoll the waiter sleeps. With more threads
// than cores nothing polls (a poll would take the processor from a sibling with work).
// Measured: bench/README.md, "Polls that sleep".
#ifndef SGMCMC_PARALLEL_POLL_H_
#define SGMCMC_PARALLEL_POLL_H_

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <thread>

namespace sgmcmc::parallel::internal {

inline constexpr std::chrono::microseconds kPoll(50);

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

// Whether `threads` threads may busy-poll: not when they outnumber the cores.
inline bool MayPoll(int threads) {
  static const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  return threads <= cores;
}

// Polls done() until it holds (true) or kPoll has passed (false); when `poll` is false, one
// look at done().
template <typename Done>
bool PollFor(bool poll, Done done) {
  if (!poll) return done();
  const auto start = std::chrono::steady_clock::now();
  for (uint32_t i = 1; !done(); ++i) {
    if (i % 64 == 0 && std::chrono::steady_clock::now() - start >= kPoll) return false;
    CpuRelax();
  }
  return true;
}

}  // namespace sgmcmc::parallel::internal

#endif  // SGMCMC_PARALLEL_POLL_H_
