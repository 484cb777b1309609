#include "models/lda/lda.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "base/seconds_since.h"
#include "samplers/scir.h"
#include "samplers/sgrld.h"

namespace sgmcmc::models {

absl::StatusOr<std::unique_ptr<samplers::SimplexSampler>> MakeLdaTopicSampler(
    const LdaOptions& options, int vocabulary_size) {
  samplers::SimplexSamplerOptions sampler_options;
  sampler_options.rows = options.num_topics;
  sampler_options.cols = vocabulary_size;
  sampler_options.alpha = {options.beta};
  sampler_options.seed = options.seed;
  if (options.sampler == LdaSampler::kScir && options.topic_update == LdaTopicUpdate::kLazy) {
    auto lazy = samplers::LazyScir::Create(sampler_options);
    if (!lazy.ok()) return lazy.status();
    return std::make_unique<samplers::LazyScir>(*std::move(lazy));
  }
  if (options.sampler == LdaSampler::kScir) {
    auto scir = samplers::Scir::Create(sampler_options);
    if (!scir.ok()) return scir.status();
    return std::make_unique<samplers::Scir>(*std::move(scir));
  }
  auto sgrld = samplers::Sgrld::Create(sampler_options);
  if (!sgrld.ok()) return sgrld.status();
  return std::make_unique<samplers::Sgrld>(*std::move(sgrld));
}

absl::string_view LdaSamplerName(LdaSampler sampler) {
  return sampler == LdaSampler::kScir ? "scir" : "sgrld";
}

absl::string_view LdaTopicUpdateName(LdaTopicUpdate update) {
  return update == LdaTopicUpdate::kLazy ? "lazy" : "eager";
}

absl::Status LdaOptions::Validate(int num_documents) const {
  auto error = [](auto&&... parts) {
    return absl::InvalidArgumentError(absl::StrCat("LdaOptions.", parts...));
  };
  if (sampler != LdaSampler::kScir && sampler != LdaSampler::kSgrld) {
    return error("sampler must be kScir or kSgrld");
  }
  if (num_topics < 1 || num_topics >= (1 << 24)) {
    return error("num_topics must be in [1, 2^24), got ", num_topics);
  }
  if (!(alpha > 0) || !std::isfinite(alpha)) {
    return error("alpha must be finite and > 0, got ", alpha);
  }
  if (!(beta > 0) || !std::isfinite(beta)) {
    return error("beta must be finite and > 0, got ", beta);
  }
  if (absl::Status s = step_size.Validate(); !s.ok()) {
    return error("step_size: ", s.message());
  }
  if (minibatch_size < 1 || (num_documents >= 0 && minibatch_size > num_documents)) {
    return error("minibatch_size must be in [1, D = ", num_documents, "], got ", minibatch_size);
  }
  if (gibbs_sweeps < 1) return error("gibbs_sweeps must be >= 1, got ", gibbs_sweeps);
  if (early_gibbs_sweeps < 0) {
    return error("early_gibbs_sweeps must be >= 0, got ", early_gibbs_sweeps);
  }
  if (early_iterations < 0) return error("early_iterations must be >= 0, got ", early_iterations);
  if (count_estimator != LdaCountEstimator::kSweepAverage &&
      count_estimator != LdaCountEstimator::kLastSweep &&
      count_estimator != LdaCountEstimator::kPersistentJoint) {
    return error("count_estimator must be kSweepAverage, kLastSweep or kPersistentJoint");
  }
  if (mean_burn_in < -1) return error("mean_burn_in must be >= -1, got ", mean_burn_in);
  if (mean_every < 1) return error("mean_every must be >= 1, got ", mean_every);
  if (default_burn_in < -1) {
    return error("default_burn_in must be >= -1, got ", default_burn_in);
  }
  if (topic_update != LdaTopicUpdate::kEager && topic_update != LdaTopicUpdate::kLazy) {
    return error("topic_update must be kEager or kLazy");
  }
  if (topic_update == LdaTopicUpdate::kLazy) {
    if (sampler != LdaSampler::kScir) return error("sampler must be kScir with topic_update kLazy");
    if (count_estimator == LdaCountEstimator::kPersistentJoint) {
      return error("topic_update kLazy does not support count_estimator kPersistentJoint");
    }
  }
  if (corpus_documents < 0) {
    return error("corpus_documents must be >= 0, got ", corpus_documents);
  }
  if (corpus_documents != 0 && count_estimator == LdaCountEstimator::kPersistentJoint) {
    return error("corpus_documents must be 0 with count_estimator kPersistentJoint");
  }
  if (count_estimator == LdaCountEstimator::kPersistentJoint) {
    if (sampler != LdaSampler::kScir) {
      return error("sampler must be kScir with count_estimator kPersistentJoint");
    }
    if (num_documents >= 0 && minibatch_size != num_documents) {
      return error("minibatch_size must equal D = ", num_documents,
                   " (full batch) with count_estimator kPersistentJoint, got ", minibatch_size);
    }
  }
  return absl::OkStatus();
}

LdaOptions LdaPresetOptions(LdaPreset preset) {
  // Sampler, α, β, the schedule h (1 + m/τ)^-κ as (h, τ, κ), Gibbs sweeps per document.
  struct Preset {
    LdaSampler sampler;
    double alpha, beta, h, tau, kappa;
    int gibbs_sweeps;
  };
  Preset p{LdaSampler::kScir, 0.1, 0.5, 0.5, 10, 0.33, 200};  // kScirPaper
  switch (preset) {
    case LdaPreset::kScirPaper:
      break;
    case LdaPreset::kSgrldPaper:
      // Table 2's h = 0.01 was run with Patterson & Teh's released code (Baker et al. §5.1
      // adapt it), whose step is half the paper's: drift ε, noise √(2εθ). This library uses
      // the paper's convention (drift h/2, noise N(0, hθ); samplers/sgrld.h), so the same
      // chain needs h = 2ε = 0.02.
      p = {LdaSampler::kSgrld, 0.01, 1e-4, 0.02, 1000, 0.6, 200};
      break;
    // The grid search of bench/README.md ("Tuning"): held-out perplexity on KOS, K = 50.
    case LdaPreset::kScirFast:
      p = {LdaSampler::kScir, 0.1, 0.1, 0.5, 10, 0.33, kFastGibbsSweeps};
      break;
    case LdaPreset::kSgrldFast:
      p = {LdaSampler::kSgrld, 0.1, 0.01, 0.1, 100, 0.6, kFastGibbsSweeps};
      break;
    // Tuned for the time to a given fold-in perplexity (bench/README.md, issue 22).
    case LdaPreset::kSgrldFastEarly:
      p = {LdaSampler::kSgrld, 0.1, 0.01, kEarlyH, kEarlyTau, kEarlyKappa, kFastGibbsSweeps};
      break;
  }
  LdaOptions options;
  options.num_topics = 100;
  options.minibatch_size = 50;
  options.sampler = p.sampler;
  options.alpha = p.alpha;
  options.beta = p.beta;
  options.step_size = samplers::StepSizeOptions::PolynomialDecay(p.h, p.tau, p.kappa);
  options.gibbs_sweeps = p.gibbs_sweeps;
  if (preset == LdaPreset::kSgrldFastEarly) {
    options.early_gibbs_sweeps = kEarlyGibbsSweeps;
    options.early_iterations = kEarlyIterations;
    options.default_burn_in = kEarlyIterations;
  }
  return options;
}

namespace {

// entries / (K V), the document-word entries per topic-word cell; CHECKs entries >= 0 and
// K, V >= 1 (programmer errors), naming `caller`.
double EntriesPerCell(int64_t entries, int num_topics, int vocabulary_size,
                      absl::string_view caller) {
  SGMCMC_CHECK(entries >= 0 && num_topics >= 1 && vocabulary_size >= 1)
      << caller << ": need entries >= 0, K, V >= 1, got " << entries << ", " << num_topics
      << ", " << vocabulary_size;
  return static_cast<double>(entries) /
         (static_cast<double>(num_topics) * static_cast<double>(vocabulary_size));
}

}  // namespace

LdaPreset DefaultLdaPreset(double mean_document_length) {
  return mean_document_length >= kScirMinMeanDocumentLength ? LdaPreset::kScirFast
                                                            : LdaPreset::kSgrldFast;
}

LdaPreset DefaultInMemoryLdaPreset(double mean_document_length, int64_t entries, int num_topics,
                                   int vocabulary_size) {
  const double density =
      EntriesPerCell(entries, num_topics, vocabulary_size, "DefaultInMemoryLdaPreset");
  return density < kScirMaxInMemoryEntriesPerCell ? LdaPreset::kScirFast
                                                  : DefaultLdaPreset(mean_document_length);
}

LdaDensityDefault DefaultLdaSettingsByDensity(int64_t entries, int num_topics,
                                              int vocabulary_size) {
  const double density =
      EntriesPerCell(entries, num_topics, vocabulary_size, "DefaultLdaSettingsByDensity");
  const std::string per_cell = absl::StrCat(absl::SixDigits(density),
                                            " document-word entries per topic-word cell (NNZ ",
                                            entries, " / (K ", num_topics, " x V ",
                                            vocabulary_size, "))");
  if (density >= kSgrldMinEntriesPerCell) {
    return {LdaPreset::kSgrldFast, LdaPresetOptions(LdaPreset::kSgrldFast).beta,
            absl::StrCat(per_cell, " >= ", kSgrldMinEntriesPerCell, ": sgrld_fast")};
  }
  const double preset_beta = LdaPresetOptions(LdaPreset::kScirFast).beta;
  const double beta = ScirBetaByDensity(entries, num_topics, vocabulary_size);
  return {LdaPreset::kScirFast, beta,
          absl::StrCat(per_cell, " < ", kSgrldMinEntriesPerCell, ": scir_fast with beta ",
                       absl::SixDigits(beta), " (", kScirBetaPerEntryPerCell,
                       " x the density, within [", kScirMinDensityBeta, ", ", preset_beta,
                       "]; SGRLD over-weights the rare words when counts are this sparse)")};
}

double ScirBetaByDensity(int64_t entries, int num_topics, int vocabulary_size) {
  const double density = EntriesPerCell(entries, num_topics, vocabulary_size, "ScirBetaByDensity");
  return std::clamp(kScirBetaPerEntryPerCell * density, kScirMinDensityBeta,
                    LdaPresetOptions(LdaPreset::kScirFast).beta);
}

double DefaultLdaAlpha(int num_topics) {
  SGMCMC_CHECK(num_topics >= 1) << "DefaultLdaAlpha: need K >= 1, got " << num_topics;
  // K α = kDefaultAlphaMidK K within [min, max] mass, α <= 0.1; in this form the middle
  // piece is kDefaultAlphaMidK exactly.
  const double k = static_cast<double>(num_topics);
  return std::min(
      LdaPresetOptions(LdaPreset::kScirFast).alpha,
      std::max(kDefaultMinTopicMass / k, std::min(kDefaultAlphaMidK, kDefaultMaxTopicMass / k)));
}

absl::string_view LdaPresetName(LdaPreset preset) {
  switch (preset) {
    case LdaPreset::kScirPaper:
      return "scir_paper";
    case LdaPreset::kSgrldPaper:
      return "sgrld_paper";
    case LdaPreset::kScirFast:
      return "scir_fast";
    case LdaPreset::kSgrldFast:
      return "sgrld_fast";
    case LdaPreset::kSgrldFastEarly:
      return "sgrld_fast_early";
  }
  return "unknown";
}

absl::StatusOr<LdaPreset> ParseLdaPreset(absl::string_view name) {
  for (LdaPreset preset : {LdaPreset::kScirPaper, LdaPreset::kSgrldPaper, LdaPreset::kScirFast,
                           LdaPreset::kSgrldFast, LdaPreset::kSgrldFastEarly}) {
    if (name == LdaPresetName(preset)) return preset;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown LDA preset \"", name,
                   "\"; valid: scir_paper, sgrld_paper, scir_fast, sgrld_fast, sgrld_fast_early"));
}

