#include "models/lda/count_model.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <numeric>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "base/seconds_since.h"
#include "rng/uniform.h"
#include "samplers/scir.h"

namespace sgmcmc::models {

absl::string_view LdaCountEstimatorName(LdaCountEstimator estimator) {
  switch (estimator) {
    case LdaCountEstimator::kSweepAverage:
      return "sweep_average";
    case LdaCountEstimator::kLastSweep:
      return "last_sweep";
    case LdaCountEstimator::kPersistentJoint:
      return "persistent_joint";
  }
  return "unknown";
}

absl::StatusOr<std::unique_ptr<LdaCountModel>> LdaCountModel::Create(
    const data::Corpus* corpus, int num_topics, double alpha, double beta, int gibbs_sweeps,
    parallel::ThreadPool* pool, LdaCountEstimator estimator) {
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
      new LdaCountModel(corpus, num_topics, alpha, beta, gibbs_sweeps, pool, estimator));
}

LdaCountModel::LdaCountModel(const data::Corpus* corpus, int num_topics, double alpha,
                             double beta, int gibbs_sweeps, parallel::ThreadPool* pool,
                             LdaCountEstimator estimator)
    : corpus_(corpus),
      num_topics_(num_topics),
      alpha_(alpha),
      beta_(beta),
      gibbs_sweeps_(gibbs_sweeps),
      pool_(pool),
      estimator_(estimator),
      local_of_word_(corpus->vocabulary_size(), -1),
      words_(corpus->vocabulary_size()),
      // ceil(V / 64) words, rounded up to whole 64-byte cache lines.
      word_bits_stride_((corpus->vocabulary_size() + 511) / 512 * 8) {}

void WordMajorColumns::Simplex(int row, absl::Span<double>) const {
  SGMCMC_CHECK(false) << "WordMajorColumns: row " << row
                      << " read by row; it holds only some words' columns";
}

void WordMajorColumns::LogSimplex(int row, absl::Span<double>) const {
  SGMCMC_CHECK(false) << "WordMajorColumns: row " << row
                      << " read by row; it holds only some words' columns";
}

const double* WordMajorColumns::ContiguousColumn(int32_t col) const {
  SGMCMC_CHECK(col >= 0 && col < cols_) << "WordMajorColumns: word " << col << " outside [0, "
                                        << cols_ << ")";
  const int32_t index = column_of_word_[col];
  SGMCMC_CHECK(index >= 0) << "WordMajorColumns: word " << col << " not stored";
  return columns_ + static_cast<size_t>(index) * rows_;
}

void LdaCountModel::set_gibbs_sweeps(int gibbs_sweeps) {
  SGMCMC_CHECK(gibbs_sweeps >= 1) << "LdaCountModel::set_gibbs_sweeps: " << gibbs_sweeps;
  gibbs_sweeps_ = gibbs_sweeps;
}

void LdaCountModel::FillTable(const samplers::SimplexParameters& parameters, int32_t begin,
                              int32_t end, int thread) const {
  // π of the minibatch's words, a slice of kSliceWords words at a time: for each row, the
  // slice's words ascend, so a sampler's SimplexColumns reads the row as one short forward
  // stream (which the hardware prefetcher follows); the K x kSliceWords slice (200 KB at
  // K = 100) stays in L2 while it is transposed into the word-major table.
  constexpr int kSliceWords = 256;
  if (begin < end && parameters.ContiguousColumn(words_[begin]) != nullptr) {
    // Stored word-major already: one copy per column.
    for (int32_t u = begin; u < end; ++u) {
      table_.SetColumn(u, parameters.ContiguousColumn(words_[u]));
    }
    return;
  }
  std::vector<double>& slice = slices_[thread];
  for (int64_t first = begin; first < end; first += kSliceWords) {
    const int width = static_cast<int>(std::min<int64_t>(kSliceWords, end - first));
    slice.resize(static_cast<size_t>(num_topics_) * width);
    parameters.SimplexColumns(absl::MakeConstSpan(words_.data() + first, width),
                              absl::MakeSpan(slice));
    table_.SetColumns(static_cast<int>(first), eval::TopicColumnsView{slice, num_topics_, width});
  }
}

