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

DpNeal8State DpNeal8::SaveState() const {
  DpNeal8State state;
  state.set_sweeps(sweeps_);
  state.set_alpha(alpha_);
  state.mutable_allocations()->Assign(z_.begin(), z_.end());
  for (const char open : clusters_.all_open()) state.add_slot_open(open != 0);
  state.mutable_slot_sizes()->Assign(clusters_.all_sizes().begin(), clusters_.all_sizes().end());
  state.mutable_slot_atoms()->Assign(clusters_.all_atoms().begin(), clusters_.all_atoms().end());
  state.mutable_slot_stats()->Assign(clusters_.all_stats().begin(), clusters_.all_stats().end());
  state.mutable_free_slots()->Assign(clusters_.free_slots().begin(),
                                     clusters_.free_slots().end());
  state.mutable_pool()->Assign(pool_.begin(), pool_.end());
  state.set_proposals(proposals_);
  state.set_acceptances(acceptances_);
  return state;
}

absl::Status DpNeal8::RestoreState(const DpNeal8State& state) {
  auto invalid = [](auto... what) {
    return absl::InvalidArgumentError(absl::StrCat("DpNeal8State.", what...));
  };
  if (state.sweeps() < 0) return invalid("sweeps must be >= 0, got ", state.sweeps());
  if (!(std::isfinite(state.alpha()) && state.alpha() > 0)) {
    return invalid("alpha must be finite and > 0, got ", state.alpha());
  }
  if (state.allocations_size() != data_->rows()) {
    return invalid("allocations has ", state.allocations_size(), " labels for ", data_->rows(),
                   " rows");
  }
  if (state.pool_size() != static_cast<int64_t>(pool_.size())) {
    return invalid("pool has ", state.pool_size(), " values, expected ", pool_.size());
  }
  for (const auto* values : {&state.pool(), &state.slot_atoms()}) {
    for (const double v : *values) {
      if (!std::isfinite(v)) return invalid("pool and slot_atoms must be finite, got ", v);
    }
  }
  // Each allocation is an open slot, and each slot's size its member count.
  const int slots = state.slot_sizes_size();
  std::vector<int64_t> members(slots, 0);
  for (int i = 0; i < state.allocations_size(); ++i) {
    const int32_t k = state.allocations(i);
    if (k < 0 || k >= slots || k >= state.slot_open_size() || !state.slot_open(k)) {
      return invalid("allocations[", i, "] = ", k, " is not an open slot");
    }
    ++members[k];
  }
  for (int k = 0; k < slots; ++k) {
    if (members[k] != state.slot_sizes(k)) {
      return invalid("slot_sizes[", k, "] = ", state.slot_sizes(k), ", but ", members[k],
                     " rows are allocated to it");
    }
  }
  DpClusterTable clusters(model_);
  if (absl::Status s = clusters.RestoreContents(
          {state.slot_atoms().begin(), state.slot_atoms().end()},
          {state.slot_stats().begin(), state.slot_stats().end()},
          {state.slot_sizes().begin(), state.slot_sizes().end()},
          {state.slot_open().begin(), state.slot_open().end()},
          {state.free_slots().begin(), state.free_slots().end()});
      !s.ok()) {
    return invalid("slot_*: ", s.message());
  }
  clusters_ = std::move(clusters);
  sweeps_ = state.sweeps();
  alpha_ = state.alpha();
  z_.assign(state.allocations().begin(), state.allocations().end());
  pool_.assign(state.pool().begin(), state.pool().end());
  proposals_ = state.proposals();
  acceptances_ = state.acceptances();
  return absl::OkStatus();
}

}  // namespace sgmcmc::models
