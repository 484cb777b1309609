#include "models/dp/stochastic_slice.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "rng/engine.h"
#include "rng/gamma.h"
#include "rng/uniform.h"
#include "samplers/count_model.h"
#include "samplers/scir.h"
#include "samplers/sgrld.h"

namespace sgmcmc::models {
namespace {

constexpr int kMaxRows = 1 << 24;
// Prior draws and carried-over rows are clamped to log θ >= this, so exp(log θ) stays a
// normal double (SGRLD stores θ itself); the mass moved is below 1e-300. The sticks' log v and
// log(1 - v) are clamped to it too: SGRLD's mirrored step can leave θ = 0 (and a restored
// SCIR row any finite log θ), and a stick with v = 1 made log(1 - v) = -inf, the α posterior's
// rate infinite, α = 0 and the next prior stick a Gamma(0) draw (found by
// //fuzz:dp_checkpoint_fuzzer; fuzz/corpus/dp_checkpoint/regression_alpha_zero).
constexpr double kMinLogTheta = -700.0;

// log v and log(1 - v) of stick j, each clamped to kMinLogTheta.
void LogStick(const samplers::SimplexSampler& sticks, int j, double log_stick[2]) {
  sticks.LogSimplex(j, absl::MakeSpan(log_stick, 2));
  log_stick[0] = std::max(log_stick[0], kMinLogTheta);
  log_stick[1] = std::max(log_stick[1], kMinLogTheta);
}

absl::Status PositiveFinite(const char* name, double value) {
  if (!(std::isfinite(value) && value > 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("DpStochasticOptions.", name, " must be finite and > 0, got ", value));
  }
  return absl::OkStatus();
}

}  // namespace

absl::string_view DpSimplexSamplerName(DpSimplexSampler sampler) {
  return sampler == DpSimplexSampler::kScir ? "scir" : "sgrld";
}

absl::StatusOr<DpSimplexSampler> ParseDpSimplexSampler(absl::string_view name) {
  if (name == "scir") return DpSimplexSampler::kScir;
  if (name == "sgrld") return DpSimplexSampler::kSgrld;
  return absl::InvalidArgumentError(
      absl::StrCat("unknown simplex sampler \"", name, "\" (expected scir or sgrld)"));
}

absl::StatusOr<std::unique_ptr<samplers::SimplexSampler>> MakeSimplexSampler(
    DpSimplexSampler kind, samplers::SimplexSamplerOptions options) {
  if (kind == DpSimplexSampler::kScir) {
    absl::StatusOr<samplers::Scir> scir = samplers::Scir::Create(std::move(options));
    if (!scir.ok()) return scir.status();
    return std::unique_ptr<samplers::SimplexSampler>(new samplers::Scir(std::move(*scir)));
  }
  absl::StatusOr<samplers::Sgrld> sgrld = samplers::Sgrld::Create(std::move(options));
  if (!sgrld.ok()) return sgrld.status();
  return std::unique_ptr<samplers::SimplexSampler>(new samplers::Sgrld(std::move(*sgrld)));
}

absl::Status DpStochasticOptions::Validate(int64_t num_users) const {
  if (absl::Status s = model.Validate(); !s.ok()) return s;
  if (absl::Status s = PositiveFinite("atom_step", atom_step); !s.ok()) return s;
  if (absl::Status s = PositiveFinite("stick_step", stick_step); !s.ok()) return s;
  if (absl::Status s = PositiveFinite("alpha_floor", alpha_floor); !s.ok()) return s;
  if (minibatch_size < 1 || (num_users >= 0 && minibatch_size > num_users)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "DpStochasticOptions.minibatch_size must be in [1, N = ", num_users, "], got ",
        minibatch_size));
  }
  if (initial_capacity < 1 || initial_capacity >= kMaxRows) {
    return absl::InvalidArgumentError(absl::StrCat(
        "DpStochasticOptions.initial_capacity must be in [1, 2^24), got ", initial_capacity));
  }
  return absl::OkStatus();
}

DpStochasticOptions DpStochasticPaperOptions(DpSimplexSampler sampler) {
  DpStochasticOptions options;
  options.sampler = sampler;
  options.minibatch_size = 1000;
  if (sampler == DpSimplexSampler::kScir) {
    options.atom_step = 0.1;
    options.stick_step = 0.1;
    options.model.atom_concentration = 0.5;
    options.model.initial_components = 20;
  } else {
    options.atom_step = 0.001;
    options.stick_step = 0.005;
    options.model.atom_concentration = 0.001;
    options.model.initial_components = 30;
  }
  return options;
}

