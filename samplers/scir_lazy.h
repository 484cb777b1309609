// LazyScir: SCIR on many simplices (samplers/scir.h; Baker, Fearnhead, Fox & Nemeth 2018, §3
// Algorithm 1) whose zero-count entries are not moved one by one: the same Markov chain in law
// as Scir (the same joint law of every θ, every row sum θ_k· and every ω_k = θ_k/θ_k· at every
// step, whatever is read when), at a cost that does not visit the K x V matrix.
// docs/ALGORITHMS.md "Lazy SCIR" has the derivation; in short:
//
// Each row keeps its entries in two sets. Materialised entries hold log θ_j, as in Scir. The
// others form the row's POOL, whose values are never stored: the pool holds its sum S (exact,
// so θ_k· = S + Σ_materialised θ_j is always known) and a latent count P_j >= 0 per pooled
// entry (the "balls", a sparse list), and given everything drawn so far the pooled values are
//   θ_pool = S · D,   D ~ Dirichlet(α + P_j : j in the pool), D independent of S.      (*)
// One step of size h with zero counts on the pool (SCIR's shape â = α, constant) keeps (*):
// by the Poisson mixture of the CIR transition, θ'_j = c Gamma(α + P'_j) with P'_j ~
// Poisson(θ_j r), c = 1 − e^{-h}, r = e^{-h}/c; given (*), N = Σ P'_j ~ Poisson(S r) and
// (P'_j) | N ~ Dirichlet-multinomial(N, α + P) (a Pólya urn: N draws, one uniform each); given
// P', θ' = c Gamma(α + P') are independent, so S' = c Gamma(n α + N) and D' ~ Dir(α + P').
// An entry is materialised (it "departs") when its count is non-zero or when it is read:
// several at once by the aggregation property, G_i ~ Gamma(α + P_i), G_R ~ Gamma(rest of the
// pool's Dirichlet mass), θ_i = S G_i / (Σ G + G_R) and S ← S G_R / (Σ G + G_R), the rest of
// D staying Dirichlet. A materialised entry with a zero count and a small Poisson mean θ r
// "joins" the pool by the same transition (its P'_j ~ Poisson(θ_j r) drawn); the others move by
// Scir's per-entry transition. Every step is therefore exact in law for any sequence of step
// sizes h_m (each step uses its own h; no time is summed, so nothing assumes a constant h),
// and for counts that depend on anything read before the step (LDA's Gibbs counts depend on
// ω of the minibatch's words, hence on θ_k·): tested against Scir in scir_lazy_test.cc.
//
// The simpler shortcut, "advance an untouched entry by ONE CIR transition over its summed
// elapsed time when it is next touched or read", is exact (Chapman-Kolmogorov for the
// time-homogeneous CIR with the constant target shape α) only while nothing reads the row in
// between; θ_k· reads every entry, so with a stale or incrementally kept θ_k· it is not the
// SCIR chain (docs/ALGORITHMS.md "Lazy SCIR"). It is not implemented.
//
// Symmetric priors only (the pool's entries share α). Determinism: a step of row k draws from
// rng::Engine(seed, SimplexStreamId(t, k)) as Scir does (different draws from Scir's: another
// factorisation of the same law), and the materialisations of reads between steps t and t + 1
// from one engine per row on stream LazyScirReadStreamId(t, k); so a run is bit-identical for
// any split of the rows over threads, given the same sequence of calls.
//
// Cost per step of a row: O(m + d + N) with m the materialised entries (the non-zero counts,
// the entries read since the last step and the entries whose θ r >= kJoinMaxPoissonMean), d the
// departures and N ~ Poisson(S r) the pool's balls (one uniform and one random access each);
// reading c materialised columns costs O(c) per row. For LDA: O(K (U + r S_pool)) per
// iteration instead of Scir's O(K V), U the minibatch's distinct words. Memory: 16 bytes per
// entry plus the lists. Measured: models/lda/lda_benchmark.cc (BM_LdaTopicUpdate*).
//
// Reads: SimplexColumns reads materialised entries only (MaterializeColumns first; checked);
// the whole-row readers (Simplex, LogSimplex, log_theta, SaveState) materialise the row first,
// through `mutable` state: they are const for the caller but not safe concurrently on the SAME
// row (different rows are fine, as Lda::Topics splits them).
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(LazyScir scir, LazyScir::Create(options));
//   scir.MaterializeColumns(minibatch_words, 0, scir.rows());   // then read them
//   scir.SimplexColumns(minibatch_words, absl::MakeSpan(pi));
//   scir.Step(counts, h);
#ifndef SGMCMC_SAMPLERS_SCIR_LAZY_H_
#define SGMCMC_SAMPLERS_SCIR_LAZY_H_

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "rng/engine.h"
#include "rng/log_gamma_table.h"
#include "samplers/simplex_sampler.h"

