#include "models/lda/distributed_lda.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cmath>
#include <functional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "base/seconds_since.h"
#include "base/status_macros.h"
#include "rng/engine.h"
#include "samplers/count_model.h"

namespace sgmcmc::models {
namespace {

// log Σ_b exp(x_b) over the blocks in block order (the same bits on every rank).
double LogSumExpInOrder(const double* x, int n) {
  double top = x[0];
  for (int b = 1; b < n; ++b) top = std::max(top, x[b]);
  double sum = 0;
  for (int b = 0; b < n; ++b) sum += std::exp(x[b] - top);
  return top + std::log(sum);
}

struct CountEntry {
  int32_t topic;
  int32_t word;
  double count;
};

}  // namespace

absl::Status DistributedLdaOptions::Validate() const {
  if (absl::Status s = lda.Validate(-1); !s.ok()) return s;
  if (block_width < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("DistributedLdaOptions.block_width must be >= 2, got ", block_width));
  }
  if (lda.corpus_documents < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "LdaOptions.corpus_documents must be >= 1 (the documents of the stream) for a "
        "distributed LDA, got ", lda.corpus_documents));
  }
  if (lda.topic_update != LdaTopicUpdate::kEager) {
    return absl::InvalidArgumentError(
        "LdaOptions.topic_update must be eager for a distributed LDA (the lazy pools are "
        "per row, not per column block)");
  }
  if (lda.count_estimator == LdaCountEstimator::kPersistentJoint) {
    return absl::InvalidArgumentError(
        "LdaOptions.count_estimator kPersistentJoint needs the full corpus in memory; a "
        "distributed LDA cannot use it");
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<DistributedLda>> DistributedLda::Create(
    int vocabulary_size, const DistributedLdaOptions& options, parallel::Communicator* comm,
    parallel::ThreadPool* pool) {
  SGMCMC_CHECK(comm != nullptr) << "DistributedLda::Create: null communicator";
  if (absl::Status s = options.Validate(); !s.ok()) return s;
  if (vocabulary_size < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("DistributedLda: the vocabulary must hold >= 2 words, got ", vocabulary_size));
  }
  if (!std::isfinite(options.lda.num_topics * options.lda.alpha) ||
      !std::isfinite(vocabulary_size * options.lda.beta)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "LdaOptions: K x alpha = ", options.lda.num_topics, " x ", options.lda.alpha,
        " and V x beta = ", vocabulary_size, " x ", options.lda.beta, " must be finite"));
  }
  auto step_size = samplers::StepSize::Create(options.lda.step_size);
  if (!step_size.ok()) return step_size.status();
  std::unique_ptr<DistributedLda> lda(
      new DistributedLda(vocabulary_size, options, comm, pool, *step_size));
  for (int b = 0; b < lda->num_blocks_; ++b) {
    if (!lda->Owns(b)) continue;
    LdaOptions block_options = options.lda;
    block_options.seed = rng::Engine(options.lda.seed, kDistributedLdaStream | (uint64_t{1} << 48) |
                                                           static_cast<uint64_t>(b))();
    auto sampler = MakeLdaTopicSampler(block_options, lda->BlockWidth(b));
    if (!sampler.ok()) return sampler.status();
    lda->local_block_[b] = static_cast<int>(lda->blocks_.size());
    lda->blocks_.push_back(*std::move(sampler));
  }
  auto count_model =
      LdaCountModel::Create(&lda->share_, options.lda.num_topics, options.lda.alpha,
                            options.lda.beta, options.lda.gibbs_sweeps, pool,
                            options.lda.count_estimator);
  if (!count_model.ok()) return count_model.status();
  lda->count_model_ = *std::move(count_model);
  lda->count_model_->set_raw_counts(true);
  // θ = 1 everywhere: block b's mass is its width; the same combination as after a step.
  const int K = options.lda.num_topics;
  std::vector<double> masses(static_cast<size_t>(K) * lda->num_blocks_);
  for (int k = 0; k < K; ++k) {
    for (int b = 0; b < lda->num_blocks_; ++b) {
      masses[static_cast<size_t>(k) * lda->num_blocks_ + b] = std::log(lda->BlockWidth(b));
    }
  }
  lda->SetLogMasses(masses);
  return lda;
}

