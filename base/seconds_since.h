// Wall-clock and CPU-time timing for logs and traces.
#ifndef SGMCMC_BASE_SECONDS_SINCE_H_
#define SGMCMC_BASE_SECONDS_SINCE_H_

#include <time.h>

#include <chrono>

namespace sgmcmc {

// Seconds elapsed since `start` on the steady clock.
inline double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// CPU seconds used so far by the calling process (all its threads) / the calling thread
// (POSIX clock_gettime).
inline double ProcessCpuSeconds() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}
inline double ThreadCpuSeconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

}  // namespace sgmcmc

#endif  // SGMCMC_BASE_SECONDS_SINCE_H_
