#include "models/lda.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/check.h"

namespace sgmcmc::models {
namespace {

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Runs fn(begin, end, thread) over static chunks of [0, n): on the pool when there is one.
void ForChunks(parallel::ThreadPool* pool, int64_t n,
               absl::FunctionRef<void(int64_t, int64_t, int)> fn) {
  if (pool == nullptr) {
    if (n > 0) fn(0, n, 0);
    return;
  }
  pool->ParallelForChunks(0, n, fn);
}

using TopicSampler = std::variant<samplers::Scir, samplers::Sgrld>;

absl::StatusOr<TopicSampler> MakeSampler(const LdaOptions& options, int vocabulary_size) {
  samplers::SimplexSamplerOptions sampler_options;
  sampler_options.rows = options.num_topics;
  sampler_options.cols = vocabulary_size;
  sampler_options.alpha = {options.beta};
  sampler_options.seed = options.seed;
  if (options.sampler == LdaSampler::kScir) {
    auto scir = samplers::Scir::Create(sampler_options);
    if (!scir.ok()) return scir.status();
    return TopicSampler(*std::move(scir));
  }
  auto sgrld = samplers::Sgrld::Create(sampler_options);
  if (!sgrld.ok()) return sgrld.status();
  return TopicSampler(*std::move(sgrld));
}

}  // namespace

absl::string_view LdaSamplerName(LdaSampler sampler) {
  return sampler == LdaSampler::kScir ? "scir" : "sgrld";
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
  return absl::OkStatus();
}

LdaOptions LdaPresetOptions(LdaPreset preset) {
  LdaOptions options;
  options.num_topics = 100;
  options.minibatch_size = 50;
  options.gibbs_sweeps = 200;
  switch (preset) {
    case LdaPreset::kScirPaper:
    case LdaPreset::kScirFast:
      options.sampler = LdaSampler::kScir;
      options.alpha = 0.1;
      options.beta = 0.5;
      options.step_size = samplers::StepSizeOptions::PolynomialDecay(0.5, 10, 0.33);
      break;
    case LdaPreset::kSgrldPaper:
    case LdaPreset::kSgrldFast:
      options.sampler = LdaSampler::kSgrld;
      options.alpha = 0.01;
      options.beta = 1e-4;
      options.step_size = samplers::StepSizeOptions::PolynomialDecay(0.01, 1000, 0.6);
      break;
  }
  if (preset == LdaPreset::kScirFast || preset == LdaPreset::kSgrldFast) {
    options.gibbs_sweeps = kFastGibbsSweeps;
  }
  return options;
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
  }
  return "unknown";
}

absl::StatusOr<LdaPreset> ParseLdaPreset(absl::string_view name) {
  for (LdaPreset preset : {LdaPreset::kScirPaper, LdaPreset::kSgrldPaper, LdaPreset::kScirFast,
                           LdaPreset::kSgrldFast}) {
    if (name == LdaPresetName(preset)) return preset;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown LDA preset \"", name, "\"; valid: scir_paper, sgrld_paper, scir_fast, sgrld_fast"));
}

// ---------------------------------------------------------------------------------------------
// LdaCountModel

absl::StatusOr<std::unique_ptr<LdaCountModel>> LdaCountModel::Create(
    const data::Corpus* corpus, int num_topics, double alpha, double beta, int gibbs_sweeps,
    parallel::ThreadPool* pool) {
  if (corpus == nullptr || corpus->num_documents() < 1 || corpus->vocabulary_size() < 2) {
    return absl::InvalidArgumentError(
        "LdaCountModel: corpus must have at least 1 document and 2 words");
  }
  if (num_topics < 1 || num_topics >= (1 << 24)) {
    return absl::InvalidArgumentError(
        absl::StrCat("LdaCountModel: num_topics must be in [1, 2^24), got ", num_topics));
  }
  if (!(alpha > 0) || !std::isfinite(alpha) || !(beta > 0) || !std::isfinite(beta)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "LdaCountModel: alpha and beta must be finite and > 0, got ", alpha, " and ", beta));
  }
  if (gibbs_sweeps < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("LdaCountModel: gibbs_sweeps must be >= 1, got ", gibbs_sweeps));
  }
  return std::unique_ptr<LdaCountModel>(
      new LdaCountModel(corpus, num_topics, alpha, beta, gibbs_sweeps, pool));
}

