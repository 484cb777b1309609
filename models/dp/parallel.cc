#include "models/dp/parallel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "base/status_macros.h"
#include "math/special_functions.h"
#include "models/dp/mixture.h"
#include "rng/categorical.h"
#include "rng/dirichlet.h"
#include "rng/uniform.h"

namespace sgmcmc::models {

absl::Status DpParallelOptions::Validate() const {
  SGMCMC_RETURN_IF_ERROR(concentration.Validate());
  if (num_auxiliary < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("num_auxiliary must be >= 1, got ", num_auxiliary));
  }
  if (sync_every < 1) {
    return absl::InvalidArgumentError(absl::StrCat("sync_every must be >= 1, got ", sync_every));
  }
  if (accelerated_iterations < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("accelerated_iterations must be >= 0, got ", accelerated_iterations));
  }
  return absl::OkStatus();
}

DpParallelSampler::DpParallelSampler(parallel::Communicator* comm, DpComponentModel* model,
                                     const CountMatrix* data, const DpParallelOptions& options)
    : DpWorkerRows(comm, model, data),
      options_(options),
      alpha_(options.concentration.initial_alpha),
      z_(end_ - begin_),
      log_normalizers_(end_ - begin_),
      log_count_(end_ - begin_),
      local_(model),
      pool_(static_cast<size_t>(options.num_auxiliary) * model->atom_size()) {
  for (int64_t i = begin_; i < end_; ++i) {
    log_normalizers_[i - begin_] = model->LogNormalizer(data->row(i));
  }
}

absl::StatusOr<std::unique_ptr<DpParallelSampler>> DpParallelSampler::Create(
    parallel::Communicator* comm, DpComponentModel* model, const CountMatrix* data,
    const DpParallelOptions& options, absl::Span<const int32_t> initial_allocations) {
  SGMCMC_RETURN_IF_ERROR(options.Validate());
  SGMCMC_RETURN_IF_ERROR(
      ValidateDistributedInput("DpParallelSampler", *model, *data, initial_allocations));
  std::unique_ptr<DpParallelSampler> s(new DpParallelSampler(comm, model, data, options));
  // Features numbered by first appearance over all rows (the same on every rank).
  std::map<int32_t, int32_t> feature_of_label;
  for (int64_t i = 0; i < data->rows(); ++i) {
    const int32_t label = initial_allocations.empty() ? 0 : initial_allocations[i];
    const int32_t k =
        feature_of_label.emplace(label, static_cast<int32_t>(feature_of_label.size()))
            .first->second;
    if (i >= s->begin_ && i < s->end_) s->z_[i - s->begin_] = k;
  }
  const int num_features = static_cast<int>(feature_of_label.size());
  s->counts_.assign(num_features, 0);
  s->atoms_.resize(static_cast<size_t>(num_features) * model->atom_size());
  rng::Engine engine(options.seed, DpTaggedStream(kDpParallelGlobalStreamTag, 0, 1));
  for (int k = 0; k < num_features; ++k) {
    model->SampleBase(engine, s->atoms_.data() + static_cast<size_t>(k) * model->atom_size());
  }
  SGMCMC_RETURN_IF_ERROR(s->Synchronise());
  return s;
}

void DpParallelSampler::RemovePoint(int64_t i, bool swap_into_pool, rng::Engine& engine) {
  const double* x = data_->row(begin_ + i);
  const int32_t label = z_[i];
  if (label >= 0) {
    --local_counts_[label];
    return;
  }
  const int c = -1 - label;
  local_.Remove(c, x);
  --tail_points_;
  if (local_.size(c) == 0) {
    if (swap_into_pool) {
      const int a = model_->atom_size();
      const int s = static_cast<int>(rng::UniformInt(engine, options_.num_auxiliary));
      std::copy(local_.atom(c), local_.atom(c) + a, pool_.data() + s * a);
    }
    local_.Close(c);
  }
}

