#include "tools/linear_regression_experiment.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "Eigen/Dense"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/types/span.h"
#include "base/status_macros.h"
#include "eval/cmdstan_csv.h"
#include "eval/ess.h"
#include "eval/rhat.h"
#include "eval/running_moments.h"
#include "eval/squared_error.h"
#include "rng/engine.h"
#include "samplers/dense_sgrld.h"
#include "samplers/hamcmc.h"
#include "samplers/psgld.h"
#include "samplers/sampler.h"
#include "samplers/sgld.h"
#include "samplers/step_size.h"

namespace sgmcmc::tools {
namespace {

using Clock = std::chrono::steady_clock;
using Config = LinearRegressionOptions;
using Method = LinearRegressionMethod;
using Trace = LinearRegressionTrace;
using Tuning = LinearRegressionTuning;

// One experiment: Figure 1 (D = 2) or one panel row of Figure 2.
struct Experiment {
  std::string name;  // "fig1", "D10", "D100"
  int dimension = 2;
};

struct MethodInfo {
  Method method;
  const char* key;    // file and column names
  const char* label;  // tables and plots
};

constexpr MethodInfo kMethods[] = {
    {Method::kSgld, "sgld", "SGLD"},
    {Method::kPsgld, "psgld", "pSGLD"},
    {Method::kSgrld, "sgrld", "SGRLD"},
    {Method::kHamcmc2, "hamcmc_m2", "HAMCMC (M=2)"},
    {Method::kHamcmc3, "hamcmc_m3", "HAMCMC (M=3)"},
};

const MethodInfo& Info(Method method) {
  for (const MethodInfo& info : kMethods) {
    if (info.method == method) return info;
  }
  return kMethods[0];
}

// The a of `method` given in the options (0: none).
double AOverride(const Config& config, Method method) {
  switch (method) {
    case Method::kSgld:
      return config.a_sgld;
    case Method::kPsgld:
      return config.a_psgld;
    case Method::kSgrld:
      return config.a_sgrld;
    case Method::kHamcmc2:
    case Method::kHamcmc3:
      return config.a_hamcmc;
  }
  return 0;
}

// Defaults per experiment and method: the output of --tune for the default settings
// (--seed=1: data seed 1, tuning chains on seed 1001). Grid values are powers of 10^(1/2).
Tuning DefaultTuning(const std::string& experiment, Method method) {
  constexpr double kSqrt10 = 3.1622776601683795;
  // {a, lambda, gamma}
  static const std::map<std::pair<std::string, Method>, Tuning>* const kDefaults =
      new std::map<std::pair<std::string, Method>, Tuning>{
          {{"fig1", Method::kSgld}, {1e-3}},
          {{"fig1", Method::kPsgld}, {1e-5}},
          {{"fig1", Method::kSgrld}, {kSqrt10 * 1e-1}},
          {{"fig1", Method::kHamcmc2}, {0.1, 0.1, 1}},
          {{"D10", Method::kSgld}, {1e-5}},
          {{"D10", Method::kPsgld}, {1e-6}},
          {{"D10", Method::kSgrld}, {1}},
          {{"D10", Method::kHamcmc2}, {1, 1, 1}},
          {{"D10", Method::kHamcmc3}, {1, 1, 1}},
          {{"D100", Method::kSgld}, {kSqrt10 * 1e-7}},
          {{"D100", Method::kPsgld}, {1e-9}},
          {{"D100", Method::kSgrld}, {0.1}},
          {{"D100", Method::kHamcmc2}, {1, 10, 0.1}},
          {{"D100", Method::kHamcmc3}, {1, 1, 0.1}},
      };
  const auto it = kDefaults->find({experiment, method});
  if (it != kDefaults->end()) return it->second;
  // Other dimensions or settings: middle-of-the-road values; use --tune.
  switch (method) {
    case Method::kSgld:
    case Method::kPsgld:
      return {1e-6};
    case Method::kSgrld:
      return {0.1};
    case Method::kHamcmc2:
    case Method::kHamcmc3:
      return {1, 10, 1};
  }
  return {};
}

struct Problem {
  Experiment experiment;
  models::LinearRegression model;
  models::GaussianPosterior exact;
  // sigma^2 / N, the scale of the posterior variances: HAMCMC's gamma is in these units.
  double variance_scale = 1;
};

absl::StatusOr<Problem> MakeProblem(const Config& config, const Experiment& experiment) {
  // Each experiment's data has its own stream, so adding an experiment changes no other.
  rng::Engine engine(config.seed, /*stream=*/1000 + experiment.dimension);
  models::CorrelatedDataOptions options;
  options.dimension = experiment.dimension;
  options.num_items = config.num_items;
  options.noise_variance = config.noise_variance;
  options.structure = config.structure;
  options.correlation = config.correlation;
  options.scale_ratio = config.scale_ratio;
  SGMCMC_ASSIGN_OR_RETURN(models::LinearRegressionData data,
                          models::GenerateCorrelatedData(engine, options));
  SGMCMC_ASSIGN_OR_RETURN(models::LinearRegression model,
                          models::LinearRegression::Create(std::move(data)));
  models::GaussianPosterior exact = model.ExactPosterior();
  return Problem{experiment, std::move(model), std::move(exact),
                 config.noise_variance / config.num_items};
}

absl::StatusOr<std::unique_ptr<samplers::Sampler>> MakeSampler(const Config& config,
                                                               const Problem& problem,
                                                               Method method, const Tuning& tuning,
                                                               uint64_t seed, uint64_t stream) {
  samplers::ChainOptions chain;
  chain.step_size = samplers::StepSizeOptions::Hamcmc(tuning.a);
  chain.batch_size = config.batch_size();
  chain.seed = seed;
  chain.stream = stream;
  const std::vector<double> start(problem.experiment.dimension, 0.0);
  switch (method) {
    case Method::kSgld: {
      samplers::SgldOptions options;
      options.chain = chain;
      SGMCMC_ASSIGN_OR_RETURN(auto sampler, samplers::Sgld::Create(problem.model, start, options));
      return std::unique_ptr<samplers::Sampler>(std::move(sampler));
    }
    case Method::kPsgld: {
      samplers::PsgldOptions options;
      options.chain = chain;
      options.alpha = config.psgld_alpha;
      options.lambda = config.psgld_lambda;
      SGMCMC_ASSIGN_OR_RETURN(auto sampler, samplers::Psgld::Create(problem.model, start, options));
      return std::unique_ptr<samplers::Sampler>(std::move(sampler));
    }
    case Method::kSgrld: {
      samplers::DenseSgrldOptions options;
      options.chain = chain;
      SGMCMC_ASSIGN_OR_RETURN(auto sampler,
                              samplers::DenseSgrld::Create(problem.model, start, options));
      return std::unique_ptr<samplers::Sampler>(std::move(sampler));
    }
    case Method::kHamcmc2:
    case Method::kHamcmc3: {
      samplers::HamcmcOptions options;
      options.chain = chain;
      options.memory = method == Method::kHamcmc2 ? 2 : 3;
      options.gamma = tuning.gamma * problem.variance_scale;
      options.damping = tuning.lambda;
      options.warmup_step = tuning.warmup_step;
      options.curvature_threshold = config.hamcmc_curvature_threshold;
      SGMCMC_ASSIGN_OR_RETURN(auto sampler,
                              samplers::Hamcmc::Create(problem.model, start, options));
      return std::unique_ptr<samplers::Sampler>(std::move(sampler));
    }
  }
  return absl::InternalError("unknown method");
}

// Writes "[label] 12000/20000 ..." lines to `out` (null: none) at most every half second.
class Progress {
 public:
  Progress(std::ostream* out, std::string label, int64_t total)
      : out_(out), label_(std::move(label)), total_(total) {}

