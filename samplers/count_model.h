// The count-model interface of the simplex samplers (SGRLD, SCIR) and its data types.
//
// Models with Dirichlet-distributed simplex parameters ω_k (categorical data, LDA topics, DP
// mixture atoms) enter SGRLD (Patterson & Teh 2013, §4 eq. 10) and SCIR (Baker et al. 2018,
// §3.1 Algorithm 1) only through the minibatch estimate of the sufficient statistics
//   ĉ_kj = (N/n) Σ_{i∈S} z_ikj        (expected counts when the z are latent, as in LDA),
// already scaled by N/n. A CountModel fills these into a SimplexCounts; SGRLD and SCIR both
// consume a SimplexCounts (or a dense view), so one model runs under either sampler unchanged.
//
//  - SimplexCounts: ĉ for `rows` simplices of dimension `cols`, compressed sparse rows: per
//    row the non-zero (column, scaled count) pairs sorted by column, plus each row's total
//    ĉ_k· (SGRLD's drift needs it). Zero counts are not stored: in LDA most topic-word counts
//    of a minibatch are zero, and the samplers run a dedicated fast path over them.
//  - DenseCountsView: a non-owning row-major rows x cols view of dense counts (a single
//    simplex is rows = 1).
//  - SimplexParameters: read access to the current ω (a model computing expected counts needs
//    it; every simplex sampler implements it).
//  - CountModel: the model interface, in the spirit of Ceres' CostFunction: one const method
//    that fills a caller-owned SimplexCounts.
//
// Cost: Append is O(1) amortised; SetRow O(row's entries); FromTriplets sorts, O(nnz log nnz); row access O(1). A
// SimplexCounts keeps its capacity across Reset, so refilling it allocates nothing once warm.
//
// Example:
//   SimplexCounts counts(/*rows=*/1, /*cols=*/10);
//   counts.Append(/*row=*/0, /*col=*/2, /*scaled_count=*/100.0);
//   counts.Append(0, 7, 300.0);
//   scir.Step(counts, /*h=*/0.1);
//
//   // One model, either sampler (Sgrld or Scir):
//   absl::Span<const int64_t> batch = minibatch.Draw(engine);
//   model.ScaledCounts(engine, batch, sampler, counts);
//   sampler.Step(counts, h);
#ifndef SGMCMC_SAMPLERS_COUNT_MODEL_H_
#define SGMCMC_SAMPLERS_COUNT_MODEL_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/check.h"
#include "rng/engine.h"

namespace sgmcmc::samplers {

// One row of counts in sparse form: the non-zero entries, columns strictly increasing.
struct SparseCountsRow {
  absl::Span<const int32_t> cols;
  absl::Span<const double> values;  // scaled counts, each finite and > 0
  double total = 0;                 // Σ values
};

// Scaled (expected) counts of `rows` simplices of dimension `cols` in compressed sparse rows.
class SimplexCounts {
 public:
  // A (col, value) entry of a row, for FromTriplets.
  struct Triplet {
    int32_t row;
    int32_t col;
    double value;
  };

  SimplexCounts() = default;
  // An all-zero rows x cols matrix; rows >= 1, cols >= 1 (checked).
  SimplexCounts(int rows, int cols) { Reset(rows, cols); }

  // Makes this an all-zero rows x cols matrix, keeping the allocated capacity.
  void Reset(int rows, int cols);

  // Adds the entry (row, col) = value. Entries must arrive in strictly increasing (row, col)
  // order (rows may be skipped); value must be finite and >= 0, and a zero value is not
  // stored. Violations are programmer errors (checked).
  void Append(int row, int col, double value);

  // Filling by rows from several threads: ResetRowSizes makes this an all-zero rows x cols
  // matrix whose row r will hold row_sizes[r] (>= 0) entries (O(rows); keeps the capacity;
  // Append is not allowed until the next Reset), then SetRow writes each row once, its
  // entries in the reserved slots. SetRow calls on different rows write disjoint memory, so
  // they may run concurrently; the result equals Append-ing the same entries in order (the
  // row total summed in column order, bit for bit).
  void ResetRowSizes(int rows, int cols, absl::Span<const int64_t> row_sizes);
  // Row `row`'s entries: cols.size() == values.size() == its reserved size, columns strictly
  // increasing in [0, cols), values finite and > 0 (all checked).
  void SetRow(int row, absl::Span<const int32_t> cols, absl::Span<const double> values);

  // The sum of the triplets with equal (row, col) (any order; values finite, >= 0). Returns
  // InvalidArgument naming the triplet index for an out-of-range row/col or a bad value.
  static absl::StatusOr<SimplexCounts> FromTriplets(int rows, int cols,
                                                    std::vector<Triplet> triplets);
  // The non-zero entries of a dense row-major rows x cols matrix (values finite, >= 0).
  static absl::StatusOr<SimplexCounts> FromDense(int rows, int cols,
                                                 absl::Span<const double> values);