absl::StatusOr<Lda> Lda::Create(const data::Corpus& train, const LdaOptions& options,
                                parallel::ThreadPool* pool) {
  return CreateOn(train, options, train.num_documents(), pool);
}

absl::StatusOr<Lda> Lda::CreateStreaming(int vocabulary_size, const LdaOptions& options,
                                         parallel::ThreadPool* pool) {
  if (options.corpus_documents < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "LdaOptions.corpus_documents must be >= 1 (the documents of the stream) for a "
        "streaming LDA, got ", options.corpus_documents));
  }
  if (options.count_estimator == LdaCountEstimator::kPersistentJoint) {
    return absl::InvalidArgumentError(
        "LdaOptions.count_estimator kPersistentJoint needs the full corpus in memory; a "
        "streaming LDA cannot use it");
  }
  if (vocabulary_size < 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Lda::CreateStreaming: the vocabulary needs at least 2 words, got ", vocabulary_size));
  }
  // The minibatches' holder: V (unnamed) words and, until the first StepOn, one empty
  // document; its address is stable (the count model keeps it).
  auto batch = std::make_unique<data::Corpus>();
  batch->vocabulary.resize(vocabulary_size);
  batch->doc_offsets = {0, 0};
  absl::StatusOr<Lda> lda = CreateOn(*batch, options, /*num_documents=*/-1, pool);
  if (!lda.ok()) return lda.status();
  lda->stream_batch_ = std::move(batch);
  return lda;
}