DistributedLda::DistributedLda(int vocabulary_size, const DistributedLdaOptions& options,
                               parallel::Communicator* comm, parallel::ThreadPool* pool,
                               samplers::StepSize step_size)
    : options_(options),
      vocabulary_size_(vocabulary_size),
      num_blocks_(std::max(1, vocabulary_size / options.block_width)),
      comm_(comm),
      pool_(pool),
      step_size_(step_size) {
  local_block_.assign(num_blocks_, -1);
  share_.vocabulary.resize(vocabulary_size);
  share_.doc_offsets = {0, 0};
  column_of_word_.assign(vocabulary_size, -1);
  log_mass_.assign(options.lda.num_topics, 0.0);
  const int threads = pool == nullptr ? 1 : pool->num_threads();
  outgoing_.assign(threads, std::vector<std::vector<double>>(comm->size()));
}

int DistributedLda::BlockWidth(int block) const {
  return block == num_blocks_ - 1 ? vocabulary_size_ - BlockBegin(block) : options_.block_width;
}

int DistributedLda::BlockOf(int32_t word) const {
  return std::min(word / options_.block_width, num_blocks_ - 1);
}

int64_t DistributedLda::owned_columns() const {
  int64_t columns = 0;
  for (int b = 0; b < num_blocks_; ++b) {
    if (Owns(b)) columns += BlockWidth(b);
  }
  return columns;
}

void DistributedLda::ForEachTask(int64_t tasks, const std::function<void(int, int64_t)>& fn) {
  if (pool_ == nullptr) {
    for (int64_t task = 0; task < tasks; ++task) fn(0, task);
    return;
  }
  std::atomic<int64_t> next{0};
  pool_->RunOnThreads([&](int thread) {
    for (int64_t task = next.fetch_add(1); task < tasks; task = next.fetch_add(1)) {
      fn(thread, task);
    }
  });
}

void DistributedLda::SetLogMasses(absl::Span<const double> masses) {
  const int K = num_topics();
  for (int k = 0; k < K; ++k) {
    log_mass_[k] = LogSumExpInOrder(masses.data() + static_cast<size_t>(k) * num_blocks_,
                                    num_blocks_);
  }
  block_factor_.resize(blocks_.size());
  for (int b = 0; b < num_blocks_; ++b) {
    const int i = local_block_[b];
    if (i < 0) continue;
    block_factor_[i].resize(K);
    for (int k = 0; k < K; ++k) {
      block_factor_[i][k] = std::exp(masses[static_cast<size_t>(k) * num_blocks_ + b] - log_mass_[k]);
    }
  }
}

void DistributedLda::Shares(const data::Corpus& minibatch) {
  const int ranks = comm_->size();
  const int n = minibatch.num_documents();
  share_slots_.assign(ranks, {});
  share_words_.assign(ranks, {});
  std::vector<uint8_t> seen(vocabulary_size_, 0);
  for (int q = 0; q < ranks; ++q) {
    std::vector<int32_t>& words = share_words_[q];
    for (int j = q; j < n; j += ranks) {
      share_slots_[q].push_back(j);
      for (int32_t w : minibatch.document(j)) {
        if (!seen[w]) {
          seen[w] = 1;
          words.push_back(w);
        }
      }
    }
    std::sort(words.begin(), words.end());
    for (int32_t w : words) seen[w] = 0;
  }
  // This rank's documents.
  const int r = comm_->rank();
  share_.doc_offsets.assign(1, 0);
  share_.tokens.clear();
  for (int64_t j : share_slots_[r]) {
    const absl::Span<const int32_t> doc = minibatch.document(static_cast<int>(j));
    share_.tokens.insert(share_.tokens.end(), doc.begin(), doc.end());
    share_.doc_offsets.push_back(static_cast<int64_t>(share_.tokens.size()));
  }
  share_batch_.resize(share_slots_[r].size());
  for (size_t d = 0; d < share_batch_.size(); ++d) share_batch_[d] = static_cast<int64_t>(d);
}

