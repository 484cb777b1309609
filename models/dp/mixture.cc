#include "models/dp/mixture.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "rng/categorical.h"
#include "rng/gamma.h"
#include "rng/uniform.h"

namespace sgmcmc::models {
namespace {

constexpr int kMaxComponents = 1 << 24;
constexpr uint64_t kMaxStep = uint64_t{1} << 32;

uint64_t CheckedTaggedStream(uint64_t tag, uint64_t step, int64_t index) {
  SGMCMC_CHECK(step < kMaxStep) << "DP mixture streams: step " << step << " >= 2^32";
  SGMCMC_CHECK(index >= 0 && index < kMaxComponents)
      << "DP mixture streams: point/component " << index << " outside [0, 2^24)";
  return (tag << 56) | (step << 24) | static_cast<uint64_t>(index);
}

double LogSumExp2(double a, double b) {
  const double m = std::max(a, b);
  return m + std::log(std::exp(a - m) + std::exp(b - m));
}

absl::Status PositiveFinite(const char* name, double value) {
  if (!(std::isfinite(value) && value > 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("DpMixtureOptions.", name, " must be finite and > 0, got ", value));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status DpMixtureOptions::Validate() const {
  for (const auto& [name, value] :
       {std::pair<const char*, double>{"atom_concentration", atom_concentration},
        {"alpha_shape", alpha_shape},
        {"alpha_rate", alpha_rate},
        {"initial_alpha", initial_alpha}}) {
    if (absl::Status status = PositiveFinite(name, value); !status.ok()) return status;
  }
  if (initial_components < 1 || initial_components >= kMaxComponents) {
    return absl::InvalidArgumentError(absl::StrCat(
        "DpMixtureOptions.initial_components must be in [1, 2^24), got ", initial_components));
  }
  return absl::OkStatus();
}

uint64_t DpTaggedStream(uint64_t tag, uint64_t step, int64_t index) {
  return CheckedTaggedStream(tag, step, index);
}
uint64_t DpPointStream(uint64_t step, int64_t point) {
  return DpTaggedStream(kDpPointStreamTag, step, point);
}
uint64_t DpComponentStream(uint64_t step, int64_t component) {
  return DpTaggedStream(kDpComponentStreamTag, step, component);
}
uint64_t DpGlobalStream(uint64_t step) { return DpTaggedStream(kDpGlobalStreamTag, step, 0); }
uint64_t DpMinibatchStream(uint64_t step) {
  return DpTaggedStream(kDpMinibatchStreamTag, step, 0);
}

LogStickBreak SampleLogStickBreak(rng::Engine& engine, double a, double b) {
  const double log_ga = rng::LogGammaSample(engine, a);
  const double log_gb = rng::LogGammaSample(engine, b);
  const double log_sum = LogSumExp2(log_ga, log_gb);
  return {log_ga - log_sum, log_gb - log_sum};
}

double StickBreakingWeights(absl::Span<const double> log_v, absl::Span<const double> log1m_v,
                            absl::Span<double> weights) {
  SGMCMC_CHECK(log_v.size() == log1m_v.size() && log_v.size() == weights.size())
      << "StickBreakingWeights: sizes " << log_v.size() << ", " << log1m_v.size() << ", "
      << weights.size() << " differ";
  double log_rest = 0;  // log Π_{l<j} (1 − v_l)
  for (size_t j = 0; j < log_v.size(); ++j) {
    weights[j] = std::exp(log_v[j] + log_rest);
    log_rest += log1m_v[j];
  }
  return log_rest;
}

double SampleAlphaGivenSticks(rng::Engine& engine, double shape, double rate,
                              absl::Span<const double> log1m_v) {
  double posterior_rate = rate;
  for (double l : log1m_v) posterior_rate -= l;
  return rng::GammaSample(engine, shape + static_cast<double>(log1m_v.size())) / posterior_rate;
}

double ExtendSticksBelowSlice(rng::Engine& engine, double alpha, double log_u_min,
                              double log_leftover, std::vector<double>& log_v,
                              std::vector<double>& log1m_v, std::vector<double>& weights) {
  while (log_leftover >= log_u_min) {
    SGMCMC_CHECK(static_cast<int>(log_v.size()) < kMaxComponents)
        << "DP slice samplers: more than 2^24 components needed (slice " << std::exp(log_u_min)
        << ")";
    const LogStickBreak v = SampleLogStickBreak(engine, 1.0, alpha);
    log_v.push_back(v.log_v);
    log1m_v.push_back(v.log1m_v);
    weights.push_back(std::exp(v.log_v + log_leftover));
    log_leftover += v.log1m_v;
  }
  return log_leftover;
}

double BagLogLikelihood(absl::Span<const int32_t> tokens, const double* log_theta) {
  double sum = 0;
  for (int32_t w : tokens) sum += log_theta[w];
  return sum;
}

int SampleSliceAllocation(rng::Engine& engine, absl::Span<const int32_t> tokens, double u,
                          absl::Span<const double> weights, absl::Span<const double> log_atoms,
                          int vocabulary_size, absl::Span<double> scratch) {
  const int k = static_cast<int>(weights.size());
  SGMCMC_DCHECK(scratch.size() >= static_cast<size_t>(k));
  bool any = false;
  for (int j = 0; j < k; ++j) {
    if (weights[j] > u) {
      scratch[j] = BagLogLikelihood(tokens, log_atoms.data() + static_cast<size_t>(j) *
                                                                   vocabulary_size);
      any = true;
    } else {
      scratch[j] = -std::numeric_limits<double>::infinity();
    }
  }
  SGMCMC_CHECK(any) << "SampleSliceAllocation: no component has weight above the slice " << u;
  return rng::LogCategoricalSample(engine, scratch.first(k));
}

void SampleLogDirichletRow(rng::Engine& engine, double a, absl::Span<const double> counts,
                           absl::Span<double> log_theta) {
  SGMCMC_CHECK(counts.size() == log_theta.size())
      << "SampleLogDirichletRow: " << counts.size() << " counts, " << log_theta.size()
      << " outputs";
  double log_sum = -std::numeric_limits<double>::infinity();
  for (size_t w = 0; w < counts.size(); ++w) {
    log_theta[w] = rng::LogGammaSample(engine, a + counts[w]);
    log_sum = LogSumExp2(log_sum, log_theta[w]);
  }
  for (double& l : log_theta) l -= log_sum;
}

absl::StatusOr<std::unique_ptr<DpSliceGibbs>> DpSliceGibbs::Create(
    const data::Corpus* corpus, const DpMixtureOptions& options, parallel::ThreadPool* pool) {
  if (absl::Status status = options.Validate(); !status.ok()) return status;
  if (corpus == nullptr || corpus->num_documents() < 1 || corpus->vocabulary_size() < 2) {
    return absl::InvalidArgumentError(
        "DpSliceGibbs::Create: corpus must have at least one user and two words");
  }
  if (corpus->num_documents() >= kMaxComponents) {
    return absl::InvalidArgumentError(absl::StrCat("DpSliceGibbs::Create: ",
                                                   corpus->num_documents(),
                                                   " users, at most 2^24 - 1 are supported"));
  }
  return std::unique_ptr<DpSliceGibbs>(new DpSliceGibbs(corpus, options, pool));
}

DpSliceChain::DpSliceChain(parallel::ThreadPool* pool, int vocabulary_size, double alpha,
                           int64_t num_points)
    : pool_(pool),
      vocabulary_size_(vocabulary_size),
      alpha_(alpha),
      z_(num_points),
      scratch_(pool == nullptr ? 1 : pool->num_threads()) {}

void DpSliceChain::ForChunks(int64_t n, absl::FunctionRef<void(int64_t, int64_t, int)> fn) {
  if (pool_ == nullptr) {
    fn(0, n, 0);
  } else {
    pool_->ParallelForChunks(0, n, fn);
  }
}

int DpSliceChain::MaxLabel() const {
  int max_label = static_cast<int>(sizes_.size());
  while (max_label > 0 && sizes_[max_label - 1] == 0) --max_label;
  return max_label;
}

int DpSliceChain::num_occupied() const {
  return static_cast<int>(std::count_if(sizes_.begin(), sizes_.end(),
                                        [](int64_t m) { return m > 0; }));
}

DpSliceSummary DpSliceChain::Summary() const {
  DpSliceSummary summary;
  summary.steps = steps_;
  summary.num_components = num_components();
  summary.num_occupied = num_occupied();
  summary.max_label = MaxLabel();
  summary.alpha = alpha_;
  return summary;
}

void DpSliceChain::CurrentDraw(DpMixtureDraw& draw) const {
  draw.alpha = alpha_;
  draw.log_leftover = log_leftover_;
  draw.vocabulary_size = vocabulary_size_;
  draw.weights.assign(weights_.begin(), weights_.end());
  draw.log_atoms.assign(log_atoms_.begin(), log_atoms_.end());
}

void DpSliceChain::ClearDraw() {
  log_v_.clear();
  log1m_v_.clear();
  weights_.clear();
  log_atoms_.clear();
  log_leftover_ = 0;
}

DpSliceGibbs::DpSliceGibbs(const data::Corpus* corpus, const DpMixtureOptions& options,
                           parallel::ThreadPool* pool)
    : DpSliceChain(pool, corpus->vocabulary_size(), options.initial_alpha,
                   corpus->num_documents()),
      corpus_(corpus),
      options_(options),
      u_(corpus->num_documents()) {
  for (int64_t i = 0; i < static_cast<int64_t>(z_.size()); ++i) {
    rng::Engine engine(options_.seed, DpPointStream(0, i));
    z_[i] = static_cast<int32_t>(rng::UniformInt(engine, options_.initial_components));
  }
  CountSizes(options_.initial_components);
}

void DpSliceGibbs::CountSizes(int num_components) {
  sizes_.assign(num_components, 0);
  for (int32_t z : z_) ++sizes_[z];
}

void DpSliceGibbs::Step() {
  const uint64_t t = static_cast<uint64_t>(++steps_);
  rng::Engine global(options_.seed, DpGlobalStream(t));
  const int64_t n = static_cast<int64_t>(z_.size());

  // 1. Stick breaks of the occupied range given z (u integrated out).
  int max_label = static_cast<int>(sizes_.size());
  while (sizes_[max_label - 1] == 0) --max_label;
  log_v_.resize(max_label);
  log1m_v_.resize(max_label);
  int64_t tail = n;  // Σ_{l>=j} m_l
  for (int j = 0; j < max_label; ++j) {
    tail -= sizes_[j];
    const LogStickBreak v = SampleLogStickBreak(global, 1.0 + static_cast<double>(sizes_[j]),
                                                alpha_ + static_cast<double>(tail));
    log_v_[j] = v.log_v;
    log1m_v_[j] = v.log1m_v;
  }
  weights_.resize(max_label);
  log_leftover_ = StickBreakingWeights(log_v_, log1m_v_, absl::MakeSpan(weights_));

  // 2. Slice variables: word 0 of each point's stream.
  ForChunks(n, [&](int64_t begin, int64_t end, int) {
    for (int64_t i = begin; i < end; ++i) {
      rng::Engine engine(options_.seed, DpPointStream(t, i));
      u_[i] = weights_[z_[i]] * rng::UniformDouble(engine);
    }
  });
  const double log_u_min = std::log(*std::min_element(u_.begin(), u_.end()));

  // 3. α | v of the occupied range.
  if (options_.sample_alpha) {
    alpha_ = SampleAlphaGivenSticks(global, options_.alpha_shape, options_.alpha_rate, log1m_v_);
  }

  // 4. New components from the prior until the leftover stick is below u*.
  log_leftover_ = ExtendSticksBelowSlice(global, alpha_, log_u_min, log_leftover_, log_v_,
                                         log1m_v_, weights_);
  const int k = static_cast<int>(weights_.size());

  // 5. Atoms given the allocations.
  const int vocab = vocabulary_size_;
  word_counts_.assign(static_cast<size_t>(k) * vocab, 0.0);
  for (int64_t i = 0; i < n; ++i) {
    double* row = word_counts_.data() + static_cast<size_t>(z_[i]) * vocab;
    for (int32_t w : corpus_->document(static_cast<int>(i))) row[w] += 1.0;
  }
  log_atoms_.resize(static_cast<size_t>(k) * vocab);
  ForChunks(k, [&](int64_t begin, int64_t end, int) {
    for (int64_t j = begin; j < end; ++j) {
      rng::Engine engine(options_.seed, DpComponentStream(t, j));
      SampleLogDirichletRow(
          engine, options_.atom_concentration,
          absl::MakeConstSpan(word_counts_.data() + static_cast<size_t>(j) * vocab, vocab),
          absl::MakeSpan(log_atoms_.data() + static_cast<size_t>(j) * vocab, vocab));
    }
  });

  // 6. Allocations given the slices, weights and atoms; words 1... of each point's stream.
  ForChunks(n, [&](int64_t begin, int64_t end, int thread) {
    std::vector<double>& scratch = scratch_[thread];
    scratch.resize(k);
    for (int64_t i = begin; i < end; ++i) {
      rng::Engine engine(options_.seed, DpPointStream(t, i));
      engine.Discard(1);
      z_[i] = SampleSliceAllocation(engine, corpus_->document(static_cast<int>(i)), u_[i],
                                    weights_, log_atoms_, vocab, absl::MakeSpan(scratch));
    }
  });
  CountSizes(k);
}

DpSliceGibbsState DpSliceGibbs::SaveState() const {
  DpSliceGibbsState state;
  state.set_steps(steps_);
  state.set_alpha(alpha_);
  state.mutable_allocations()->Assign(z_.begin(), z_.end());
  return state;
}

absl::Status DpSliceGibbs::RestoreState(const DpSliceGibbsState& state) {
  if (static_cast<size_t>(state.allocations_size()) != z_.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("DpSliceGibbs::RestoreState: ", state.allocations_size(),
                     " allocations, the corpus has ", z_.size(), " users"));
  }
  int32_t max_label = 0;
  for (int i = 0; i < state.allocations_size(); ++i) {
    const int32_t z = state.allocations(i);
    if (z < 0 || z >= kMaxComponents) {
      return absl::InvalidArgumentError(absl::StrCat(
          "DpSliceGibbs::RestoreState: allocations[", i, "] = ", z, " outside [0, 2^24)"));
    }
    max_label = std::max(max_label, z);
  }
  if (!(std::isfinite(state.alpha()) && state.alpha() > 0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "DpSliceGibbs::RestoreState: alpha must be finite and > 0, got ", state.alpha()));
  }
  if (state.steps() < 0 || static_cast<uint64_t>(state.steps()) >= kMaxStep) {
    return absl::InvalidArgumentError(absl::StrCat(
        "DpSliceGibbs::RestoreState: steps must be in [0, 2^32), got ", state.steps()));
  }
  steps_ = state.steps();
  alpha_ = state.alpha();
  z_.assign(state.allocations().begin(), state.allocations().end());
  CountSizes(max_label + 1);
  ClearDraw();
  return absl::OkStatus();
}


}  // namespace sgmcmc::models