void DpParallelSampler::AcceleratedSweep(rng::Engine& engine) {
  const int m = options_.num_auxiliary, a = model_->atom_size(), num_k = num_features();
  const int64_t n = end_ - begin_;
  // Empirical distribution of eq. 5 over this worker's rows: w_i ∝ 1 / f(x_i | θ_{z_i}).
  std::vector<double> w(std::max<int64_t>(n, 1), 1.0);
  if (n > 0) {
    std::vector<double> log_w(n);
    for (int64_t i = 0; i < n; ++i) {
      const double* x = data_->row(begin_ + i);
      const double* atom = z_[i] >= 0 ? atoms_.data() + static_cast<size_t>(z_[i]) * a
                                      : local_.atom(-1 - z_[i]);
      log_w[i] = -(model_->LogLikelihood(x, atom) + log_normalizers_[i]);
    }
    const double max = *std::max_element(log_w.begin(), log_w.end());
    for (int64_t i = 0; i < n; ++i) w[i] = std::exp(log_w[i] - max);
  }
  // An alias table: new features are opened (and their slots refilled) often here.
  absl::StatusOr<rng::AliasTable> table = rng::AliasTable::Create(w);
  SGMCMC_CHECK(table.ok()) << table.status();
  auto empirical = [&](double* atom) {
    if (n == 0) {
      model_->SampleBase(engine, atom);
    } else {
      model_->SampleEmpirical(engine, data_->row(begin_ + table->Sample(engine)), atom);
    }
  };
  for (int s = 0; s < m; ++s) empirical(pool_.data() + s * a);
  const double log_p = std::log(static_cast<double>(comm_->size()));
  const double log_new = std::log(alpha_ / m);
  for (int64_t i = 0; i < n; ++i) {
    const double* x = data_->row(begin_ + i);
    RemovePoint(i, /*swap_into_pool=*/false, engine);
    log_weights_.clear();
    candidates_.clear();
    for (int k = 0; k < num_k; ++k) {
      if (local_counts_[k] == 0) continue;
      log_weights_.push_back(log_p + log_count_(local_counts_[k]) +
                             model_->LogLikelihood(x, atoms_.data() + static_cast<size_t>(k) * a));
      candidates_.push_back(k);
    }
    for (int c = 0; c < local_.num_slots(); ++c) {
      if (!local_.is_open(c)) continue;
      log_weights_.push_back(log_count_(local_.size(c)) +
                             model_->LogLikelihood(x, local_.atom(c)));
      candidates_.push_back(-1 - c);
    }
    for (int s = 0; s < m; ++s) {
      log_weights_.push_back(log_new + model_->LogLikelihood(x, pool_.data() + s * a));
      candidates_.push_back(-1 - local_.num_slots() - s);
    }
    Place(i, candidates_[rng::LogCategoricalSample(engine, log_weights_)], empirical);
  }
  UpdateLocalAtoms(engine);
}

void DpParallelSampler::ExactSweep(rng::Engine& engine) {
  const int m = options_.num_auxiliary, a = model_->atom_size(), num_k = num_features();
  const int64_t n = end_ - begin_;
  if (comm_->rank() != p_star_) {
    // A point moves only among instantiated features holding another point of this worker,
    // and only if its own does: the instantiated set stays occupied off p*, so each move is
    // a Gibbs step within a class the sweep preserves.
    for (int64_t i = 0; i < n; ++i) {
      const int32_t current = z_[i];
      if (local_counts_[current] < 2) continue;
      const double* x = data_->row(begin_ + i);
      --local_counts_[current];
      log_weights_.clear();
      candidates_.clear();
      for (int k = 0; k < num_k; ++k) {
        if (local_counts_[k] == 0 || !std::isfinite(log_pi_[k])) continue;
        log_weights_.push_back(log_pi_[k] + model_->LogLikelihood(
                                                x, atoms_.data() + static_cast<size_t>(k) * a));
        candidates_.push_back(k);
      }
      z_[i] = candidates_[rng::LogCategoricalSample(engine, log_weights_)];
      ++local_counts_[z_[i]];
    }
    return;
  }
  for (int s = 0; s < m; ++s) model_->SampleBase(engine, pool_.data() + s * a);
  for (int64_t i = 0; i < n; ++i) {
    const double* x = data_->row(begin_ + i);
    RemovePoint(i, /*swap_into_pool=*/true, engine);
    log_weights_.clear();
    candidates_.clear();
    for (int k = 0; k < num_k; ++k) {
      if (!std::isfinite(log_pi_[k])) continue;
      log_weights_.push_back(log_b_ + log_pi_[k] +
                             model_->LogLikelihood(x, atoms_.data() + static_cast<size_t>(k) * a));
      candidates_.push_back(k);
    }
    const double log_tail = log1m_b_ - std::log(static_cast<double>(tail_points_) + alpha_);
    for (int c = 0; c < local_.num_slots(); ++c) {
      if (!local_.is_open(c)) continue;
      log_weights_.push_back(log_tail + log_count_(local_.size(c)) +
                             model_->LogLikelihood(x, local_.atom(c)));
      candidates_.push_back(-1 - c);
    }
    const double log_new = log_tail + std::log(alpha_ / m);
    for (int s = 0; s < m; ++s) {
      log_weights_.push_back(log_new + model_->LogLikelihood(x, pool_.data() + s * a));
      candidates_.push_back(-1 - local_.num_slots() - s);
    }
    Place(i, candidates_[rng::LogCategoricalSample(engine, log_weights_)],
          [&](double* atom) { model_->SampleBase(engine, atom); });
  }
  UpdateLocalAtoms(engine);
}