void DistributedLda::OwnedColumns(absl::Span<const int32_t> words,
                                  absl::Span<const size_t> target_begin,
                                  absl::Span<double* const> targets) {
  const int K = num_topics();
  // Tasks of kChunk words (a chunk never spans two blocks' sampler calls' scratch).
  constexpr size_t kChunk = 256;
  const int threads = pool_ == nullptr ? 1 : pool_->num_threads();
  column_scratch_.resize(threads);
  omega_scratch_.resize(threads);
  const int64_t tasks = static_cast<int64_t>((words.size() + kChunk - 1) / kChunk);
  ForEachTask(tasks, [&](int thread, int64_t task) {
    std::vector<int32_t>& cols = column_scratch_[thread];
    std::vector<double>& omega = omega_scratch_[thread];
    const size_t chunk_end = std::min(words.size(), static_cast<size_t>(task + 1) * kChunk);
    for (size_t begin = static_cast<size_t>(task) * kChunk; begin < chunk_end;) {
      const int b = BlockOf(words[begin]);
      const int i = local_block_[b];
      SGMCMC_CHECK(i >= 0) << "DistributedLda: word " << words[begin] << " is not this rank's";
      size_t end = begin;
      cols.clear();
      while (end < chunk_end && BlockOf(words[end]) == b) {
        cols.push_back(words[end] - BlockBegin(b));
        ++end;
      }
      const size_t width = cols.size();
      omega.resize(static_cast<size_t>(K) * width);
      blocks_[i]->SimplexColumns(cols, absl::MakeSpan(omega));
      const double* factor = block_factor_[i].data();
      for (size_t j = 0; j < width; ++j) {
        const size_t first = target_begin[begin + j];
        double* column = targets[first];
        for (int k = 0; k < K; ++k) column[k] = omega[k * width + j] * factor[k];
        for (size_t t = first + 1; t < target_begin[begin + j + 1]; ++t) {
          std::copy(column, column + K, targets[t]);
        }
      }
      begin = end;
    }
  });
}

