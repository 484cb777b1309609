// SimplexSampler: what SGRLD (samplers/sgrld.h) and SCIR (samplers/scir.h) share — the
// options, the row-wise layout of many simplices, the random-stream layout and the row-range
// step that makes multi-threaded runs bit-identical to single-threaded ones.
//
// Both samplers keep an unnormalised θ_kj > 0 per component with independent Gamma(α_j, 1)
// priors and report ω_k = θ_k / Σ_j θ_kj, which then has a Dirichlet(α) prior (Baker et al.
// 2018 §2.2; Patterson & Teh 2013 §3, expanded-mean). A sampler holds `rows` simplices
// of dimension `cols` (a K x W topic matrix, or rows = 1 for a single vector), row-major.
//
// Random streams: the step number t (1, 2, ... per row) of row k draws all its randomness
// from rng::Engine(seed, SimplexStreamId(t, k)), with the 64-bit stream id laid out as
//   bits 63..56  kSimplexStreamTag (0x5C), reserving these streams for the simplex samplers
//   bits 55..24  t, the row's step number (< 2^32)
//   bits 23..0   k, the row (< 2^24)
// so a row's trajectory depends only on (seed, k, its counts and step sizes): StepRows over
// any split of the rows, in any order, on any number of threads gives bit-identical results.
// Other users of the same seed (minibatch selection, Gibbs sweeps) must use streams whose top
// byte is not 0x5C (e.g. small stream ids); 0x5D is LazyScir's (its reads between steps,
// samplers/scir_lazy.h).
//
// Cost: per step O(rows x cols) plus O(rows) engine set-ups; see the samplers.
//
// Example (several threads, one step):
//   SGMCMC_ASSIGN_OR_RETURN(Scir scir, Scir::Create(options));
//   // thread i of T:
//   scir.StepRows(counts, h, i * rows / T, (i + 1) * rows / T);
#ifndef SGMCMC_SAMPLERS_SIMPLEX_SAMPLER_H_
#define SGMCMC_SAMPLERS_SIMPLEX_SAMPLER_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "rng/engine.h"
#include "samplers/count_model.h"
#include "samplers/simplex_sampler_state.pb.h"

namespace sgmcmc::samplers {

struct SimplexSamplerOptions {
  // Number of simplices (rows), in [1, 2^24). Default 1.
  int rows = 1;
  // Dimension of each simplex (columns), >= 2. Default 2.
  int cols = 2;
  // Dirichlet prior concentrations α: one value (symmetric prior) or `cols` values; each
  // finite and > 0 (tiny values such as 1e-4 are fine). Default {0.1}.
  std::vector<double> alpha = {0.1};
  // Key of every random stream (see the stream layout above). Any value. Default 0.
  uint64_t seed = 0;

  absl::Status Validate() const;
};

inline constexpr uint64_t kSimplexStreamTag = 0x5C;
inline constexpr int kSimplexStreamRowBits = 24;
inline constexpr int kSimplexStreamStepBits = 32;

// The stream id of step `step` (>= 0, < 2^32; step 0 is reserved for initialisation) of row
// `row` (>= 0, < 2^24).
uint64_t SimplexStreamId(uint64_t step, int row);

// Largest log θ a setter (and so a checkpoint) may give: θ <= e^512 ≈ 2.3e222. A chain's θ
// are Gamma-like variables of the order of the counts (log θ of a few tens); the bound keeps
// a step's products and row sums of such a θ far from overflow (a finite log θ of 1e8, taken
// before, made θ = inf and every later draw NaN; found by //fuzz:lda_checkpoint_fuzzer).
inline constexpr double kMaxSimplexLogTheta = 512;
inline constexpr double kMaxSimplexTheta = 2.2844135865397565e222;  // exp(512) as a double

class SimplexSampler : public SimplexParameters {
 public:
  SimplexSampler(const SimplexSampler&) = default;
  SimplexSampler& operator=(const SimplexSampler&) = default;
  SimplexSampler(SimplexSampler&&) = default;
  SimplexSampler& operator=(SimplexSampler&&) = default;
  ~SimplexSampler() override = default;

  int rows() const override { return options_.rows; }
  int cols() const override { return options_.cols; }
  const SimplexSamplerOptions& options() const { return options_; }
  // α_j of column j (the symmetric value for every j under a symmetric prior).
  double alpha(int col) const { return alpha_[col]; }
  bool symmetric_prior() const { return options_.alpha.size() == 1; }
  // Number of steps row `row` has taken.
  int64_t steps(int row) const { return steps_[row]; }
  // Restores every row's step count (a checkpoint's steps(row), one per row, each in
  // [0, 2^32)), so the next step draws from the same stream as in the uninterrupted run.
  // InvalidArgument naming the row otherwise.
  absl::Status SetSteps(absl::Span<const int64_t> steps);

