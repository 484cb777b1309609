#include "models/dp/component_model.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "math/special_functions.h"
#include "rng/beta.h"
#include "rng/categorical.h"
#include "rng/dirichlet.h"
#include "rng/gamma.h"
#include "rng/multinomial.h"
#include "rng/uniform.h"

namespace sgmcmc::models {

MultinomialDirichletModel::MultinomialDirichletModel(int dimension, double gamma)
    : dimension_(dimension), gamma_(gamma) {
  SGMCMC_CHECK(dimension >= 2) << "dimension " << dimension;
  SGMCMC_CHECK(std::isfinite(gamma) && gamma > 0) << "gamma " << gamma;
  log_base_constant_ = math::LogGamma(dimension * gamma) - dimension * math::LogGamma(gamma);
}

double MultinomialDirichletModel::LogLikelihood(const double* x, const double* atom) const {
  double sum = 0;
  for (int d = 0; d < dimension_; ++d) sum += x[d] * atom[d];
  return sum;
}

double MultinomialLogCoefficient(const double* x, int dimension) {
  double n = 0, sum = 0;
  for (int d = 0; d < dimension; ++d) {
    n += x[d];
    sum -= math::LogGamma(x[d] + 1.0);
  }
  return sum + math::LogGamma(n + 1.0);
}

double MultinomialDirichletModel::LogNormalizer(const double* x) const {
  return MultinomialLogCoefficient(x, dimension_);
}

void MultinomialDirichletModel::AccumulateStats(const double* x, double sign,
                                                double* stats) const {
  for (int d = 0; d < dimension_; ++d) stats[d] += sign * x[d];
}

void MultinomialDirichletModel::SampleBase(rng::Engine& engine, double* atom) const {
  const std::vector<double> concentration(dimension_, gamma_);
  rng::LogDirichletSample(engine, concentration, absl::MakeSpan(atom, dimension_));
}

double MultinomialDirichletModel::LogBaseDensity(const double* atom) const {
  double sum = 0;
  for (int d = 0; d < dimension_; ++d) sum += atom[d];
  return log_base_constant_ + (gamma_ - 1.0) * sum;
}

void MultinomialDirichletModel::UpdateAtom(rng::Engine& engine, const double* stats,
                                           double* atom) const {
  std::vector<double> concentration(dimension_);
  for (int d = 0; d < dimension_; ++d) concentration[d] = gamma_ + stats[d];
  rng::LogDirichletSample(engine, concentration, absl::MakeSpan(atom, dimension_));
}

void MultinomialDirichletModel::SampleEmpirical(rng::Engine& engine, const double* x,
                                                double* atom) const {
  UpdateAtom(engine, x, atom);
}

double MultinomialDirichletModel::LogEmpiricalDensity(const double* x, const double* atom) const {
  double total = 0, sum = 0;
  for (int d = 0; d < dimension_; ++d) {
    const double a = gamma_ + x[d];
    total += a;
    sum += (a - 1.0) * atom[d] - math::LogGamma(a);
  }
  return sum + math::LogGamma(total);
}

double MultinomialDirichletModel::LogClusterMarginal(const double* stats) const {
  double total = 0, sum = 0;
  for (int d = 0; d < dimension_; ++d) {
    total += stats[d];
    sum += math::LogGamma(gamma_ + stats[d]);
  }
  return log_base_constant_ + sum - math::LogGamma(dimension_ * gamma_ + total);
}

double MultinomialDirichletModel::LogMarginal(const double* x) const {
  return LogClusterMarginal(x) + LogNormalizer(x);
}

int DpClusterTable::Open(const double* atom) {
  const int a = model_->atom_size(), s = model_->stats_size();
  int k;
  if (free_.empty()) {
    k = num_slots();
    atoms_.resize(atoms_.size() + a);
    stats_.resize(stats_.size() + s);
    sizes_.push_back(0);
    open_.push_back(1);
  } else {
    k = free_.back();
    free_.pop_back();
    open_[k] = 1;
    sizes_[k] = 0;
    std::fill(stats_.begin() + static_cast<size_t>(k) * s,
              stats_.begin() + static_cast<size_t>(k + 1) * s, 0.0);
  }
  std::copy(atom, atom + a, this->atom(k));
  return k;
}

void DpClusterTable::Close(int k) {
  SGMCMC_CHECK(open_[k] && sizes_[k] == 0) << "closing cluster " << k;
  open_[k] = 0;
  free_.push_back(k);
}

void DpClusterTable::Add(int k, const double* x) {
  model_->AccumulateStats(x, 1.0, stats_.data() + static_cast<size_t>(k) * model_->stats_size());
  ++sizes_[k];
}

void DpClusterTable::Remove(int k, const double* x) {
  SGMCMC_CHECK(sizes_[k] > 0) << "removing from empty cluster " << k;
  model_->AccumulateStats(x, -1.0,
                          stats_.data() + static_cast<size_t>(k) * model_->stats_size());
  if (--sizes_[k] == 0) {  // exact zeros, whatever the rounding of the removals
    std::fill(stats_.begin() + static_cast<size_t>(k) * model_->stats_size(),
              stats_.begin() + static_cast<size_t>(k + 1) * model_->stats_size(), 0.0);
  }
}

void DpClusterTable::Clear() {
  atoms_.clear();
  stats_.clear();
  sizes_.clear();
  open_.clear();
  free_.clear();
}

absl::Status DpComponentModel::RestoreGlobalState(absl::Span<const double> state) {
  if (state.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "this component model has no global state, got ", state.size(), " values"));
}