absl::Status DistributedLda::ExchangeColumns() {
  const int ranks = comm_->size();
  const int r = comm_->rank();
  const size_t K = static_cast<size_t>(num_topics());
  const std::vector<int32_t>& mine = share_words_[r];
  for (int32_t w : gathered_words_) column_of_word_[w] = -1;
  gathered_words_ = mine;
  columns_.resize(mine.size() * K);
  // columns_ holds the share's columns grouped by owner (rank 0's words, then rank 1's, ...,
  // each group ascending, as its owner sends them), so that each owner's columns arrive
  // straight into their segment; column_of_word_ maps a word to its place.
  segment_begin_.assign(ranks + 1, 0);
  for (int32_t w : mine) ++segment_begin_[BlockOf(w) % ranks + 1];
  for (int q = 0; q < ranks; ++q) segment_begin_[q + 1] += segment_begin_[q];
  {
    std::vector<size_t> next(segment_begin_.begin(), segment_begin_.end() - 1);
    for (int32_t w : mine) column_of_word_[w] = static_cast<int32_t>(next[BlockOf(w) % ranks]++);
  }
  // Where each share's columns from this rank's blocks go: this rank's own straight to their
  // places in columns_, each other rank's into its send buffer, in the order of its words.
  // Sorted by word (stably), so a column several shares need is computed once and copied.
  send_buffers_.resize(ranks);
  requests_.clear();
  for (int q = 0; q < ranks; ++q) {
    const std::vector<int32_t>& words = share_words_[q];
    if (q == r) {
      for (int32_t w : words) {
        if (!Owns(BlockOf(w))) continue;
        requests_.push_back({w, columns_.data() + static_cast<size_t>(column_of_word_[w]) * K});
      }
      continue;
    }
    size_t owned = 0;
    for (int32_t w : words) owned += Owns(BlockOf(w)) ? 1 : 0;
    send_buffers_[q].resize(owned * K);
    double* next = send_buffers_[q].data();
    for (int32_t w : words) {
      if (!Owns(BlockOf(w))) continue;
      requests_.push_back({w, next});
      next += K;
    }
  }
  std::stable_sort(requests_.begin(), requests_.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  requested_words_.clear();
  target_begin_.clear();
  targets_.clear();
  for (size_t e = 0; e < requests_.size(); ++e) {
    if (e == 0 || requests_[e].first != requests_[e - 1].first) {
      requested_words_.push_back(requests_[e].first);
      target_begin_.push_back(e);
    }
    targets_.push_back(requests_[e].second);
  }
  target_begin_.push_back(requests_.size());
  OwnedColumns(requested_words_, target_begin_, targets_);
  // Round `offset`: this rank's columns to rank r + offset, rank r − offset's into its segment.
  for (int offset = 1; offset < ranks; ++offset) {
    const int destination = (r + offset) % ranks;
    const int source = (r - offset + ranks) % ranks;
    const absl::Span<double> segment = absl::MakeSpan(columns_).subspan(
        segment_begin_[source] * K, (segment_begin_[source + 1] - segment_begin_[source]) * K);
    SGMCMC_RETURN_IF_ERROR(comm_->Shift(send_buffers_[destination], segment, offset));
  }
  return absl::OkStatus();
}

absl::Status DistributedLda::ExchangeCounts(std::vector<double>& row_totals) {
  const int ranks = comm_->size();
  const int r = comm_->rank();
  incoming_.clear();
  std::vector<double> send, receive;
  for (int offset = 0; offset < ranks; ++offset) {
    const int destination = (r + offset) % ranks;
    send.clear();
    for (std::vector<std::vector<double>>& per_thread : outgoing_) {
      send.insert(send.end(), per_thread[destination].begin(), per_thread[destination].end());
      per_thread[destination].clear();
    }
    double size = static_cast<double>(send.size());
    double received_size = 0;
    SGMCMC_RETURN_IF_ERROR(
        comm_->Shift(absl::MakeConstSpan(&size, 1), absl::MakeSpan(&received_size, 1), offset));
    receive.resize(static_cast<size_t>(received_size));
    SGMCMC_RETURN_IF_ERROR(comm_->Shift(send, absl::MakeSpan(receive), offset));
    incoming_.insert(incoming_.end(), receive.begin(), receive.end());
  }
  return comm_->AllReduceSum(absl::MakeSpan(row_totals));
}

absl::Status DistributedLda::StepOn(const data::Corpus& minibatch) {
  const int n = minibatch.num_documents();
  if (n < 1) return absl::InvalidArgumentError("DistributedLda::StepOn: the minibatch has no documents");
  for (int d = 0; d < n; ++d) {
    for (int32_t w : minibatch.document(d)) {
      if (w < 0 || w >= vocabulary_size_) {
        return absl::InvalidArgumentError(
            absl::StrCat("DistributedLda::StepOn: document ", d, " of the minibatch has word id ",
                         w, ", outside [0, V = ", vocabulary_size_, ")"));
      }
    }
  }
  const int K = num_topics();
  const int ranks = comm_->size();
  const int r = comm_->rank();
  const int64_t m = iteration_;
  timings_.tokens += static_cast<int64_t>(minibatch.tokens.size());

  // Steps 1-2: the shares and this rank's columns.
  auto start = std::chrono::steady_clock::now();
  Shares(minibatch);
  SGMCMC_RETURN_IF_ERROR(ExchangeColumns());
  timings_.communication_seconds += SecondsSince(start);

  // Step 3: the share's sweeps; the raw counts leave by row towards their owners.
  start = std::chrono::steady_clock::now();
  std::vector<double> row_totals(K, 0.0);
  const int sweeps = m < options_.lda.early_iterations && options_.lda.early_gibbs_sweeps > 0
                         ? options_.lda.early_gibbs_sweeps
                         : options_.lda.gibbs_sweeps;
  count_model_->set_gibbs_sweeps(sweeps);
  if (!share_batch_.empty()) {
    count_model_->set_stream_ids(share_slots_[r]);
    rng::Engine engine(options_.lda.seed, kDistributedLdaStream | static_cast<uint64_t>(m));
    // The share's columns as the count model reads them (copied whole into its table).
    const WordMajorColumns parameters(K, vocabulary_size_, columns_.data(),
                                      column_of_word_.data());
    count_model_->ScaledCountsByRow(
        engine, share_batch_, parameters, {},
        [&](int thread, int k, const samplers::SparseCountsRow& counts) {
          row_totals[k] = counts.total;
          std::vector<std::vector<double>>& out = outgoing_[thread];
          for (size_t e = 0; e < counts.cols.size(); ++e) {
            const int32_t w = counts.cols[e];
            std::vector<double>& to = out[BlockOf(w) % ranks];
            to.push_back(k);
            to.push_back(w);
            to.push_back(counts.values[e]);
          }
        });
    timings_.token_updates += count_model_->last_stats().token_updates;
  }
  timings_.sweep_seconds += SecondsSince(start);

  // Step 4: counts to their owners, row totals everywhere.
  start = std::chrono::steady_clock::now();
  SGMCMC_RETURN_IF_ERROR(ExchangeCounts(row_totals));
  timings_.communication_seconds += SecondsSince(start);

  // Step 5: the owned blocks' update, (block, row) tasks over the threads.
  start = std::chrono::steady_clock::now();
  const int owned = static_cast<int>(blocks_.size());
  std::vector<int> owned_block(owned);
  for (int b = 0; b < num_blocks_; ++b) {
    if (local_block_[b] >= 0) owned_block[local_block_[b]] = b;
  }
  // The entries bucketed by task (i, k) = (owned block, row) in one counting pass: task t's
  // are entries_[task_begin[t], task_begin[t + 1]), in arrival order; each task sorts its own
  // by word and sums duplicates (the same entry from several ranks: integers, exact in any
  // order) inside the parallel loop below.
  const size_t num_entries = incoming_.size() / 3;
  std::vector<size_t> task_begin(static_cast<size_t>(owned) * K + 1, 0);
  std::vector<int32_t> entry_task(num_entries);
  for (size_t e = 0; e < num_entries; ++e) {
    const int32_t word = static_cast<int32_t>(incoming_[3 * e + 1]);
    entry_task[e] = local_block_[BlockOf(word)] * K + static_cast<int32_t>(incoming_[3 * e]);
    ++task_begin[entry_task[e] + 1];
  }
  for (size_t t = 1; t < task_begin.size(); ++t) task_begin[t] += task_begin[t - 1];
  std::vector<CountEntry> entries(num_entries);
  {
    std::vector<size_t> next(task_begin.begin(), task_begin.end() - 1);
    for (size_t e = 0; e < num_entries; ++e) {
      entries[next[entry_task[e]]++] = {static_cast<int32_t>(incoming_[3 * e]),
                                        static_cast<int32_t>(incoming_[3 * e + 1]),
                                        incoming_[3 * e + 2]};
    }
  }
  const double scale = static_cast<double>(options_.lda.corpus_documents) / n /
                       count_model_->kept_sweeps();
  const double h = step_size_(m);
  const int threads = pool_ == nullptr ? 1 : pool_->num_threads();
  std::vector<std::vector<int32_t>> cols(threads);
  std::vector<std::vector<double>> values(threads);
  ForEachTask(static_cast<int64_t>(owned) * K, [&](int thread, int64_t task) {
    const int i = static_cast<int>(task / K);
    const int k = static_cast<int>(task % K);
    const int begin = BlockBegin(owned_block[i]);
    cols[thread].clear();
    values[thread].clear();
    const auto first = entries.begin() + static_cast<std::ptrdiff_t>(task_begin[task]);
    const auto last = entries.begin() + static_cast<std::ptrdiff_t>(task_begin[task + 1]);
    std::sort(first, last,
              [](const CountEntry& a, const CountEntry& b) { return a.word < b.word; });
    double total = 0;
    for (auto e = first; e != last; ++e) {
      double count = e->count;
      while (e + 1 != last && (e + 1)->word == e->word) count += (++e)->count;
      cols[thread].push_back(e->word - begin);
      values[thread].push_back(count * scale);
      total += values[thread].back();
    }
    blocks_[i]->StepRowBlock(
        k, samplers::SparseCountsRow{cols[thread], values[thread], total}, h,
        std::exp(log_mass_[k]), row_totals[k] * scale);
  });
  timings_.topic_update_seconds += SecondsSince(start);

  // Step 6: every block's log mass from its owner (one non-zero term per sum: exact).
  start = std::chrono::steady_clock::now();
  SGMCMC_RETURN_IF_ERROR(CombineLogMasses());
  timings_.communication_seconds += SecondsSince(start);
  ++iteration_;

  const int64_t burn_in = options_.lda.mean_burn_in;
  if (burn_in >= 0 && iteration_ >= std::max<int64_t>(burn_in, 1) &&
      (iteration_ - burn_in) % options_.lda.mean_every == 0) {
    start = std::chrono::steady_clock::now();
    ++mean_samples_;
    const double inverse = 1.0 / static_cast<double>(mean_samples_);
    mean_.resize(owned);
    for (int i = 0; i < owned; ++i) {
      mean_[i].resize(static_cast<size_t>(K) * BlockWidth(owned_block[i]), 0.0);
    }
    ForEachTask(static_cast<int64_t>(owned) * K, [&](int thread, int64_t task) {
      const int i = static_cast<int>(task / K);
      const int k = static_cast<int>(task % K);
      const int width = BlockWidth(owned_block[i]);
      std::vector<double>& pi = values[thread];
      pi.resize(width);
      blocks_[i]->SimplexRows(k, k + 1, absl::MakeSpan(pi));
      double* mean = mean_[i].data() + static_cast<size_t>(k) * width;
      const double factor = block_factor_[i][k];
      for (int j = 0; j < width; ++j) mean[j] += (pi[j] * factor - mean[j]) * inverse;
    });
    timings_.mean_seconds += SecondsSince(start);
  }
  return absl::OkStatus();
}

absl::Status DistributedLda::CombineLogMasses() {
  const int K = num_topics();
  std::vector<double> masses(static_cast<size_t>(K) * num_blocks_, 0.0);
  for (int b = 0; b < num_blocks_; ++b) {
    const int i = local_block_[b];
    if (i < 0) continue;
    for (int k = 0; k < K; ++k) {
      masses[static_cast<size_t>(k) * num_blocks_ + b] = blocks_[i]->LogRowMass(k);
    }
  }
  SGMCMC_RETURN_IF_ERROR(comm_->AllReduceSum(absl::MakeSpan(masses)));
  SetLogMasses(masses);
  return absl::OkStatus();
}

DistributedLdaState DistributedLda::SaveState() const {
  DistributedLdaState state;
  state.set_iteration(iteration_);
  state.set_posterior_mean_samples(mean_samples_);
  state.set_rank(comm_->rank());
  state.set_ranks(comm_->size());
  state.set_block_width(options_.block_width);
  for (int b = 0; b < num_blocks_; ++b) {
    const int i = local_block_[b];
    if (i < 0) continue;
    DistributedLdaState::Block& block = *state.add_blocks();
    block.set_block(b);
    *block.mutable_sampler() = blocks_[i]->SaveState();
    if (mean_samples_ > 0) {
      block.mutable_posterior_mean()->Assign(mean_[i].begin(), mean_[i].end());
    }
  }
  return state;
}

absl::Status DistributedLda::RestoreState(const DistributedLdaState& state) {
  const int K = num_topics();
  auto check = [&]() -> absl::Status {
    if (state.rank() != comm_->rank() || state.ranks() != comm_->size() ||
        state.block_width() != options_.block_width) {
      return absl::InvalidArgumentError(absl::StrCat(
          "DistributedLdaState: saved by rank ", state.rank(), " of ", state.ranks(),
          " with block width ", state.block_width(), ", restored on rank ", comm_->rank(), " of ",
          comm_->size(), " with block width ", options_.block_width));
    }
    if (state.iteration() < 0 || state.posterior_mean_samples() < 0 ||
        state.posterior_mean_samples() > state.iteration()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "DistributedLdaState: iteration ", state.iteration(), " and posterior_mean_samples ",
          state.posterior_mean_samples(), " out of range"));
    }
    if (state.blocks_size() != static_cast<int>(blocks_.size())) {
      return absl::InvalidArgumentError(absl::StrCat("DistributedLdaState: ", state.blocks_size(),
                                                     " blocks, this rank owns ", blocks_.size()));
    }
    for (const DistributedLdaState::Block& block : state.blocks()) {
      const int b = block.block();
      if (b < 0 || b >= num_blocks_ || local_block_[b] < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("DistributedLdaState: block ", b, " is not this rank's"));
      }
      const size_t size = static_cast<size_t>(K) * BlockWidth(b);
      if (static_cast<size_t>(block.posterior_mean_size()) !=
          (state.posterior_mean_samples() > 0 ? size : 0)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "DistributedLdaState: block ", b, " has ", block.posterior_mean_size(),
            " posterior-mean values for ", state.posterior_mean_samples(), " samples"));
      }
    }
    // The samplers last: a rejected row leaves this object unusable, reported as an error.
    for (const DistributedLdaState::Block& block : state.blocks()) {
      SGMCMC_RETURN_IF_ERROR(blocks_[local_block_[block.block()]]->RestoreState(block.sampler()));
    }
    return absl::OkStatus();
  };
  SGMCMC_RETURN_IF_ERROR(comm_->AgreeOnStatus(check()));
  // Every rank at the same iteration: the lowest and highest, summed over disjoint slots.
  std::vector<double> iterations(comm_->size(), 0.0);
  iterations[comm_->rank()] = static_cast<double>(state.iteration());
  SGMCMC_RETURN_IF_ERROR(comm_->AllReduceSum(absl::MakeSpan(iterations)));
  for (int r = 1; r < comm_->size(); ++r) {
    if (iterations[r] != iterations[0]) {
      return absl::InvalidArgumentError(absl::StrCat(
          "DistributedLdaState: the ranks' checkpoints are of different iterations (rank 0 at ",
          iterations[0], ", rank ", r, " at ", iterations[r], ")"));
    }
  }
  iteration_ = state.iteration();
  mean_samples_ = state.posterior_mean_samples();
  mean_.assign(blocks_.size(), {});
  for (const DistributedLdaState::Block& block : state.blocks()) {
    mean_[local_block_[block.block()]].assign(block.posterior_mean().begin(),
                                              block.posterior_mean().end());
  }
  if (mean_samples_ == 0) mean_.clear();
  return CombineLogMasses();
}

