#include "models/dp/distributed_slice.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "base/status_macros.h"
#include "models/dp/mixture.h"
#include "models/dp/parallel.h"
#include "rng/categorical.h"
#include "rng/uniform.h"

namespace sgmcmc::models {
namespace {

constexpr int kMaxComponents = 1 << 24;

}  // namespace

DpDistributedSlice::DpDistributedSlice(parallel::Communicator* comm, DpComponentModel* model,
                                       const CountMatrix* data,
                                       const DpDistributedSliceOptions& options)
    : DpWorkerRows(comm, model, data),
      options_(options),
      alpha_(options.concentration.initial_alpha),
      z_(end_ - begin_, 0),
      u_(end_ - begin_, 0.0) {}

absl::StatusOr<std::unique_ptr<DpDistributedSlice>> DpDistributedSlice::Create(
    parallel::Communicator* comm, DpComponentModel* model, const CountMatrix* data,
    const DpDistributedSliceOptions& options, absl::Span<const int32_t> initial_allocations) {
  SGMCMC_RETURN_IF_ERROR(options.Validate());
  SGMCMC_RETURN_IF_ERROR(
      ValidateDistributedInput("DpDistributedSlice", *model, *data, initial_allocations));
  std::unique_ptr<DpDistributedSlice> s(new DpDistributedSlice(comm, model, data, options));
  for (size_t i = 0; i < initial_allocations.size(); ++i) {
    const int32_t label = initial_allocations[i];
    if (label >= kMaxComponents) {
      return absl::InvalidArgumentError(
          absl::StrCat("DpDistributedSlice: initial allocation ", label, " of row ", i));
    }
    const int64_t row = static_cast<int64_t>(i);
    if (row >= s->begin_ && row < s->end_) s->z_[row - s->begin_] = label;
  }
  return s;
}

absl::Status DpDistributedSlice::Step() {
  const uint64_t t = static_cast<uint64_t>(++steps_);
  const int p = comm_->size(), rank = comm_->rank(), a = model_->atom_size(),
            st = model_->stats_size();
  const int64_t n = end_ - begin_;
  rng::Engine global(options_.seed, DpTaggedStream(kDpDistributedSliceGlobalStreamTag, t, 0));

  // 1. Sizes and statistics; the number of components is agreed first.
  std::vector<double> max_label(p, 0.0);
  for (const int32_t z : z_) max_label[rank] = std::max<double>(max_label[rank], z + 1);
  SGMCMC_RETURN_IF_ERROR(comm_->AllReduceSum(absl::MakeSpan(max_label)));
  const int labels = static_cast<int>(*std::max_element(max_label.begin(), max_label.end()));
  std::vector<double> sums(static_cast<size_t>(labels) * (1 + st), 0.0);
  double* stats = sums.data() + labels;
  for (int64_t i = 0; i < n; ++i) {
    sums[z_[i]] += 1;
    model_->AccumulateStats(data_->row(begin_ + i), 1.0, stats + static_cast<size_t>(z_[i]) * st);
  }
  SGMCMC_RETURN_IF_ERROR(comm_->AllReduceSum(absl::MakeSpan(sums)));
  int occupied_end = labels;
  while (occupied_end > 0 && sums[occupied_end - 1] == 0) --occupied_end;
  num_occupied_ = static_cast<int>(std::count_if(sums.begin(), sums.begin() + labels,
                                                 [](double m) { return m > 0; }));

  // 2. Sticks of the occupied range, α.
  log_v_.resize(occupied_end);
  log1m_v_.resize(occupied_end);
  double tail = static_cast<double>(data_->rows());
  for (int j = 0; j < occupied_end; ++j) {
    tail -= sums[j];
    const LogStickBreak v = SampleLogStickBreak(global, 1.0 + sums[j], alpha_ + tail);
    log_v_[j] = v.log_v;
    log1m_v_[j] = v.log1m_v;
  }
  weights_.resize(occupied_end);
  log_leftover_ = StickBreakingWeights(log_v_, log1m_v_, absl::MakeSpan(weights_));
  const DpConcentrationOptions& conc = options_.concentration;
  if (conc.sample_alpha) {
    alpha_ = SampleAlphaGivenSticks(global, conc.alpha_shape, conc.alpha_rate, log1m_v_);
  }

  // 3. Slices; the global minimum from each rank's minimum in its own slot.
  std::vector<double> minima(p, 0.0);
  minima[rank] = std::numeric_limits<double>::infinity();
  for (int64_t i = 0; i < n; ++i) {
    rng::Engine engine(options_.seed,
                       DpTaggedStream(kDpDistributedSlicePointStreamTag, t, begin_ + i));
    u_[i] = weights_[z_[i]] * rng::UniformDouble(engine);
    minima[rank] = std::min(minima[rank], u_[i]);
  }
  if (n == 0) minima[rank] = 1.0;
  SGMCMC_RETURN_IF_ERROR(comm_->AllReduceSum(absl::MakeSpan(minima)));
  const double log_u_min = std::log(*std::min_element(minima.begin(), minima.end()));

  // 4. New sticks until the leftover is below u*; atoms.
  log_leftover_ = ExtendSticksBelowSlice(global, alpha_, log_u_min, log_leftover_, log_v_,
                                         log1m_v_, weights_);
  const int k = num_components();
  const std::vector<double> no_stats(st, 0.0);
  const int had = static_cast<int>(atoms_.size()) / a;
  atoms_.resize(static_cast<size_t>(k) * a);
  for (int j = 0; j < k; ++j) {
    double* atom = atoms_.data() + static_cast<size_t>(j) * a;
    if (j >= had) model_->SampleBase(global, atom);
    model_->UpdateAtom(global, j < labels ? stats + static_cast<size_t>(j) * st : no_stats.data(),
                       atom);
  }

  // 5. Allocations.
  scratch_.resize(k);
  for (int64_t i = 0; i < n; ++i) {
    rng::Engine engine(options_.seed,
                       DpTaggedStream(kDpDistributedSlicePointStreamTag, t, begin_ + i));
    engine.Discard(1);
    const double* x = data_->row(begin_ + i);
    for (int j = 0; j < k; ++j) {
      scratch_[j] = weights_[j] > u_[i]
                        ? model_->LogLikelihood(x, atoms_.data() + static_cast<size_t>(j) * a)
                        : -std::numeric_limits<double>::infinity();
    }
    z_[i] = rng::LogCategoricalSample(engine, scratch_);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<int32_t>> DpDistributedSlice::GatherAllocations() {
  return GatherShards(*comm_, data_->rows(), begin_, z_);
}

absl::StatusOr<double> DpDistributedSlice::TestLogPredictive(const CountMatrix& test) {
  SGMCMC_CHECK(steps_ > 0) << "TestLogPredictive before a step";
  std::vector<double> log_weights;
  for (const double w : weights_) log_weights.push_back(std::log(w));
  return DistributedTestLogPredictive(*comm_, *model_, test, log_weights, atoms_,
                                      log_leftover_);
}

absl::StatusOr<DpDistributedSliceState> DpDistributedSlice::SaveState() {
  SGMCMC_ASSIGN_OR_RETURN(const std::vector<int32_t> allocations, GatherAllocations());
  DpDistributedSliceState state;
  state.set_steps(steps_);
  state.set_alpha(alpha_);
  state.set_num_occupied(num_occupied_);
  state.mutable_allocations()->Assign(allocations.begin(), allocations.end());
  state.mutable_atoms()->Assign(atoms_.begin(), atoms_.end());
  state.mutable_weights()->Assign(weights_.begin(), weights_.end());
  state.set_log_leftover(log_leftover_);
  return state;
}

absl::Status DpDistributedSlice::RestoreState(const DpDistributedSliceState& state) {
  auto invalid = [](auto... what) {
    return absl::InvalidArgumentError(absl::StrCat("DpDistributedSliceState.", what...));
  };
  const int a = model_->atom_size();
  if (state.steps() < 0) return invalid("steps must be >= 0, got ", state.steps());
  if (!(std::isfinite(state.alpha()) && state.alpha() > 0)) {
    return invalid("alpha must be finite and > 0, got ", state.alpha());
  }
  if (state.atoms_size() % a != 0 || state.weights_size() > state.atoms_size() / a ||
      state.num_occupied() < 0 || state.num_occupied() > state.weights_size()) {
    return invalid("atoms, weights and num_occupied: ", state.atoms_size(), " values (", a,
                   " per atom), ", state.weights_size(), " weights, ", state.num_occupied(),
                   " occupied");
  }
  for (const double v : state.atoms()) {
    if (!std::isfinite(v)) return invalid("atoms must be finite, got ", v);
  }
  for (const double w : state.weights()) {
    if (!(w >= 0 && w <= 1)) return invalid("weights must be in [0, 1], got ", w);
  }
  if (state.allocations_size() != data_->rows()) {
    return invalid("allocations has ", state.allocations_size(), " labels for ", data_->rows(),
                   " rows");
  }
  for (int i = 0; i < state.allocations_size(); ++i) {
    if (state.allocations(i) < 0 || state.allocations(i) >= kMaxComponents) {
      return invalid("allocations[", i, "] = ", state.allocations(i), " is not in [0, ",
                     kMaxComponents, ")");
    }
  }
  steps_ = state.steps();
  alpha_ = state.alpha();
  num_occupied_ = state.num_occupied();
  z_.assign(state.allocations().begin() + begin_, state.allocations().begin() + end_);
  atoms_.assign(state.atoms().begin(), state.atoms().end());
  weights_.assign(state.weights().begin(), state.weights().end());
  log_leftover_ = state.log_leftover();
  return absl::OkStatus();
}

}  // namespace sgmcmc::models