LdaCountModel::LdaCountModel(const data::Corpus* corpus, int num_topics, double alpha,
                             double beta, int gibbs_sweeps, parallel::ThreadPool* pool)
    : corpus_(corpus),
      num_topics_(num_topics),
      alpha_(alpha),
      beta_(beta),
      gibbs_sweeps_(gibbs_sweeps),
      pool_(pool),
      local_of_word_(corpus->vocabulary_size(), -1) {}

void LdaCountModel::GatherColumns(const samplers::SimplexParameters& parameters, int row_begin,
                                  int row_end, std::vector<double>& row_scratch) const {
  const size_t num_words = words_.size();
  if (const auto* scir = dynamic_cast<const samplers::Scir*>(&parameters)) {
    for (int k = row_begin; k < row_end; ++k) {
      const double* log_theta = scir->log_theta(k).data();
      const double log_norm = scir->log_normalizer(k);
      double* out = columns_.data() + k * num_words;
      for (size_t u = 0; u < num_words; ++u) out[u] = std::exp(log_theta[words_[u]] - log_norm);
    }
  } else if (const auto* sgrld = dynamic_cast<const samplers::Sgrld*>(&parameters)) {
    for (int k = row_begin; k < row_end; ++k) {
      const double* theta = sgrld->theta(k).data();
      const double inverse_sum = 1.0 / sgrld->row_sum(k);
      double* out = columns_.data() + k * num_words;
      for (size_t u = 0; u < num_words; ++u) out[u] = theta[words_[u]] * inverse_sum;
    }
  } else {
    row_scratch.resize(parameters.cols());
    for (int k = row_begin; k < row_end; ++k) {
      parameters.Simplex(k, absl::MakeSpan(row_scratch));
      double* out = columns_.data() + k * num_words;
      for (size_t u = 0; u < num_words; ++u) out[u] = row_scratch[words_[u]];
    }
  }
}

void LdaCountModel::SampleDocuments(absl::Span<const int64_t> batch, uint64_t key, int64_t begin,
                                    int64_t end, int thread) const {
  const int burn_in = gibbs_sweeps_ / 2;
  const size_t num_words = words_.size();
  accumulators_[thread].assign(static_cast<size_t>(num_topics_) * num_words, 0);
  int32_t* accumulator = accumulators_[thread].data();
  std::vector<int32_t> local;
  int64_t nonzero = 0, alpha_draws = 0;
  for (int64_t slot = begin; slot < end; ++slot) {
    const absl::Span<const int32_t> doc = corpus_->document(static_cast<int>(batch[slot]));
    local.resize(doc.size());
    for (size_t i = 0; i < doc.size(); ++i) local[i] = local_of_word_[doc[i]];
    DocumentGibbsState state(local, num_topics_);
    rng::Engine engine(key, static_cast<uint64_t>(slot));
    InitializeAssignments(table_, engine, state);
    for (int sweep = 0; sweep < gibbs_sweeps_; ++sweep) {
      GibbsSweep(table_, engine, state);
      if (sweep < burn_in) continue;
      const absl::Span<const int32_t> z = state.assignments();
      for (size_t i = 0; i < z.size(); ++i) ++accumulator[z[i] * num_words + local[i]];
    }
    nonzero += state.counts().num_nonzero();
    alpha_draws += state.alpha_draws();
  }
  nonzero_sums_[thread] += nonzero;
  alpha_draw_sums_[thread] += alpha_draws;
}