absl::Status DpClusterTable::RestoreContents(std::vector<double> atoms,
                                             std::vector<double> stats,
                                             std::vector<int64_t> sizes, std::vector<char> open,
                                             std::vector<int> free) {
  const size_t slots = sizes.size();
  if (open.size() != slots || atoms.size() != slots * model_->atom_size() ||
      stats.size() != slots * model_->stats_size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cluster table: ", slots, " sizes, ", open.size(), " open flags, ", atoms.size(),
        " atom values and ", stats.size(), " statistics do not fit ", slots, " slots of ",
        model_->atom_size(), " and ", model_->stats_size(), " values"));
  }
  std::vector<char> listed(slots, 0);
  for (const int k : free) {
    if (k < 0 || static_cast<size_t>(k) >= slots || open[k] || listed[k]) {
      return absl::InvalidArgumentError(absl::StrCat(
          "cluster table: free slot ", k, " is out of range, open or listed twice"));
    }
    listed[k] = 1;
  }
  for (size_t k = 0; k < slots; ++k) {
    if (sizes[k] < 0 || (!open[k] && (sizes[k] != 0 || !listed[k]))) {
      return absl::InvalidArgumentError(
          absl::StrCat("cluster table: slot ", k, " has size ", sizes[k], " and is ",
                       open[k] ? "open" : "closed", listed[k] ? "" : " and not free"));
    }
  }
  atoms_ = std::move(atoms);
  stats_ = std::move(stats);
  sizes_ = std::move(sizes);
  open_ = std::move(open);
  free_ = std::move(free);
  return absl::OkStatus();
}

LogCountTable::LogCountTable(int64_t max_n) {
  SGMCMC_CHECK(max_n >= 0) << "LogCountTable: max_n must be >= 0, got " << max_n;
  table_.resize(max_n + 1);
  for (int64_t n = 0; n <= max_n; ++n) table_[n] = std::log(static_cast<double>(n));
}

double DpLogPredictive(const DpComponentModel& model, const double* x,
                       absl::Span<const double> log_weights, absl::Span<const double> atoms,
                       double log_rest) {
  const double normalizer = model.LogNormalizer(x);
  std::vector<double> terms;
  terms.reserve(log_weights.size() + 1);
  for (size_t k = 0; k < log_weights.size(); ++k) {
    terms.push_back(log_weights[k] + normalizer +
                    model.LogLikelihood(x, atoms.data() + k * model.atom_size()));
  }
  terms.push_back(log_rest + model.LogMarginal(x));
  return math::LogSumExp(terms);
}

std::vector<CountMatrix> SyntheticMultinomialMixture(absl::Span<const int> sizes, int dimension,
                                                     int counts_per_row, int components,
                                                     double gamma, uint64_t seed) {
  SGMCMC_CHECK(dimension >= 2 && components >= 1 && gamma > 0);
  rng::Engine engine(seed);
  const int d = dimension, k = components;
  std::vector<double> atoms(static_cast<size_t>(k) * d), weights(k);
  const std::vector<double> base(d, gamma), ones(k, 1.0);
  for (int c = 0; c < k; ++c) {
    rng::DirichletSample(engine, base, absl::MakeSpan(atoms.data() + c * d, d));
  }
  rng::DirichletSample(engine, ones, absl::MakeSpan(weights));
  std::vector<int64_t> counts(d);
  std::vector<CountMatrix> out;
  for (const int rows : sizes) {
    CountMatrix m{d, {}};
    for (int i = 0; i < rows; ++i) {
      const int c = rng::CategoricalSample(engine, weights);
      rng::MultinomialSample(engine, counts_per_row, absl::MakeConstSpan(atoms.data() + c * d, d),
                             absl::MakeSpan(counts));
      m.values.insert(m.values.end(), counts.begin(), counts.end());
    }
    out.push_back(std::move(m));
  }
  return out;
}

double SampleAlphaWest(rng::Engine& engine, double alpha, int num_clusters, int64_t num_points,
                       double shape, double rate) {
  SGMCMC_CHECK(num_clusters >= 1 && num_points >= 1 && shape > 0 && rate > 0);
  const double n = static_cast<double>(num_points), k = num_clusters;
  const double eta = rng::BetaSample(engine, alpha + 1.0, n);
  const double posterior_rate = rate - std::log(eta);
  const double odds = (shape + k - 1.0) / (n * posterior_rate);
  const double posterior_shape =
      rng::UniformDouble(engine) < odds / (1.0 + odds) ? shape + k : shape + k - 1.0;
  return rng::GammaSample(engine, posterior_shape) / posterior_rate;
}

}  // namespace sgmcmc::models
