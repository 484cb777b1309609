#include "samplers/hamcmc.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "rng/normal.h"

namespace sgmcmc::samplers {
namespace {

linalg::LbfgsOptions LbfgsOptionsFor(const HamcmcOptions& options) {
  linalg::LbfgsOptions lbfgs;
  lbfgs.max_pairs = options.memory - 1;
  lbfgs.damping = options.damping;
  lbfgs.initial_scaling = linalg::LbfgsOptions::InitialScaling::kFixed;
  lbfgs.gamma = options.gamma;
  lbfgs.curvature_threshold = options.curvature_threshold;
  return lbfgs;
}

}  // namespace

absl::Status HamcmcOptions::Validate(int64_t num_items) const {
  absl::Status status = chain.Validate(num_items);
  if (!status.ok()) return status;
  const int max_memory = linalg::LbfgsOptions::kMaxPairs + 1;
  if (memory < 2 || memory > max_memory) {
    return absl::InvalidArgumentError(
        absl::StrCat("HamcmcOptions.memory must be in [2, ", max_memory, "], got ", memory));
  }
  if (!(std::isfinite(gamma) && gamma > 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("HamcmcOptions.gamma must be finite and > 0, got ", gamma));
  }
  if (!(std::isfinite(damping) && damping >= 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("HamcmcOptions.damping must be finite and >= 0, got ", damping));
  }
  if (!(std::isfinite(warmup_step) && warmup_step > 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("HamcmcOptions.warmup_step must be finite and > 0, got ", warmup_step));
  }
  for (size_t i = 0; i < initial_diagonal.size(); ++i) {
    if (!(std::isfinite(initial_diagonal[i]) && initial_diagonal[i] > 0)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "HamcmcOptions.initial_diagonal[", i, "] must be finite and > 0, got ",
          initial_diagonal[i]));
    }
  }
  if (!(curvature_threshold >= 0 && curvature_threshold < 1)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "HamcmcOptions.curvature_threshold must be in [0, 1), got ", curvature_threshold));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<Hamcmc>> Hamcmc::Create(const GradientModel& model,
                                                       absl::Span<const double> initial_theta,
                                                       const HamcmcOptions& options) {
  absl::Status status = ValidateChain("Hamcmc", model, initial_theta, options.chain);
  if (status.ok()) status = options.Validate(model.num_items());
  if (!status.ok()) return status;
  if (!options.initial_diagonal.empty() &&
      options.initial_diagonal.size() != static_cast<size_t>(model.dimension())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "HamcmcOptions.initial_diagonal has ", options.initial_diagonal.size(),
        " entries; the model's dimension is ", model.dimension()));
  }
  return std::unique_ptr<Hamcmc>(new Hamcmc(model, initial_theta, options));
}

Hamcmc::Hamcmc(const GradientModel& model, absl::Span<const double> initial_theta,
               const HamcmcOptions& options)
    : EuclideanSampler(model, initial_theta, options.chain),
      memory_(options.memory),
      warmup_step_(options.warmup_step),
      lbfgs_(model.dimension(), LbfgsOptionsFor(options)),
      history_(model.dimension(), options.memory),
      pair_s_(model.dimension(), options.memory - 1),
      pair_y_(model.dimension(), options.memory - 1),
      pair_iteration_(options.memory - 1, -1),
      grad_base_(model.dimension()),
      grad_new_(model.dimension()),
      drift_(model.dimension()),
      noise_(model.dimension()) {
  history_.col(0) = Eigen::Map<const Eigen::VectorXd>(initial_theta.data(), dimension());
  if (!options.initial_diagonal.empty()) {
    lbfgs_.SetInitialDiagonal(Eigen::Map<const Eigen::VectorXd>(
        options.initial_diagonal.data(), static_cast<Eigen::Index>(options.initial_diagonal.size())));
  }
}

void Hamcmc::Gradient(const double* theta, absl::Span<const int64_t> batch, Eigen::VectorXd& out) {
  StochasticPotentialGradient(model(), absl::MakeConstSpan(theta, dimension()), batch,
                              absl::MakeSpan(out.data(), out.size()));
}

void Hamcmc::Step() {
  const int64_t t = iteration() + 1;  // index of the sample this step produces
  const bool warmup = t <= 2 * memory_;
  double h = BeginIteration();
  if (warmup) {
    h = warmup_step_;
    set_last_step_size(h);
  }
  const int d = dimension();
  const absl::Span<const int64_t> batch = DrawMinibatch();
  double* theta = mutable_theta().data();          // theta_{t-1}, becomes theta_t
  const int slot = static_cast<int>(t % memory_);  // holds theta_{t-M}; receives theta_t
  double* base = history_.col(slot).data();
  const bool record_pair = t >= first_pair_iteration();
  const int pair_slot = static_cast<int>(t % (memory_ - 1));
  double* s = pair_s_.col(pair_slot).data();
  const double noise_scale = std::sqrt(2 * h);
  const double* noise = noise_.data();

  rng::FillNormal(engine(), absl::MakeSpan(noise_.data(), d));
  const double* step_direction;  // the drift direction: grad U~ (warm-up) or H grad U~
  const double* origin;          // theta_{t-1} (warm-up) or theta_{t-M}
  if (warmup) {
    Gradient(theta, batch, grad_new_);
    if (record_pair) Gradient(base, batch, grad_base_);
    step_direction = grad_new_.data();
    origin = theta;
  } else {
    Gradient(base, batch, grad_base_);
    lbfgs_.ApplyH(grad_base_, drift_);
    lbfgs_.ApplySqrtH(noise_, noise_);
    step_direction = drift_.data();
    origin = base;
  }
  // One fused pass: theta_t, s_t = theta_t - theta_{t-M} and the history slot.
  if (record_pair) {
    for (int j = 0; j < d; ++j) {
      const double next = origin[j] + (noise_scale * noise[j] - h * step_direction[j]);
      s[j] = next - base[j];
      theta[j] = next;
      base[j] = next;
    }
    Gradient(theta, batch, grad_new_);
    pair_y_.col(pair_slot) = grad_new_ - grad_base_;
    pair_iteration_[pair_slot] = t;
    lbfgs_.AddPair(pair_s_.col(pair_slot), pair_y_.col(pair_slot));
  } else {
    for (int j = 0; j < d; ++j) {
      const double next = origin[j] + (noise_scale * noise[j] - h * step_direction[j]);
      theta[j] = next;
      base[j] = next;
    }
  }
  EndIteration();
}

