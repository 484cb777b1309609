// SGRLD on the probability simplex: stochastic-gradient Riemannian Langevin dynamics in the
// expanded-mean parameterisation with mirroring and the diagonal metric (Patterson & Teh
// 2013, §3 and §4.1 eq. 10; docs/ALGORITHMS.md "SGRLD on the simplex").
//
// Each row k keeps θ_k ∈ (0, ∞)^W with independent Gamma(α_j, 1) priors, ω_k = θ_k / θ_k·,
// metric G(θ) = diag(θ)^{-1}. Given the scaled counts ĉ_kj = (N/n) Σ_{i∈S} z_ikj (expected
// counts for LDA) with row total ĉ_k·, one step of size h is
//   θ_kj ← | θ_kj + (h/2) (α_j − θ_kj + ĉ_kj − ω_kj ĉ_k·) + √θ_kj ζ_kj |,   ζ_kj ~ N(0, h).
// The absolute value is the mirroring (the prior mirrored at 0); the −1 of the prior gradient
// cancels with the curvature term of the metric (Patterson & Teh, Table 1).
//
// Step-size convention: this is the PAPER's, drift h/2 and noise N(0, h θ). Patterson & Teh's
// released code uses a step half as large (drift h, noise √(2hθ)); h_ours = 2 h_their-code.
// Baker et al. (2018) Table 1's SGRLD grid is in the paper's convention, as here.
//
// Implementation: per row, standard normals are drawn in blocks of kNoiseBlock with
// rng::FillNormal and the update runs as straight-line, vectorisable array code (Eigen) over
// the block; the non-zero counts of a SimplexCounts row are added in a sparse pass before the
// mirroring, so a zero count costs nothing extra. θ_k· is kept per row (updated by each step).
//
// Cost: O(W) per row per step: one normal (rng::FillNormal) plus a few vectorised flops per
// coordinate. Measured: samplers/sgrld_benchmark.cc.
//
// Example:
//   SimplexSamplerOptions options;
//   options.rows = 1; options.cols = 10; options.alpha = {0.1}; options.seed = 42;
//   SGMCMC_ASSIGN_OR_RETURN(Sgrld sgrld, Sgrld::Create(options));
//   for (int m = 0; m < iterations; ++m) {
//     model.ScaledCounts(engine, sgrld, counts);
//     sgrld.Step(counts, /*h=*/0.01);
//   }
//   sgrld.Simplex(/*row=*/0, absl::MakeSpan(omega));
#ifndef SGMCMC_SAMPLERS_SGRLD_H_
#define SGMCMC_SAMPLERS_SGRLD_H_

#include <cmath>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "samplers/simplex_sampler.h"

namespace sgmcmc::samplers {

class Sgrld final : public SimplexSampler {
 public:
  // Normals drawn per FillNormal call (stack buffer; part of the random-stream layout).
  static constexpr int kNoiseBlock = 256;

  // InvalidArgument if options.Validate() fails. Every row starts at θ = 1.
  static absl::StatusOr<Sgrld> Create(SimplexSamplerOptions options);

  // θ_row (unnormalised, > 0 except on an exact mirror hit at 0, probability zero) and θ_row·.
  absl::Span<const double> theta(int row) const {
    return absl::MakeConstSpan(theta_.data() + static_cast<size_t>(row) * cols(), cols());
  }
  double row_sum(int row) const { return row_sum_[row]; }
  double LogRowMass(int row) const override { return std::log(row_sum_[row]); }

  // ω_row = θ_row / θ_row·, and log ω_row = log θ_row − log θ_row·.
  void Simplex(int row, absl::Span<double> out) const override;
  void LogSimplex(int row, absl::Span<double> out) const override;
  void SimplexColumns(absl::Span<const int32_t> columns, absl::Span<double> out) const override;

  // Unlike SCIR, θ_j = 0 (log θ_j = −inf) is accepted, since a step can reach it (an exact
  // mirror hit) and a checkpoint of such a chain must restore (RestoreState uses SetTheta);
  // each row needs a finite, positive sum.
  absl::Status SetTheta(int row, absl::Span<const double> theta) override;
  absl::Status SetLogTheta(int row, absl::Span<const double> log_theta) override;

 private:
  explicit Sgrld(SimplexSamplerOptions options);

  const char* stored_parameterization() const override { return "theta"; }
  absl::Span<const double> StoredRow(int row) const override { return theta(row); }
  absl::Status SetStoredRow(int row, absl::Span<const double> values) override {
    return SetTheta(row, values);
  }

  void StepRowSparse(int row, const SparseCountsRow& counts, double h,
                     rng::Engine& engine) override;
  void StepRowSparseBlock(int row, const SparseCountsRow& counts, double h,
                          double whole_row_sum, double whole_count_total,
                          rng::Engine& engine) override;
  void StepRowDense(int row, absl::Span<const double> counts, double h,
                    rng::Engine& engine) override;
  double* mutable_theta(int row) { return theta_.data() + static_cast<size_t>(row) * cols(); }

  std::vector<double> theta_;    // rows x cols
  std::vector<double> row_sum_;  // rows
};

}  // namespace sgmcmc::samplers

#endif  // SGMCMC_SAMPLERS_SGRLD_H_
