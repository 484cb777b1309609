// Wall-clock timing for logs and traces.
#ifndef SGMCMC_BASE_SECONDS_SINCE_H_
#define SGMCMC_BASE_SECONDS_SINCE_H_

#include <chrono>

namespace sgmcmc {

// Seconds elapsed since `start` on the steady clock.
inline double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace sgmcmc

#endif  // SGMCMC_BASE_SECONDS_SINCE_H_
