// Sparse exact Gibbs sampling of one document's topic assignments with the topics π fixed:
// the inner loop of SG-MCMC LDA (Patterson & Teh 2013, §4.1 eq. 11; Baker et al. 2018, §5.1)
// and of the document-completion perplexity (Wallach et al. 2009).
//
// The conditional of token i of document d with word w is
//   p(z_i = k | z_{\i}, w, π) ∝ (α + n_dk^{\i}) π_kw
// and is split into two buckets (the doc-sparse half of Yao, Mimno & McCallum 2009):
//   - the per-word part α π_kw, with mass α Σ_k π_kw, sampled from a table built once per
//     minibatch for each distinct word (MinibatchTopicTable): the cumulative sums of π_{·w}
//     at every kAlphaBlock-th topic, so a draw (by inversion) compares its uniform with every
//     kAlphaBlock-th of these block sums, then with at most kAlphaBlock - 1 block sums, then
//     scans at most kAlphaBlock topics (K = 5000: 19 + 15 + 16 steps instead of 312 + 16 with
//     a scan of every block sum). The table costs one pass over the column, fused
//     with computing its mass, and no allocation; the bucket is rare (its mass is α K π̄_w
//     against n_d π_w|d), so an O(1) alias table (O(K) to build per word) would not pay.
//     Measured at large K (issue 29, bench/README "The sparse sweep at large K"): Walker/Vose
//     alias draws in place of this table, their construction left out of the timing, were no
//     faster at K = 1000 and 5000 (~10% slower in the quieter measurement), also where 72% of
//     the draws are α-bucket draws; the sparse part below bounds the rate there;
//   - the sparse part n_dk π_kw over the topics present in the document, O(nnz_d), with the
//     document's counts kept in a SparseTopicCounts.
// One uniform x on (0, mass_sparse + mass_alpha) picks the sparse bucket when x < mass_sparse
// (then x itself, uniform on (0, mass_sparse), selects the topic by a linear search of the
// cumulative sparse masses) and the α bucket otherwise (with a second uniform). No
// Metropolis-Hastings step, no approximation: the draw has exactly the conditional above
// (tested by chi-squared and against the enumerated joint law). Within a sweep, a token's
// count is stored only after the next token's draw, which draws that token's mass π_kw at its
// topic as a piece of its own before the cumulative sparse masses: the same conditional, and
// the CPU sums one token's masses while the previous token's search is still running.
//
// Cost: O(nnz_d) per token update, nnz_d = number of distinct topics in the document (after
// the first sweeps usually far below K), plus O(K / kAlphaBlock^2 + kAlphaBlock) with
// probability mass_alpha / (mass_alpha + mass_sparse). The table costs O(K) per distinct
// word. Measured: models/lda/gibbs_benchmark.cc. Scalar code (the baseline x86-64 build, SSE2):
// AVX2 versions of the mass loop and of both searches (four topics per instruction, the same
// draws, dispatched at run time) were measured no faster at K = 100 and 1000 and are not kept
// (bench/README.md, "The sparse sweep at large K").
//
// Example:
//   // topics: K x U, column u = π_{·w} of the minibatch's u-th distinct word.
//   MinibatchTopicTable table = MinibatchTopicTable::Build(topics, alpha);
//   DocumentGibbsState doc(local_word_ids, num_topics);
//   rng::Engine engine(seed, /*stream=*/document_slot);
//   InitializeAssignments(table, engine, doc);
//   for (int s = 0; s < sweeps; ++s) GibbsSweep(table, engine, doc);
#ifndef SGMCMC_EVAL_LDA_GIBBS_H_
#define SGMCMC_EVAL_LDA_GIBBS_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "base/check.h"
#include "rng/engine.h"

namespace sgmcmc::eval {

// Topic-word probabilities restricted to the distinct words of a minibatch: a K x U
// row-major matrix whose column u holds π_{·w} of the minibatch's u-th word (its "local id").
// Rows are slices of the topic distributions π_k (they need not sum to 1). A view; the caller
// owns the storage.
struct TopicColumnsView {
  absl::Span<const double> values;  // size num_topics * num_words, entries >= 0
  int num_topics = 0;
  int num_words = 0;