void LdaCountModel::ScaledCounts(rng::Engine& engine, absl::Span<const int64_t> batch,
                                 const samplers::SimplexParameters& parameters,
                                 samplers::SimplexCounts& counts) const {
  SGMCMC_CHECK(!batch.empty()) << "LdaCountModel::ScaledCounts: empty batch";
  SGMCMC_CHECK(parameters.rows() == num_topics_ && parameters.cols() == dimension())
      << "LdaCountModel::ScaledCounts: parameters are " << parameters.rows() << " x "
      << parameters.cols() << ", model is " << num_topics_ << " x " << dimension();
  const uint64_t key = engine();
  const auto start = std::chrono::steady_clock::now();
  stats_ = Stats();
  stats_.documents = static_cast<int64_t>(batch.size());

  // The minibatch's distinct words, ascending (so the counts come out in column order).
  words_.clear();
  std::vector<int64_t> doc_cost(batch.size());
  for (size_t slot = 0; slot < batch.size(); ++slot) {
    SGMCMC_CHECK(batch[slot] >= 0 && batch[slot] < num_items())
        << "LdaCountModel::ScaledCounts: document id " << batch[slot] << " outside [0, "
        << num_items() << ")";
    const absl::Span<const int32_t> doc = corpus_->document(static_cast<int>(batch[slot]));
    doc_cost[slot] = static_cast<int64_t>(doc.size()) + 1;
    stats_.tokens += static_cast<int64_t>(doc.size());
    for (int32_t w : doc) {
      if (local_of_word_[w] < 0) {
        local_of_word_[w] = 0;
        words_.push_back(w);
      }
    }
  }
  std::sort(words_.begin(), words_.end());
  for (size_t u = 0; u < words_.size(); ++u) local_of_word_[words_[u]] = static_cast<int32_t>(u);
  const int num_words = static_cast<int>(words_.size());
  stats_.distinct_words = num_words;

  // Columns of π for those words, then the per-word tables.
  columns_.resize(static_cast<size_t>(num_topics_) * num_words);
  ForChunks(pool_, num_topics_, [&](int64_t begin, int64_t end, int) {
    std::vector<double> scratch;
    GatherColumns(parameters, static_cast<int>(begin), static_cast<int>(end), scratch);
  });
  table_.Reset(num_topics_, num_words, alpha_);
  const TopicColumnsView view{columns_, num_topics_, num_words};
  ForChunks(pool_, num_words, [&](int64_t begin, int64_t end, int) {
    table_.FillColumns(view, static_cast<int>(begin), static_cast<int>(end));
  });
  stats_.table_seconds = SecondsSince(start);

  // Gibbs sweeps, documents split over the threads by length.
  const auto gibbs_start = std::chrono::steady_clock::now();
  const int threads = num_threads();
  accumulators_.resize(threads);  // each thread zeroes its own
  nonzero_sums_.assign(threads, 0);
  alpha_draw_sums_.assign(threads, 0);
  const std::vector<int64_t> bounds = parallel::ThreadPool::BalancedChunkBounds(doc_cost, threads);
  auto run = [&](int t) { SampleDocuments(batch, key, bounds[t], bounds[t + 1], t); };
  if (pool_ == nullptr) {
    run(0);
  } else {
    pool_->RunOnThreads(run);
  }
  stats_.gibbs_seconds = SecondsSince(gibbs_start);
  const int kept_sweeps = gibbs_sweeps_ - gibbs_sweeps_ / 2;
  stats_.token_updates = stats_.tokens * (gibbs_sweeps_ + 1);
  int64_t nonzero = 0;
  for (int64_t n : nonzero_sums_) nonzero += n;
  stats_.mean_topics_per_document = static_cast<double>(nonzero) / batch.size();
  int64_t alpha_draws = 0;
  for (int64_t n : alpha_draw_sums_) alpha_draws += n;
  stats_.alpha_bucket_fraction = static_cast<double>(alpha_draws) / stats_.token_updates;
  stats_.alias_tables_built = table_.num_alias_tables_built();

  // Integer sums over the threads (order-free), then (D/n) / kept_sweeps.
  const auto counts_start = std::chrono::steady_clock::now();
  std::vector<int32_t>& total = accumulators_[0];
  ForChunks(pool_, static_cast<int64_t>(total.size()), [&](int64_t begin, int64_t end, int) {
    for (int t = 1; t < threads; ++t) {
      const int32_t* other = accumulators_[t].data();
      for (int64_t i = begin; i < end; ++i) total[i] += other[i];
    }
  });
  const double scale = static_cast<double>(num_items()) / batch.size() / kept_sweeps;
  counts.Reset(num_topics_, dimension());
  for (int k = 0; k < num_topics_; ++k) {
    const int32_t* row = total.data() + static_cast<size_t>(k) * num_words;
    for (int u = 0; u < num_words; ++u) {
      if (row[u] != 0) counts.Append(k, words_[u], row[u] * scale);
    }
  }
  for (int32_t w : words_) local_of_word_[w] = -1;
  stats_.counts_seconds = SecondsSince(counts_start);
}

// ---------------------------------------------------------------------------------------------
// Lda

absl::StatusOr<Lda> Lda::Create(const data::Corpus& train, const LdaOptions& options,
                                parallel::ThreadPool* pool) {
  if (absl::Status s = options.Validate(train.num_documents()); !s.ok()) return s;
  auto count_model = LdaCountModel::Create(&train, options.num_topics, options.alpha,
                                           options.beta, options.gibbs_sweeps, pool);
  if (!count_model.ok()) return count_model.status();
  auto minibatch = samplers::Minibatch::Create(train.num_documents(), options.minibatch_size);
  if (!minibatch.ok()) return minibatch.status();
  auto step_size = samplers::StepSize::Create(options.step_size);
  if (!step_size.ok()) return step_size.status();
  auto sampler = MakeSampler(options, train.vocabulary_size());
  if (!sampler.ok()) return sampler.status();
  return Lda(train, options, pool, *std::move(count_model), *std::move(minibatch), *step_size,
             *std::move(sampler));
}