void DpParallelSampler::Place(int64_t i, int32_t label,
                              absl::FunctionRef<void(double*)> refill) {
  if (label < -local_.num_slots()) {  // a pool slot: a new local feature, the slot refilled
    const int a = model_->atom_size(), s = -1 - local_.num_slots() - label;
    label = -1 - local_.Open(pool_.data() + s * a);
    refill(pool_.data() + s * a);
  }
  if (label >= 0) {
    ++local_counts_[label];
  } else {
    local_.Add(-1 - label, data_->row(begin_ + i));
    ++tail_points_;
  }
  z_[i] = label;
}

void DpParallelSampler::UpdateLocalAtoms(rng::Engine& engine) {
  for (int c = 0; c < local_.num_slots(); ++c) {
    if (local_.is_open(c)) model_->UpdateAtom(engine, local_.stats(c), local_.atom(c));
  }
}

absl::Status DpParallelSampler::Iterate() {
  rng::Engine engine(options_.seed,
                     DpTaggedStream(kDpParallelWorkerStreamTag,
                                    static_cast<uint64_t>(iterations_), comm_->rank()));
  const bool was_accelerated = accelerated();
  if (was_accelerated) {
    AcceleratedSweep(engine);
  } else {
    ExactSweep(engine);
  }
  ++iterations_;
  just_synced_ = false;
  if (iterations_ % options_.sync_every == 0 || (was_accelerated && !accelerated())) {
    SGMCMC_RETURN_IF_ERROR(Synchronise());
  }
  return absl::OkStatus();
}