void LdaCountModel::SampleDocuments(absl::Span<const int64_t> batch, uint64_t key,
                                    absl::Span<const int64_t> order,
                                    std::atomic<int64_t>& next, int thread) const {
  const int burn_in = burn_in_sweeps();
  const size_t num_words = static_cast<size_t>(num_words_);
  // All zero on entry (the merge zeroes what it reads), so growing keeps it zero.
  std::vector<int32_t>& accumulator_storage = accumulators_[thread];
  if (accumulator_storage.size() < static_cast<size_t>(num_topics_) * num_words) {
    accumulator_storage.resize(static_cast<size_t>(num_topics_) * num_words, 0);
  }
  int32_t* accumulator = accumulator_storage.data();
  // Worked on through a local vector (moved in and out, keeping the capacity): the threads'
  // lists' own fields share cache lines, which every push_back would write.
  std::vector<std::vector<ListedCount>> touched = std::move(touched_[thread]);
  for (std::vector<ListedCount>& listed : touched) listed.clear();
  // Adds `length` kept sweeps of topic k to local word u; with several threads, the entry is
  // listed in row k's list when it becomes non-zero (whichever thread merges row k reads every
  // thread's list of it).
  const bool list = num_threads() > 1;
  auto add = [&](int32_t k, int32_t u, int32_t length) {
    const int64_t index = static_cast<int64_t>(k) * static_cast<int64_t>(num_words) + u;
    if (list && accumulator[index] == 0) touched[k].push_back({u, 0});
    accumulator[index] += length;
  };
  std::vector<int32_t> local, run_topic, run_length;
  int64_t nonzero = 0, alpha_draws = 0;
  for (int64_t position = next.fetch_add(1, std::memory_order_relaxed);
       position < static_cast<int64_t>(order.size());
       position = next.fetch_add(1, std::memory_order_relaxed)) {
    const int64_t slot = order[position];
    const absl::Span<const int32_t> doc = corpus_->document(static_cast<int>(batch[slot]));
    const int n = static_cast<int>(doc.size());
    local.resize(n);
    for (int i = 0; i < n; ++i) local[i] = local_of_word_[doc[i]];
    // A document is a bag of words: sweeping its tokens in ascending word order (the UCI
    // order already) walks each topic's row of the table forwards, so consecutive tokens
    // share cache lines; any fixed scan order leaves the conditional posterior invariant.
    std::sort(local.begin(), local.end());
    eval::DocumentGibbsState state(local, num_topics_);
    rng::Engine engine(key, static_cast<uint64_t>(stream_ids_.empty() ? slot : stream_ids_[slot]));
    eval::InitializeAssignments(table_, engine, state);
    // Kept sweeps: each token's topic is mostly the same as in the previous sweep, so the
    // counts are added per run of equal topics (one scattered write per run, not per sweep).
    run_topic.assign(n, -1);
    run_length.assign(n, 0);
    for (int sweep = 0; sweep < gibbs_sweeps_; ++sweep) {
      eval::GibbsSweep(table_, engine, state);
      if (sweep < burn_in) continue;
      const int32_t* z = state.assignments().data();
      for (int i = 0; i < n; ++i) {
        if (z[i] == run_topic[i]) {
          ++run_length[i];
          continue;
        }
        if (run_length[i] > 0) add(run_topic[i], local[i], run_length[i]);
        run_topic[i] = z[i];
        run_length[i] = 1;
      }
    }
    for (int i = 0; i < n; ++i) {
      if (run_length[i] > 0) add(run_topic[i], local[i], run_length[i]);
    }
    nonzero += state.counts().num_nonzero();
    alpha_draws += state.alpha_draws();
  }
  // The listed entries' counts move into the lists (packed, read in sequence by the row's
  // merger, rather than scattered reads of this thread's accumulator from another core), and
  // the accumulator is zeroed there, from this thread's own cache.
  for (int k = 0; k < static_cast<int>(touched.size()); ++k) {
    int32_t* row = accumulator + static_cast<int64_t>(k) * static_cast<int64_t>(num_words);
    for (ListedCount& entry : touched[k]) {
      entry.count = row[entry.word];
      row[entry.word] = 0;
    }
  }
  touched_[thread] = std::move(touched);
  nonzero_sums_[thread] += nonzero;
  alpha_draw_sums_[thread] += alpha_draws;
}

