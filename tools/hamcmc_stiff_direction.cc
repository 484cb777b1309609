#include "tools/hamcmc_stiff_direction.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "Eigen/Dense"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/types/span.h"
#include "base/status_macros.h"
#include "eval/running_moments.h"
#include "eval/squared_error.h"
#include "tools/linear_regression_chain.h"
#include "tools/linear_regression_tuning.h"
#include "tools/linear_regression_types.h"

namespace sgmcmc::tools {

using linear_regression_internal::IsHamcmc;
using linear_regression_internal::MakeHamcmc;
using linear_regression_internal::MakeProblem;
using linear_regression_internal::Method;
using linear_regression_internal::Problem;
using linear_regression_internal::ResolveTunings;
using linear_regression_internal::Tuning;

absl::StatusOr<HamcmcStiffDirection> DiagnoseHamcmcStiffDirection(
    const LinearRegressionOptions& config, int dimension, LinearRegressionMethod method) {
  SGMCMC_RETURN_IF_ERROR(config.Validate());
  if (!IsHamcmc(method)) {
    return absl::InvalidArgumentError("DiagnoseHamcmcStiffDirection: method must be HAMCMC");
  }
  const int d = dimension;
  SGMCMC_ASSIGN_OR_RETURN(const Problem problem, MakeProblem(config, {absl::StrCat("D", d), d}));
  SGMCMC_ASSIGN_OR_RETURN(const auto tunings,
                          ResolveTunings(config, problem, {Method::kSgld, Method::kSgrld, method}));
  const Tuning& tuning = tunings.at(method);
  SGMCMC_ASSIGN_OR_RETURN(auto sampler,
                          MakeHamcmc(config, problem, method, tuning, config.seed, /*stream=*/100));
  const int memory = sampler->memory();

  Eigen::MatrixXd precision(d, d);
  problem.model.ExpectedFisherInformation(std::vector<double>(d, 0.0),
                                          absl::MakeSpan(precision.data(), d * d));
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(precision);
  const Eigen::VectorXd v = eigen.eigenvectors().col(d - 1);  // eigenvalues ascending
  HamcmcStiffDirection result;
  result.method = method;
  result.tuning = tuning;
  result.dimension = d;
  result.stiff_eigenvalue = eigen.eigenvalues()[d - 1];
  result.bulk_eigenvalue = d > 1 ? eigen.eigenvalues().head(d - 1).mean() : 0;
  const double damped_curvature = result.stiff_eigenvalue + tuning.lambda;

  const std::vector<double> truth(problem.exact.mean.data(), problem.exact.mean.data() + d);
  eval::RunningMoments moments(d, /*track_covariance=*/false);
  std::vector<double> ratio, stiff_gain, bulk_gain, alignment;
  // theta_{t-M} ... theta_{t-1} (column tau mod M) and the alignments of the last M-1 pairs.
  Eigen::MatrixXd history = Eigen::MatrixXd::Zero(d, memory);
  std::vector<double> pair_alignment(memory - 1, 0.0);
  Eigen::VectorXd hv(d), bv(d), hu(d), theta(d);
  const double sgrld_a = tunings.at(Method::kSgrld).a;
  // Farther than this from the posterior mean (or not finite), the chain has diverged.
  const double divergence_radius2 =
      1e6 * (problem.exact.mean.squaredNorm() + problem.exact.covariance.trace());
  for (int64_t t = 1; t <= config.iterations; ++t) {
    const bool measured = t > 2 * memory;
    double bulk = 0;
    if (measured) {
      sampler->lbfgs().ApplyH(v, hv);
      sampler->lbfgs().ApplyB(v, bv);
      ratio.push_back(v.dot(bv) / damped_curvature);
      for (int k = 0; k + 1 < d; ++k) {
        const auto u = eigen.eigenvectors().col(k);
        sampler->lbfgs().ApplyH(u, hu);
        bulk += eigen.eigenvalues()[k] * u.dot(hu);
      }
      bulk /= std::max(1, d - 1);
      alignment.push_back(*std::max_element(pair_alignment.begin(), pair_alignment.end()));
    }
    sampler->Step();
    const double eps = sampler->last_step_size();
    moments.Add(sampler->theta(), eps);
    theta = Eigen::Map<const Eigen::VectorXd>(sampler->theta().data(), d);
    if (!((theta - problem.exact.mean).squaredNorm() <= divergence_radius2)) {
      result.diverged_at = t;
      if (measured) {  // this step's H_t was measured, its gains are not
        ratio.pop_back();
        alignment.pop_back();
      }
      break;
    }
    const Eigen::VectorXd s = theta - history.col(t % memory);
    pair_alignment[t % (memory - 1)] = d * std::pow(v.dot(s), 2) / s.squaredNorm();
    history.col(t % memory) = theta;
    if (measured) {
      stiff_gain.push_back(eps * result.stiff_eigenvalue * v.dot(hv));
      bulk_gain.push_back(eps * bulk);
      result.bulk_progress += eps * bulk / memory;
    }
    result.sgrld_progress += std::pow(sgrld_a / t, 0.51);
  }
  result.final_error = result.diverged_at > 0 ? std::numeric_limits<double>::infinity()
                                              : eval::SquaredError(moments.mean(), truth);
  result.steps = static_cast<int64_t>(ratio.size());
  if (result.steps == 0) return result;

  std::vector<double> sorted_alignment = alignment;
  std::nth_element(sorted_alignment.begin(), sorted_alignment.begin() + sorted_alignment.size() / 2,
                   sorted_alignment.end());
  const double median_alignment = sorted_alignment[sorted_alignment.size() / 2];
  int64_t overshoots = 0, low = 0, low_overshoots = 0, high_overshoots = 0;
  for (size_t i = 0; i < stiff_gain.size(); ++i) {
    const bool overshoot = stiff_gain[i] > 2;
    overshoots += overshoot;
    if (alignment[i] < median_alignment) {
      ++low;
      low_overshoots += overshoot;
    } else {
      high_overshoots += overshoot;
    }
  }
  const int64_t n = result.steps;
  result.overshoot_fraction = static_cast<double>(overshoots) / n;
  result.overshoot_fraction_low_alignment =
      low == 0 ? 0 : static_cast<double>(low_overshoots) / low;
  result.overshoot_fraction_high_alignment =
      n == low ? 0 : static_cast<double>(high_overshoots) / (n - low);
  const auto quantiles = [](std::vector<double> values, double out[5]) {
    std::sort(values.begin(), values.end());
    for (int q = 0; q < 5; ++q) {
      const size_t i =
          static_cast<size_t>(HamcmcStiffDirection::kQuantileLevels[q] * (values.size() - 1));
      out[q] = values[i];
    }
  };
  quantiles(ratio, result.ratio);
  quantiles(stiff_gain, result.stiff_gain);
  quantiles(bulk_gain, result.bulk_gain);
  quantiles(alignment, result.alignment);
  return result;
}

std::string HamcmcStiffDirectionTable(const std::vector<HamcmcStiffDirection>& results) {
  std::string out =
      "\nHAMCMC along the stiff eigenvector v of the exact precision P (one chain; quantiles "
      "1%/10%/50%/90%/99% over the steps t > 2M)\n"
      "  ratio = v'H^-1 v / v'(P + lambda I)v;  gain = eps_t v'H P v (> 2: the step "
      "overshoots along v);\n"
      "  bulk = eps_t mean_k u_k'H P u_k over the other eigenvectors;  align = D (v's)^2/|s|^2 "
      "of the best pair\n";
  for (const HamcmcStiffDirection& r : results) {
    absl::StrAppendFormat(
        &out,
        "D = %d %s (a = %g, lambda = %g, gamma = %g sigma^2/N): lambda_1 = %.4g, mean other "
        "eigenvalue %.4g, %d steps%s\n",
        r.dimension, LinearRegressionMethodLabel(r.method), r.tuning.a, r.tuning.lambda,
        r.tuning.gamma, r.stiff_eigenvalue, r.bulk_eigenvalue, r.steps,
        r.diverged_at > 0
            ? absl::StrCat(" (DIVERGED at t = ", r.diverged_at, ": measured up to there)")
            : "");
    const auto row = [&out, &r](const char* name, const double q[5]) {
      if (r.steps == 0) {  // diverged before the first measured step: no quantiles, not 0s
        absl::StrAppendFormat(&out, "  %-6s %10s %10s %10s %10s %10s\n", name, "-", "-", "-",
                              "-", "-");
        return;
      }
      absl::StrAppendFormat(&out, "  %-6s %10.3g %10.3g %10.3g %10.3g %10.3g\n", name, q[0], q[1],
                            q[2], q[3], q[4]);
    };
    row("ratio", r.ratio);
    row("gain", r.stiff_gain);
    row("bulk", r.bulk_gain);
    row("align", r.alignment);
    absl::StrAppendFormat(
        &out,
        "  overshoot (gain > 2) at %.2f%% of steps (%.2f%% with align below its median, %.2f%% "
        "above); bulk progress per sub-chain %.3g vs SGRLD's sum eps_t %.3g; error@T %.3g\n",
        100 * r.overshoot_fraction, 100 * r.overshoot_fraction_low_alignment,
        100 * r.overshoot_fraction_high_alignment, r.bulk_progress, r.sgrld_progress,
        r.final_error);
  }
  return out;
}

}  // namespace sgmcmc::tools