  // Advances rows [row_begin, row_end) by one step of size h > 0 (finite) given the scaled
  // counts (rows x cols; only the rows in range are read). Rows are independent: concurrent
  // calls on disjoint row ranges are safe. Shape/range/h violations are checked, and so are
  // negative or non-finite counts, in every build (SimplexCounts checks on Append; dense
  // counts by one vectorised pass per call, ~0.1 ns per entry).
  void StepRows(const SimplexCounts& counts, double h, int row_begin, int row_end);
  void StepRows(const DenseCountsView& counts, double h, int row_begin, int row_end);
  // The same step for one row whose counts come as a sparse row (e.g. assembled by a thread
  // that owns the row, without a SimplexCounts): columns strictly increasing in [0, cols),
  // values finite and > 0, total their sum in column order (all checked, O(entries)). Bit for
  // bit the step StepRows takes with a SimplexCounts holding that row.
  void StepRow(int row, const SparseCountsRow& counts, double h);
  // StepRow for a sampler that holds one block of columns of a wider simplex (the column
  // blocks of models/lda/distributed_lda.h): the same update of these columns, with the whole
  // row's mass Σ_j θ_j = `whole_row_sum` and count total ĉ_· = `whole_count_total` where the
  // update depends on them (SGRLD's ω ĉ_· term; SCIR's entries move independently, so for
  // it this is StepRow). `counts` as for StepRow, its total this block's; both wholes finite,
  // > 0 and >= 0 (checked).
  void StepRowBlock(int row, const SparseCountsRow& counts, double h, double whole_row_sum,
                    double whole_count_total);
  // log Σ_j θ_row,j, the log of the row's mass (ω = θ / Σθ).
  virtual double LogRowMass(int row) const = 0;
  void Step(const SimplexCounts& counts, double h) { StepRows(counts, h, 0, rows()); }
  void Step(const DenseCountsView& counts, double h) { StepRows(counts, h, 0, rows()); }

  // ω of rows [row_begin, row_end) into `out`, row-major, size (row_end - row_begin) * cols.
  void SimplexRows(int row_begin, int row_end, absl::Span<double> out) const;

  // ω at `columns` of every row (see SimplexParameters), gathered from the stored rows:
  // O(rows x columns.size()), one call per block of columns (no virtual call per entry).
  void SimplexColumns(absl::Span<const int32_t> columns,
                      absl::Span<double> out) const override = 0;

  // Replaces row `row`'s unnormalised parameter: θ (each finite and > 0) or log θ (each
  // finite), with log θ <= kMaxSimplexLogTheta. InvalidArgument names the row and entry. Rows
  // start at θ = 1 (uniform ω).
  virtual absl::Status SetTheta(int row, absl::Span<const double> theta) = 0;
  virtual absl::Status SetLogTheta(int row, absl::Span<const double> log_theta) = 0;

  // Checkpoint (samplers/simplex_sampler_state.proto): the stored rows and the step counts.
  SimplexSamplerState SaveState() const;
  // InvalidArgument naming the field if the state was written by another kind of sampler, has
  // another shape, or holds a row the setter rejects (rows before it are then restored).
  absl::Status RestoreState(const SimplexSamplerState& state);

 protected:
  // The parameterisation the sampler stores and steps ("log_theta" or "theta"), row `row` of
  // it, and its setter (SetLogTheta or SetTheta); restoring it restores the row bit for bit.
  virtual const char* stored_parameterization() const = 0;
  virtual absl::Span<const double> StoredRow(int row) const = 0;
  virtual absl::Status SetStoredRow(int row, absl::Span<const double> values) = 0;

  // `options` must be valid (callers Validate first).
  explicit SimplexSampler(SimplexSamplerOptions options);

  // One step of row `row` with the given randomness; `counts` has cols entries (dense) or the
  // row's sparse entries.
  virtual void StepRowSparse(int row, const SparseCountsRow& counts, double h,
                             rng::Engine& engine) = 0;
  virtual void StepRowDense(int row, absl::Span<const double> counts, double h,
                            rng::Engine& engine) = 0;
  // StepRowBlock's step (see there); the default, for samplers whose entries move
  // independently, is StepRowSparse.
  virtual void StepRowSparseBlock(int row, const SparseCountsRow& counts, double h,
                                  double whole_row_sum, double whole_count_total,
                                  rng::Engine& engine) {
    StepRowSparse(row, counts, h, engine);
  }

  // Checks row and span size for SetTheta / SetLogTheta; `what` names the caller.
  absl::Status ValidateRowInput(const char* what, int row, absl::Span<const double> values) const;

  absl::Span<const double> alpha_vector() const { return alpha_; }

 private:
  void CheckStepArguments(const char* what, int counts_rows, int counts_cols, double h,
                          int row_begin, int row_end) const;
  // CHECK-fails naming the row if a dense count of the row is negative or not finite.
  static void CheckDenseCounts(absl::Span<const double> counts, int row);
  rng::Engine NextEngine(int row);
  // CHECK-fails unless `counts` is a valid sparse row of `row` (see StepRow).
  void CheckSparseRow(const char* what, int row, const SparseCountsRow& counts) const;

  SimplexSamplerOptions options_;
  std::vector<double> alpha_;   // cols entries
  std::vector<int64_t> steps_;  // rows entries
};

}  // namespace sgmcmc::samplers

#endif  // SGMCMC_SAMPLERS_SIMPLEX_SAMPLER_H_