absl::StatusOr<std::unique_ptr<DpStochasticSlice>> DpStochasticSlice::Create(
    const data::Corpus* corpus, const DpStochasticOptions& options, parallel::ThreadPool* pool) {
  if (corpus == nullptr || corpus->num_documents() < 1 || corpus->vocabulary_size() < 2) {
    return absl::InvalidArgumentError(
        "DpStochasticSlice::Create: corpus must have at least one user and two words");
  }
  if (corpus->num_documents() >= kMaxRows) {
    return absl::InvalidArgumentError(absl::StrCat("DpStochasticSlice::Create: ",
                                                   corpus->num_documents(),
                                                   " users, at most 2^24 - 1 are supported"));
  }
  if (absl::Status s = options.Validate(corpus->num_documents()); !s.ok()) return s;
  absl::StatusOr<samplers::Minibatch> minibatch =
      samplers::Minibatch::Create(corpus->num_documents(), options.minibatch_size);
  if (!minibatch.ok()) return minibatch.status();
  std::unique_ptr<DpStochasticSlice> sampler(
      new DpStochasticSlice(corpus, options, pool, std::move(*minibatch)));
  if (absl::Status s = sampler->Initialize(); !s.ok()) return s;
  return sampler;
}

DpStochasticSlice::DpStochasticSlice(const data::Corpus* corpus,
                                     const DpStochasticOptions& options,
                                     parallel::ThreadPool* pool, samplers::Minibatch minibatch)
    : DpSliceChain(pool, corpus->vocabulary_size(), options.model.initial_alpha,
                   corpus->num_documents()),
      corpus_(corpus),
      options_(options),
      minibatch_(std::move(minibatch)),
      capacity_(std::max(options.initial_capacity, options.model.initial_components)) {
  sizes_.assign(capacity_, 0);
}

absl::Status DpStochasticSlice::Initialize() {
  samplers::SimplexSamplerOptions stick_options;
  stick_options.rows = capacity_;
  stick_options.cols = 2;
  stick_options.alpha = {1.0, options_.alpha_floor};
  stick_options.seed = options_.model.seed;
  absl::StatusOr<std::unique_ptr<samplers::SimplexSampler>> sticks =
      MakeSimplexSampler(options_.sampler, stick_options);
  if (!sticks.ok()) return sticks.status();
  sticks_ = std::move(*sticks);
  samplers::SimplexSamplerOptions atom_options = stick_options;
  atom_options.cols = vocabulary_size_;
  atom_options.alpha = {options_.model.atom_concentration};
  absl::StatusOr<std::unique_ptr<samplers::SimplexSampler>> atoms =
      MakeSimplexSampler(options_.sampler, atom_options);
  if (!atoms.ok()) return atoms.status();
  atoms_ = std::move(*atoms);

  const int k0 = options_.model.initial_components;
  for (int64_t i = 0; i < static_cast<int64_t>(z_.size()); ++i) {
    rng::Engine engine(options_.model.seed, DpPointStream(0, i));
    z_[i] = static_cast<int32_t>(rng::UniformInt(engine, k0));
    ++sizes_[z_[i]];
  }
  rng::Engine global(options_.model.seed, DpGlobalStream(0));
  for (int j = 0; j < k0; ++j) SetPriorComponent(0, j, global);
  return absl::OkStatus();
}

void DpStochasticSlice::EnsureCapacity(int rows) {
  if (rows <= capacity_) return;
  SGMCMC_CHECK(rows < kMaxRows) << "DpStochasticSlice: more than 2^24 components needed";
  const int new_capacity = std::min(kMaxRows - 1, std::max(rows, 2 * capacity_));
  auto grow = [&](std::unique_ptr<samplers::SimplexSampler>& sampler) {
    samplers::SimplexSamplerOptions options = sampler->options();
    options.rows = new_capacity;
    std::unique_ptr<samplers::SimplexSampler> grown =
        MakeSimplexSampler(options_.sampler, options).value();
    std::vector<double> row(options.cols);
    std::vector<int64_t> steps(new_capacity, 0);
    for (int r = 0; r < capacity_; ++r) {
      sampler->LogSimplex(r, absl::MakeSpan(row));
      for (double& l : row) l = std::max(l, kMinLogTheta);
      SGMCMC_CHECK(grown->SetLogTheta(r, row).ok());
      steps[r] = sampler->steps(r);
    }
    SGMCMC_CHECK(grown->SetSteps(steps).ok());
    sampler = std::move(grown);
  };
  grow(sticks_);
  grow(atoms_);
  capacity_ = new_capacity;
  sizes_.resize(capacity_, 0);
}

