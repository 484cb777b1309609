#include "models/dp/partition_testing.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "base/check.h"
#include "math/special_functions.h"

namespace sgmcmc::models {
namespace {

void Grow(std::vector<int>& prefix, int n, int num_blocks, std::vector<std::vector<int>>& out) {
  if (static_cast<int>(prefix.size()) == n) {
    out.push_back(prefix);
    return;
  }
  for (int b = 0; b <= num_blocks; ++b) {
    prefix.push_back(b);
    Grow(prefix, n, std::max(num_blocks, b + 1), out);
    prefix.pop_back();
  }
}

std::vector<int> Canonical(absl::Span<const int32_t> labels) {
  std::map<int32_t, int> block;
  std::vector<int> out;
  for (const int32_t l : labels) {
    auto it = block.emplace(l, static_cast<int>(block.size())).first;
    out.push_back(it->second);
  }
  return out;
}

}  // namespace

PartitionPosterior::PartitionPosterior(const MultinomialDirichletModel& model,
                                       const CountMatrix& data, double alpha) {
  const int n = static_cast<int>(data.rows());
  std::vector<double> log_prior(n + 1);
  for (int k = 1; k <= n; ++k) log_prior[k] = k * std::log(alpha);
  Build(model, data, log_prior,
        [&model](const double* stats) { return model.LogClusterMarginal(stats); });
}

PartitionPosterior::PartitionPosterior(
    const DpComponentModel& model, const CountMatrix& data, double alpha,
    const std::function<double(const double* stats)>& log_cluster_marginal) {
  const int n = static_cast<int>(data.rows());
  std::vector<double> log_prior(n + 1);
  for (int k = 1; k <= n; ++k) log_prior[k] = k * std::log(alpha);
  Build(model, data, log_prior, log_cluster_marginal);
}

PartitionPosterior::PartitionPosterior(const MultinomialDirichletModel& model,
                                       const CountMatrix& data, double alpha_shape,
                                       double alpha_rate) {
  const int n = static_cast<int>(data.rows());
  constexpr int kNodes = 20000;
  const double lo = std::log(1e-6), hi = std::log(1e4), h = (hi - lo) / (kNodes - 1);
  std::vector<double> log_prior(n + 1);
  for (int k = 1; k <= n; ++k) {
    std::vector<double> terms(kNodes);
    for (int j = 0; j < kNodes; ++j) {
      const double log_a = lo + j * h, a = std::exp(log_a);
      // Integrand in log α (dα = α d log α), trapezoid weights.
      terms[j] = k * log_a + math::LogGamma(a) - math::LogGamma(a + n) +
                 alpha_shape * std::log(alpha_rate) - math::LogGamma(alpha_shape) +
                 (alpha_shape - 1) * log_a - alpha_rate * a + log_a + std::log(h) +
                 ((j == 0 || j == kNodes - 1) ? std::log(0.5) : 0.0);
    }
    log_prior[k] = math::LogSumExp(terms);
  }
  Build(model, data, log_prior,
        [&model](const double* stats) { return model.LogClusterMarginal(stats); });
}

void PartitionPosterior::Build(
    const DpComponentModel& model, const CountMatrix& data,
    const std::vector<double>& log_prior_of_k,
    const std::function<double(const double* stats)>& log_cluster_marginal) {
  const int n = static_cast<int>(data.rows()), d = model.stats_size();
  SGMCMC_CHECK(n >= 1 && n <= 8) << n << " points";
  std::vector<int> prefix;
  Grow(prefix, n, 0, partitions_);
  std::vector<double> log_p;
  for (size_t p = 0; p < partitions_.size(); ++p) {
    const std::vector<int>& blocks = partitions_[p];
    index_[blocks] = static_cast<int>(p);
    const int k = *std::max_element(blocks.begin(), blocks.end()) + 1;
    std::vector<double> stats(static_cast<size_t>(k) * d, 0.0);
    std::vector<int> sizes(k, 0);
    for (int i = 0; i < n; ++i) {
      model.AccumulateStats(data.row(i), 1.0, stats.data() + blocks[i] * d);
      ++sizes[blocks[i]];
    }
    double lp = log_prior_of_k[k];
    for (int b = 0; b < k; ++b) {
      lp += math::LogGamma(sizes[b]) + log_cluster_marginal(stats.data() + b * d);
    }
    log_p.push_back(lp);
  }
  const double log_z = math::LogSumExp(log_p);
  for (const double lp : log_p) probabilities_.push_back(std::exp(lp - log_z));
}

int PartitionPosterior::Index(absl::Span<const int32_t> labels) const {
  auto it = index_.find(Canonical(labels));
  SGMCMC_CHECK(it != index_.end()) << "labels of the wrong length";
  return it->second;
}

double TotalVariation(absl::Span<const double> p, absl::Span<const double> q) {
  SGMCMC_CHECK(p.size() == q.size());
  double sum = 0;
  for (size_t j = 0; j < p.size(); ++j) sum += std::abs(p[j] - q[j]);
  return 0.5 * sum;
}

std::vector<double> Normalised(absl::Span<const double> counts) {
  double total = 0;
  for (const double c : counts) total += c;
  std::vector<double> out;
  for (const double c : counts) out.push_back(c / total);
  return out;
}

double TotalVariationTolerance(absl::Span<const double> p, int64_t draws, double false_failure) {
  const double s = static_cast<double>(draws);
  double expected = 0;
  for (const double pj : p) expected += 0.5 * std::sqrt(pj * (1 - pj) / s);
  return expected + std::sqrt(std::log(1.0 / false_failure) / (2 * s));
}

}  // namespace sgmcmc::models