namespace sgmcmc::samplers {

// Stream tag of LazyScir's read materialisations (the layout of SimplexStreamId otherwise).
inline constexpr uint64_t kLazyScirReadStreamTag = 0x5D;
uint64_t LazyScirReadStreamId(uint64_t step, int row);

class LazyScir final : public SimplexSampler {
 public:
  // A materialised entry with a zero count joins the pool when its Poisson mean θ r is below
  // this (else it moves by Scir's transition, cheaper than its r θ balls per step).
  static constexpr double kJoinMaxPoissonMean = 4;

  // InvalidArgument if options.Validate() fails or options.alpha has more than one value.
  // Every row starts at θ = 1 (log θ = 0), every entry materialised.
  static absl::StatusOr<LazyScir> Create(SimplexSamplerOptions options);

  // Materialises the entries `columns` (strictly increasing, in [0, cols)) of rows
  // [row_begin, row_end), so SimplexColumns can read them until the next step of the row.
  // Rows are independent: concurrent calls on disjoint row ranges are safe.
  void MaterializeColumns(absl::Span<const int32_t> columns, int row_begin, int row_end);
  // Materialises every entry of rows [row_begin, row_end).
  void MaterializeRows(int row_begin, int row_end);

  // log θ_row (materialises the row first) and log θ_row· (exact, no materialisation).
  absl::Span<const double> log_theta(int row) const;
  double log_normalizer(int row) const { return rows_[row].log_normalizer; }
  double LogRowMass(int row) const override { return rows_[row].log_normalizer; }
  // Pooled entries of the row and the pool's latent count Σ P_j (for benchmarks and tests).
  int64_t pooled(int row) const { return static_cast<int64_t>(rows_[row].members.size()); }
  int64_t pool_balls(int row) const { return rows_[row].live_balls; }

  void Simplex(int row, absl::Span<double> out) const override;
  void LogSimplex(int row, absl::Span<double> out) const override;
  // Every (row, column) read must be materialised (MaterializeColumns; checked).
  void SimplexColumns(absl::Span<const int32_t> columns, absl::Span<double> out) const override;

  absl::Status SetTheta(int row, absl::Span<const double> theta) override;
  absl::Status SetLogTheta(int row, absl::Span<const double> log_theta) override;

 private:
  struct Slot {
    int32_t position;
    int32_t balls;
  };
  struct Row {
    std::vector<double> log_theta;       // cols; valid where slots[j].position < 0
    // cols: per entry its index into members (-1 when materialised) and P_j (0 unless
    // pooled), side by side so the urn's random accesses touch one cache line per entry.
    std::vector<Slot> slots;
    std::vector<int32_t> members;        // the pooled entries
    // The current generation's balls: one pooled entry per ball (with multiplicity); may
    // also name entries materialised since (skipped at the next step).
    std::vector<int32_t> ball_list;
    std::vector<int32_t> materialized;   // the materialised entries
    double log_pool_sum = -std::numeric_limits<double>::infinity();  // log S
    int64_t live_balls = 0;              // Σ_pool P_j
    double log_normalizer = 0;           // log θ·
    std::optional<rng::Engine> read_engine;  // reads since step read_step
    int64_t read_step = -1;
    // Every entry materialised, listed in column order, log θ· recomputed (MaterializeRow).
    bool canonical = false;
  };

  explicit LazyScir(SimplexSamplerOptions options);

  const char* stored_parameterization() const override { return "log_theta"; }
  absl::Span<const double> StoredRow(int row) const override { return log_theta(row); }
  absl::Status SetStoredRow(int row, absl::Span<const double> values) override {
    return SetLogTheta(row, values);
  }
  void StepRowSparse(int row, const SparseCountsRow& counts, double h,
                     rng::Engine& engine) override;
  void StepRowDense(int row, absl::Span<const double> counts, double h,
                    rng::Engine& engine) override;
  // The step of row `index` with the non-zero counts `values` at `cols` (increasing).
  void AdvanceRow(int index, absl::Span<const int32_t> cols, absl::Span<const double> values,
                  double h, rng::Engine& engine);
  // Materialises the pooled entries `entries` of `row` by the aggregation property.
  void Depart(Row& row, absl::Span<const int32_t> entries, rng::Engine& engine) const;
  // Materialises every pooled entry of row `index`, lists the materialised entries in column
  // order and recomputes log θ· from log θ (as SetLogTheta does, so a checkpoint restores the
  // same state bit for bit).
  void MaterializeRow(int index) const;
  rng::Engine& ReadEngine(int index) const;

  double alpha_;
  mutable std::vector<Row> rows_;
  // log Gamma(α) draws of departures (null outside the table's shapes), and Scir's zero-count
  // table for the materialised entries' transitions.
  std::shared_ptr<const rng::LogGammaTable> departure_table_;
  std::shared_ptr<const rng::LogGammaTable> zero_count_table_;
};

}  // namespace sgmcmc::samplers

#endif  // SGMCMC_SAMPLERS_SCIR_LAZY_H_