void LdaCountModel::MarkWords(absl::Span<const int64_t> batch, absl::Span<const int64_t> bounds,
                              int thread) const {
  // Branch-free: one OR per token into the thread's own bits (a few hundred bytes, in L1).
  uint64_t* bits = word_bits_.data() + static_cast<size_t>(thread) * word_bits_stride_;
  for (int64_t slot = bounds[thread]; slot < bounds[thread + 1]; ++slot) {
    for (int32_t w : corpus_->document(static_cast<int>(batch[slot]))) {
      bits[w >> 6] |= uint64_t{1} << (w & 63);
    }
  }
}

void LdaCountModel::ListWords(int thread) const {
  const int threads = num_threads();
  const int blocks = (dimension() + 63) / 64;
  const auto [begin, end] = parallel::ThreadPool::ChunkBounds(0, blocks, threads, thread);
  // Local (moved in and out): the threads' vectors share cache lines.
  std::vector<int32_t> listed = std::move(word_chunks_[thread]);
  listed.clear();
  for (int64_t block = begin; block < end; ++block) {
    uint64_t any = 0;
    for (int t = 0; t < threads; ++t) {
      any |= word_bits_[static_cast<size_t>(t) * word_bits_stride_ + block];
    }
    for (; any != 0; any &= any - 1) {
      listed.push_back(static_cast<int32_t>(block * 64 + __builtin_ctzll(any)));
    }
  }
  word_chunks_[thread] = std::move(listed);
}

void LdaCountModel::PlaceWords(int thread) const {
  // Every thread has listed its chunk: the thread's own bits are cleared for the next call.
  uint64_t* bits = word_bits_.data() + static_cast<size_t>(thread) * word_bits_stride_;
  std::fill(bits, bits + word_bits_stride_, 0);
  int32_t first = 0;
  for (int t = 0; t < thread; ++t) first += static_cast<int32_t>(word_chunks_[t].size());
  int32_t u = first;
  for (int32_t w : word_chunks_[thread]) {
    words_[u] = w;
    local_of_word_[w] = u;
    ++u;
  }
}

void LdaCountModel::OrderRows(absl::Span<const double> row_costs) const {
  if (static_cast<int>(row_order_.size()) != num_topics_) {
    row_order_.resize(num_topics_);
    std::iota(row_order_.begin(), row_order_.end(), 0);
  }
  if (row_costs.empty() || num_threads() == 1) return;
  // Insertion sort from the last call's order: O(K + rows that changed places), as the costs
  // change slowly.
  for (size_t i = 1; i < row_order_.size(); ++i) {
    const int row = row_order_[i];
    size_t j = i;
    for (; j > 0 && row_costs[row_order_[j - 1]] < row_costs[row]; --j) {
      row_order_[j] = row_order_[j - 1];
    }
    row_order_[j] = row;
  }
}

void LdaCountModel::ScaledCounts(rng::Engine& engine, absl::Span<const int64_t> batch,
                                 const samplers::SimplexParameters& parameters,
                                 samplers::SimplexCounts& counts) const {
  const uint64_t key = engine();
  if (estimator_ == LdaCountEstimator::kPersistentJoint) {
    PersistentJointCounts(key, batch, parameters, counts);
    return;
  }
  OrderRows({});
  // Every row merged (dynamically) into its merger's buffer, then the rows' sizes (serial,
  // O(K)) place every row in `counts`, then each thread copies the rows it merged there
  // (SetRow: disjoint rows, disjoint memory).
  parallel::SpinBarrier barrier(num_threads());
  RunSweeps(key, batch, parameters, [&](int t, double scale) {
    MergeRows(t, scale, nullptr);
    barrier.Wait();
    if (t == 0) counts.ResetRowSizes(num_topics_, dimension(), row_sizes_);
    barrier.Wait();
    WriteRows(t, counts);
  });
}