absl::Status DpParallelSampler::Synchronise() {
  const int p = comm_->size(), rank = comm_->rank(), a = model_->atom_size(),
            st = model_->stats_size(), old_k = num_features();
  rng::Engine engine(options_.seed, DpTaggedStream(kDpParallelGlobalStreamTag,
                                                   static_cast<uint64_t>(syncs_), 0));
  const bool exact_next = !accelerated();
  const int next_p_star = static_cast<int>(rng::UniformInt(engine, p));
  // 1. New features per worker.
  std::vector<int> local_slots;
  for (int c = 0; c < local_.num_slots(); ++c) {
    if (local_.is_open(c)) local_slots.push_back(c);
  }
  std::vector<double> per_rank(p, 0.0);
  per_rank[rank] = static_cast<double>(local_slots.size());
  SGMCMC_RETURN_IF_ERROR(comm_->AllReduceSum(absl::MakeSpan(per_rank)));
  int offset = 0, num_new = 0;
  for (int r = 0; r < p; ++r) {
    if (r < rank) offset += static_cast<int>(per_rank[r]);
    num_new += static_cast<int>(per_rank[r]);
  }
  // 2. Counts (all points; points off the next p*), statistics and new atoms, each rank
  // contributing disjoint or integer parts.
  const int total = old_k + num_new;
  std::vector<double> buffer(static_cast<size_t>(total) * (2 + st) +
                                 static_cast<size_t>(num_new) * a,
                             0.0);
  double* counts = buffer.data();
  double* off_counts = counts + total;
  double* stats = off_counts + total;
  double* new_atoms = stats + static_cast<size_t>(total) * st;
  const bool off = rank != next_p_star;
  std::vector<int> local_index(local_.num_slots(), -1);
  for (size_t j = 0; j < local_slots.size(); ++j) {
    const int c = local_slots[j], index = old_k + offset + static_cast<int>(j);
    local_index[c] = index;
    counts[index] = static_cast<double>(local_.size(c));
    if (off) off_counts[index] = counts[index];
    std::copy(local_.stats(c), local_.stats(c) + st, stats + static_cast<size_t>(index) * st);
    std::copy(local_.atom(c), local_.atom(c) + a,
              new_atoms + static_cast<size_t>(offset + j) * a);
  }
  for (int64_t i = 0; i < end_ - begin_; ++i) {
    if (z_[i] < 0) continue;
    counts[z_[i]] += 1;
    if (off) off_counts[z_[i]] += 1;
    model_->AccumulateStats(data_->row(begin_ + i), 1.0,
                            stats + static_cast<size_t>(z_[i]) * st);
  }
  SGMCMC_RETURN_IF_ERROR(comm_->AllReduceSum(absl::MakeSpan(buffer)));
  // 3. Global updates, identical on every rank.
  std::vector<int32_t> relabel(total, -1);
  std::vector<double> atoms;
  std::vector<int64_t> new_counts;
  std::vector<char> instantiated;
  for (int k = 0; k < total; ++k) {
    if (counts[k] == 0) continue;
    relabel[k] = static_cast<int32_t>(new_counts.size());
    new_counts.push_back(static_cast<int64_t>(counts[k]));
    instantiated.push_back(!exact_next || off_counts[k] > 0);
    const double* atom = k < old_k ? atoms_.data() + static_cast<size_t>(k) * a
                                   : new_atoms + static_cast<size_t>(k - old_k) * a;
    atoms.insert(atoms.end(), atom, atom + a);
    model_->UpdateAtom(engine, stats + static_cast<size_t>(k) * st,
                       atoms.data() + atoms.size() - a);
  }
  atoms_ = std::move(atoms);
  counts_ = std::move(new_counts);
  const int num_k = num_features();
  model_->UpdateGlobal(engine, atoms_, num_k);
  const DpConcentrationOptions& conc = options_.concentration;
  if (conc.sample_alpha) {
    alpha_ = SampleAlphaWest(engine, alpha_, num_k, data_->rows(), conc.alpha_shape,
                             conc.alpha_rate);
  }
  // Weights of the instantiated features: (w_S, w_0) ~ Dir(n_S, α + n_tail), drawn as
  // π ~ Dir(n_S) and B ~ Beta(Σ n_S, α + n_tail); n_tail counts p*'s points in the others.
  std::vector<double> concentration;
  double instantiated_points = 0;
  for (int k = 0; k < num_k; ++k) {
    if (!instantiated[k]) continue;
    concentration.push_back(static_cast<double>(counts_[k]));
    instantiated_points += static_cast<double>(counts_[k]);
  }
  std::vector<double> log_pi(concentration.size(), 0.0);
  if (concentration.size() > 1) {
    rng::LogDirichletSample(engine, concentration, absl::MakeSpan(log_pi));
  }
  log_pi_.assign(num_k, -std::numeric_limits<double>::infinity());
  for (int k = 0, j = 0; k < num_k; ++k) {
    if (instantiated[k]) log_pi_[k] = log_pi[j++];
  }
  if (instantiated_points > 0) {
    const LogStickBreak b = SampleLogStickBreak(
        engine, instantiated_points,
        alpha_ + static_cast<double>(data_->rows()) - instantiated_points);
    log_b_ = b.log_v;
    log1m_b_ = b.log1m_v;
  } else {
    log_b_ = -std::numeric_limits<double>::infinity();
    log1m_b_ = 0;
  }
  p_star_ = next_p_star;
  // 4. Local relabelling.
  for (int32_t& label : z_) {
    label = relabel[label >= 0 ? label : local_index[-1 - label]];
    SGMCMC_CHECK(label >= 0);
  }
  instantiated_ = std::move(instantiated);
  BuildLocal();
  ++syncs_;
  just_synced_ = true;
  return absl::OkStatus();
}

void DpParallelSampler::BuildLocal() {
  // On p*, the features not instantiated (all their points are p*'s) become the collapsed
  // tail, in the order of their first row.
  const int a = model_->atom_size(), num_k = num_features();
  local_.Clear();
  tail_points_ = 0;
  slot_feature_.clear();
  std::vector<int32_t> tail_slot(num_k, -1);
  local_counts_.assign(num_k, 0);
  for (int32_t& label : z_) {
    if (instantiated_[label]) {
      ++local_counts_[label];
      continue;
    }
    SGMCMC_CHECK(comm_->rank() == p_star_) << "a tail feature off p*";
    if (tail_slot[label] < 0) {
      tail_slot[label] = local_.Open(atoms_.data() + static_cast<size_t>(label) * a);
      slot_feature_.push_back(label);
    }
    const int32_t feature = label;
    label = -1 - tail_slot[feature];
    local_.Add(tail_slot[feature], data_->row(begin_ + (&label - z_.data())));
    ++tail_points_;
  }
}