  double at(int k, int u) const { return values[static_cast<size_t>(k) * num_words + u]; }
};

// π restricted to the distinct words of a minibatch, word-major (one contiguous column of K
// probabilities per word, so a token's sparse bucket and α bucket read nearby memory), with
// the per-word tables of the α bucket. Built once per minibatch; read-only (and so shareable
// across threads) afterwards.
class MinibatchTopicTable {
 public:
  // Topics per block of the α-bucket table (see the file comment).
  static constexpr int kAlphaBlock = 16;

  // Transposes `topics` (K x U, cache-blocked) and builds the U per-word tables; `alpha` > 0
  // is the symmetric document-topic Dirichlet parameter. Columns [column_begin, column_end)
  // only: the table of a minibatch can be built by several threads, each over its own column
  // range, into one table made by Allocate (see below). Build = Allocate + FillColumns over
  // all columns. A word whose column is all zero (possible only through underflow) is treated
  // as equally likely under every topic, so its conditional reduces to p(k) ∝ α + n_dk.
  // Entries must be finite and >= 0 (checked). Cost: O(K U).
  static MinibatchTopicTable Build(const TopicColumnsView& topics, double alpha);
  static MinibatchTopicTable Allocate(int num_topics, int num_words, double alpha);
  void FillColumns(const TopicColumnsView& topics, int column_begin, int column_end);
  // The same from a slice: `block` (K x W) holds columns [first_column, first_column + W) of
  // the minibatch's K x U matrix, so a caller can produce π a few hundred words at a time
  // (in cache) instead of the whole K x U matrix first.
  void SetColumns(int first_column, const TopicColumnsView& block);
  // The same for one column u from K contiguous values (a copy, O(K)).
  void SetColumn(int u, const double* column);
  // Every column from φ (K x V, row-major) at `words`: column u = φ_{·, words[u]}
  // (eval::GatherTopicColumns into the table's own storage, then the α tables). Requires
  // num_words() == |words|, topics.size() == K V and every word in [0, V) (CHECKed). O(K U).
  void GatherColumns(absl::Span<const double> topics, int vocabulary_size,
                     absl::Span<const int32_t> words);
  // Makes this an unfilled table of the given size (as Allocate), reusing its storage: the
  // next minibatch's table without reallocating.
  void Reset(int num_topics, int num_words, double alpha);

  int num_topics() const { return num_topics_; }
  int num_words() const { return static_cast<int>(alpha_mass_.size()); }
  double alpha() const { return alpha_; }

  // π_{·w} of local word u: K contiguous probabilities.
  const double* column(int u) const {
    return columns_.data() + static_cast<size_t>(u) * num_topics_;
  }
  // π_kw of topic k and local word u.
  double at(int k, int u) const { return column(u)[k]; }
  // α Σ_k π_kw of local word u.
  double alpha_mass(int u) const { return alpha_mass_[u]; }
  // Draws k with probability π_kw / Σ_k' π_k'w for local word u, by inversion of one
  // uniform (one engine word). O(K / kAlphaBlock^2 + kAlphaBlock).
  int SampleAlphaBucket(int u, rng::Engine& engine) const;

 private:
  // Transposes the K x width matrix at `rows` (row stride `row_stride`) into columns
  // [first_column, first_column + width) and computes their masses and block sums.
  void CopyColumns(const double* rows, size_t row_stride, int first_column, int width);
  // Masses and block sums of column u (its values written).
  void FinishColumn(int u);

  int num_topics_ = 0;
  int num_blocks_ = 0;  // ceil(K / kAlphaBlock)
  double alpha_ = 0;
  std::vector<double> columns_;     // num_words x num_topics
  std::vector<double> alpha_mass_;  // num_words
  // num_words x num_blocks: entry (u, b) is the running sum over blocks b' <= b of the block
  // sums Σ_{k in block b'} π_ku (each summed in topic order); entry (u, num_blocks - 1) is
  // the column's mass.
  std::vector<double> block_cumulative_;
};

// The topic counts n_dk of one document, sparse: the non-zero (topic, count) pairs in an
// unordered dense list plus a K-entry index, so Increment/Decrement are O(1) and a scan over
// the topics present costs O(nnz).
class SparseTopicCounts {
 public:
  struct Entry {
    int32_t topic;
    int32_t count;
  };

  explicit SparseTopicCounts(int num_topics);

  int num_topics() const { return static_cast<int>(position_.size()); }
  // Number of topics with a non-zero count.
  int num_nonzero() const { return size_; }
  // The non-zero entries, in no particular order.
  absl::Span<const Entry> entries() const { return absl::MakeConstSpan(entries_.data(), size_); }
  int count(int k) const { return position_[k] < 0 ? 0 : entries_[position_[k]].count; }
  // The index of topic k in entries(), or -1 if it is not listed.
  int index(int k) const { return position_[k]; }