void LdaCountModel::ScaledCountsByRow(rng::Engine& engine, absl::Span<const int64_t> batch,
                                      const samplers::SimplexParameters& parameters,
                                      absl::Span<const double> row_costs,
                                      RowFunction row_fn) const {
  SGMCMC_CHECK(row_costs.empty() || static_cast<int>(row_costs.size()) == num_topics_)
      << "LdaCountModel::ScaledCountsByRow: " << row_costs.size() << " row costs for "
      << num_topics_ << " topics";
  const uint64_t key = engine();
  OrderRows(row_costs);
  if (estimator_ == LdaCountEstimator::kPersistentJoint) {
    PersistentJointCounts(key, batch, parameters, persistent_counts_);
    std::atomic<int> next{0};
    auto rows = [&](int t) {
      for (int i = next.fetch_add(1, std::memory_order_relaxed); i < num_topics_;
           i = next.fetch_add(1, std::memory_order_relaxed)) {
        row_fn(t, row_order_[i], persistent_counts_.row(row_order_[i]));
      }
    };
    if (pool_ == nullptr) {
      rows(0);
    } else {
      pool_->RunOnThreads(rows);
    }
    return;
  }
  RunSweeps(key, batch, parameters, [&](int t, double scale) { MergeRows(t, scale, &row_fn); });
}