absl::StatusOr<DpParallelState> DpParallelSampler::SaveState() {
  if (!just_synced_) {
    return absl::FailedPreconditionError(
        "DpParallelSampler::SaveState: only right after a synchronisation");
  }
  DpParallelState state;
  SGMCMC_ASSIGN_OR_RETURN(const std::vector<int32_t> allocations, GatherAllocations());
  state.set_workers(comm_->size());
  state.set_iterations(iterations_);
  state.set_synchronisations(syncs_);
  state.mutable_atoms()->Assign(atoms_.begin(), atoms_.end());
  state.mutable_counts()->Assign(counts_.begin(), counts_.end());
  for (const char i : instantiated_) state.add_instantiated(i != 0);
  state.mutable_log_pi()->Assign(log_pi_.begin(), log_pi_.end());
  state.set_log_b(log_b_);
  state.set_log1m_b(log1m_b_);
  state.set_alpha(alpha_);
  state.set_p_star(p_star_);
  state.mutable_allocations()->Assign(allocations.begin(), allocations.end());
  const std::vector<double> global = model_->GlobalState();
  state.mutable_model_global()->Assign(global.begin(), global.end());
  return state;
}

absl::Status DpParallelSampler::RestoreState(const DpParallelState& state) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  auto invalid = [](auto... what) {
    return absl::InvalidArgumentError(absl::StrCat("DpParallelState.", what...));
  };
  const int p = comm_->size(), a = model_->atom_size();
  if (state.workers() != p) {
    return invalid("workers = ", state.workers(), ", but the sampler has ", p);
  }
  if (state.iterations() < 0 || state.synchronisations() < 1) {
    return invalid("iterations must be >= 0 and synchronisations >= 1, got ",
                   state.iterations(), " and ", state.synchronisations());
  }
  const int num_k = state.counts_size();
  if (num_k < 1 || state.atoms_size() != static_cast<int64_t>(num_k) * a ||
      state.instantiated_size() != num_k || state.log_pi_size() != num_k) {
    return invalid("counts, atoms, instantiated and log_pi have ", num_k, ", ",
                   state.atoms_size(), ", ", state.instantiated_size(), " and ",
                   state.log_pi_size(), " values, not K >= 1, K x ", a, ", K and K");
  }
  for (const double v : state.atoms()) {
    if (!std::isfinite(v)) return invalid("atoms must be finite, got ", v);
  }
  for (int k = 0; k < num_k; ++k) {  // log π_k < inf, and −inf off S
    const double v = state.log_pi(k);
    if (std::isnan(v) || v == kInf || (!state.instantiated(k) && v != -kInf)) {
      return invalid("log_pi[", k, "] = ", v, " for a feature ",
                     state.instantiated(k) ? "in S" : "off S (must be -inf)");
    }
  }
  if (!(std::isfinite(state.alpha()) && state.alpha() > 0)) {
    return invalid("alpha must be finite and > 0, got ", state.alpha());
  }
  if (state.p_star() < 0 || state.p_star() >= p) {
    return invalid("p_star must be in [0, ", p, "), got ", state.p_star());
  }
  if (state.allocations_size() != data_->rows()) {
    return invalid("allocations has ", state.allocations_size(), " labels for ", data_->rows(),
                   " rows");
  }
  // Each allocation a feature; the counts its members; a tail feature's rows all p*'s.
  const auto [tail_begin, tail_end] =
      std::pair<int64_t, int64_t>{data_->rows() * state.p_star() / p,
                                  data_->rows() * (state.p_star() + 1) / p};
  std::vector<int64_t> members(num_k, 0);
  for (int64_t i = 0; i < data_->rows(); ++i) {
    const int32_t k = state.allocations(static_cast<int>(i));
    if (k < 0 || k >= num_k) return invalid("allocations[", i, "] = ", k, " is not a feature");
    if (!state.instantiated(k) && (i < tail_begin || i >= tail_end)) {
      return invalid("allocations[", i, "] = ", k, ": a tail feature off p*");
    }
    ++members[k];
  }
  for (int k = 0; k < num_k; ++k) {
    if (members[k] != state.counts(k)) {
      return invalid("counts[", k, "] = ", state.counts(k), ", but ", members[k],
                     " rows are allocated to it");
    }
  }
  if (absl::Status s = model_->RestoreGlobalState(state.model_global()); !s.ok()) {
    return invalid("model_global: ", s.message());
  }
  iterations_ = state.iterations();
  syncs_ = state.synchronisations();
  atoms_.assign(state.atoms().begin(), state.atoms().end());
  counts_.assign(state.counts().begin(), state.counts().end());
  instantiated_.assign(state.instantiated().begin(), state.instantiated().end());
  log_pi_.assign(state.log_pi().begin(), state.log_pi().end());
  log_b_ = state.log_b();
  log1m_b_ = state.log1m_b();
  alpha_ = state.alpha();
  p_star_ = state.p_star();
  z_.assign(state.allocations().begin() + begin_, state.allocations().begin() + end_);
  BuildLocal();
  just_synced_ = true;
  return absl::OkStatus();
}

