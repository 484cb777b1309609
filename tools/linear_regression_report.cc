#include "tools/linear_regression_report.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "Eigen/Dense"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "base/status_macros.h"
#include "eval/cmdstan_csv.h"
#include "tools/linear_regression_types.h"
#include "tools/tool_support.h"

namespace sgmcmc::tools {
namespace {

using linear_regression_internal::Info;
using linear_regression_internal::MethodInfo;
using Config = LinearRegressionOptions;
using Method = LinearRegressionMethod;
using Trace = LinearRegressionTrace;
using Tuning = LinearRegressionTuning;

struct Spread {
  double mean = 0, min = 0, max = 0;
};

Spread SpreadOf(const std::vector<double>& values) {
  if (values.empty()) return {};
  Spread spread{0, values[0], values[0]};
  for (double v : values) {
    spread.mean += v / values.size();
    spread.min = std::min(spread.min, v);
    spread.max = std::max(spread.max, v);
  }
  return spread;
}

// iteration, then per method the mean error (column named by the label) and mean seconds
// (seconds_<key>), with spread: then <key>_min, <key>_max of the error.
std::string TraceCsv(const std::vector<Method>& methods, const std::vector<const Trace*>& traces,
                     bool spread) {
  std::string csv = "iteration";
  for (Method method : methods) {
    absl::StrAppend(&csv, ",", Info(method).label, ",seconds_", Info(method).key);
    if (spread) absl::StrAppend(&csv, ",", Info(method).key, "_min,", Info(method).key, "_max");
  }
  csv += "\n";
  for (size_t i = 0; i < traces[0]->iterations.size(); ++i) {
    absl::StrAppend(&csv, traces[0]->iterations[i]);
    for (const Trace* trace : traces) {
      absl::StrAppendFormat(&csv, ",%.6g,%.6g", trace->errors[i], trace->seconds[i]);
      if (spread) {
        absl::StrAppendFormat(&csv, ",%.6g,%.6g", trace->errors_min[i], trace->errors_max[i]);
      }
    }
    csv += "\n";
  }
  return csv;
}

// iteration, then per method <key>_min, <key>_max of the error and seconds_<key>_min,
// seconds_<key>_max over the replications, and the mean seconds_<key> (to draw the band
// against time from this file alone).
std::string SpreadCsv(const std::vector<Method>& methods, const std::vector<const Trace*>& traces) {
  std::string csv = "iteration";
  for (Method method : methods) {
    const char* key = Info(method).key;
    absl::StrAppendFormat(&csv, ",%s_min,%s_max,seconds_%s_min,seconds_%s_max,seconds_%s", key, key,
                          key, key, key);
  }
  csv += "\n";
  for (size_t i = 0; i < traces[0]->iterations.size(); ++i) {
    absl::StrAppend(&csv, traces[0]->iterations[i]);
    for (const Trace* trace : traces) {
      absl::StrAppendFormat(&csv, ",%.6g,%.6g,%.6g,%.6g,%.6g", trace->errors_min[i],
                            trace->errors_max[i], trace->seconds_min[i], trace->seconds_max[i],
                            trace->seconds[i]);
    }
    csv += "\n";
  }
  return csv;
}

// Contours of the exact posterior at Mahalanobis radii 1, 2, 3 (gnuplot blocks).
std::string ContourCsv(const models::GaussianPosterior& exact) {
  const Eigen::Matrix2d chol = exact.covariance.llt().matrixL();
  std::string out = "x,y\n";
  for (int radius = 1; radius <= 3; ++radius) {
    for (int k = 0; k <= 200; ++k) {
      const double angle = 2 * M_PI * k / 200;
      const Eigen::Vector2d p =
          exact.mean + radius * chol * Eigen::Vector2d(std::cos(angle), std::sin(angle));
      absl::StrAppendFormat(&out, "%.8g,%.8g\n", p[0], p[1]);
    }
    out += "\n\n";
  }
  return out;
}

// Error of a trace at iteration t (the recorded point at or before t).
double ErrorAt(const Trace& trace, int64_t t) {
  size_t i = 0;
  while (i + 1 < trace.iterations.size() && trace.iterations[i + 1] <= t) ++i;
  return trace.errors[i];
}

// Share of the recorded points after the first 1% of iterations at which `trace` is below
// every trace in `others`.
double WinFraction(const Trace& trace, const std::vector<const Trace*>& others,
                   int64_t iterations) {
  int wins = 0, total = 0;
  for (size_t i = 0; i < trace.iterations.size(); ++i) {
    if (trace.iterations[i] < iterations / 100) continue;
    ++total;
    bool below = true;
    for (const Trace* other : others) below = below && trace.errors[i] < other->errors[i];
    wins += below;
  }
  return total == 0 ? 0 : static_cast<double>(wins) / total;
}

// The tuned per-method values and the errors of Figure 2's summary at T/100, T/10, T/2, T.
struct Figure2SummaryRow {
  double values[4];
  double seconds;
};

Figure2SummaryRow SummaryRow(const Trace& trace, int64_t t) {
  return {
      {ErrorAt(trace, t / 100), ErrorAt(trace, t / 10), ErrorAt(trace, t / 2), trace.errors.back()},
      trace.seconds.back()};
}

std::string Figure1Table(const Config& config, const LinearRegressionFigure1& figure1) {
  std::string out = absl::StrFormat(
      "\nFigure 1: D = 2, sigma^2 = %g, N = %d, N_Omega = %d, T = %d (first half burn-in), "
      "eps_t = (a/t)^0.51\n",
      config.noise_variance, config.num_items, config.batch_size(), config.iterations);
  absl::StrAppendFormat(&out, "%-14s %9s %7s %7s %13s %11s %9s %9s %7s %7s %8s %8s\n", "method",
                        "a", "lambda", "gamma", "|mean err|^2", "cov rel err", "ESS(th1)",
                        "ESS(th2)", "Rhat1", "Rhat2", "seconds", "KSD");
  for (const LinearRegressionFigure1Row& row : figure1.rows) {
    absl::StrAppendFormat(
        &out, "%-14s %9.2g %7.2g %7.2g %13.3e %11.3f %9.0f %9.0f %7.3f %7.3f %8.2f %8.3f\n",
        Info(row.method).label, row.tuning.a, row.tuning.lambda, row.tuning.gamma, row.mean_error,
        row.covariance_error, row.ess[0], row.ess[1], row.rhat[0], row.rhat[1], row.seconds,
        row.ksd);
  }
  absl::StrAppendFormat(&out,
                        "KSD: IMQ kernel (c = 1, beta = -1/2), V-statistic of the retained draws "
                        "thinned to <= %d, in the exact posterior's whitened coordinates (score "
                        "-z); as many iid exact draws give %.3f (sqrt E V)\n",
                        kLinearRegressionKsdDraws, figure1.ksd_iid);
  absl::StrAppendFormat(&out,
                        "Over %d chains (mean [min, max]; R-hat: the worse coordinate, per chain "
                        "and of all chains pooled; HAMCMC split into its M sub-chains):\n",
                        config.replications);
  absl::StrAppendFormat(&out, "%-14s %27s %27s %12s %31s %27s %10s\n", "method", "cov rel err",
                        "R-hat per chain", "R-hat pooled", "eq. 12 |mean err|^2 at T",
                        "KSD per chain", "KSD pooled");
  for (const LinearRegressionFigure1Row& row : figure1.rows) {
    const Spread cov = SpreadOf(row.chain_covariance_errors);
    const Spread rhat = SpreadOf(row.chain_rhats);
    const Spread ksd = SpreadOf(row.chain_ksds);
    absl::StrAppendFormat(&out,
                          "%-14s %7.3f [%7.3f, %7.3f] %7.3f [%7.3f, %7.3f] %12.3f %9.2e [%9.2e, "
                          "%9.2e] %7.3f [%7.3f, %7.3f] %10.3f\n",
                          Info(row.method).label, cov.mean, cov.min, cov.max, rhat.mean, rhat.min,
                          rhat.max, row.pooled_rhat, row.trace.errors.back(),
                          row.trace.errors_min.back(), row.trace.errors_max.back(), ksd.mean,
                          ksd.min, ksd.max, row.pooled_ksd);
  }
  return out;
}

std::string Figure2Table(const Config& config,
                         const std::vector<LinearRegressionFigure2>& figure2) {
  const int64_t t = config.iterations;
  std::string out = absl::StrFormat(
      "\nFigure 2: error ||theta_bar - theta_hat_t||^2 (eq. 12 estimate), mean of %d chains\n",
      config.replications);
  for (const LinearRegressionFigure2& result : figure2) {
    absl::StrAppendFormat(&out, "%-5s %-14s %9s %7s %7s %11s %11s %11s %11s %23s %9s %9s\n", "D",
                          "method", "a", "lambda", "gamma", "err@T/100", "err@T/10", "err@T/2",
                          "err@T", "[min, max] of err@T", "seconds", "us/iter");
    for (size_t m = 0; m < result.methods.size(); ++m) {
      const Figure2SummaryRow row = SummaryRow(result.traces[m], t);
      const Tuning& tuning = result.tunings[m];
      absl::StrAppendFormat(
          &out,
          "%-5d %-14s %9.2g %7.2g %7.2g %11.3e %11.3e %11.3e %11.3e [%9.3e, %9.3e] %9.3f %9.2f\n",
          result.dimension, Info(result.methods[m]).label, tuning.a, tuning.lambda, tuning.gamma,
          row.values[0], row.values[1], row.values[2], row.values[3],
          result.traces[m].errors_min.back(), result.traces[m].errors_max.back(), row.seconds,
          1e6 * row.seconds / t);
    }
    // The paper's claim: HAMCMC below SGLD and pSGLD in error versus iterations.
    const std::vector<const Trace*> baselines = {&result.traces[0], &result.traces[1]};
    for (size_t m = 3; m < result.methods.size(); ++m) {
      absl::StrAppendFormat(
          &out,
          "      %s below both SGLD and pSGLD at %.0f%% of the recorded iterations >= T/100\n",
          Info(result.methods[m]).label,
          100 * WinFraction(result.traces[m], baselines, config.iterations));
    }
  }
  return out;
}

const char* HoldsOrNot(bool holds) { return holds ? "holds" : "does NOT hold"; }

// The paper's Sec. 4.1 statements, each checked on this run's numbers.
std::string PaperClaims(const Config& config, const LinearRegressionFigure1* figure1,
                        const std::vector<LinearRegressionFigure2>& figure2) {
  std::string out = absl::StrFormat(
      "\nThe paper's statements (Sec. 4.1) on this run (%d chains per method; the hypothesis "
      "runs behind the gaps: bench/README.md, \"HAMCMC on the linear-Gaussian model\"):\n",
      config.replications);
  if (figure1 != nullptr && figure1->rows.size() == 4) {
    const auto cov = [&](int m) { return SpreadOf(figure1->rows[m].chain_covariance_errors).mean; };
    const auto rhat = [&](int m) { return figure1->rows[m].pooled_rhat; };
    absl::StrAppendFormat(
        &out,
        "  Fig. 1, SGRLD explores better than SGLD and pSGLD (covariance error %.3f vs %.3f, "
        "%.3f): %s\n",
        cov(2), cov(0), cov(1), HoldsOrNot(cov(2) < std::min(cov(0), cov(1))));
    absl::StrAppendFormat(
        &out,
        "  Fig. 1, HAMCMC explores like SGRLD (covariance error within 1.5x of SGRLD's: %.3f vs "
        "%.3f): %s\n",
        cov(3), cov(2), HoldsOrNot(cov(3) <= 1.5 * cov(2)));
    absl::StrAppendFormat(
        &out,
        "  Fig. 1, converged chains (pooled split R-hat <= 1.01): SGLD %.3f, pSGLD %.3f, SGRLD "
        "%.3f, HAMCMC %.3f: %s (R-hat <= 1.01 needs larger steps, whose minibatch noise "
        "inflates the covariance, for every method)\n",
        rhat(0), rhat(1), rhat(2), rhat(3),
        HoldsOrNot(std::max({rhat(0), rhat(1), rhat(2), rhat(3)}) <= 1.01));
  }
  for (const LinearRegressionFigure2& result : figure2) {
    if (result.traces.size() != 5) continue;
    const auto final_error = [&](int m) { return result.traces[m].errors.back(); };
    const double baseline = std::min(final_error(0), final_error(1));
    const std::vector<const Trace*> baselines = {&result.traces[0], &result.traces[1]};
    const double wins = std::min(WinFraction(result.traces[3], baselines, config.iterations),
                                 WinFraction(result.traces[4], baselines, config.iterations));
    absl::StrAppendFormat(
        &out,
        "  Fig. 2, D = %d, HAMCMC below SGLD and pSGLD against iterations (M=2 and 3 below both "
        "at >= 90%% of the points; err@T %.3g and %.3g vs %.3g): %s\n",
        result.dimension, final_error(3), final_error(4), baseline, HoldsOrNot(wins >= 0.9));
    const double ratio = final_error(4) / final_error(2);
    absl::StrAppendFormat(
        &out,
        "  Fig. 2, D = %d, HAMCMC (M=3) very similar to SGRLD (err@T within 2x: %.3g vs %.3g, "
        "%.1fx): %s\n",
        result.dimension, final_error(4), final_error(2), ratio, HoldsOrNot(ratio <= 2));
    absl::StrAppendFormat(&out,
                          "  Fig. 2, D = %d, M = 3 better than M = 2 (err@T %.3g vs %.3g): %s\n",
                          result.dimension, final_error(4), final_error(3),
                          HoldsOrNot(final_error(4) < final_error(3)));
    // Against time: how long SGRLD takes to reach HAMCMC (M=3)'s final error.
    const Trace& sgrld = result.traces[2];
    const Trace& hamcmc = result.traces[4];
    size_t i = 0;
    while (i < sgrld.errors.size() && sgrld.errors[i] > hamcmc.errors.back()) ++i;
    if (i < sgrld.errors.size()) {
      absl::StrAppendFormat(
          &out,
          "  Fig. 2, D = %d, against time: SGRLD reaches HAMCMC (M=3)'s err@T %.3g after %.3g s "
          "(iteration %d); HAMCMC takes %.3g s for it\n",
          result.dimension, hamcmc.errors.back(), sgrld.seconds[i], sgrld.iterations[i],
          hamcmc.seconds.back());
    } else {
      absl::StrAppendFormat(&out,
                            "  Fig. 2, D = %d, against time: SGRLD never reaches HAMCMC (M=3)'s "
                            "err@T %.3g (HAMCMC: %.3g s)\n",
                            result.dimension, hamcmc.errors.back(), hamcmc.seconds.back());
    }
  }
  if (figure2.size() >= 2 && figure2.front().traces.size() == 5 &&
      figure2.back().traces.size() == 5) {
    const auto advantage = [](const LinearRegressionFigure2& result) {
      return std::min(result.traces[0].errors.back(), result.traces[1].errors.back()) /
             result.traces[4].errors.back();
    };
    const double small = advantage(figure2.front()), large = advantage(figure2.back());
    absl::StrAppendFormat(
        &out,
        "  Fig. 2, HAMCMC's advantage over SGLD/pSGLD grows with D (best of SGLD and pSGLD over "
        "HAMCMC (M=3) at T: %.2gx at D = %d, %.2gx at D = %d): %s\n",
        small, figure2.front().dimension, large, figure2.back().dimension,
        HoldsOrNot(large > small));
  }
  return out;
}

}  // namespace

absl::StatusOr<OutputFiles> LinearRegressionFigure1Files(const LinearRegressionOptions& config,
                                                         const LinearRegressionFigure1& figure1,
                                                         const std::string& output_dir) {
  OutputFiles files = {{"fig1_contours.csv", ContourCsv(figure1.exact)}};
  const int64_t burn_in = config.iterations / 2;
  for (const LinearRegressionFigure1Row& row : figure1.rows) {
    const MethodInfo& info = Info(row.method);
    const std::string name = absl::StrCat("fig1_", info.key, ".csv");
    std::ostringstream file;
    eval::CmdStanCsvOptions csv;
    csv.model = "linear_regression";
    csv.algorithm = info.key;
    csv.num_samples = config.iterations - burn_in;
    csv.num_warmup = burn_in;
    csv.seed = config.seed;
    csv.output_file = absl::StrCat(output_dir, "/", name);
    csv.extra = {{"step_size", absl::StrFormat("(%g/t)^0.51", row.tuning.a)},
                 {"batch_size", absl::StrCat(config.batch_size())},
                 {"num_items", absl::StrCat(config.num_items)}};
    SGMCMC_ASSIGN_OR_RETURN(
        eval::CmdStanCsvWriter writer,
        eval::CmdStanCsvWriter::Create(&file, eval::VectorParameterNames("theta", 2), csv));
    for (size_t i = 0; i < row.log_joint.size(); ++i) {
      SGMCMC_RETURN_IF_ERROR(
          writer.WriteDraw(row.log_joint[i], absl::MakeConstSpan(row.draws.data() + 2 * i, 2)));
    }
    SGMCMC_RETURN_IF_ERROR(writer.Finish(row.warmup_seconds, row.seconds - row.warmup_seconds));
    files.push_back({name, file.str()});
  }
  std::string csv =
      "method,a,lambda,gamma,mean_error,covariance_error,ess_1,ess_2,rhat_1,rhat_2,seconds,"
      "chains,covariance_error_mean,covariance_error_min,covariance_error_max,rhat_max_mean,"
      "rhat_max_min,rhat_max_max,rhat_pooled,error_T_mean,error_T_min,error_T_max,ksd,"
      "ksd_mean,ksd_min,ksd_max,ksd_pooled,ksd_iid\n";
  for (const LinearRegressionFigure1Row& row : figure1.rows) {
    const Spread cov = SpreadOf(row.chain_covariance_errors);
    const Spread rhat = SpreadOf(row.chain_rhats);
    const Spread ksd = SpreadOf(row.chain_ksds);
    absl::StrAppendFormat(
        &csv,
        "%s,%g,%g,%g,%.6g,%.6g,%.1f,%.1f,%.4f,%.4f,%.4f,%d,%.6g,%.6g,%.6g,%.4f,%.4f,%.4f,%.4f,"
        "%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g\n",
        Info(row.method).label, row.tuning.a, row.tuning.lambda, row.tuning.gamma, row.mean_error,
        row.covariance_error, row.ess[0], row.ess[1], row.rhat[0], row.rhat[1], row.seconds,
        row.chain_rhats.size(), cov.mean, cov.min, cov.max, rhat.mean, rhat.min, rhat.max,
        row.pooled_rhat, row.trace.errors.back(), row.trace.errors_min.back(),
        row.trace.errors_max.back(), row.ksd, ksd.mean, ksd.min, ksd.max, row.pooled_ksd,
        figure1.ksd_iid);
  }
  files.push_back({"fig1_summary.csv", std::move(csv)});
  std::vector<const Trace*> traces;
  std::vector<Method> methods;
  for (const LinearRegressionFigure1Row& row : figure1.rows) {
    traces.push_back(&row.trace);
    methods.push_back(row.method);
  }
  files.push_back({"fig1_trace.csv", TraceCsv(methods, traces, /*spread=*/true)});
  return files;
}

OutputFiles LinearRegressionFigure2Files(const LinearRegressionOptions& config,
                                         const std::vector<LinearRegressionFigure2>& figure2) {
  OutputFiles files;
  for (const LinearRegressionFigure2& result : figure2) {
    std::vector<const Trace*> traces;
    for (const Trace& trace : result.traces) traces.push_back(&trace);
    files.push_back({absl::StrCat("fig2_D", result.dimension, ".csv"),
                     TraceCsv(result.methods, traces, /*spread=*/false)});
    files.push_back({absl::StrCat("fig2_D", result.dimension, "_spread.csv"),
                     SpreadCsv(result.methods, traces)});
  }
  const int64_t t = config.iterations;
  std::string summary =
      "dimension,method,a,lambda,gamma,error_T100,error_T10,error_T2,error_T,seconds,"
      "us_per_iteration,error_T_min,error_T_max\n";
  for (const LinearRegressionFigure2& result : figure2) {
    for (size_t m = 0; m < result.methods.size(); ++m) {
      const Figure2SummaryRow row = SummaryRow(result.traces[m], t);
      const Tuning& tuning = result.tunings[m];
      absl::StrAppendFormat(&summary, "%d,%s,%g,%g,%g,%.6g,%.6g,%.6g,%.6g,%.6g,%.4f,%.6g,%.6g\n",
                            result.dimension, Info(result.methods[m]).label, tuning.a,
                            tuning.lambda, tuning.gamma, row.values[0], row.values[1],
                            row.values[2], row.values[3], row.seconds, 1e6 * row.seconds / t,
                            result.traces[m].errors_min.back(), result.traces[m].errors_max.back());
    }
  }
  files.push_back({"fig2_summary.csv", std::move(summary)});
  return files;
}

std::string LinearRegressionSummary(const LinearRegressionOptions& options,
                                    const LinearRegressionFigure1* figure1,
                                    const std::vector<LinearRegressionFigure2>& figure2) {
  std::string out;
  if (figure1 != nullptr) out += Figure1Table(options, *figure1);
  if (!figure2.empty()) out += Figure2Table(options, figure2);
  out += PaperClaims(options, figure1, figure2);
  return out;
}

}  // namespace sgmcmc::tools