void DpStochasticSlice::SetPriorComponent(uint64_t step, int j, rng::Engine& global) {
  const double log_stick[2] = {std::max(rng::LogGammaSample(global, 1.0), kMinLogTheta),
                               std::max(rng::LogGammaSample(global, alpha_), kMinLogTheta)};
  SGMCMC_CHECK(sticks_->SetLogTheta(j, log_stick).ok());
  rng::Engine engine(options_.model.seed, DpComponentStream(step, j));
  std::vector<double>& row = scratch_[0];
  row.resize(vocabulary_size_);
  for (double& l : row) {
    l = std::max(rng::LogGammaSample(engine, options_.model.atom_concentration), kMinLogTheta);
  }
  SGMCMC_CHECK(atoms_->SetLogTheta(j, row).ok());
}

void DpStochasticSlice::Step() {
  const uint64_t t = static_cast<uint64_t>(++steps_);
  const uint64_t seed = options_.model.seed;
  rng::Engine batch_engine(seed, DpMinibatchStream(t));
  const absl::Span<const int64_t> batch = minibatch_.Draw(batch_engine);
  const int64_t n = static_cast<int64_t>(batch.size());
  const double scale =
      static_cast<double>(corpus_->num_documents()) / static_cast<double>(n);
  const int max_label = MaxLabel();

  // 2. Sticks from the minibatch's allocation counts.
  batch_sizes_.assign(max_label, 0.0);
  for (int64_t i : batch) batch_sizes_[z_[i]] += 1.0;
  // The views span every row of the samplers (capacity); only rows < Z* are read.
  stick_counts_.resize(2 * static_cast<size_t>(capacity_));
  const double alpha_excess = std::max(0.0, alpha_ - options_.alpha_floor);
  double tail = 0;  // Σ_{l>j} m_l
  for (int j = max_label - 1; j >= 0; --j) {
    stick_counts_[2 * j] = scale * batch_sizes_[j];
    stick_counts_[2 * j + 1] = alpha_excess + scale * tail;
    tail += batch_sizes_[j];
  }
  sticks_->StepRows(samplers::DenseCountsView{capacity_, 2, stick_counts_}, options_.stick_step,
                    0, max_label);
  log_v_.resize(max_label);
  log1m_v_.resize(max_label);
  double log_stick[2];
  for (int j = 0; j < max_label; ++j) {
    LogStick(*sticks_, j, log_stick);
    log_v_[j] = log_stick[0];
    log1m_v_[j] = log_stick[1];
  }
  weights_.resize(max_label);
  log_leftover_ = StickBreakingWeights(log_v_, log1m_v_, absl::MakeSpan(weights_));

  // 3. Atoms from the minibatch's word counts.
  atom_counts_.resize(static_cast<size_t>(capacity_) * vocabulary_size_);
  std::fill(atom_counts_.begin(), atom_counts_.begin() + static_cast<size_t>(max_label) * vocabulary_size_,
            0.0);
  for (int64_t i : batch) {
    double* row = atom_counts_.data() + static_cast<size_t>(z_[i]) * vocabulary_size_;
    for (int32_t w : corpus_->document(static_cast<int>(i))) row[w] += scale;
  }
  const samplers::DenseCountsView atom_view{capacity_, vocabulary_size_, atom_counts_};
  ForChunks(max_label, [&](int64_t begin, int64_t end, int) {
    atoms_->StepRows(atom_view, options_.atom_step, static_cast<int>(begin),
                     static_cast<int>(end));
  });

  // 4. Slice variables of the minibatch: word 0 of each point's stream.
  u_.resize(n);
  ForChunks(n, [&](int64_t begin, int64_t end, int) {
    for (int64_t b = begin; b < end; ++b) {
      rng::Engine engine(seed, DpPointStream(t, batch[b]));
      u_[b] = weights_[z_[batch[b]]] * rng::UniformDouble(engine);
    }
  });
  // A slice below e^kMinLogTheta (a weight that underflowed to 0 gives u = 0) is taken at it:
  // the sticks beyond it hold less than 1e-304 of the mass, and a slice of 0 would need
  // infinitely many.
  const double log_u_min =
      std::max(std::log(*std::min_element(u_.begin(), u_.end())), kMinLogTheta);

  // 5. α | v of the occupied range.
  rng::Engine global(seed, DpGlobalStream(t));
  if (options_.model.sample_alpha) {
    alpha_ = SampleAlphaGivenSticks(global, options_.model.alpha_shape,
                                    options_.model.alpha_rate, log1m_v_);
  }

  // 6. Rows beyond Z* redrawn from the prior until the leftover stick is below u*.
  for (int j = max_label; log_leftover_ >= log_u_min; ++j) {
    EnsureCapacity(j + 1);
    SetPriorComponent(t, j, global);
    LogStick(*sticks_, j, log_stick);
    log_v_.push_back(log_stick[0]);
    log1m_v_.push_back(log_stick[1]);
    weights_.push_back(std::exp(log_stick[0] + log_leftover_));
    log_leftover_ += log_stick[1];
  }
  const int k = num_components();
  log_atoms_.resize(static_cast<size_t>(k) * vocabulary_size_);
  ForChunks(k, [&](int64_t begin, int64_t end, int) {
    for (int64_t j = begin; j < end; ++j) {
      atoms_->LogSimplex(static_cast<int>(j),
                         absl::MakeSpan(log_atoms_.data() + static_cast<size_t>(j) * vocabulary_size_,
                                        vocabulary_size_));
    }
  });

  // 7. Allocations of the minibatch; words 1... of each point's stream.
  std::vector<int32_t> new_z(n);
  ForChunks(n, [&](int64_t begin, int64_t end, int thread) {
    std::vector<double>& scratch = scratch_[thread];
    scratch.resize(std::max<size_t>(scratch.size(), k));
    for (int64_t b = begin; b < end; ++b) {
      rng::Engine engine(seed, DpPointStream(t, batch[b]));
      engine.Discard(1);
      new_z[b] = SampleSliceAllocation(engine, corpus_->document(static_cast<int>(batch[b])),
                                       u_[b], weights_, log_atoms_, vocabulary_size_,
                                       absl::MakeSpan(scratch));
    }
  });
  for (int64_t b = 0; b < n; ++b) {
    --sizes_[z_[batch[b]]];
    z_[batch[b]] = new_z[b];
    ++sizes_[new_z[b]];
  }
}