absl::Status ValidateDistributedInput(const char* sampler, const DpComponentModel& model,
                                      const CountMatrix& data,
                                      absl::Span<const int32_t> initial_allocations) {
  if (data.rows() < 1 || data.dimension != model.dimension()) {
    return absl::InvalidArgumentError(absl::StrCat(sampler, ": need >= 1 row of dimension ",
                                                   model.dimension(), ", got ", data.rows(),
                                                   " of ", data.dimension));
  }
  if (!initial_allocations.empty() &&
      static_cast<int64_t>(initial_allocations.size()) != data.rows()) {
    return absl::InvalidArgumentError(absl::StrCat(sampler, ": ", initial_allocations.size(),
                                                   " initial allocations for ", data.rows(),
                                                   " rows"));
  }
  for (size_t i = 0; i < initial_allocations.size(); ++i) {
    if (initial_allocations[i] < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          sampler, ": initial allocation ", initial_allocations[i], " of row ", i));
    }
  }
  return absl::OkStatus();
}

std::pair<int64_t, int64_t> RankRows(int64_t rows, const parallel::Communicator& comm) {
  const int64_t rank = comm.rank(), size = comm.size();
  return {rows * rank / size, rows * (rank + 1) / size};
}

absl::StatusOr<double> DistributedTestLogPredictive(parallel::Communicator& comm,
                                                    const DpComponentModel& model,
                                                    const CountMatrix& test,
                                                    absl::Span<const double> log_weights,
                                                    absl::Span<const double> atoms,
                                                    double log_rest) {
  const int64_t rows = test.rows();
  const auto [begin, end] = RankRows(rows, comm);
  std::vector<double> values(rows, 0.0);
  for (int64_t i = begin; i < end; ++i) {
    values[i] = DpLogPredictive(model, test.row(i), log_weights, atoms, log_rest);
  }
  SGMCMC_RETURN_IF_ERROR(comm.AllReduceSum(absl::MakeSpan(values)));
  double sum = 0;
  for (const double v : values) sum += v;
  return sum;
}

absl::StatusOr<std::vector<int32_t>> GatherShards(parallel::Communicator& comm, int64_t total,
                                                  int64_t begin,
                                                  absl::Span<const int32_t> local) {
  std::vector<double> labels(total, 0.0);
  for (size_t i = 0; i < local.size(); ++i) labels[begin + i] = local[i];
  SGMCMC_RETURN_IF_ERROR(comm.AllReduceSum(absl::MakeSpan(labels)));
  return std::vector<int32_t>(labels.begin(), labels.end());
}

absl::StatusOr<std::vector<int32_t>> DpParallelSampler::GatherAllocations() {
  std::vector<int32_t> labels(z_.size());
  for (size_t i = 0; i < z_.size(); ++i) {
    SGMCMC_CHECK(z_[i] >= 0 || -1 - z_[i] < static_cast<int>(slot_feature_.size()))
        << "GatherAllocations between synchronisations";
    labels[i] = z_[i] >= 0 ? z_[i] : slot_feature_[-1 - z_[i]];
  }
  return GatherShards(*comm_, data_->rows(), begin_, labels);
}

absl::StatusOr<double> DpParallelSampler::TestLogPredictive(const CountMatrix& test) {
  const double log_norm = std::log(static_cast<double>(data_->rows()) + alpha_);
  std::vector<double> log_weights;
  for (const int64_t c : counts_) log_weights.push_back(std::log(static_cast<double>(c)) - log_norm);
  return DistributedTestLogPredictive(*comm_, *model_, test, log_weights, atoms_,
                                      std::log(alpha_) - log_norm);
}

}  // namespace sgmcmc::models