Lda::Lda(const data::Corpus& train, const LdaOptions& options, parallel::ThreadPool* pool,
         std::unique_ptr<LdaCountModel> count_model, samplers::Minibatch minibatch,
         samplers::StepSize step_size, std::variant<samplers::Scir, samplers::Sgrld> sampler)
    : options_(options),
      pool_(pool),
      count_model_(std::move(count_model)),
      minibatch_(std::move(minibatch)),
      step_size_(step_size),
      sampler_(std::move(sampler)),
      driver_(options.seed, kLdaDriverStream) {}

const samplers::SimplexSampler& Lda::sampler() const {
  return std::visit([](const auto& s) -> const samplers::SimplexSampler& { return s; },
                    sampler_);
}

samplers::SimplexSampler& Lda::mutable_sampler() {
  return std::visit([](auto& s) -> samplers::SimplexSampler& { return s; }, sampler_);
}

void Lda::Step() {
  const absl::Span<const int64_t> batch = minibatch_.Draw(driver_);
  count_model_->ScaledCounts(driver_, batch, sampler(), counts_);
  const auto start = std::chrono::steady_clock::now();
  const double h = step_size_(iteration_);
  samplers::SimplexSampler& sampler = mutable_sampler();
  ForChunks(pool_, num_topics(), [&](int64_t begin, int64_t end, int) {
    sampler.StepRows(counts_, h, static_cast<int>(begin), static_cast<int>(end));
  });
  update_seconds_ = SecondsSince(start);
  ++iteration_;
}

void Lda::Topics(absl::Span<double> out) const {
  const size_t cols = static_cast<size_t>(vocabulary_size());
  SGMCMC_CHECK(out.size() == static_cast<size_t>(num_topics()) * cols)
      << "Lda::Topics: out has size " << out.size() << ", expected " << num_topics() << " x "
      << cols;
  const samplers::SimplexSampler& s = sampler();
  ForChunks(pool_, num_topics(), [&](int64_t begin, int64_t end, int) {
    s.SimplexRows(static_cast<int>(begin), static_cast<int>(end),
                  out.subspan(begin * cols, (end - begin) * cols));
  });
}

LdaState Lda::State() const {
  LdaState state;
  state.iteration = iteration_;
  state.driver_position = driver_.position();
  const int rows = num_topics();
  const size_t cols = static_cast<size_t>(vocabulary_size());
  state.parameters.resize(rows * cols);
  state.row_steps.resize(rows);
  for (int k = 0; k < rows; ++k) {
    const absl::Span<const double> row =
        std::holds_alternative<samplers::Scir>(sampler_)
            ? std::get<samplers::Scir>(sampler_).log_theta(k)
            : std::get<samplers::Sgrld>(sampler_).theta(k);
    std::copy(row.begin(), row.end(), state.parameters.begin() + k * cols);
    state.row_steps[k] = sampler().steps(k);
  }
  return state;
}

absl::Status Lda::Restore(const LdaState& state) {
  const int rows = num_topics();
  const size_t cols = static_cast<size_t>(vocabulary_size());
  if (state.parameters.size() != rows * cols || state.row_steps.size() != static_cast<size_t>(rows)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Lda::Restore: state has ", state.parameters.size(), " parameters and ",
        state.row_steps.size(), " row step counts, expected ", rows, " x ", cols, " and ", rows));
  }
  if (state.iteration < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("Lda::Restore: iteration must be >= 0, got ", state.iteration));
  }
  samplers::SimplexSampler& sampler = mutable_sampler();
  const bool scir = std::holds_alternative<samplers::Scir>(sampler_);
  for (int k = 0; k < rows; ++k) {
    const absl::Span<const double> row =
        absl::MakeConstSpan(state.parameters.data() + k * cols, cols);
    absl::Status s = scir ? sampler.SetLogTheta(k, row) : sampler.SetTheta(k, row);
    if (!s.ok()) return s;
  }
  if (absl::Status s = sampler.SetSteps(state.row_steps); !s.ok()) return s;
  iteration_ = state.iteration;
  driver_.Seek(state.driver_position);
  return absl::OkStatus();
}

}  // namespace sgmcmc::models