void LdaCountModel::RunSweeps(uint64_t key, absl::Span<const int64_t> batch,
                              const samplers::SimplexParameters& parameters,
                              absl::FunctionRef<void(int thread, double scale)> finish) const {
  SGMCMC_CHECK(!batch.empty()) << "LdaCountModel::ScaledCounts: empty batch";
  SGMCMC_CHECK(parameters.rows() == num_topics_ && parameters.cols() == dimension())
      << "LdaCountModel::ScaledCounts: parameters are " << parameters.rows() << " x "
      << parameters.cols() << ", model is " << num_topics_ << " x " << dimension();
  const auto start = std::chrono::steady_clock::now();
  stats_ = Stats();
  row_fn_seconds_ = 0;
  stats_.documents = static_cast<int64_t>(batch.size());
  std::vector<int64_t> doc_cost(batch.size());
  for (size_t slot = 0; slot < batch.size(); ++slot) {
    SGMCMC_CHECK(batch[slot] >= 0 && batch[slot] < num_items())
        << "LdaCountModel::ScaledCounts: document id " << batch[slot] << " outside [0, "
        << num_items() << ")";
    const int64_t size =
        static_cast<int64_t>(corpus_->document(static_cast<int>(batch[slot])).size());
    doc_cost[slot] = size + 1;
    stats_.tokens += size;
  }

  // The Gibbs sweeps' set-up: the threads take documents one at a time, longest first, so
  // they finish together. Which thread samples a document does not matter: its stream is its
  // slot's, and the per-thread counts are integer sums summed in any order.
  const int threads = num_threads();
  const std::vector<int64_t> mark_bounds =
      parallel::ThreadPool::BalancedChunkBounds(doc_cost, threads);
  word_chunks_.resize(threads);
  if (word_bits_.size() != static_cast<size_t>(threads) * word_bits_stride_) {
    word_bits_.assign(static_cast<size_t>(threads) * word_bits_stride_, 0);
  }
  slices_.resize(threads);
  const auto order_start = std::chrono::steady_clock::now();
  accumulators_.resize(threads);
  if (static_cast<int>(touched_.size()) != threads) {
    touched_.assign(threads, std::vector<std::vector<ListedCount>>(num_topics_));
    merge_scratch_.assign(threads, {});
    merged_rows_.assign(threads, {});
  }
  next_row_.store(0, std::memory_order_relaxed);
  nonzero_sums_.assign(threads, 0);
  alpha_draw_sums_.assign(threads, 0);
  order_.resize(batch.size());
  std::iota(order_.begin(), order_.end(), 0);
  std::stable_sort(order_.begin(), order_.end(),
                   [&](int64_t a, int64_t b) { return doc_cost[a] > doc_cost[b]; });
  stats_.order_seconds = SecondsSince(order_start);
  const int64_t documents = scale_documents_ > 0 ? scale_documents_ : num_items();
  const double scale =
      raw_counts_ ? 1.0 : static_cast<double>(documents) / batch.size() / kept_sweeps();
  SGMCMC_CHECK(stream_ids_.empty() || stream_ids_.size() == batch.size())
      << "LdaCountModel: " << stream_ids_.size() << " stream ids for " << batch.size()
      << " documents";
  row_sizes_.resize(num_topics_);
  chunk_cols_.resize(threads);
  chunk_values_.resize(threads);
  // The phases, separated by five barriers inside one call of the pool (one wake-up of the
  // workers per call):
  //  1. the minibatch's distinct words, ascending (so the counts come out in column order):
  //     MarkWords, ListWords, PlaceWords; then the per-word tables, from the columns of π,
  //     each thread filling an equal share of the placed words;
  //  2. the sweeps, documents handed out longest first;
  //  3. finish(t): the counts, integer sums over the threads (order-free), then
  //     (D/n) / kept_sweeps, row by row, the threads taking the rows one at a time in
  //     row_order_ (MergeRows; no thread writes another's memory): the merger of row k adds
  //     the entries every thread listed for row k (only their non-zero entries, packed with
  //     their counts at the end of the sweeps: O(nnz), not a pass over each accumulator) into
  //     its own zeroed row of U counts, then scans it in word order for the non-zero entries
  //     (whole groups of kGroup words skipped by one test), zeroing them, into its own lists
  //     of columns and scaled values; on one thread it scans its accumulator's row directly.
  // So each thread's work shrinks with the thread count and the counts are the same, entry
  // for entry and bit for bit, on any number of threads.
  std::atomic<int64_t> next{0};
  parallel::SpinBarrier barrier(threads);
  std::chrono::steady_clock::time_point phases_start, words_end, gibbs_start, counts_start,
      thread0_end;
  auto phases = [&](int t) {
    if (t == 0) phases_start = std::chrono::steady_clock::now();
    MarkWords(batch, mark_bounds, t);
    barrier.Wait();
    ListWords(t);
    barrier.Wait();
    PlaceWords(t);
    int32_t placed = 0;  // every thread's listed words (their sizes are final after ListWords)
    for (const std::vector<int32_t>& listed : word_chunks_) {
      placed += static_cast<int32_t>(listed.size());
    }
    if (t == 0) {
      num_words_ = placed;
      // The per-word tables, sized to the largest U seen so far (growing only, so nothing is
      // allocated once warm), while the other threads wait at the barrier below. Sizing them
      // to min(V, tokens) before the pool call, as before, zero-filled K x V doubles at the
      // first call (400 MB at K = 1000, V = 50,000) for ~37% of them in use.
      table_words_ = std::max<int64_t>(table_words_, placed);
      table_.Reset(num_topics_, static_cast<int>(table_words_), alpha_);
      words_end = std::chrono::steady_clock::now();
    }
    // The tables are filled in equal shares of the placed words, not each thread's own: the
    // threads list the words of equal ranges of the vocabulary, and under a Zipf law the first
    // range holds most of a minibatch's words (2 threads at K = 1000: the table phase took
    // 1.51x less time than on one thread, not 2x).
    barrier.Wait();
    const auto [fill_begin, fill_end] = parallel::ThreadPool::ChunkBounds(0, placed, threads, t);
    FillTable(parameters, static_cast<int32_t>(fill_begin), static_cast<int32_t>(fill_end), t);
    barrier.Wait();
    if (t == 0) gibbs_start = std::chrono::steady_clock::now();
    SampleDocuments(batch, key, order_, next, t);
    barrier.Wait();
    if (t == 0) counts_start = std::chrono::steady_clock::now();
    for (int32_t w : word_chunks_[t]) local_of_word_[w] = -1;
    finish(t, scale);
    if (t == 0) thread0_end = std::chrono::steady_clock::now();
  };
  if (pool_ == nullptr) {
    phases(0);
  } else {
    pool_->RunOnThreads(phases);
  }
  const auto counts_end = std::chrono::steady_clock::now();
  // The serial set-up before the sort (checks, document costs) counts as word collection.
  stats_.words_seconds = std::chrono::duration<double>(order_start - start).count() +
                         std::chrono::duration<double>(words_end - phases_start).count();
  stats_.distinct_words = num_words_;
  stats_.table_seconds = std::chrono::duration<double>(gibbs_start - start).count();
  stats_.gibbs_seconds = std::chrono::duration<double>(counts_start - gibbs_start).count();
  // The rows phase's wall time, split between the merge and row_fn in the proportions of
  // thread 0's own seconds in each.
  stats_.rows_seconds = std::chrono::duration<double>(counts_end - counts_start).count();
  const double thread0_rows = std::chrono::duration<double>(thread0_end - counts_start).count();
  stats_.counts_seconds =
      thread0_rows > 0
          ? stats_.rows_seconds * std::max(0.0, thread0_rows - row_fn_seconds_) / thread0_rows
          : stats_.rows_seconds;
  stats_.token_updates = stats_.tokens * (gibbs_sweeps_ + 1);
  int64_t nonzero = 0;
  for (int64_t n : nonzero_sums_) nonzero += n;
  stats_.mean_topics_per_document = static_cast<double>(nonzero) / batch.size();
  int64_t alpha_draws = 0;
  for (int64_t n : alpha_draw_sums_) alpha_draws += n;
  stats_.alpha_bucket_fraction = static_cast<double>(alpha_draws) / stats_.token_updates;
}