absl::StatusOr<Lda> Lda::CreateOn(const data::Corpus& train, const LdaOptions& options,
                                  int num_documents, parallel::ThreadPool* pool) {
  if (absl::Status s = options.Validate(num_documents); !s.ok()) return s;
  // The Dirichlets' total concentrations: an overflow (beta = 1e308 over V words) made the
  // topics NaN and aborted the next Gibbs sweep (MinibatchTopicTable's CHECK).
  if (!std::isfinite(options.num_topics * options.alpha) ||
      !std::isfinite(train.vocabulary_size() * options.beta)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "LdaOptions: K x alpha = ", options.num_topics, " x ", options.alpha, " and V x beta = ",
        train.vocabulary_size(), " x ", options.beta, " must be finite"));
  }
  auto count_model =
      LdaCountModel::Create(&train, options.num_topics, options.alpha, options.beta,
                            options.gibbs_sweeps, pool, options.count_estimator);
  if (!count_model.ok()) return count_model.status();
  (*count_model)->set_scale_documents(options.corpus_documents);
  auto minibatch = samplers::Minibatch::Create(
      train.num_documents(), num_documents < 0 ? 1 : options.minibatch_size);
  if (!minibatch.ok()) return minibatch.status();
  auto step_size = samplers::StepSize::Create(options.step_size);
  if (!step_size.ok()) return step_size.status();
  auto sampler = MakeLdaTopicSampler(options, train.vocabulary_size());
  if (!sampler.ok()) return sampler.status();
  return Lda(train, options, pool, *std::move(count_model), *std::move(minibatch), *step_size,
             *std::move(sampler));
}

