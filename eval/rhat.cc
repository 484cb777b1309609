#include "eval/rhat.h"

#include <cmath>
#include <limits>
#include <vector>

#include "base/check.h"

namespace sgmcmc::eval {

double SplitRHat(absl::Span<const absl::Span<const double>> chains) {
  SGMCMC_CHECK(!chains.empty()) << "SplitRHat: need at least one chain";
  const size_t n = chains[0].size();
  SGMCMC_CHECK(n >= 4) << "SplitRHat: chains need >= 4 draws, got " << n;
  const size_t half = n / 2;
  std::vector<double> means, variances;
  for (const absl::Span<const double> chain : chains) {
    SGMCMC_CHECK(chain.size() == n)
        << "SplitRHat: chains must have equal length, got " << chain.size() << " and " << n;
    for (const absl::Span<const double> part : {chain.first(half), chain.last(half)}) {
      double mean = 0;
      for (double x : part) mean += x;
      mean /= half;
      double ss = 0;
      for (double x : part) ss += (x - mean) * (x - mean);
      means.push_back(mean);
      variances.push_back(ss / (half - 1));
    }
  }
  const double m = static_cast<double>(means.size());
  double within = 0, grand = 0;
  for (size_t j = 0; j < means.size(); ++j) {
    within += variances[j] / m;
    grand += means[j] / m;
  }
  if (!(within > 0)) return std::numeric_limits<double>::quiet_NaN();
  double between_over_n = 0;  // B / n'
  for (double mean : means) between_over_n += (mean - grand) * (mean - grand) / (m - 1);
  const double dn = static_cast<double>(half);
  const double var_plus = (dn - 1) / dn * within + between_over_n;
  return std::sqrt(var_plus / within);
}

}  // namespace sgmcmc::eval
