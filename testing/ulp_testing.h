// UlpDistance: how many representable doubles lie between two values, for tests that bound a
// function's error in units in the last place (e.g. linalg::ExpArray against std::exp). Cost:
// O(1).
//
// Example:
//   EXPECT_LE(testing::UlpDistance(y, std::exp(x)), 1);
#ifndef SGMCMC_TESTING_ULP_TESTING_H_
#define SGMCMC_TESTING_ULP_TESTING_H_

#include <cstdint>
#include <cstring>

namespace sgmcmc::testing {

// Distance in units in the last place between two finite doubles of the same sign (their bit
// patterns are then ordered like their magnitudes).
inline int64_t UlpDistance(double a, double b) {
  int64_t ia, ib;
  std::memcpy(&ia, &a, sizeof(a));
  std::memcpy(&ib, &b, sizeof(b));
  return ia > ib ? ia - ib : ib - ia;
}

}  // namespace sgmcmc::testing

#endif  // SGMCMC_TESTING_ULP_TESTING_H_
