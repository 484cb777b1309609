#include "eval/lda_gibbs.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "eval/topic_columns.h"
#include "linalg/running_sums.h"
#include "rng/uniform.h"

namespace sgmcmc::eval {
namespace {

constexpr int kPrefetchAhead = 2;
// Documents with at least this many topics have their cumulative sparse masses formed in
// blocks of four (see DrawTopic); below it the plain running sum is as fast.
constexpr int kBlockedMinTopics = 8;
// And from this many the draw's search goes by blocks of four too.
constexpr int kBlockedSearchMinTopics = 16;

// Draws the topic of one token from p(k) ∝ (α + n_dk) π_kw. Two buckets, see the header.
// `counts` excludes the token and, if `pending` >= 0, also the previous token, which joined
// entry `pending` of counts.entries() (its count is added by the caller after this draw; see
// GibbsSweep). Returns the topic and sets `entry` to its index in counts.entries() (sparse
// bucket) or -1 (α bucket); the caller adds the token to the counts. `next_column` (the column
// of the token kPrefetchAhead positions later, or any valid column near the end) is prefetched
// at the document's topics while the sparse masses are summed: the columns of a minibatch do
// not fit in L2, and later tokens mostly need the same topics.
//
// The cumulative sparse masses c'_j = m_0 + ... + m_j (m_j = n_dk π_kw of the j-th topic
// present, n_dk from `counts`) are formed first. With nnz >= kBlockedMinTopics they are formed
// four at a time (linalg::RunningSums: one dependent addition per block instead of one per
// topic; ~7% faster at 13 topics per document, ~13% at 21, ~30% at 30). In both forms the c'_j
// never decrease and c'_j > c'_{j-1} forces m_j > 0 (see linalg/running_sums.h).
//
// The pending token's mass d = π_kw at its topic (entry q) is not added in place: the sparse
// bucket is the piece d followed by the pieces c'_j, and one uniform x on (0, d + c'_{nnz-1})
// inverts them in that order: x < d draws entry q; otherwise the first c'_j above y = x - d,
// which is a topic of positive mass (above). Entry q's probability is (d + m_q) / total, its
// exact conditional mass (n_dk + 1) π_kw over the total; only the order of the pieces on the
// uniform's line differs from an in-place sum. Should rounding leave y at or above c'_{nnz-1}
// (possible only with d > 0), the draw is entry q too. This is what makes the sweep fast: the
// masses of a token do not depend on the previous token's draw, only the search does (through
// q and d), so the CPU sums the masses of the next token while this one's search runs (~12%
// faster on KOS at K = 100, α = 0.1); and with d drawn first the search is a plain count, with
// no per-compare select of d (+9% at K = 1000, α = 0.01 against adding d to every c'_j from q
// on; bench/README, "The sparse sweep at large K", session 21).
inline int DrawTopic(const MinibatchTopicTable& table, int u, const double* next_column,
                     const SparseTopicCounts& counts, int pending, double* cumulative,
                     rng::Engine& engine, int64_t& alpha_draws, int& entry) {
  SGMCMC_DCHECK(u >= 0 && u < table.num_words())
      << "GibbsSweep: local word id " << u << " outside the table's [0, " << table.num_words()
      << ")";
  const double* column = table.column(u);
  const SparseTopicCounts::Entry* entries = counts.entries().data();
  const int nnz = counts.num_nonzero();
  const double sparse_mass = linalg::RunningSums(
      nnz, nnz >= kBlockedMinTopics,
      [&](int j) {
        __builtin_prefetch(next_column + entries[j].topic);
        return entries[j].count * column[entries[j].topic];
      },
      cumulative);
  for (int l = 0; l < 3; ++l) cumulative[nnz + l] = std::numeric_limits<double>::infinity();
  // The pending token's piece d = π_kw of its entry q, drawn before the c'_j (pending < 0:
  // d = 0, so x < d never holds, and q = nnz is never returned: y = x < c'_{nnz-1}).
  const int q = pending < 0 ? nnz : pending;
  const double d = pending < 0 ? 0.0 : column[entries[q].topic];
  const double total = sparse_mass + d;
  const double x = rng::UniformDouble(engine) * (total + table.alpha_mass(u));
  if (x < total) {
    // The pending token's mass d is drawn first: y = x - d < 0 selects entry q; otherwise y
    // inverts the c'_j. The first j with c'_j > y is the number of c'_j <= y (they do not
    // decrease), counted without branches. With many topics, first the whole blocks of four
    // whose last mass is <= y, then inside the next block. Rounding can leave y at or above
    // c'_{nnz-1} only when d > 0; then q too.
    const double y = x - d;
    int first = 0;
    if (nnz >= kBlockedSearchMinTopics) {
      int blocks = 0;
      for (int i = 3; i < nnz; i += 4) blocks += cumulative[i] <= y;
      first = 4 * blocks;
      // The +inf after the last mass stands for the missing entries of a partial block.
      first += (cumulative[first] <= y) + (cumulative[first + 1] <= y) +
               (cumulative[first + 2] <= y);
    } else {
      for (int i = 0; i < nnz; ++i) first += cumulative[i] <= y;
    }
    first = (y < 0) | (first >= nnz) ? q : first;
    entry = first;
    return entries[first].topic;
  }
  ++alpha_draws;
  entry = -1;
  return table.SampleAlphaBucket(u, engine);
}

}  // namespace

MinibatchTopicTable MinibatchTopicTable::Allocate(int num_topics, int num_words, double alpha) {
  MinibatchTopicTable table;
  table.Reset(num_topics, num_words, alpha);
  return table;
}

void MinibatchTopicTable::Reset(int num_topics, int num_words, double alpha) {
  SGMCMC_CHECK(alpha > 0) << "MinibatchTopicTable::Allocate: alpha must be > 0, got " << alpha;
  SGMCMC_CHECK(num_topics > 0 && num_words >= 0)
      << "MinibatchTopicTable::Allocate: need num_topics > 0 and num_words >= 0, got "
      << num_topics << " and " << num_words;
  num_topics_ = num_topics;
  num_blocks_ = (num_topics + kAlphaBlock - 1) / kAlphaBlock;
  alpha_ = alpha;
  // Filling overwrites every column, mass and block sum, so the old values may stay.
  columns_.resize(static_cast<size_t>(num_words) * num_topics);
  alpha_mass_.resize(num_words);
  block_cumulative_.resize(static_cast<size_t>(num_words) * num_blocks_);
}

void MinibatchTopicTable::FillColumns(const TopicColumnsView& topics, int column_begin,
                                      int column_end) {
  SGMCMC_CHECK(topics.num_topics == num_topics_ && topics.num_words == num_words() &&
               topics.values.size() == static_cast<size_t>(num_topics_) * num_words())
      << "MinibatchTopicTable::FillColumns: topics must be " << num_topics_ << " x "
      << num_words() << ", got " << topics.num_topics << " x " << topics.num_words << " with "
      << topics.values.size() << " values";
  SGMCMC_CHECK(0 <= column_begin && column_begin <= column_end && column_end <= num_words())
      << "MinibatchTopicTable::FillColumns: column range [" << column_begin << ", "
      << column_end << ") is not inside [0, " << num_words() << "]";
  CopyColumns(topics.values.data() + column_begin, topics.num_words, column_begin,
              column_end - column_begin);
}

void MinibatchTopicTable::SetColumns(int first_column, const TopicColumnsView& block) {
  SGMCMC_CHECK(block.num_topics == num_topics_ && block.num_words >= 0 &&
               block.values.size() == static_cast<size_t>(num_topics_) * block.num_words)
      << "MinibatchTopicTable::SetColumns: block must be " << num_topics_ << " x W, got "
      << block.num_topics << " x " << block.num_words << " with " << block.values.size()
      << " values";
  SGMCMC_CHECK(0 <= first_column && first_column + block.num_words <= num_words())
      << "MinibatchTopicTable::SetColumns: columns [" << first_column << ", "
      << first_column + block.num_words << ") are not inside [0, " << num_words() << "]";
  CopyColumns(block.values.data(), block.num_words, first_column, block.num_words);
}

void MinibatchTopicTable::SetColumn(int u, const double* column) {
  SGMCMC_CHECK(0 <= u && u < num_words())
      << "MinibatchTopicTable::SetColumn: column " << u << " is not inside [0, " << num_words()
      << ")";
  std::copy(column, column + num_topics_, columns_.data() + static_cast<size_t>(u) * num_topics_);
  FinishColumn(u);
}

void MinibatchTopicTable::GatherColumns(absl::Span<const double> topics, int vocabulary_size,
                                        absl::Span<const int32_t> words) {
  SGMCMC_CHECK(words.size() == static_cast<size_t>(num_words()))
      << "MinibatchTopicTable::GatherColumns: " << words.size() << " words for a table of "
      << num_words();
  GatherTopicColumns(topics, num_topics_, vocabulary_size, words, absl::MakeSpan(columns_));
  for (int u = 0; u < num_words(); ++u) FinishColumn(u);
}

void MinibatchTopicTable::CopyColumns(const double* rows, size_t row_stride, int first_column,
                                      int width) {
  // Cache-blocked transpose: a tile of kTileWords columns reads one cache line of each row
  // and writes its kTileWords columns (kTileWords x K doubles, in L1) one topic at a time;
  // the columns are then finished while still in cache.
  constexpr int kTileWords = 8;
  const int num_topics = num_topics_;
  for (int tile = 0; tile < width; tile += kTileWords) {
    const int tile_width = std::min(kTileWords, width - tile);
    double* first = columns_.data() + static_cast<size_t>(first_column + tile) * num_topics;
    for (int k = 0; k < num_topics; ++k) {
      const double* row = rows + k * row_stride + tile;
      double* out = first + k;
      for (int j = 0; j < tile_width; ++j) out[j * num_topics] = row[j];
    }
    for (int j = 0; j < tile_width; ++j) FinishColumn(first_column + tile + j);
  }
}

void MinibatchTopicTable::FinishColumn(int u) {
  const int num_topics = num_topics_;
  const int num_blocks = num_blocks_;
  double* column = columns_.data() + static_cast<size_t>(u) * num_topics;
  double* blocks = block_cumulative_.data() + static_cast<size_t>(u) * num_blocks;
  // Each block's sum (in topic order, as SampleAlphaBucket repeats it) is its own dependency
  // chain, so the blocks overlap in the CPU; then the running sum over the blocks.
  double cumulative = 0, minimum = 0;
  for (int b = 0; b < num_blocks; ++b) {
    const int end = std::min((b + 1) * kAlphaBlock, num_topics);
    double block_sum = 0;
    for (int k = b * kAlphaBlock; k < end; ++k) {
      block_sum += column[k];
      minimum = column[k] < minimum ? column[k] : minimum;
    }
    cumulative += block_sum;
    blocks[b] = cumulative;
  }
  // A negative entry shows in the minimum, a NaN or infinite one in the sum.
  SGMCMC_CHECK(minimum >= 0 && cumulative <= std::numeric_limits<double>::max())
      << "MinibatchTopicTable: column " << u
      << " has a negative, NaN or infinite entry, or an infinite sum";
  if (cumulative > 0) {
    alpha_mass_[u] = alpha_ * cumulative;
    return;
  }
  for (int k = 0; k < num_topics; ++k) column[k] = 1;
  for (int b = 0; b < num_blocks; ++b) blocks[b] = std::min((b + 1) * kAlphaBlock, num_topics);
  alpha_mass_[u] = alpha_ * num_topics;
}

int MinibatchTopicTable::SampleAlphaBucket(int u, rng::Engine& engine) const {
  const double* blocks = block_cumulative_.data() + static_cast<size_t>(u) * num_blocks_;
  const double total = blocks[num_blocks_ - 1];
  double y = rng::UniformDouble(engine) * total;
  // U < 1, but U * total may round up to total; the largest double below it keeps y in
  // [0, total), an event of probability ~2^-53 that moves no visible mass.
  if (!(y < total)) y = std::nextafter(total, 0.0);
  // The first block whose cumulative sum exceeds y (exists: the last one is total > y), i.e.
  // the number of earlier blocks whose cumulative sum is <= y (they do not decrease), counted
  // without a data-dependent branch; its sum is then > 0. Counted in two steps, as the sums
  // do not decrease: the groups of kAlphaBlock blocks whose last sum is <= y (all their
  // blocks are), then the blocks of the next group before its last (which is > y): at most
  // K / kAlphaBlock^2 + kAlphaBlock - 1 compares instead of K / kAlphaBlock (K = 5000: 19 + 15
  // instead of 312). The same count, so the same draw, as the scan of every block.
  const int last = num_blocks_ - 1;  // blocks[last] = total > y
  int groups = 0;
  for (int i = kAlphaBlock - 1; i < last; i += kAlphaBlock) groups += blocks[i] <= y;
  const int group_first = groups * kAlphaBlock;
  const int group_end = std::min(group_first + kAlphaBlock - 1, last);
  int b = group_first;
  for (int i = group_first; i < group_end; ++i) b += blocks[i] <= y;
  // Inside it, inversion of the rest y - (sum of the earlier blocks), uniform on the block's
  // mass; if rounding leaves the rest at or above the block's summed mass, the block's last
  // topic of positive probability (an event of probability O(2^-53), so still no topic with
  // π_kw = 0 can be drawn).
  const double rest = y - (b == 0 ? 0.0 : blocks[b - 1]);
  const int first = b * kAlphaBlock;
  const int end = std::min(first + kAlphaBlock, num_topics_);
  const double* pi = column(u);
  double sum = 0;
  int last_positive = first;
  for (int k = first; k < end; ++k) {
    sum += pi[k];
    if (rest < sum) return k;
    if (pi[k] > 0) last_positive = k;
  }
  return last_positive;
}

MinibatchTopicTable MinibatchTopicTable::Build(const TopicColumnsView& topics, double alpha) {
  MinibatchTopicTable table = Allocate(topics.num_topics, topics.num_words, alpha);
  table.FillColumns(topics, 0, topics.num_words);
  return table;
}

SparseTopicCounts::SparseTopicCounts(int num_topics)
    : position_(num_topics, -1), entries_(num_topics) {
  SGMCMC_CHECK(num_topics > 0) << "SparseTopicCounts: num_topics must be > 0, got "
                               << num_topics;
}

void SparseTopicCounts::Clear() {
  for (int j = 0; j < size_; ++j) position_[entries_[j].topic] = -1;
  size_ = 0;
}

DocumentGibbsState::DocumentGibbsState(absl::Span<const int32_t> local_words, int num_topics)
    : local_words_(local_words.begin(), local_words.end()),
      assignments_(local_words.size(), 0),
      counts_(num_topics),
      cumulative_(num_topics + 3) {
  for (size_t i = 0; i < assignments_.size(); ++i) counts_.Increment(0);
}

void DocumentGibbsState::SetAssignments(absl::Span<const int32_t> assignments) {
  SGMCMC_CHECK(assignments.size() == assignments_.size())
      << "DocumentGibbsState::SetAssignments: expected " << assignments_.size()
      << " assignments, got " << assignments.size();
  counts_.Clear();
  for (size_t i = 0; i < assignments.size(); ++i) {
    SGMCMC_CHECK(assignments[i] >= 0 && assignments[i] < counts_.num_topics())
        << "DocumentGibbsState::SetAssignments: assignment " << i << " is " << assignments[i]
        << ", outside [0, " << counts_.num_topics() << ")";
    assignments_[i] = assignments[i];
    counts_.Increment(assignments[i]);
  }
}

void InitializeAssignments(const MinibatchTopicTable& table, rng::Engine& engine,
                           DocumentGibbsState& doc) {
  SGMCMC_CHECK(table.num_topics() == doc.counts_.num_topics())
      << "InitializeAssignments: table has " << table.num_topics() << " topics, document "
      << doc.counts_.num_topics();
  doc.counts_.Clear();
  const int n = doc.size();
  const int32_t* words = doc.local_words_.data();
  // As in GibbsSweep, the previous token's count is added after this token's draw (no entry
  // moves here: counts only grow).
  int pending = -1;
  for (int i = 0; i < n; ++i) {
    const double* next = table.column(i + kPrefetchAhead < n ? words[i + kPrefetchAhead] : 0);
    int entry;
    const int k = DrawTopic(table, words[i], next, doc.counts_, pending, doc.cumulative_.data(),
                            engine, doc.alpha_draws_, entry);
    doc.assignments_[i] = k;
    if (pending >= 0) doc.counts_.IncrementEntry(pending);
    pending = entry;
    if (entry < 0) doc.counts_.Increment(k);
  }
  if (pending >= 0) doc.counts_.IncrementEntry(pending);
}

void GibbsSweep(const MinibatchTopicTable& table, rng::Engine& engine, DocumentGibbsState& doc) {
  SGMCMC_CHECK(table.num_topics() == doc.counts_.num_topics())
      << "GibbsSweep: table has " << table.num_topics() << " topics, document "
      << doc.counts_.num_topics();
  const int n = doc.size();
  const int32_t* words = doc.local_words_.data();
  int32_t* z = doc.assignments_.data();
  double* cumulative = doc.cumulative_.data();
  int64_t alpha_draws = 0;
  if (n == 0) return;
  int ahead = kPrefetchAhead % n;  // the token kPrefetchAhead later, wrapping to the next sweep
  SparseTopicCounts& counts = doc.counts_;
  // The entry the previous token joined, whose count is incremented only after this token's
  // draw, so that this token's masses do not wait for that store (-1: none, or the previous
  // token came from the α bucket and was added at once). Its entry stays listed even if this
  // token leaves it with count zero in `counts` (DecrementKeeping).
  int pending = -1;
  for (int i = 0; i < n; ++i) {
    counts.DecrementKeeping(z[i], pending);
    const double* next = table.column(words[ahead]);
    if (++ahead == n) ahead = 0;
    int entry;
    const int k =
        DrawTopic(table, words[i], next, counts, pending, cumulative, engine, alpha_draws, entry);
    z[i] = k;
    if (pending >= 0) counts.IncrementEntry(pending);
    pending = entry;
    if (entry < 0) counts.Increment(k);
  }
  if (pending >= 0) counts.IncrementEntry(pending);
  doc.alpha_draws_ += alpha_draws;
}

}  // namespace sgmcmc::eval