Lda::Lda(const data::Corpus& train, const LdaOptions& options, parallel::ThreadPool* pool,
         std::unique_ptr<LdaCountModel> count_model, samplers::Minibatch minibatch,
         samplers::StepSize step_size, std::unique_ptr<samplers::SimplexSampler> sampler)
    : options_(options),
      train_(&train),
      pool_(pool),
      count_model_(std::move(count_model)),
      minibatch_(std::move(minibatch)),
      step_size_(step_size),
      sampler_(std::move(sampler)),
      driver_(options.seed, kLdaDriverStream) {
  row_seconds_.assign(options_.num_topics, 0.0);
  if (options_.topic_update == LdaTopicUpdate::kLazy) {
    lazy_ = static_cast<samplers::LazyScir*>(sampler_.get());
    word_marks_.assign(train.vocabulary_size(), 0);
  }
}

void Lda::ForEachTopic(absl::FunctionRef<void(int topic)> fn) {
  if (pool_ == nullptr) {
    for (int k = 0; k < num_topics(); ++k) fn(k);
    return;
  }
  std::atomic<int> next{0};
  pool_->RunOnThreads([&](int) {
    for (int k = next.fetch_add(1, std::memory_order_relaxed); k < num_topics();
         k = next.fetch_add(1, std::memory_order_relaxed)) {
      fn(k);
    }
  });
}

void Lda::Step() {
  SGMCMC_CHECK(!streaming()) << "Lda::Step on a streaming Lda: call StepOn(documents)";
  StepBatch(minibatch_.Draw(driver_));
}

