#include "tools/linear_regression_experiment.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "Eigen/Dense"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/types/span.h"
#include "base/status_macros.h"
#include "eval/ess.h"
#include "eval/kernel_stein_discrepancy.h"
#include "eval/rhat.h"
#include "eval/running_moments.h"
#include "eval/squared_error.h"
#include "tools/linear_regression_chain.h"
#include "tools/linear_regression_tuning.h"
#include "tools/linear_regression_types.h"
#include "tools/tool_support.h"

namespace sgmcmc::tools {
namespace {

using linear_regression_internal::AverageTraces;
using linear_regression_internal::Clock;
using linear_regression_internal::Info;
using linear_regression_internal::kMethods;
using linear_regression_internal::MakeProblem;
using linear_regression_internal::MakeSampler;
using linear_regression_internal::Method;
using linear_regression_internal::MethodInfo;
using linear_regression_internal::Problem;
using linear_regression_internal::Progress;
using linear_regression_internal::ResolveTunings;
using linear_regression_internal::RunTrace;
using linear_regression_internal::Trace;
using linear_regression_internal::Tuning;

// ESS and split R-hat of one coordinate. HAMCMC's draws interleave M subchains (theta_t
// moves from theta_{t-M}), so they are split into those subchains first (eval/ess.h).
void Diagnostics(const std::vector<double>& draws, int coordinate, int interleave, double* ess,
                 double* rhat) {
  const size_t n = draws.size() / 2 / interleave;
  std::vector<std::vector<double>> chains(interleave, std::vector<double>(n));
  for (size_t t = 0; t < n * interleave; ++t)
    chains[t % interleave][t / interleave] = draws[2 * t + coordinate];
  const std::vector<absl::Span<const double>> spans(chains.begin(), chains.end());
  *ess = eval::EffectiveSampleSize(spans);
  *rhat = eval::SplitRHat(spans);
}

// KSD (eval/kernel_stein_discrepancy.h: IMQ kernel, c = 1, beta = -1/2, V-statistic) of
// draws[0], draws[stride], ... of each of `chains` (2 coordinates per draw, pooled) in the exact
// posterior's whitened coordinates z = L^-1 (theta - theta_bar), Sigma = L L', where the
// target is N(0, I) with score s(z) = L' grad log p(theta) = -z.
absl::StatusOr<double> Figure1Ksd(const std::vector<const std::vector<double>*>& chains,
                                  size_t stride, const models::GaussianPosterior& exact) {
  const Eigen::Matrix2d cholesky = exact.covariance.llt().matrixL();
  const Eigen::Vector2d mean = exact.mean;
  std::vector<double> points, scores;
  for (const std::vector<double>* draws : chains) {
    for (size_t i = 0; 2 * i < draws->size(); i += stride) {
      const Eigen::Vector2d theta((*draws)[2 * i], (*draws)[2 * i + 1]);
      const Eigen::Vector2d z =
          cholesky.triangularView<Eigen::Lower>().solve(Eigen::Vector2d(theta - mean));
      points.insert(points.end(), {z[0], z[1]});
      scores.insert(scores.end(), {-z[0], -z[1]});
    }
  }
  SGMCMC_ASSIGN_OR_RETURN(const eval::KsdEstimate ksd,
                          eval::KernelSteinDiscrepancy(points, scores, /*dimension=*/2, {}, {}));
  return ksd.value();
}

// The stride that thins n draws to at most kLinearRegressionKsdDraws.
size_t KsdStride(size_t n) {
  return std::max<size_t>(1, (n + kLinearRegressionKsdDraws - 1) / kLinearRegressionKsdDraws);
}

}  // namespace

absl::StatusOr<LinearRegressionFigure1> RunLinearRegressionFigure1(
    const LinearRegressionOptions& config) {
  SGMCMC_RETURN_IF_ERROR(config.Validate());
  SGMCMC_ASSIGN_OR_RETURN(const Problem problem, MakeProblem(config, {"fig1", 2}));
  LinearRegressionFigure1 figure1;
  figure1.exact = problem.exact;
  {
    // E V = E_p k0(z, z) / n for n iid draws, and k0(z, z) = |z|^2 + 2 (s(z) = -z, c = 1,
    // beta = -1/2, d = 2) with E |z|^2 = 2.
    const size_t retained = config.iterations - config.iterations / 2;
    const size_t n = (retained + KsdStride(retained) - 1) / KsdStride(retained);
    figure1.ksd_iid = std::sqrt(4.0 / n);
  }
  const int64_t burn_in = config.iterations / 2;
  const std::vector<Method> methods = {Method::kSgld, Method::kPsgld, Method::kSgrld,
                                       Method::kHamcmc2};
  SGMCMC_ASSIGN_OR_RETURN(const auto tunings, ResolveTunings(config, problem, methods));
  const std::vector<double> truth(problem.exact.mean.data(), problem.exact.mean.data() + 2);
  for (Method method : methods) {
    const MethodInfo& info = Info(method);
    const Tuning& tuning = tunings.at(method);
    const int interleave = method == Method::kHamcmc2 ? 2 : 1;
    LinearRegressionFigure1Row row;
    row.method = method;
    row.tuning = tuning;
    std::vector<Trace> traces;
    std::vector<std::vector<double>> pooled[2];    // per coordinate: every chain's sub-chains
    std::vector<std::vector<double>> other_draws;  // retained draws of chains 2, 3, ...
    for (int r = 0; r < config.replications; ++r) {
      SGMCMC_ASSIGN_OR_RETURN(auto sampler, MakeSampler(config, problem, method, tuning,
                                                        config.seed, /*stream=*/1 + r));
      // The first chain (the figure's draws) is "fig1 <method>", the others add their number.
      Progress progress(
          config.progress,
          r == 0 ? absl::StrCat("fig1 ", info.label)
                 : absl::StrFormat("fig1 %s chain %d/%d", info.label, r + 1, config.replications),
          config.iterations);
      std::vector<double> draws;
      draws.reserve(2 * (config.iterations - burn_in));
      eval::RunningMoments running(2, /*track_covariance=*/false);  // eq. 12, from t = 1
      Trace trace;
      double step_seconds = 0, warmup_seconds = 0;
      const Clock::time_point start = Clock::now();
      for (int64_t t = 1; t <= config.iterations; ++t) {
        const Clock::time_point step_start = Clock::now();
        sampler->Step();
        step_seconds += SecondsSince(step_start);
        if (t == burn_in) warmup_seconds = SecondsSince(start);
        if (t > burn_in) {
          draws.insert(draws.end(), sampler->theta().begin(), sampler->theta().end());
        }
        running.Add(sampler->theta(), sampler->last_step_size());
        if (t % config.eval_every == 0) {
          trace.iterations.push_back(t);
          trace.seconds.push_back(step_seconds);
          trace.errors.push_back(eval::SquaredError(running.mean(), truth));
        }
        progress.Update(t, 0);
      }
      const double seconds = SecondsSince(start);
      eval::RunningMoments moments(2, /*track_covariance=*/true);
      for (size_t i = 0; i < draws.size(); i += 2)
        moments.Add(absl::MakeConstSpan(draws.data() + i, 2));
      const std::vector<double> cov = moments.covariance();
      const double covariance_error =
          (Eigen::Map<const Eigen::Matrix2d>(cov.data()) - problem.exact.covariance).norm() /
          problem.exact.covariance.norm();
      double ess[2], rhat[2];
      for (int j = 0; j < 2; ++j) Diagnostics(draws, j, interleave, &ess[j], &rhat[j]);
      row.chain_covariance_errors.push_back(covariance_error);
      row.chain_rhats.push_back(std::max(rhat[0], rhat[1]));
      SGMCMC_ASSIGN_OR_RETURN(const double ksd,
                              Figure1Ksd({&draws}, KsdStride(draws.size() / 2), problem.exact));
      row.chain_ksds.push_back(ksd);
      const size_t n = draws.size() / 2 / interleave;
      for (int j = 0; j < 2; ++j) {
        for (int m = 0; m < interleave; ++m) {
          std::vector<double> chain(n);
          for (size_t i = 0; i < n; ++i) chain[i] = draws[2 * (i * interleave + m) + j];
          pooled[j].push_back(std::move(chain));
        }
      }
      traces.push_back(std::move(trace));
      if (r > 0) {
        other_draws.push_back(std::move(draws));
        continue;
      }
      // The first chain's draws are the figure's.
      row.warmup_seconds = warmup_seconds;
      row.seconds = seconds;
      // lp__ of the CmdStan layout: log p(theta, x).
      for (size_t i = 0; i < draws.size(); i += 2) {
        row.log_joint.push_back(problem.model.LogJoint(absl::MakeConstSpan(draws.data() + i, 2)));
      }
      row.mean_error = eval::SquaredError(moments.mean(), truth);
      row.covariance_error = covariance_error;
      std::copy(ess, ess + 2, row.ess);
      std::copy(rhat, rhat + 2, row.rhat);
      row.ksd = ksd;
      row.draws = std::move(draws);
    }
    row.trace = AverageTraces(traces);
    // Pooled KSD: every chain thinned by the same stride, kLinearRegressionKsdDraws in all.
    std::vector<const std::vector<double>*> all = {&row.draws};
    for (const std::vector<double>& draws : other_draws) all.push_back(&draws);
    SGMCMC_ASSIGN_OR_RETURN(
        row.pooled_ksd,
        Figure1Ksd(all, KsdStride(row.draws.size() / 2 * all.size()), problem.exact));
    for (int j = 0; j < 2; ++j) {
      const std::vector<absl::Span<const double>> spans(pooled[j].begin(), pooled[j].end());
      row.pooled_rhat = std::max(row.pooled_rhat, eval::SplitRHat(spans));
    }
    figure1.rows.push_back(std::move(row));
  }
  return figure1;
}

absl::StatusOr<LinearRegressionFigure2> RunLinearRegressionFigure2(
    const LinearRegressionOptions& config, int dimension) {
  SGMCMC_RETURN_IF_ERROR(config.Validate());
  const std::string name = absl::StrCat("D", dimension);
  SGMCMC_ASSIGN_OR_RETURN(const Problem problem, MakeProblem(config, {name, dimension}));
  std::vector<Method> methods;
  for (const MethodInfo& info : kMethods) methods.push_back(info.method);
  SGMCMC_ASSIGN_OR_RETURN(const auto tunings, ResolveTunings(config, problem, methods));
  LinearRegressionFigure2 result;
  result.dimension = dimension;
  for (const MethodInfo& info : kMethods) {
    const Tuning& tuning = tunings.at(info.method);
    std::vector<Trace> traces;
    for (int r = 0; r < config.replications; ++r) {
      SGMCMC_ASSIGN_OR_RETURN(auto sampler,
                              MakeSampler(config, problem, info.method, tuning, config.seed,
                                          /*stream=*/100 + r));
      Progress progress(config.progress,
                        absl::StrFormat("fig2 D=%d %s rep %d/%d", dimension, info.label, r + 1,
                                        config.replications),
                        config.iterations);
      const Trace trace = RunTrace(*sampler, problem, config.iterations, config.eval_every,
                                   config.estimate_burn_in, &progress);
      traces.push_back(trace);
    }
    result.methods.push_back(info.method);
    result.tunings.push_back(tuning);
    result.traces.push_back(AverageTraces(traces));
  }
  return result;
}

}  // namespace sgmcmc::tools