  void Update(int64_t done, double error) {
    const Clock::time_point now = Clock::now();
    if (out_ == nullptr || (done < total_ && now - last_ < std::chrono::milliseconds(500))) return;
    last_ = now;
    *out_ << absl::StrFormat("[%s] %d/%d (%3.0f%%) %s  error %.3e\n", label_, done, total_,
                             100.0 * done / total_,
                             RateAndEta(done, total_, SecondsSince(start_), "it"), error);
  }

 private:
  std::ostream* out_;
  std::string label_;
  int64_t total_;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_ = start_;
};

// A Figure 2 run (see LinearRegressionTrace).
Trace RunTrace(samplers::Sampler& sampler, const Problem& problem, int64_t iterations,
               int eval_every, Progress* progress) {
  const int d = problem.experiment.dimension;
  const std::vector<double> truth(problem.exact.mean.data(), problem.exact.mean.data() + d);
  eval::RunningMoments moments(d, /*track_covariance=*/false);
  Trace trace;
  double seconds = 0;
  for (int64_t t = 1; t <= iterations; ++t) {
    const Clock::time_point start = Clock::now();
    sampler.Step();
    seconds += SecondsSince(start);
    moments.Add(sampler.theta(), sampler.last_step_size());
    if (t % eval_every == 0) {
      const double error = eval::SquaredError(moments.mean(), truth);
      trace.iterations.push_back(t);
      trace.seconds.push_back(seconds);
      trace.errors.push_back(error);
      if (progress != nullptr) progress->Update(t, error);
    }
  }
  return trace;
}

// Tuning objective of Figure 2: mean log error over the second half of a short run (robust
// to the noise of the final value, and rewarding fast convergence).
double TuningScore(const Trace& trace) {
  const size_t half = trace.errors.size() / 2;
  double sum = 0;
  for (size_t i = half; i < trace.errors.size(); ++i) sum += std::log(trace.errors[i]);
  const double score = sum / (trace.errors.size() - half);
  return std::isfinite(score) ? score : std::numeric_limits<double>::infinity();
}

// Tuning objective of Figure 1, which is about exploring the posterior: log of the relative
// error ||Sigma-hat - Sigma||_F / ||Sigma||_F of the second half of a short run's draws.
double ExplorationScore(samplers::Sampler& sampler, const Problem& problem, int64_t iterations) {
  const int d = problem.experiment.dimension;
  eval::RunningMoments moments(d, /*track_covariance=*/true);
  for (int64_t t = 1; t <= iterations; ++t) {
    sampler.Step();
    if (t > iterations / 2) moments.Add(sampler.theta());
  }
  const std::vector<double> cov = moments.covariance();
  const double error =
      (Eigen::Map<const Eigen::MatrixXd>(cov.data(), d, d) - problem.exact.covariance).norm() /
      problem.exact.covariance.norm();
  return std::isfinite(error) ? std::log(error) : std::numeric_limits<double>::infinity();
}

bool IsHamcmc(Method method) { return method == Method::kHamcmc2 || method == Method::kHamcmc3; }

// Grid search (see the header comment); HAMCMC keeps the given warm-up step.
absl::StatusOr<Tuning> Tune(const Config& config, const Problem& problem, Method method,
                            double warmup_step) {
  // a from 1e-9 to 1 in half decades: eps_1 = a^0.51 <= 1, since a preconditioned step above
  // 1 overshoots even with the exact inverse Hessian.
  std::vector<double> grid_a;
  for (double e = -9; e <= 0.01; e += 0.5) grid_a.push_back(std::pow(10.0, e));
  const bool hamcmc = IsHamcmc(method);
  const std::vector<double> grid_lambda =
      hamcmc ? std::vector<double>{0.1, 1, 10, 100, 1000} : std::vector<double>{0};
  const std::vector<double> grid_gamma =
      hamcmc ? std::vector<double>{0.001, 0.01, 0.1, 1, 10} : std::vector<double>{0};
  Tuning best;
  double best_score = std::numeric_limits<double>::infinity();
  const int64_t iterations = std::max<int64_t>(100, config.iterations / 4);
  for (double a : grid_a) {
    for (double lambda : grid_lambda) {
      for (double gamma : grid_gamma) {
        const Tuning tuning{a, lambda, gamma, warmup_step};
        // Figure 1's covariance error is noisy (few effective draws): average 8 chains.
        // Figure 2's error is smooth but a step can be at the edge of stability: take the
        // worst of 3 chains, so that a setting that diverges on some chains loses.
        const bool figure1 = problem.experiment.name == "fig1";
        const int chains = figure1 ? 8 : 3;
        double score = figure1 ? 0 : -std::numeric_limits<double>::infinity();
        for (int stream = 0; stream < chains; ++stream) {
          SGMCMC_ASSIGN_OR_RETURN(auto sampler, MakeSampler(config, problem, method, tuning,
                                                            config.seed + 1000, stream));
          if (figure1) {
            score += ExplorationScore(*sampler, problem, iterations) / chains;
          } else {
            score = std::max(score, TuningScore(RunTrace(*sampler, problem, iterations,
                                                         config.eval_every, nullptr)));
          }
        }
        if (score < best_score) {
          best_score = score;
          best = tuning;
        }
      }
    }
  }
  if (config.progress != nullptr) {
    *config.progress << absl::StrFormat("[tune %s %s] a = %g, lambda = %g, gamma = %g sigma^2/N\n",
                                        problem.experiment.name, Info(method).label, best.a,
                                        best.lambda, best.gamma);
  }
  return best;
}

// Hyper-parameters of every method in one experiment: defaults, then --tune, then flag
// overrides. SGLD must come first: HAMCMC's warm-up uses SGLD's step.
absl::StatusOr<std::map<Method, Tuning>> ResolveTunings(const Config& config,
                                                        const Problem& problem,
                                                        const std::vector<Method>& methods) {
  std::map<Method, Tuning> tunings;
  for (const Method method : methods) {
    Tuning tuning = DefaultTuning(problem.experiment.name, method);
    const double warmup_step =
        method == Method::kSgld ? 0
                                : std::pow(tunings.at(Method::kSgld).a / config.iterations, 0.51);
    const double a_override = AOverride(config, method);
    const bool all_set = a_override > 0 && (!IsHamcmc(method) ||
                                            (config.hamcmc_lambda > 0 && config.hamcmc_gamma > 0));
    if (config.tune && !all_set) {
      SGMCMC_ASSIGN_OR_RETURN(tuning, Tune(config, problem, method, warmup_step));
    }
    if (a_override > 0) tuning.a = a_override;
    if (IsHamcmc(method)) {
      if (config.hamcmc_lambda > 0) tuning.lambda = config.hamcmc_lambda;
      if (config.hamcmc_gamma > 0) tuning.gamma = config.hamcmc_gamma;
      tuning.warmup_step = warmup_step;
    }
    tunings[method] = tuning;
  }
  return tunings;
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
  absl::StrAppendFormat(&out, "%-14s %9s %7s %7s %13s %11s %9s %9s %7s %7s %8s\n", "method", "a",
                        "lambda", "gamma", "|mean err|^2", "cov rel err", "ESS(th1)", "ESS(th2)",
                        "Rhat1", "Rhat2", "seconds");
  for (const LinearRegressionFigure1Row& row : figure1.rows) {
    absl::StrAppendFormat(
        &out, "%-14s %9.2g %7.2g %7.2g %13.3e %11.3f %9.0f %9.0f %7.3f %7.3f %8.2f\n",
        Info(row.method).label, row.tuning.a, row.tuning.lambda, row.tuning.gamma, row.mean_error,
        row.covariance_error, row.ess[0], row.ess[1], row.rhat[0], row.rhat[1], row.seconds);
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
    absl::StrAppendFormat(&out, "%-5s %-14s %9s %7s %7s %11s %11s %11s %11s %9s %9s\n", "D",
                          "method", "a", "lambda", "gamma", "err@T/100", "err@T/10", "err@T/2",
                          "err@T", "seconds", "us/iter");
    for (size_t m = 0; m < result.methods.size(); ++m) {
      const Figure2SummaryRow row = SummaryRow(result.traces[m], t);
      const Tuning& tuning = result.tunings[m];
      absl::StrAppendFormat(
          &out, "%-5d %-14s %9.2g %7.2g %7.2g %11.3e %11.3e %11.3e %11.3e %9.3f %9.2f\n",
          result.dimension, Info(result.methods[m]).label, tuning.a, tuning.lambda, tuning.gamma,
          row.values[0], row.values[1], row.values[2], row.values[3], row.seconds,
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

}  // namespace

const char* LinearRegressionMethodLabel(LinearRegressionMethod method) {
  return Info(method).label;
}

absl::Status LinearRegressionOptions::Validate() const {
  if (iterations < 100) {
    return absl::InvalidArgumentError(absl::StrCat("iterations must be >= 100, got ", iterations));
  }
  if (num_items < 100) {
    return absl::InvalidArgumentError(
        absl::StrCat("num_items must be >= 100 (the minibatch is N/100), got ", num_items));
  }
  if (replications < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("replications must be >= 1, got ", replications));
  }
  if (eval_every < 1 || eval_every > iterations) {
    return absl::InvalidArgumentError(
        absl::StrCat("eval_every must be in [1, iterations], got ", eval_every));
  }
  for (const int d : dimensions) {
    if (d < 1 || d > 2000) {
      return absl::InvalidArgumentError(
          absl::StrCat("dimensions: bad dimension ", d, " (want integers in [1, 2000])"));
    }
  }
  const std::pair<const char*, double> steps[] = {
      {"a_sgld", a_sgld}, {"a_psgld", a_psgld}, {"a_sgrld", a_sgrld}, {"a_hamcmc", a_hamcmc}};
  for (const auto& [name, a] : steps) {
    if (a < 0 || !std::isfinite(a)) {
      return absl::InvalidArgumentError(
          absl::StrCat(name, ": step scale must be finite and >= 0, got ", a));
    }
  }
  if (hamcmc_lambda < 0 || hamcmc_gamma < 0) {
    return absl::InvalidArgumentError("hamcmc_lambda and hamcmc_gamma must be >= 0");
  }
  return absl::OkStatus();
}

absl::StatusOr<LinearRegressionFigure1> RunLinearRegressionFigure1(
    const LinearRegressionOptions& config) {
  SGMCMC_RETURN_IF_ERROR(config.Validate());
  SGMCMC_ASSIGN_OR_RETURN(const Problem problem, MakeProblem(config, {"fig1", 2}));
  LinearRegressionFigure1 figure1;
  figure1.exact = problem.exact;
  const int64_t burn_in = config.iterations / 2;
  const std::vector<Method> methods = {Method::kSgld, Method::kPsgld, Method::kSgrld,
                                       Method::kHamcmc2};
  SGMCMC_ASSIGN_OR_RETURN(const auto tunings, ResolveTunings(config, problem, methods));
  for (Method method : methods) {
    const MethodInfo& info = Info(method);
    const Tuning& tuning = tunings.at(method);
    SGMCMC_ASSIGN_OR_RETURN(
        auto sampler, MakeSampler(config, problem, method, tuning, config.seed, /*stream=*/1));
    Progress progress(config.progress, absl::StrCat("fig1 ", info.label), config.iterations);
    LinearRegressionFigure1Row row;
    std::vector<double>& draws = row.draws;
    draws.reserve(2 * (config.iterations - burn_in));
    const Clock::time_point start = Clock::now();
    for (int64_t t = 1; t <= config.iterations; ++t) {
      sampler->Step();
      if (t == burn_in) row.warmup_seconds = SecondsSince(start);
      if (t > burn_in) draws.insert(draws.end(), sampler->theta().begin(), sampler->theta().end());
      progress.Update(t, 0);
    }
    row.seconds = SecondsSince(start);
    // lp__ of the CmdStan layout: log p(theta, x).
    for (size_t i = 0; i < draws.size(); i += 2) {
      row.log_joint.push_back(problem.model.LogJoint(absl::MakeConstSpan(draws.data() + i, 2)));
    }
    row.method = method;
    row.tuning = tuning;
    eval::RunningMoments moments(2, /*track_covariance=*/true);
    for (size_t i = 0; i < draws.size(); i += 2)
      moments.Add(absl::MakeConstSpan(draws.data() + i, 2));
    const std::vector<double> truth(problem.exact.mean.data(), problem.exact.mean.data() + 2);
    row.mean_error = eval::SquaredError(moments.mean(), truth);
    const std::vector<double> cov = moments.covariance();
    row.covariance_error =
        (Eigen::Map<const Eigen::Matrix2d>(cov.data()) - problem.exact.covariance).norm() /
        problem.exact.covariance.norm();
    const int interleave = method == Method::kHamcmc2 ? 2 : 1;
    for (int j = 0; j < 2; ++j) Diagnostics(draws, j, interleave, &row.ess[j], &row.rhat[j]);
    figure1.rows.push_back(std::move(row));
  }
  return figure1;
}

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
      "method,a,lambda,gamma,mean_error,covariance_error,ess_1,ess_2,rhat_1,rhat_2,seconds\n";
  for (const LinearRegressionFigure1Row& row : figure1.rows) {
    absl::StrAppendFormat(&csv, "%s,%g,%g,%g,%.6g,%.6g,%.1f,%.1f,%.4f,%.4f,%.4f\n",
                          Info(row.method).label, row.tuning.a, row.tuning.lambda, row.tuning.gamma,
                          row.mean_error, row.covariance_error, row.ess[0], row.ess[1], row.rhat[0],
                          row.rhat[1], row.seconds);
  }
  files.push_back({"fig1_summary.csv", std::move(csv)});
  return files;
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
    Trace mean;
    for (int r = 0; r < config.replications; ++r) {
      SGMCMC_ASSIGN_OR_RETURN(auto sampler,
                              MakeSampler(config, problem, info.method, tuning, config.seed,
                                          /*stream=*/100 + r));
      Progress progress(config.progress,
                        absl::StrFormat("fig2 D=%d %s rep %d/%d", dimension, info.label, r + 1,
                                        config.replications),
                        config.iterations);
      const Trace trace =
          RunTrace(*sampler, problem, config.iterations, config.eval_every, &progress);
      if (r == 0) {
        mean = trace;
        for (double& e : mean.errors) e /= config.replications;
        for (double& s : mean.seconds) s /= config.replications;
      } else {
        for (size_t i = 0; i < trace.errors.size(); ++i) {
          mean.errors[i] += trace.errors[i] / config.replications;
          mean.seconds[i] += trace.seconds[i] / config.replications;
        }
      }
    }
    result.methods.push_back(info.method);
    result.tunings.push_back(tuning);
    result.traces.push_back(std::move(mean));
  }
  return result;
}

OutputFiles LinearRegressionFigure2Files(const LinearRegressionOptions& config,
                                         const std::vector<LinearRegressionFigure2>& figure2) {
  OutputFiles files;
  for (const LinearRegressionFigure2& result : figure2) {
    std::string csv = "iteration";
    for (Method method : result.methods) {
      absl::StrAppend(&csv, ",", Info(method).label, ",seconds_", Info(method).key);
    }
    csv += "\n";
    const size_t points = result.traces[0].iterations.size();
    for (size_t i = 0; i < points; ++i) {
      absl::StrAppend(&csv, result.traces[0].iterations[i]);
      for (const Trace& trace : result.traces) {
        absl::StrAppendFormat(&csv, ",%.6g,%.6g", trace.errors[i], trace.seconds[i]);
      }
      csv += "\n";
    }
    files.push_back({absl::StrCat("fig2_D", result.dimension, ".csv"), std::move(csv)});
  }
  const int64_t t = config.iterations;
  std::string summary =
      "dimension,method,a,lambda,gamma,error_T100,error_T10,error_T2,error_T,seconds,"
      "us_per_iteration\n";
  for (const LinearRegressionFigure2& result : figure2) {
    for (size_t m = 0; m < result.methods.size(); ++m) {
      const Figure2SummaryRow row = SummaryRow(result.traces[m], t);
      const Tuning& tuning = result.tunings[m];
      absl::StrAppendFormat(&summary, "%d,%s,%g,%g,%g,%.6g,%.6g,%.6g,%.6g,%.6g,%.4f\n",
                            result.dimension, Info(result.methods[m]).label, tuning.a,
                            tuning.lambda, tuning.gamma, row.values[0], row.values[1],
                            row.values[2], row.values[3], row.seconds, 1e6 * row.seconds / t);
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
  return out;
}

}  // namespace sgmcmc::tools