absl::Status Lda::StepOn(const data::Corpus& documents) {
  SGMCMC_CHECK(streaming()) << "Lda::StepOn needs a streaming Lda (CreateStreaming)";
  const int n = documents.num_documents();
  if (n < 1) return absl::InvalidArgumentError("Lda::StepOn: the minibatch has no documents");
  const int vocabulary = vocabulary_size();
  for (int d = 0; d < n; ++d) {
    for (int32_t w : documents.document(d)) {
      if (w < 0 || w >= vocabulary) {
        return absl::InvalidArgumentError(
            absl::StrCat("Lda::StepOn: document ", d, " of the minibatch has word id ", w,
                         ", outside [0, V = ", vocabulary, ")"));
      }
    }
  }
  stream_batch_->doc_offsets.assign(documents.doc_offsets.begin(), documents.doc_offsets.end());
  stream_batch_->tokens.assign(documents.tokens.begin(), documents.tokens.end());
  stream_slots_.resize(n);
  for (int d = 0; d < n; ++d) stream_slots_[d] = d;
  StepBatch(stream_slots_);
  return absl::OkStatus();
}

void Lda::StepBatch(absl::Span<const int64_t> batch) {
  double materialize_seconds = 0;
  if (lazy_ != nullptr) {
    // The minibatch's words, materialised in every topic before the sweeps read them.
    const auto start = std::chrono::steady_clock::now();
    words_.clear();
    for (int64_t d : batch) {
      for (int32_t w : train_->document(static_cast<int>(d))) {
        if (!word_marks_[w]) {
          word_marks_[w] = 1;
          words_.push_back(w);
        }
      }
    }
    std::sort(words_.begin(), words_.end());
    for (int32_t w : words_) word_marks_[w] = 0;
    ForEachTopic([&](int k) { lazy_->MaterializeColumns(words_, k, k + 1); });
    materialize_seconds = SecondsSince(start);
  }
  count_model_->set_gibbs_sweeps(gibbs_sweeps(iteration_));
  const double h = step_size_(iteration_);
  const int threads = count_model_->num_threads();
  const bool keep = KeepsSample(iteration_ + 1);
  const auto mean_setup_start = std::chrono::steady_clock::now();
  const double inverse = keep ? BeginPosteriorMeanSample(threads) : 0;
  const double mean_setup_seconds = SecondsSince(mean_setup_start);
  // The topic update and the posterior mean run in the count model's pool call, row by row
  // as the counts' merge completes each row (no barrier between the phases, no wake-up of the
  // workers of their own): a row's draws come from its own stream, whatever its thread, and
  // the threads take the rows one at a time, costliest first by the last iteration's
  // seconds per row (rows cost unequally, and a row's cost changes slowly). The phases' wall time is split in the
  // proportions of thread 0's (the caller's) own seconds in the update and in the mean.
  double update_seconds = 0, mean_seconds = 0;
  samplers::SimplexSampler& sampler = *sampler_;
  row_costs_ = row_seconds_;
  count_model_->ScaledCountsByRow(
      driver_, batch, sampler, row_costs_,
      [&](int t, int k, const samplers::SparseCountsRow& counts) {
        const auto row_start = std::chrono::steady_clock::now();
        sampler.StepRow(k, counts, h);
        const auto update_end = std::chrono::steady_clock::now();
        if (keep) AddToPosteriorMean(k, t, inverse);
        const auto row_end = std::chrono::steady_clock::now();
        row_seconds_[k] = std::chrono::duration<double>(row_end - row_start).count();
        if (t == 0) {
          update_seconds += std::chrono::duration<double>(update_end - row_start).count();
          mean_seconds += std::chrono::duration<double>(row_end - update_end).count();
        }
      });
  // row_fn's wall time (see LdaCountModel::Stats) split in thread 0's proportions.
  const LdaCountModel::Stats& stats = count_model_->last_stats();
  const double row_fn_seconds = stats.rows_seconds - stats.counts_seconds;
  const double thread0 = update_seconds + mean_seconds;
  const double update_share = thread0 > 0 ? update_seconds / thread0 : 1;
  update_seconds_ = row_fn_seconds * update_share + materialize_seconds;
  mean_seconds_ = keep ? row_fn_seconds * (1 - update_share) + mean_setup_seconds : 0;
  ++iteration_;
}