void LdaCountModel::MergeRows(int thread, double scale, const RowFunction* row_fn) const {
  const int threads = num_threads();
  const int num_words = num_words_;
  constexpr int kGroup = 8;
  // The row being merged: thread 0's accumulator row on one thread, else the thread's own
  // scratch row (all zero between rows; the scan zeroes what it reads).
  std::vector<int32_t>& scratch = merge_scratch_[thread];
  if (threads > 1 && scratch.size() < static_cast<size_t>(num_words)) {
    scratch.resize(num_words, 0);
  }
  // Local (moved in and out, keeping the capacity): the vectors of different threads share
  // cache lines, which every push_back would write.
  std::vector<int32_t> cols = std::move(chunk_cols_[thread]);
  std::vector<double> values = std::move(chunk_values_[thread]);
  std::vector<int> merged = std::move(merged_rows_[thread]);
  cols.clear();
  values.clear();
  merged.clear();
  double row_fn_seconds = 0;
  for (int i = next_row_.fetch_add(1, std::memory_order_relaxed); i < num_topics_;
       i = next_row_.fetch_add(1, std::memory_order_relaxed)) {
    const int k = row_order_[i];
    int32_t* row;
    if (threads == 1) {
      row = accumulators_[0].data() + static_cast<int64_t>(k) * num_words;
    } else {
      row = scratch.data();
      for (int t = 0; t < threads; ++t) {
        for (const ListedCount& entry : touched_[t][k]) row[entry.word] += entry.count;
      }
    }
    // With row_fn each row is handed over alone; else the rows follow each other.
    if (row_fn != nullptr) {
      cols.clear();
      values.clear();
    }
    const size_t row_start = cols.size();
    double row_total = 0;
    for (int group = 0; group < num_words; group += kGroup) {
      const int group_end = std::min(group + kGroup, num_words);
      int32_t any = 0;
      for (int u = group; u < group_end; ++u) any |= row[u];
      if (any == 0) continue;
      for (int u = group; u < group_end; ++u) {
        if (row[u] != 0) {
          cols.push_back(words_[u]);
          values.push_back(row[u] * scale);
          row_total += values.back();
        }
        row[u] = 0;
      }
    }
    if (row_fn == nullptr) {
      row_sizes_[k] = static_cast<int64_t>(cols.size() - row_start);
      merged.push_back(k);
      continue;
    }
    const auto row_fn_start = std::chrono::steady_clock::now();
    (*row_fn)(thread, k,
              samplers::SparseCountsRow{absl::MakeConstSpan(cols), absl::MakeConstSpan(values),
                                        row_total});
    row_fn_seconds += SecondsSince(row_fn_start);
  }
  if (thread == 0) row_fn_seconds_ = row_fn_seconds;
  chunk_cols_[thread] = std::move(cols);
  chunk_values_[thread] = std::move(values);
  merged_rows_[thread] = std::move(merged);
}