  void Increment(int k) {
    const int p = position_[k];
    if (p >= 0) {
      ++entries_[p].count;
    } else {
      position_[k] = size_;
      entries_[size_++] = {k, 1};
    }
  }
  // Adds one to the count of the j-th entry of entries(), j < num_nonzero() (DCHECKed).
  void IncrementEntry(int j) {
    SGMCMC_DCHECK(j >= 0 && j < size_) << "SparseTopicCounts::IncrementEntry: entry " << j
                                       << " outside [0, " << size_ << ")";
    ++entries_[j].count;
  }
  // Precondition: count(k) > 0 (DCHECKed).
  void Decrement(int k) {
    const int p = position_[k];
    SGMCMC_DCHECK(p >= 0) << "SparseTopicCounts::Decrement: topic " << k << " has count 0";
    if (--entries_[p].count == 0) {
      const Entry last = entries_[--size_];
      entries_[p] = last;
      position_[last.topic] = p;
      position_[k] = -1;
    }
  }
  // Decrement(k), except that an entry whose count reaches zero stays listed (with count
  // zero) if it is entry `keep` (a caller about to add a token there); if the removal of k's
  // entry moves entry `keep`, `keep` follows it. keep = -1: exactly Decrement(k).
  void DecrementKeeping(int k, int& keep) {
    const int p = position_[k];
    SGMCMC_DCHECK(p >= 0 && entries_[p].count > 0)
        << "SparseTopicCounts::DecrementKeeping: topic " << k << " has count 0";
    // The count first: it is known early, `keep` (the previous draw) late.
    if (__builtin_expect(--entries_[p].count == 0, 0)) {
      if (p == keep) return;
      const Entry last = entries_[--size_];
      entries_[p] = last;
      position_[last.topic] = p;
      position_[k] = -1;
      if (keep == size_) keep = p;
    }
  }
  // Sets every count to zero. O(nnz).
  void Clear();

 private:
  std::vector<int32_t> position_;  // K; index into entries_ or -1
  std::vector<Entry> entries_;     // capacity K; the first size_ are live
  int size_ = 0;
};

// One document's Gibbs state: its tokens as local word ids of a MinibatchTopicTable, their
// topic assignments z and the sparse counts n_dk, plus scratch space for the sweep.
class DocumentGibbsState {
 public:
  DocumentGibbsState(absl::Span<const int32_t> local_words, int num_topics);

  absl::Span<const int32_t> local_words() const { return local_words_; }
  absl::Span<const int32_t> assignments() const { return assignments_; }
  const SparseTopicCounts& counts() const { return counts_; }
  int size() const { return static_cast<int>(local_words_.size()); }

  // Replaces the assignments (each in [0, K), checked) and recomputes the counts.
  void SetAssignments(absl::Span<const int32_t> assignments);

  // Draws from the α bucket since construction (the rest came from the sparse bucket).
  int64_t alpha_draws() const { return alpha_draws_; }

 private:
  friend void GibbsSweep(const MinibatchTopicTable&, rng::Engine&, DocumentGibbsState&);
  friend void InitializeAssignments(const MinibatchTopicTable&, rng::Engine&,
                                    DocumentGibbsState&);
  std::vector<int32_t> local_words_;
  std::vector<int32_t> assignments_;
  SparseTopicCounts counts_;
  // K + 3: the cumulative sparse masses of the current token, then +inf padding.
  std::vector<double> cumulative_;
  int64_t alpha_draws_ = 0;
};

// Sequential initialisation: token i is drawn from p(z_i = k | z_{<i}) ∝ (α + n_dk^{<i}) π_kw,
// i.e. the conditional given the tokens already placed (the same two-bucket draw). Overwrites
// any previous assignment. The table must have been built from the words the state refers to.
void InitializeAssignments(const MinibatchTopicTable& table, rng::Engine& engine,
                           DocumentGibbsState& doc);

// One systematic-scan Gibbs sweep: every token in order is redrawn from its exact conditional
// given all the others.
void GibbsSweep(const MinibatchTopicTable& table, rng::Engine& engine, DocumentGibbsState& doc);

}  // namespace sgmcmc::eval

#endif  // SGMCMC_EVAL_LDA_GIBBS_H_