double Lda::BeginPosteriorMeanSample(int threads) {
  if (mean_.empty()) mean_.assign(static_cast<size_t>(num_topics()) * vocabulary_size(), 0.0);
  mean_scratch_.resize(static_cast<size_t>(threads) * vocabulary_size());
  ++mean_samples_;
  return 1.0 / static_cast<double>(mean_samples_);
}

bool Lda::KeepsSample(int64_t m) const {
  const int64_t burn_in = options_.mean_burn_in;
  return burn_in >= 0 && m >= burn_in && (m - burn_in) % options_.mean_every == 0;
}

void Lda::AddToPosteriorMean(int row, int thread, double inverse) {
  const size_t cols = static_cast<size_t>(vocabulary_size());
  const absl::Span<double> pi = absl::MakeSpan(mean_scratch_).subspan(thread * cols, cols);
  sampler_->SimplexRows(row, row + 1, pi);
  double* mean = mean_.data() + row * cols;
  for (size_t i = 0; i < cols; ++i) mean[i] += (pi[i] - mean[i]) * inverse;
}

void Lda::PosteriorMeanTopics(absl::Span<double> out) const {
  if (mean_samples_ == 0) {
    Topics(out);
    return;
  }
  SGMCMC_CHECK(out.size() == mean_.size())
      << "Lda::PosteriorMeanTopics: out has size " << out.size() << ", expected "
      << num_topics() << " x " << vocabulary_size();
  std::copy(mean_.begin(), mean_.end(), out.begin());
}

void Lda::Topics(absl::Span<double> out) const {
  const size_t cols = static_cast<size_t>(vocabulary_size());
  SGMCMC_CHECK(out.size() == static_cast<size_t>(num_topics()) * cols)
      << "Lda::Topics: out has size " << out.size() << ", expected " << num_topics() << " x "
      << cols;
  const samplers::SimplexSampler& s = sampler();
  parallel::ForChunksOnPool(pool_, num_topics(), [&](int64_t begin, int64_t end, int) {
    s.SimplexRows(static_cast<int>(begin), static_cast<int>(end),
                  out.subspan(begin * cols, (end - begin) * cols));
  });
}

LdaState Lda::State() const {
  LdaState state;
  state.set_iteration(iteration_);
  state.set_driver_position(driver_.position());
  *state.mutable_topics() = sampler_->SaveState();
  const absl::Span<const int32_t> z = count_model_->assignments();
  state.mutable_assignments()->Add(z.begin(), z.end());
  state.mutable_posterior_mean()->Add(mean_.begin(), mean_.end());
  state.set_posterior_mean_samples(mean_samples_);
  return state;
}

absl::Status Lda::Restore(const LdaState& state) {
  if (state.iteration() < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("Lda::Restore: iteration must be >= 0, got ", state.iteration()));
  }
  const size_t mean_size = static_cast<size_t>(num_topics()) * vocabulary_size();
  if (state.posterior_mean_samples() < 0 ||
      (state.posterior_mean_samples() == 0) != state.posterior_mean().empty() ||
      (!state.posterior_mean().empty() &&
       static_cast<size_t>(state.posterior_mean_size()) != mean_size)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Lda::Restore: posterior_mean has ", state.posterior_mean_size(), " entries and ",
        state.posterior_mean_samples(), " samples; expected none, or K x V = ", mean_size,
        " entries and >= 1 samples"));
  }
  if (absl::Status s = sampler_->RestoreState(state.topics()); !s.ok()) {
    return absl::Status(s.code(), absl::StrCat("Lda::Restore: ", s.message()));
  }
  if (absl::Status s = count_model_->SetAssignments(absl::MakeConstSpan(
          state.assignments().data(), static_cast<size_t>(state.assignments_size())));
      !s.ok()) {
    return absl::Status(s.code(), absl::StrCat("Lda::Restore: ", s.message()));
  }
  iteration_ = state.iteration();
  driver_.Seek(state.driver_position());
  mean_.assign(state.posterior_mean().begin(), state.posterior_mean().end());
  mean_samples_ = state.posterior_mean_samples();
  return absl::OkStatus();
}

}  // namespace sgmcmc::models
