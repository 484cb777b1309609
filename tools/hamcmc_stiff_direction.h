// A diagnostic of the linear-regression experiments (tools/linear_regression_experiment.h):
// HAMCMC's inverse-Hessian estimate along the stiffest direction of the exact posterior, the
// mechanism behind its gap to SGRLD (//tools:linear_regression --hamcmc_diagnostics).
#ifndef SGMCMC_TOOLS_HAMCMC_STIFF_DIRECTION_H_
#define SGMCMC_TOOLS_HAMCMC_STIFF_DIRECTION_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tools/linear_regression_types.h"

namespace sgmcmc::tools {

// The mechanism behind HAMCMC's gap to SGRLD on a posterior with one stiff direction, measured
// on one chain (seed, stream 100: Figure 2's first replication) in dimension D with the
// resolved tuning. With P the exact posterior precision, v its top eigenvector (eigenvalue
// lambda_1) and u_2 ... u_D the others, before every HAMCMC step t > 2M (warm-up excluded):
//   ratio_t     = (v' H_t^-1 v) / (v' (P + lambda I) v): the curvature H_t assigns to v over
//                 the damped target's; below 1, H_t is too large along v;
//   stiff_gain  = eps_t v' H_t P v: the contraction of the linearised step along v is
//                 |1 - stiff_gain|, so the step overshoots (grows the error) when it is > 2;
//   bulk_gain   = eps_t mean_{k>=2} u_k' H_t P u_k: how far a step moves the other directions
//                 (SGRLD's is eps_t in every direction);
//   alignment   = max over the M-1 pairs in memory of D (v's)^2 / |s|^2 (1 for a direction
//                 uniform on the sphere, D when s = v).
// Cost: one chain of T steps plus D + 2 L-BFGS products per step (O(M D^2)), and an O(D^3)
// eigendecomposition.
struct HamcmcStiffDirection {
  LinearRegressionMethod method = LinearRegressionMethod::kHamcmc2;
  LinearRegressionTuning tuning;
  int dimension = 0;
  double stiff_eigenvalue = 0;  // lambda_1
  double bulk_eigenvalue = 0;   // mean of the other eigenvalues
  int64_t steps = 0;            // HAMCMC steps measured (t = 2M+1 ... T)
  // Quantiles at kQuantileLevels over the steps.
  static constexpr double kQuantileLevels[5] = {0.01, 0.1, 0.5, 0.9, 0.99};
  double ratio[5] = {};
  double stiff_gain[5] = {};
  double bulk_gain[5] = {};
  double alignment[5] = {};
  double overshoot_fraction = 0;  // share of the steps with stiff_gain > 2
  // The same share among the steps whose alignment is below / at or above its median.
  double overshoot_fraction_low_alignment = 0;
  double overshoot_fraction_high_alignment = 0;
  // sum_t bulk_gain_t / M: the bulk directions' integrated progress per sub-chain (HAMCMC's
  // sample t moves theta_{t-M}), against SGRLD's sum_t eps_t with its tuned a.
  double bulk_progress = 0;
  double sgrld_progress = 0;
  // The first t with |theta_t - theta_bar|^2 > 1e6 (|theta_bar|^2 + tr Sigma) or not finite
  // (the steps before it are measured), 0 if none.
  int64_t diverged_at = 0;
  // ||theta_bar - theta_hat_T||^2 (eq. 12) of this chain; infinite if it diverged.
  double final_error = 0;
};

// InvalidArgument as RunLinearRegressionFigure2, or if `method` is not HAMCMC.
absl::StatusOr<HamcmcStiffDirection> DiagnoseHamcmcStiffDirection(
    const LinearRegressionOptions& options, int dimension, LinearRegressionMethod method);

// The table of DiagnoseHamcmcStiffDirection results.
std::string HamcmcStiffDirectionTable(const std::vector<HamcmcStiffDirection>& results);

}  // namespace sgmcmc::tools

#endif  // SGMCMC_TOOLS_HAMCMC_STIFF_DIRECTION_H_
