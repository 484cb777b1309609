#include "models/lda_gibbs.h"

#include <utility>

#include "rng/uniform.h"

namespace sgmcmc::models {
namespace {

constexpr int kPrefetchAhead = 2;

// Draws the topic of one token from p(k) ∝ (α + n_dk) π_kw, where `counts` already excludes
// the token. Two buckets, see the header. `next_column` (the column of a token kPrefetchAhead
// positions later, or null) is prefetched at the document's topics while the sparse masses
// are summed: the columns of a minibatch do not fit in L2, and later tokens mostly need the
// same topics.
inline int DrawTopic(const MinibatchTopicTable& table, int u, const double* next_column,
                     const SparseTopicCounts& counts, double* cumulative, rng::Engine& engine,
                     int64_t& alpha_draws) {
  SGMCMC_DCHECK(u >= 0 && u < table.num_words())
      << "GibbsSweep: local word id " << u << " outside the table's [0, " << table.num_words()
      << ")";
  const double* column = table.column(u);
  const SparseTopicCounts::Entry* entries = counts.entries().data();
  const int nnz = counts.num_nonzero();
  double sparse_mass = 0;
  for (int j = 0; j < nnz; ++j) {
    __builtin_prefetch(next_column + entries[j].topic);
    sparse_mass += entries[j].count * column[entries[j].topic];
    cumulative[j] = sparse_mass;
  }
  const double x = rng::UniformDouble(engine) * (sparse_mass + table.alpha_mass(u));
  if (x < sparse_mass) {
    // The first j with cumulative[j] > x is the number of cumulative masses <= x (they do
    // not decrease), counted without branches; cumulative[nnz - 1] == sparse_mass > x, so
    // j < nnz.
    int j = 0;
    for (int i = 0; i < nnz; ++i) j += cumulative[i] <= x;
    return entries[j].topic;
  }
  ++alpha_draws;
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
  alpha_ = alpha;
  // FillColumns overwrites every column and mass, so the old values may stay.
  columns_.resize(static_cast<size_t>(num_words) * num_topics);
  alpha_mass_.resize(num_words);
  for (auto& table : alias_tables_) table.reset();
  alias_tables_.resize(num_words);
  alias_once_ = std::make_unique<std::once_flag[]>(num_words);
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
  const int num_topics = num_topics_;
  for (int u = column_begin; u < column_end; ++u) {
    double* column = columns_.data() + static_cast<size_t>(u) * num_topics;
    double mass = 0;
    for (int k = 0; k < num_topics; ++k) {
      column[k] = topics.at(k, u);
      mass += column[k];
    }
    if (!(mass > 0)) {
      for (int k = 0; k < num_topics; ++k) column[k] = 1;
      mass = num_topics;
    }
    alpha_mass_[u] = alpha_ * mass;
  }
}

void MinibatchTopicTable::BuildAliasTable(int u) const {
  absl::StatusOr<rng::AliasTable> alias = rng::AliasTable::Create(
      absl::MakeConstSpan(columns_.data() + static_cast<size_t>(u) * num_topics_, num_topics_));
  SGMCMC_CHECK(alias.ok()) << "MinibatchTopicTable: column " << u
                           << " is not a valid weight vector: " << alias.status();
  alias_tables_[u] = *std::move(alias);
}

int MinibatchTopicTable::num_alias_tables_built() const {
  int built = 0;
  for (const auto& table : alias_tables_) built += table.has_value();
  return built;
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
      cumulative_(num_topics) {
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
  for (int i = 0; i < n; ++i) {
    const double* next = i + kPrefetchAhead < n ? table.column(words[i + kPrefetchAhead]) : nullptr;
    const int k = DrawTopic(table, words[i], next, doc.counts_, doc.cumulative_.data(), engine,
                            doc.alpha_draws_);
    doc.assignments_[i] = k;
    doc.counts_.Increment(k);
  }
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
  for (int i = 0; i < n; ++i) {
    doc.counts_.Decrement(z[i]);
    const double* next = table.column(words[ahead]);
    if (++ahead == n) ahead = 0;
    const int k = DrawTopic(table, words[i], next, doc.counts_, cumulative, engine, alpha_draws);
    z[i] = k;
    doc.counts_.Increment(k);
  }
  doc.alpha_draws_ += alpha_draws;
}

}  // namespace sgmcmc::models