void LdaCountModel::WriteRows(int thread, samplers::SimplexCounts& counts) const {
  const absl::Span<const int32_t> cols = chunk_cols_[thread];
  const absl::Span<const double> values = chunk_values_[thread];
  size_t offset = 0;
  for (int k : merged_rows_[thread]) {
    const size_t size = static_cast<size_t>(row_sizes_[k]);
    counts.SetRow(k, cols.subspan(offset, size), values.subspan(offset, size));
    offset += size;
  }
}

absl::Status LdaCountModel::SetAssignments(absl::Span<const int32_t> z){
  if (estimator_ != LdaCountEstimator::kPersistentJoint) {
    if (z.empty()) return absl::OkStatus();
    return absl::FailedPreconditionError(
        "LdaCountModel::SetAssignments: assignments are kept only by kPersistentJoint");
  }
  if (z.empty()) {
    persistent_z_.clear();
    return absl::OkStatus();
  }
  if (z.size() != corpus_->tokens.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("LdaCountModel::SetAssignments: ", z.size(), " assignments for ",
                     corpus_->tokens.size(), " tokens"));
  }
  for (int32_t k : z) {
    if (k < 0 || k >= num_topics_) {
      return absl::InvalidArgumentError(absl::StrCat(
          "LdaCountModel::SetAssignments: topic ", k, " outside [0, ", num_topics_, ")"));
    }
  }
  const int num_docs = corpus_->num_documents();
  const size_t vocabulary = static_cast<size_t>(dimension());
  persistent_z_.assign(z.begin(), z.end());
  persistent_doc_topic_.assign(static_cast<size_t>(num_docs) * num_topics_, 0);
  persistent_topic_.assign(num_topics_, 0);
  persistent_word_topic_.assign(num_topics_ * vocabulary, 0);
  for (int d = 0; d < num_docs; ++d) {
    for (int64_t i = corpus_->doc_offsets[d]; i < corpus_->doc_offsets[d + 1]; ++i) {
      const int32_t k = persistent_z_[i];
      ++persistent_doc_topic_[static_cast<size_t>(d) * num_topics_ + k];
      ++persistent_topic_[k];
      ++persistent_word_topic_[k * vocabulary + corpus_->tokens[i]];
    }
  }
  return absl::OkStatus();
}

