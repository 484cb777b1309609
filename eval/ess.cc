#include "eval/ess.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/check.h"
#include "eval/autocovariance.h"

namespace sgmcmc::eval {

double EffectiveSampleSize(absl::Span<const absl::Span<const double>> chains) {
  const size_t m = chains.size();
  SGMCMC_CHECK(m >= 1) << "EffectiveSampleSize: need at least one chain";
  const size_t n = chains[0].size();
  SGMCMC_CHECK(n >= 4) << "EffectiveSampleSize: chains need >= 4 draws, got " << n;
  for (const absl::Span<const double> chain : chains) {
    SGMCMC_CHECK(chain.size() == n) << "EffectiveSampleSize: chains must have equal length, got "
                                    << chain.size() << " and " << n;
  }

  // Mean over chains of the autocovariances, the chain means and the within variance W.
  std::vector<double> mean_acov(n, 0.0);
  std::vector<double> chain_means(m);
  for (size_t j = 0; j < m; ++j) {
    const std::vector<double> acov = Autocovariance(chains[j]);
    for (size_t t = 0; t < n; ++t) mean_acov[t] += acov[t] / m;
    double sum = 0;
    for (double x : chains[j]) sum += x;
    chain_means[j] = sum / n;
  }
  const double dn = static_cast<double>(n);
  const double within = mean_acov[0] * dn / (dn - 1);  // W: mean of (n-1)-normalised variances
  double var_plus = within * (dn - 1) / dn;
  if (m > 1) {
    double grand = 0;
    for (double mu : chain_means) grand += mu / m;
    double between = 0;  // B / n
    for (double mu : chain_means) between += (mu - grand) * (mu - grand);
    var_plus += between / (m - 1);
  }
  if (!(var_plus > 0)) return std::numeric_limits<double>::quiet_NaN();
  auto rho = [&](size_t t) { return 1 - (within - mean_acov[t]) / var_plus; };

  // Geyer's initial positive sequence over pairs (rho_{2k}, rho_{2k+1}).
  std::vector<double> rho_hat(n + 1, 0.0);
  double rho_even = 1.0;
  double rho_odd = rho(1);
  rho_hat[0] = rho_even;
  rho_hat[1] = rho_odd;
  size_t s = 1;
  while (s + 4 < n && rho_even + rho_odd > 0) {
    rho_even = rho(s + 1);
    rho_odd = rho(s + 2);
    if (rho_even + rho_odd >= 0) {
      rho_hat[s + 1] = rho_even;
      rho_hat[s + 2] = rho_odd;
    }
    s += 2;
  }
  const size_t max_s = s;
  // Keeps the last positive even term: lowers the variance for antithetic chains (Stan).
  if (rho_even > 0) rho_hat[max_s + 1] = rho_even;

  // Initial monotone sequence: pair sums must not increase.
  for (s = 1; s + 3 <= max_s; s += 2) {
    const double previous = rho_hat[s - 1] + rho_hat[s];
    if (rho_hat[s + 1] + rho_hat[s + 2] > previous) {
      rho_hat[s + 1] = previous / 2;
      rho_hat[s + 2] = previous / 2;
    }
  }
  double sum = 0;
  for (size_t t = 0; t < max_s; ++t) sum += rho_hat[t];
  const double tau = -1 + 2 * sum + rho_hat[max_s + 1];
  const double total = static_cast<double>(m) * dn;
  return total / std::max(tau, 1 / std::log10(total));
}

double EffectiveSampleSize(absl::Span<const double> chain) {
  const absl::Span<const double> chains[] = {chain};
  return EffectiveSampleSize(absl::MakeConstSpan(chains));
}

}  // namespace sgmcmc::eval
