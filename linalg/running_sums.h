// Running sums c_j = m_0 + ... + m_j of n non-negative masses, formed four at a time: inside a
// block the partial sums p_0 = m_0, p_l = p_{l-1} + m_l, and c = S + p_l from the total S
// before the block, so the chain of dependent additions has one link per block instead of one
// per mass (a K = 1000 running sum otherwise waits ~4 cycles on each of its K additions).
// Only the rounding differs from the plain running sum, and as there the c_j never decrease
// (adding a non-negative number never lowers a rounded sum) and c_j > c_{j-1} forces m_j > 0
// (p_l = p_{l-1} exactly when m_l = 0, and S + m_0 = S when m_0 = 0): the sums can be
// inverted by counting or bisection and never select a mass of zero.
//
// Used by the sparse Gibbs sweep over a document's topics (eval/lda_gibbs.cc), which LDA's
// training and the document-completion evaluator share. Cost: n calls of `mass`, n
// additions and stores; header-only so that `mass` (and what it prefetches) is inlined.
#ifndef SGMCMC_LINALG_RUNNING_SUMS_H_
#define SGMCMC_LINALG_RUNNING_SUMS_H_

namespace sgmcmc::linalg {

// Writes cumulative[j] for j < n and returns the total (0 for n = 0). `mass(j)` returns m_j
// and is called once per j, in order. With blocked = false the plain running sum (for short
// lists, where the blocks do not pay).
template <typename Mass>
__attribute__((always_inline)) inline double RunningSums(int n, bool blocked, Mass mass,
                                                         double* cumulative) {
  double total = 0;
  int j = 0;
  if (blocked) {
    for (; j + 4 <= n; j += 4) {
      const double p0 = mass(j);
      const double p1 = p0 + mass(j + 1);
      const double p2 = p1 + mass(j + 2);
      const double p3 = p2 + mass(j + 3);
      cumulative[j] = total + p0;
      cumulative[j + 1] = total + p1;
      cumulative[j + 2] = total + p2;
      total += p3;
      cumulative[j + 3] = total;
    }
  }
  for (; j < n; ++j) {
    total += mass(j);
    cumulative[j] = total;
  }
  return total;
}

}  // namespace sgmcmc::linalg

#endif  // SGMCMC_LINALG_RUNNING_SUMS_H_