DpStochasticSliceState DpStochasticSlice::SaveState() const {
  DpStochasticSliceState state;
  state.set_steps(steps_);
  state.set_alpha(alpha_);
  state.mutable_allocations()->Assign(z_.begin(), z_.end());
  *state.mutable_sticks() = sticks_->SaveState();
  *state.mutable_atoms() = atoms_->SaveState();
  return state;
}

absl::Status DpStochasticSlice::RestoreState(const DpStochasticSliceState& state) {
  auto error = [](auto&&... parts) {
    return absl::InvalidArgumentError(absl::StrCat("DpStochasticSlice::RestoreState: ", parts...));
  };
  const int rows = state.sticks().rows();
  if (rows < 1 || rows >= kMaxRows || state.atoms().rows() != rows) {
    return error("sticks.rows = ", rows, " and atoms.rows = ", state.atoms().rows(),
                 " must be equal and in [1, 2^24)");
  }
  if (static_cast<size_t>(state.allocations_size()) != z_.size()) {
    return error(state.allocations_size(), " allocations, the corpus has ", z_.size(), " users");
  }
  for (int i = 0; i < state.allocations_size(); ++i) {
    if (state.allocations(i) < 0 || state.allocations(i) >= rows) {
      return error("allocations[", i, "] = ", state.allocations(i), " outside [0, ", rows, ")");
    }
  }
  if (!(std::isfinite(state.alpha()) && state.alpha() > 0)) {
    return error("alpha must be finite and > 0, got ", state.alpha());
  }
  if (state.steps() < 0 || state.steps() >= (int64_t{1} << 32)) {
    return error("steps must be in [0, 2^32), got ", state.steps());
  }
  // Fresh samplers of the checkpoint's capacity, so a rejected state changes nothing here.
  auto restored =
      [&](const samplers::SimplexSampler& current, const samplers::SimplexSamplerState& saved,
          const char* field) -> absl::StatusOr<std::unique_ptr<samplers::SimplexSampler>> {
    samplers::SimplexSamplerOptions options = current.options();
    options.rows = rows;
    absl::StatusOr<std::unique_ptr<samplers::SimplexSampler>> sampler =
        MakeSimplexSampler(options_.sampler, std::move(options));
    if (!sampler.ok()) return sampler.status();
    if (absl::Status s = (*sampler)->RestoreState(saved); !s.ok()) {
      return error(field, ": ", s.message());
    }
    return sampler;
  };
  absl::StatusOr<std::unique_ptr<samplers::SimplexSampler>> sticks =
      restored(*sticks_, state.sticks(), "sticks");
  if (!sticks.ok()) return sticks.status();
  absl::StatusOr<std::unique_ptr<samplers::SimplexSampler>> atoms =
      restored(*atoms_, state.atoms(), "atoms");
  if (!atoms.ok()) return atoms.status();

  steps_ = state.steps();
  alpha_ = state.alpha();
  sticks_ = *std::move(sticks);
  atoms_ = *std::move(atoms);
  capacity_ = rows;
  z_.assign(state.allocations().begin(), state.allocations().end());
  sizes_.assign(capacity_, 0);
  for (int32_t z : z_) ++sizes_[z];
  ClearDraw();
  return absl::OkStatus();
}

}  // namespace sgmcmc::models
