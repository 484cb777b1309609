#include "models/dp/neal8.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <limits>
#include <map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "math/special_functions.h"
#include "models/dp/mixture.h"
#include "rng/categorical.h"
#include "rng/uniform.h"

namespace sgmcmc::models {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

absl::Status PositiveFinite(const char* name, double value) {
  if (std::isfinite(value) && value > 0) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(name, " must be finite and > 0, got ", value));
}

}  // namespace

absl::Status DpConcentrationOptions::Validate() const {
  for (const auto& [name, value] :
       {std::pair<const char*, double>{"initial_alpha", initial_alpha},
        {"alpha_shape", alpha_shape},
        {"alpha_rate", alpha_rate}}) {
    if (absl::Status s = PositiveFinite(name, value); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status DpNeal8Options::Validate() const {
  if (absl::Status s = concentration.Validate(); !s.ok()) return s;
  if (num_auxiliary < 1) {
    return absl::InvalidArgumentError(absl::StrCat("num_auxiliary must be >= 1, got ",
                                                   num_auxiliary));
  }
  if (!(empirical_probability >= 0 && empirical_probability <= 1)) {
    return absl::InvalidArgumentError(
        absl::StrCat("empirical_probability must be in [0, 1], got ", empirical_probability));
  }
  return absl::OkStatus();
}

DpNeal8::DpNeal8(const DpComponentModel* model, const CountMatrix* data,
                 const DpNeal8Options& options, absl::Span<const int32_t> initial_allocations)
    : model_(model),
      data_(data),
      options_(options),
      alpha_(options.concentration.initial_alpha),
      z_(data->rows()),
      clusters_(model),
      pool_(static_cast<size_t>(options.num_auxiliary) * model->atom_size()),
      log_count_(data->rows()),
      proposal_(model->atom_size()) {
  SGMCMC_CHECK(options.Validate().ok()) << options.Validate();
  SGMCMC_CHECK(data->rows() >= 1 && data->dimension == model->dimension());
  SGMCMC_CHECK(initial_allocations.empty() ||
               static_cast<int64_t>(initial_allocations.size()) == data->rows());
  rng::Engine engine(options.seed, DpTaggedStream(kDpNeal8StreamTag, 0, 0));
  std::map<int32_t, int> slot_of_label;
  for (int64_t i = 0; i < data->rows(); ++i) {
    const int32_t label = initial_allocations.empty() ? 0 : initial_allocations[i];
    SGMCMC_CHECK(label >= 0) << "initial allocation " << label << " of point " << i;
    auto [it, inserted] = slot_of_label.emplace(label, 0);
    if (inserted) {
      model->SampleBase(engine, proposal_.data());
      it->second = clusters_.Open(proposal_.data());
    }
    z_[i] = it->second;
    clusters_.Add(it->second, data->row(i));
  }
  for (int k = 0; k < clusters_.num_slots(); ++k) {
    model->UpdateAtom(engine, clusters_.stats(k), clusters_.atom(k));
  }
  if (options.empirical_probability > 0) {
    log_normalizers_.resize(data->rows());
    for (int64_t i = 0; i < data->rows(); ++i) log_normalizers_[i] = model->LogNormalizer(data->row(i));
  }
}

double DpNeal8::LogProposalDensity(const double* atom, absl::Span<const double> log_w) const {
  const double rho = options_.empirical_probability;
  std::vector<double> terms(log_w.size());
  for (size_t i = 0; i < log_w.size(); ++i) {
    terms[i] = log_w[i] + model_->LogEmpiricalDensity(data_->row(i), atom);
  }
  const double empirical = std::log(rho) + math::LogSumExp(terms);
  const double base = rho < 1 ? std::log1p(-rho) + model_->LogBaseDensity(atom) : kNegInf;
  return math::LogSumExp({empirical, base});
}

void DpNeal8::RefreshPool(rng::Engine& engine) {
  const int m = options_.num_auxiliary, a = model_->atom_size();
  const double rho = options_.empirical_probability;
  if (rho == 0) {
    for (int s = 0; s < m; ++s) model_->SampleBase(engine, pool_.data() + s * a);
    return;
  }
  // w_i ∝ 1 / f(x_i | θ_{z_i}) (eq. 5), normalised in log space.
  const int64_t n = data_->rows();
  std::vector<double> log_w(n), w(n);
  for (int64_t i = 0; i < n; ++i) {
    const double* x = data_->row(i);
    log_w[i] = -(model_->LogLikelihood(x, clusters_.atom(z_[i])) + log_normalizers_[i]);
  }
  const double log_total = math::LogSumExp(log_w);
  for (int64_t i = 0; i < n; ++i) {
    log_w[i] -= log_total;
    w[i] = std::exp(log_w[i]);
  }
  for (int s = 0; s < m; ++s) {
    double* current = pool_.data() + s * a;
    if (rng::UniformDouble(engine) < rho) {
      const int j = rng::CategoricalSample(engine, w);
      model_->SampleEmpirical(engine, data_->row(j), proposal_.data());
    } else {
      model_->SampleBase(engine, proposal_.data());
    }
    const double log_ratio = model_->LogBaseDensity(proposal_.data()) -
                             model_->LogBaseDensity(current) +
                             LogProposalDensity(current, log_w) -
                             LogProposalDensity(proposal_.data(), log_w);
    ++proposals_;
    if (std::log(rng::UniformDouble(engine)) < log_ratio) {
      ++acceptances_;
      std::copy(proposal_.begin(), proposal_.end(), current);
    }
  }
}

void DpNeal8::Sweep() {
  rng::Engine engine(options_.seed,
                     DpTaggedStream(kDpNeal8StreamTag, static_cast<uint64_t>(sweeps_) + 1, 0));
  const int m = options_.num_auxiliary, a = model_->atom_size();
  RefreshPool(engine);
  const double log_new = std::log(alpha_ / m);
  for (int64_t i = 0; i < data_->rows(); ++i) {
    const double* x = data_->row(i);
    int k = z_[i];
    clusters_.Remove(k, x);
    if (clusters_.size(k) == 0) {
      const int s = static_cast<int>(rng::UniformInt(engine, m));
      std::copy(clusters_.atom(k), clusters_.atom(k) + a, pool_.data() + s * a);
      clusters_.Close(k);
    }
    log_weights_.clear();
    candidates_.clear();
    for (int c = 0; c < clusters_.num_slots(); ++c) {
      if (!clusters_.is_open(c)) continue;
      log_weights_.push_back(log_count_(clusters_.size(c)) +
                             model_->LogLikelihood(x, clusters_.atom(c)));
      candidates_.push_back(c);
    }
    for (int s = 0; s < m; ++s) {
      log_weights_.push_back(log_new + model_->LogLikelihood(x, pool_.data() + s * a));
      candidates_.push_back(-1 - s);
    }
    k = candidates_[rng::LogCategoricalSample(engine, log_weights_)];
    if (k < 0) {
      const int s = -1 - k;
      k = clusters_.Open(pool_.data() + s * a);
      model_->SampleBase(engine, pool_.data() + s * a);
    }
    clusters_.Add(k, x);
    z_[i] = k;
  }
  for (int c = 0; c < clusters_.num_slots(); ++c) {
    if (clusters_.is_open(c)) model_->UpdateAtom(engine, clusters_.stats(c), clusters_.atom(c));
  }
  const DpConcentrationOptions& conc = options_.concentration;
  if (conc.sample_alpha) {
    alpha_ = SampleAlphaWest(engine, alpha_, num_clusters(), data_->rows(), conc.alpha_shape,
                             conc.alpha_rate);
  }
  ++sweeps_;
}

double DpNeal8::LogPredictive(const double* x) const {
  const double log_norm = std::log(static_cast<double>(data_->rows()) + alpha_);
  std::vector<double> log_weights, atoms;
  for (int c = 0; c < clusters_.num_slots(); ++c) {
    if (!clusters_.is_open(c)) continue;
    log_weights.push_back(std::log(static_cast<double>(clusters_.size(c))) - log_norm);
    atoms.insert(atoms.end(), clusters_.atom(c), clusters_.atom(c) + model_->atom_size());
  }
  return DpLogPredictive(*model_, x, log_weights, atoms, std::log(alpha_) - log_norm);
}

}  // namespace sgmcmc::models