  int rows() const { return static_cast<int>(row_totals_.size()); }
  int cols() const { return cols_; }
  // Number of stored (non-zero) entries.
  int64_t nonzeros() const { return static_cast<int64_t>(values_.size()); }

  SparseCountsRow row(int r) const {
    SGMCMC_DCHECK(r >= 0 && r < rows());
    const int64_t begin = RowBegin(r), end = RowEnd(r);
    return {absl::MakeConstSpan(cols_index_.data() + begin, end - begin),
            absl::MakeConstSpan(values_.data() + begin, end - begin), row_totals_[r]};
  }
  double row_total(int r) const { return row_totals_[r]; }

  // Writes the dense row-major rows x cols matrix into `out` (size rows * cols, checked).
  void ToDense(absl::Span<double> out) const;

 private:
  int64_t RowBegin(int r) const {
    return r <= last_row_ ? row_begin_[r] : static_cast<int64_t>(values_.size());
  }
  int64_t RowEnd(int r) const {
    return r < last_row_ ? row_begin_[r + 1] : static_cast<int64_t>(values_.size());
  }

  int cols_ = 0;
  // Rows <= last_row_ start at row_begin_[r]; rows after last_row_ are empty and start at the
  // end. last_row_ is the row of the latest Append (-1 before any).
  int last_row_ = -1;
  int last_col_ = -1;
  std::vector<int64_t> row_begin_;  // size rows
  std::vector<int32_t> cols_index_;
  std::vector<double> values_;
  std::vector<double> row_totals_;  // size rows
};

// A non-owning view of dense scaled counts, rows x cols row-major (each entry finite, >= 0).
struct DenseCountsView {
  int rows = 0;
  int cols = 0;
  absl::Span<const double> values;  // size rows * cols

  // A single simplex: rows = 1, cols = counts.size().
  static DenseCountsView Vector(absl::Span<const double> counts) {
    return {1, static_cast<int>(counts.size()), counts};
  }
  absl::Span<const double> row(int r) const {
    return values.subspan(static_cast<size_t>(r) * cols, cols);
  }
};

// Read access to the current simplex parameters ω (rows x cols, each row on the simplex).
class SimplexParameters {
 public:
  virtual ~SimplexParameters() = default;
  virtual int rows() const = 0;
  virtual int cols() const = 0;
  // ω_row into `out` (size cols). Entries are >= 0 and sum to 1; a component far below the
  // double range may be exactly 0 here, so take logs through LogSimplex.
  virtual void Simplex(int row, absl::Span<double> out) const = 0;
  // log ω_row into `out` (size cols): always finite for SCIR, see the sampler's header.
  virtual void LogSimplex(int row, absl::Span<double> out) const = 0;
  // ω at the columns `columns` (each in [0, cols())) of every row into `out`, row-major
  // rows x columns.size(): out[k * columns.size() + j] = ω_{k, columns[j]}, the same values
  // as Simplex. The default goes through Simplex, O(rows x cols) per call; the simplex
  // samplers gather, O(rows x columns.size()).
  virtual void SimplexColumns(absl::Span<const int32_t> columns, absl::Span<double> out) const;
  // ω_{·, col} (col in [0, cols())) as rows() contiguous doubles, for parameters that store
  // them column by column (models/lda/distributed_lda.cc's gathered columns), so that a reader
  // copies a column instead of gathering it; nullptr (the default) for parameters stored by
  // row. Either every column or none is available.
  virtual const double* ContiguousColumn(int32_t /*col*/) const { return nullptr; }
};

// A model whose simplex parameters have a Dirichlet prior and whose likelihood enters through
// the (expected) counts of each component. As for GradientModel, the driver draws the
// minibatch of item ids (samplers/minibatch.h) from its own engine and passes it in.
class CountModel {
 public:
  virtual ~CountModel() = default;

  // Number of simplices (rows of the parameter matrix), >= 1.
  virtual int num_simplices() const = 0;
  // Dimension of each simplex (columns), >= 2.
  virtual int dimension() const = 0;
  // N, the number of data items; item ids are 0 .. N-1.
  virtual int64_t num_items() const = 0;
  // Dirichlet prior concentrations: one value (symmetric prior) or dimension() values.
  virtual std::vector<double> PriorConcentration() const = 0;

  // Resets `counts` to num_simplices() x dimension() and fills it with the scaled sufficient
  // statistics (N/n) Σ_{i∈batch} z_ikj of the items in `batch` (n = batch.size() >= 1, ids in
  // [0, N); expected counts when z is latent), given the current parameters. `engine` draws
  // any latent variables (LDA's Gibbs sweeps); models with observed z ignore it and
  // `parameters`.
  virtual void ScaledCounts(rng::Engine& engine, absl::Span<const int64_t> batch,
                            const SimplexParameters& parameters, SimplexCounts& counts) const = 0;
};

}  // namespace sgmcmc::samplers

#endif  // SGMCMC_SAMPLERS_COUNT_MODEL_H_