void Hamcmc::SaveExtra(SamplerState& state) const {
  const int64_t t = iteration();  // the last completed sample index
  const int64_t kept = std::min<int64_t>(memory_, t + 1);
  for (int64_t tau = t - kept + 1; tau <= t; ++tau) {
    const auto column = history_.col(tau % memory_);
    state.add_history()->mutable_values()->Add(column.data(), column.data() + column.size());
  }
  for (int64_t tau = std::max(first_pair_iteration(), t - memory_ + 2); tau <= t; ++tau) {
    const int pair_slot = static_cast<int>(tau % (memory_ - 1));
    SGMCMC_DCHECK_EQ(pair_iteration_[pair_slot], tau);
    LbfgsPair& pair = *state.add_lbfgs_pairs();
    pair.set_iteration(tau);
    pair.mutable_s()->Add(pair_s_.col(pair_slot).data(),
                          pair_s_.col(pair_slot).data() + dimension());
    pair.mutable_y()->Add(pair_y_.col(pair_slot).data(),
                          pair_y_.col(pair_slot).data() + dimension());
  }
}

absl::Status Hamcmc::RestoreExtra(const SamplerState& state) {
  const int64_t t = state.iteration();
  const int64_t kept = std::min<int64_t>(memory_, t + 1);
  if (state.history_size() != kept) {
    return absl::InvalidArgumentError(absl::StrCat("SamplerState.history has ",
                                                   state.history_size(), " samples, expected ",
                                                   kept, " for M = ", memory_));
  }
  for (int i = 0; i < state.history_size(); ++i) {
    absl::Status status = CheckLength(state.history(i).values_size(), "history");
    if (status.ok()) {
      status = CheckFinite(state.history(i).values(), absl::StrCat("history[", i, "].values"));
    }
    if (!status.ok()) return status;
  }
  const Vector& newest = state.history(static_cast<int>(kept - 1));
  if (!std::equal(newest.values().begin(), newest.values().end(), state.theta().begin())) {
    return absl::InvalidArgumentError(
        "SamplerState.history: the newest sample must equal SamplerState.theta");
  }
  const int64_t first_pair = std::max(first_pair_iteration(), t - memory_ + 2);
  const int64_t num_pairs = std::max<int64_t>(0, t - first_pair + 1);
  if (state.lbfgs_pairs_size() != num_pairs) {
    return absl::InvalidArgumentError(
        absl::StrCat("SamplerState.lbfgs_pairs has ", state.lbfgs_pairs_size(), " pairs, expected ",
                     num_pairs, " at iteration ", t, " for M = ", memory_));
  }
  for (int i = 0; i < state.lbfgs_pairs_size(); ++i) {
    const LbfgsPair& pair = state.lbfgs_pairs(i);
    if (pair.iteration() != first_pair + i) {
      return absl::InvalidArgumentError(absl::StrCat("SamplerState.lbfgs_pairs[", i,
                                                     "].iteration is ", pair.iteration(),
                                                     ", expected ", first_pair + i));
    }
    absl::Status status = CheckLength(pair.s_size(), "lbfgs_pairs.s");
    if (status.ok()) status = CheckLength(pair.y_size(), "lbfgs_pairs.y");
    if (status.ok()) status = CheckFinite(pair.s(), absl::StrCat("lbfgs_pairs[", i, "].s"));
    if (status.ok()) status = CheckFinite(pair.y(), absl::StrCat("lbfgs_pairs[", i, "].y"));
    if (!status.ok()) return status;
  }

  for (int64_t i = 0; i < kept; ++i) {
    const Vector& sample = state.history(static_cast<int>(i));
    history_.col((t - kept + 1 + i) % memory_) =
        Eigen::Map<const Eigen::VectorXd>(sample.values().data(), dimension());
  }
  lbfgs_.Clear();
  std::fill(pair_iteration_.begin(), pair_iteration_.end(), -1);
  for (const LbfgsPair& pair : state.lbfgs_pairs()) {
    const int pair_slot = static_cast<int>(pair.iteration() % (memory_ - 1));
    pair_s_.col(pair_slot) = Eigen::Map<const Eigen::VectorXd>(pair.s().data(), dimension());
    pair_y_.col(pair_slot) = Eigen::Map<const Eigen::VectorXd>(pair.y().data(), dimension());
    pair_iteration_[pair_slot] = pair.iteration();
    lbfgs_.AddPair(pair_s_.col(pair_slot), pair_y_.col(pair_slot));
  }
  return absl::OkStatus();
}

}  // namespace sgmcmc::samplers