absl::Status DistributedLda::Gather(bool mean, absl::Span<double> out) {
  const int ranks = comm_->size();
  const int r = comm_->rank();
  const int K = num_topics();
  const size_t expected = r == 0 ? static_cast<size_t>(K) * vocabulary_size_ : 0;
  absl::Status local = absl::OkStatus();
  if (out.size() != expected) {
    local = absl::InvalidArgumentError(absl::StrCat("DistributedLda: rank ", r, " passed ",
                                                    out.size(), " values to a gather, expected ",
                                                    expected));
  }
  SGMCMC_RETURN_IF_ERROR(comm_->AgreeOnStatus(local));
  const bool use_mean = mean && mean_samples_ > 0;
  // This rank's blocks, ascending, row-major within a block.
  std::vector<double> mine;
  mine.reserve(static_cast<size_t>(K) * owned_columns());
  std::vector<double> row;
  for (int b = 0; b < num_blocks_; ++b) {
    const int i = local_block_[b];
    if (i < 0) continue;
    const int width = BlockWidth(b);
    row.resize(width);
    for (int k = 0; k < K; ++k) {
      if (use_mean) {
        const double* m = mean_[i].data() + static_cast<size_t>(k) * width;
        mine.insert(mine.end(), m, m + width);
      } else {
        blocks_[i]->SimplexRows(k, k + 1, absl::MakeSpan(row));
        for (int j = 0; j < width; ++j) mine.push_back(row[j] * block_factor_[i][k]);
      }
    }
  }
  // Round `offset`: rank (P - offset) mod P sends its blocks to rank 0; every other pair
  // exchanges nothing.
  std::vector<double> receive;
  const std::vector<double> nothing;
  for (int offset = 0; offset < ranks; ++offset) {
    const int sender = (ranks - offset) % ranks;
    const bool sends = r == sender;
    int64_t columns = 0;
    if (r == 0) {
      for (int b = sender; b < num_blocks_; b += ranks) columns += BlockWidth(b);
    }
    receive.resize(static_cast<size_t>(K) * columns);
    SGMCMC_RETURN_IF_ERROR(
        comm_->Shift(sends ? mine : nothing, absl::MakeSpan(receive), offset));
    if (r != 0) continue;
    size_t next = 0;
    for (int b = sender; b < num_blocks_; b += ranks) {
      const int width = BlockWidth(b);
      for (int k = 0; k < K; ++k) {
        std::copy(receive.begin() + next, receive.begin() + next + width,
                  out.begin() + static_cast<size_t>(k) * vocabulary_size_ + BlockBegin(b));
        next += width;
      }
    }
  }
  return absl::OkStatus();
}

absl::Status DistributedLda::GatherTopics(absl::Span<double> out) { return Gather(false, out); }

absl::Status DistributedLda::GatherPosteriorMean(absl::Span<double> out) {
  return Gather(true, out);
}

}  // namespace sgmcmc::models