void LdaCountModel::PersistentJointCounts(uint64_t key, absl::Span<const int64_t> batch,
                                          const samplers::SimplexParameters& parameters,
                                          samplers::SimplexCounts& counts) const {
  const int num_docs = corpus_->num_documents();
  SGMCMC_CHECK(static_cast<int64_t>(batch.size()) == num_docs)
      << "LdaCountModel::ScaledCounts: kPersistentJoint needs the full batch (" << num_docs
      << " documents), got " << batch.size();
  const auto* sampler = dynamic_cast<const samplers::Scir*>(&parameters);
  SGMCMC_CHECK(sampler != nullptr)
      << "LdaCountModel::ScaledCounts: kPersistentJoint needs SCIR's θ (samplers::Scir)";
  const auto start = std::chrono::steady_clock::now();
  stats_ = Stats();
  stats_.documents = num_docs;
  stats_.tokens = static_cast<int64_t>(corpus_->tokens.size());
  stats_.distinct_words = dimension();
  const size_t vocabulary = static_cast<size_t>(dimension());
  const int K = num_topics_;
  persistent_theta_.resize(K * vocabulary);
  for (int k = 0; k < K; ++k) {
    const absl::Span<const double> log_theta = sampler->log_theta(k);
    for (size_t w = 0; w < vocabulary; ++w) {
      persistent_theta_[k * vocabulary + w] = std::exp(log_theta[w]);
    }
  }
  stats_.table_seconds = SecondsSince(start);
  const auto gibbs_start = std::chrono::steady_clock::now();
  const bool initialise = persistent_z_.empty();
  if (initialise) {
    persistent_z_.assign(corpus_->tokens.size(), 0);
    persistent_doc_topic_.assign(static_cast<size_t>(num_docs) * K, 0);
    persistent_topic_.assign(K, 0);
    persistent_word_topic_.assign(K * vocabulary, 0);
  }
  const double total_prior = beta_ * static_cast<double>(vocabulary);
  persistent_cumulative_.resize(K);
  double* cumulative = persistent_cumulative_.data();
  int64_t nonzero = 0;
  for (int d = 0; d < num_docs; ++d) {
    rng::Engine engine(key, static_cast<uint64_t>(d));
    int32_t* doc_topic = persistent_doc_topic_.data() + static_cast<size_t>(d) * K;
    const int64_t begin = corpus_->doc_offsets[d], end = corpus_->doc_offsets[d + 1];
    if (initialise) {
      for (int64_t i = begin; i < end; ++i) {
        const int32_t k = static_cast<int32_t>(
            std::min<double>(K - 1, std::floor(rng::UniformDouble(engine) * K)));
        persistent_z_[i] = k;
        ++doc_topic[k];
        ++persistent_topic_[k];
        ++persistent_word_topic_[k * vocabulary + corpus_->tokens[i]];
      }
    }
    for (int sweep = 0; sweep < gibbs_sweeps_; ++sweep) {
      for (int64_t i = begin; i < end; ++i) {
        const size_t w = static_cast<size_t>(corpus_->tokens[i]);
        int32_t k = persistent_z_[i];
        --doc_topic[k];
        --persistent_topic_[k];
        --persistent_word_topic_[k * vocabulary + w];
        double total = 0;
        for (int j = 0; j < K; ++j) {
          total += (alpha_ + doc_topic[j]) * persistent_theta_[j * vocabulary + w] /
                   (total_prior + static_cast<double>(persistent_topic_[j]));
          cumulative[j] = total;
        }
        const double u = rng::UniformDouble(engine) * total;
        k = 0;
        while (k < K - 1 && !(u < cumulative[k])) ++k;
        persistent_z_[i] = k;
        ++doc_topic[k];
        ++persistent_topic_[k];
        ++persistent_word_topic_[k * vocabulary + w];
      }
    }
    for (int k = 0; k < K; ++k) nonzero += doc_topic[k] != 0;
  }
  stats_.gibbs_seconds = SecondsSince(gibbs_start);
  stats_.token_updates = stats_.tokens * (gibbs_sweeps_ + (initialise ? 1 : 0));
  stats_.mean_topics_per_document = static_cast<double>(nonzero) / num_docs;
  const auto counts_start = std::chrono::steady_clock::now();
  counts.Reset(K, dimension());
  for (int k = 0; k < K; ++k) {
    for (size_t w = 0; w < vocabulary; ++w) {
      const int32_t n = persistent_word_topic_[k * vocabulary + w];
      if (n != 0) counts.Append(k, static_cast<int>(w), n);
    }
  }
  stats_.counts_seconds = SecondsSince(counts_start);
}

}  // namespace sgmcmc::models
