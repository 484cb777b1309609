#include "models/dp/logistic_normal_model.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "math/special_functions.h"
#include "rng/normal.h"

namespace sgmcmc::models {
namespace {

// Σ_d x_d log θ_d over the nonzero counts.
double CountsDot(const double* x, const double* log_probs, int d) {
  double sum = 0;
  for (int i = 0; i < d; ++i) {
    if (x[i] != 0) sum += x[i] * log_probs[i];
  }
  return sum;
}

}  // namespace

absl::Status DpLogisticNormalOptions::Validate() const {
  if (!(empirical_sd > 0) || !std::isfinite(empirical_sd)) {
    return absl::InvalidArgumentError(
        absl::StrCat("empirical_sd must be finite and > 0, got ", empirical_sd));
  }
  if (marginal_draws < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("marginal_draws must be >= 1, got ", marginal_draws));
  }
  return absl::OkStatus();
}

DpLogisticNormalModel::DpLogisticNormalModel(LogisticNormalMultinomial model,
                                             const DpLogisticNormalOptions& options)
    : model_(std::move(model)), options_(options) {
  const absl::Status valid = options.Validate();
  SGMCMC_CHECK(valid.ok()) << valid;
  rng::Engine engine(options.bank_seed, 0);
  bank_normals_.resize(static_cast<size_t>(options.marginal_draws) *
                       (model_.rank() + model_.dimension()));
  rng::FillNormal(engine, absl::MakeSpan(bank_normals_));
  RefreshBank();
}

void DpLogisticNormalModel::RefreshBank() {
  const int d = model_.dimension(), r = model_.rank();
  const absl::Span<const double> loadings = model_.loadings(), mean = model_.mean();
  bank_log_probs_.resize(static_cast<size_t>(options_.marginal_draws) * d);
  std::vector<double> eta(d);
  for (int j = 0; j < options_.marginal_draws; ++j) {
    const double* z = bank_normals_.data() + static_cast<size_t>(j) * (r + d);
    const double* eps = z + r;
    for (int i = 0; i < d; ++i) {
      double v = mean[i] + model_.options().noise_sd * eps[i];
      for (int c = 0; c < r; ++c) v += loadings[static_cast<size_t>(i) * r + c] * z[c];
      eta[i] = v;
    }
    LogSoftmax(eta, absl::MakeSpan(bank_log_probs_.data() + static_cast<size_t>(j) * d, d));
  }
}

void DpLogisticNormalModel::StoreAtom(absl::Span<const double> eta, double* atom) const {
  const int d = model_.dimension();
  std::copy(eta.begin(), eta.end(), atom);
  LogSoftmax(eta, absl::MakeSpan(atom + d, d));
}

double DpLogisticNormalModel::LogLikelihood(const double* x, const double* atom) const {
  const int d = model_.dimension();
  return CountsDot(x, atom + d, d);
}

double DpLogisticNormalModel::LogNormalizer(const double* x) const {
  return MultinomialLogCoefficient(x, model_.dimension());
}

void DpLogisticNormalModel::AccumulateStats(const double* x, double sign, double* stats) const {
  for (int i = 0; i < model_.dimension(); ++i) stats[i] += sign * x[i];
}

void DpLogisticNormalModel::SampleBase(rng::Engine& engine, double* atom) const {
  const LogisticNormalAtom drawn = model_.DrawFromBase(engine);
  StoreAtom(drawn.eta, atom);
}

double DpLogisticNormalModel::LogBaseDensity(const double* atom) const {
  return model_.LogBaseDensity(absl::MakeConstSpan(atom, model_.dimension()));
}

void DpLogisticNormalModel::UpdateAtom(rng::Engine& engine, const double* stats,
                                       double* atom) const {
  const int d = model_.dimension();
  MultinomialStatistics statistics(d);
  for (int i = 0; i < d; ++i) {
    statistics.counts[i] = std::llround(stats[i]);
    statistics.total += statistics.counts[i];
  }
  LogisticNormalAtom current;
  current.eta.assign(atom, atom + d);
  model_.UpdateAtom(statistics, &current, engine);
  StoreAtom(current.eta, atom);
}

std::vector<double> DpLogisticNormalModel::EmpiricalCentre(const double* x) const {
  const int d = model_.dimension();
  std::vector<double> centre(d);
  double mean = 0;
  for (int i = 0; i < d; ++i) {
    centre[i] = std::log(x[i] + 0.5);
    mean += centre[i];
  }
  mean /= d;
  for (double& c : centre) c -= mean;
  return centre;
}

void DpLogisticNormalModel::SampleEmpirical(rng::Engine& engine, const double* x,
                                            double* atom) const {
  std::vector<double> eta = EmpiricalCentre(x);
  for (double& e : eta) e += options_.empirical_sd * rng::NormalSample(engine);
  StoreAtom(eta, atom);
}

double DpLogisticNormalModel::LogEmpiricalDensity(const double* x, const double* atom) const {
  const std::vector<double> centre = EmpiricalCentre(x);
  double sum = 0;
  for (size_t i = 0; i < centre.size(); ++i) {
    sum += rng::NormalLogPdf(atom[i], centre[i], options_.empirical_sd);
  }
  return sum;
}

double DpLogisticNormalModel::LogMarginal(const double* x) const {
  const int d = model_.dimension();
  std::vector<double> terms(options_.marginal_draws);
  for (int j = 0; j < options_.marginal_draws; ++j) {
    terms[j] = CountsDot(x, bank_log_probs_.data() + static_cast<size_t>(j) * d, d);
  }
  return math::LogSumExp(terms) - std::log(static_cast<double>(options_.marginal_draws)) +
         LogNormalizer(x);
}

void DpLogisticNormalModel::UpdateGlobal(rng::Engine& engine, absl::Span<const double> atoms,
                                         int num_atoms) {
  const int d = model_.dimension(), a = atom_size();
  SGMCMC_CHECK(static_cast<int64_t>(atoms.size()) >= static_cast<int64_t>(num_atoms) * a);
  if (num_atoms == 0) return;
  std::vector<LogisticNormalAtom> unpacked(num_atoms);
  for (int k = 0; k < num_atoms; ++k) {
    const double* atom = atoms.data() + static_cast<size_t>(k) * a;
    unpacked[k].eta.assign(atom, atom + d);
    unpacked[k].log_probs.assign(atom + d, atom + 2 * d);
  }
  model_.UpdateBase(unpacked, engine);
  RefreshBank();
}

std::vector<double> DpLogisticNormalModel::GlobalState() const {
  std::vector<double> state(model_.loadings().begin(), model_.loadings().end());
  state.insert(state.end(), model_.mean().begin(), model_.mean().end());
  return state;
}

absl::Status DpLogisticNormalModel::RestoreGlobalState(absl::Span<const double> state) {
  const size_t loadings = model_.loadings().size(), mean = model_.mean().size();
  if (state.size() != loadings + mean) {
    return absl::InvalidArgumentError(absl::StrCat(
        "logistic-normal base: a global state of ", state.size(), " values, expected ",
        loadings + mean, " (loadings and mean)"));
  }
  if (absl::Status s = model_.SetBase(state.subspan(0, loadings), state.subspan(loadings));
      !s.ok()) {
    return s;
  }
  RefreshBank();
  return absl::OkStatus();
}

}  // namespace sgmcmc::models
