// linear_regression: reproduces the synthetic experiments of Simsekli et al. (2016),
// "Stochastic Quasi-Newton Langevin Monte Carlo", Sec. 4.1, on Bayesian linear regression
// theta ~ N(0, I), x_n ~ N(a_n' theta, sigma^2) (models/linear_regression.h) with correlated
// covariates, against the exact Gaussian posterior.
//
//  Figure 1: D = 2, sigma^2 = 10, N_Omega = N/100, T = 20000 iterations of SGLD, pSGLD,
//    SGRLD (dense metric) and HAMCMC (M = 2); the first half is burn-in; the retained samples
//    are drawn over the contours of the true posterior.
//  Figure 2: the error ||theta-bar - theta-hat_t||^2 between the posterior mean and the
//    running estimate theta-hat_t = sum_s eps_s theta_s / sum_s eps_s (the paper's eq. 12)
//    versus iteration and versus wall-clock time (sampler steps only), for D = 10 and
//    D = 100, with SGLD, pSGLD, SGRLD and HAMCMC with M = 2 and 3; every method uses the
//    step eps_t = (a/t)^0.51 with its own a (defaults tuned with --tune, see below), and
//    the curves average --replications chains with different seeds.
//
// Outputs in --output_dir: fig1_<method>.csv (retained draws, CmdStan CSV layout with lp__),
// fig1_contours.csv, fig1_summary.csv, fig2_D<d>.csv (iteration, then error and seconds per
// method), fig2_summary.csv, and figure1.png / figure2.png (gnuplot, tools/plots/
// linear_regression.gp). A summary table goes to stdout, progress to stderr.
//
// --tune picks a (and HAMCMC's lambda and gamma) per method and experiment on short runs
// (T/4 iterations, chains with another seed) over the same grids for every method, as the
// paper did ("tried several values ... with the same rigor"): by the mean error of the
// sample covariance over 8 chains (Figure 1) or the worst over 3 chains of the mean log
// error of the running mean over the second half of the run (Figure 2). It prints the
// chosen values; the built-in defaults are its output for the default settings.
//
// Example:
//   bazel run //tools:linear_regression                      # defaults, < 1 minute
//   bazel run //tools:linear_regression -- --seed=7 --replications=5 --output_dir=/tmp/lr
#include "models/linear_regression.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "Eigen/Dense"
#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
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
#include "tools/gnuplot.h"

ABSL_FLAG(uint64_t, seed, 1, "Seed of the data and of every chain (printed and recorded).");
ABSL_FLAG(std::string, output_dir, "/tmp/sgmcmc_linear_regression",
          "Directory for the CSVs and PNGs (created if missing).");
ABSL_FLAG(int64_t, iterations, 20000, "T, iterations per chain (the paper: 20000).");
ABSL_FLAG(int64_t, num_items, 1000, "N, data items; the minibatch is N/100 (the paper's N_Omega).");
ABSL_FLAG(double, noise_variance, 10, "sigma^2 of the observations (the paper: 10).");
ABSL_FLAG(std::string, covariates, "equicorrelated",
          "Covariate correlation structure: equicorrelated (one very stiff posterior "
          "direction) or autoregressive (AR(1), a spread of stiff directions).");
ABSL_FLAG(double, correlation, 0.9,
          "Correlation rho of the covariates; makes the posterior correlated.");
ABSL_FLAG(double, scale_ratio, 1,
          "Largest over smallest covariate scale; makes the posterior badly scaled.");
ABSL_FLAG(std::string, dimensions, "10,100", "Comma-separated D of Figure 2.");
ABSL_FLAG(bool, figure1, true, "Run Figure 1 (D = 2 samples over the posterior contours).");
ABSL_FLAG(bool, figure2, true, "Run Figure 2 (error versus iterations and time).");
ABSL_FLAG(int, replications, 2, "Chains (seeds) averaged per Figure 2 curve.");
ABSL_FLAG(int, eval_every, 20, "Figure 2 records the error every this many iterations.");
ABSL_FLAG(double, a_sgld, 0, "a of eps_t = (a/t)^0.51 for SGLD; 0 = the tuned default.");
ABSL_FLAG(double, a_psgld, 0, "a for pSGLD; 0 = the tuned default.");
ABSL_FLAG(double, a_sgrld, 0, "a for SGRLD; 0 = the tuned default.");
ABSL_FLAG(double, a_hamcmc, 0, "a for HAMCMC (M = 2 and 3); 0 = the tuned default.");
ABSL_FLAG(double, hamcmc_lambda, 0, "HAMCMC damping lambda; 0 = the tuned default.");
ABSL_FLAG(double, hamcmc_gamma, 0,
          "HAMCMC initial scale gamma (H^0 = gamma I) in units of sigma^2/N; 0 = the tuned "
          "default.");
ABSL_FLAG(double, hamcmc_curvature_threshold, 1e-10,
          "HAMCMC skips pairs with s'y <= threshold |s| |y|; a value near 1 skips every pair "
          "(H = gamma I: an ablation that leaves SGLD with step gamma eps_t).");
ABSL_FLAG(double, psgld_alpha, 0.99, "pSGLD running-average decay alpha.");
ABSL_FLAG(double, psgld_lambda, 1e-5, "pSGLD regulariser lambda.");
ABSL_FLAG(bool, tune, false,
          "Grid-search a (and HAMCMC's lambda and gamma) per method on short runs with "
          "another seed before running; values given by flags are not searched.");
ABSL_FLAG(bool, plot, true, "Draw figure1.png and figure2.png with gnuplot (if on PATH).");

namespace sgmcmc::tools {
namespace {

using Clock = std::chrono::steady_clock;

// One experiment: Figure 1 (D = 2) or one panel row of Figure 2.
struct Experiment {
  std::string name;  // "fig1", "D10", "D100"
  int dimension = 2;
};

// Sampler hyper-parameters of one method in one experiment.
struct Tuning {
  double a = 0;       // eps_t = (a / t)^0.51
  double lambda = 0;  // HAMCMC damping lambda (unused by the others)
  double gamma = 0;   // HAMCMC initial scale, H^0 = gamma I, in units of sigma^2 / N
  // HAMCMC's SGLD warm-up step: SGLD's last step (a_SGLD / T)^0.51 in the same experiment,
  // the smallest of its schedule, hence stable; the warm-up only has to start the pairs.
  double warmup_step = 0;
};

enum class Method { kSgld, kPsgld, kSgrld, kHamcmc2, kHamcmc3 };

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

struct Config {
  uint64_t seed = 1;
  std::string output_dir;
  int64_t iterations = 0;
  int64_t num_items = 0;
  double noise_variance = 0;
  models::CorrelatedDataOptions::Structure structure =
      models::CorrelatedDataOptions::Structure::kEquicorrelated;
  double correlation = 0;
  double scale_ratio = 0;
  std::vector<int> dimensions;
  int replications = 0;
  int eval_every = 0;
  std::map<Method, double> a_override;  // flags > 0
  double hamcmc_lambda = 0;             // > 0 overrides
  double hamcmc_gamma = 0;              // > 0 overrides
  double hamcmc_curvature_threshold = 0;
  double psgld_alpha = 0;
  double psgld_lambda = 0;
  bool tune = false;
  bool plot = true;
  bool figure1 = true;
  bool figure2 = true;

  int64_t batch_size() const { return std::max<int64_t>(1, num_items / 100); }
};

absl::StatusOr<Config> ConfigFromFlags() {
  Config config;
  config.seed = absl::GetFlag(FLAGS_seed);
  config.output_dir = absl::GetFlag(FLAGS_output_dir);
  config.iterations = absl::GetFlag(FLAGS_iterations);
  config.num_items = absl::GetFlag(FLAGS_num_items);
  config.noise_variance = absl::GetFlag(FLAGS_noise_variance);
  config.correlation = absl::GetFlag(FLAGS_correlation);
  config.scale_ratio = absl::GetFlag(FLAGS_scale_ratio);
  config.replications = absl::GetFlag(FLAGS_replications);
  config.eval_every = absl::GetFlag(FLAGS_eval_every);
  config.hamcmc_lambda = absl::GetFlag(FLAGS_hamcmc_lambda);
  config.hamcmc_gamma = absl::GetFlag(FLAGS_hamcmc_gamma);
  config.hamcmc_curvature_threshold = absl::GetFlag(FLAGS_hamcmc_curvature_threshold);
  config.psgld_alpha = absl::GetFlag(FLAGS_psgld_alpha);
  config.psgld_lambda = absl::GetFlag(FLAGS_psgld_lambda);
  config.tune = absl::GetFlag(FLAGS_tune);
  config.plot = absl::GetFlag(FLAGS_plot);
  config.figure1 = absl::GetFlag(FLAGS_figure1);
  config.figure2 = absl::GetFlag(FLAGS_figure2);
  if (config.output_dir.empty()) return absl::InvalidArgumentError("--output_dir is empty");
  const std::string covariates = absl::GetFlag(FLAGS_covariates);
  if (covariates == "equicorrelated") {
    config.structure = models::CorrelatedDataOptions::Structure::kEquicorrelated;
  } else if (covariates == "autoregressive") {
    config.structure = models::CorrelatedDataOptions::Structure::kAutoregressive;
  } else {
    return absl::InvalidArgumentError(absl::StrCat(
        "--covariates must be equicorrelated or autoregressive, got \"", covariates, "\""));
  }
  if (config.iterations < 100) {
    return absl::InvalidArgumentError(
        absl::StrCat("--iterations must be >= 100, got ", config.iterations));
  }
  if (config.num_items < 100) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--num_items must be >= 100 (the minibatch is N/100), got ", config.num_items));
  }
  if (config.replications < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("--replications must be >= 1, got ", config.replications));
  }
  if (config.eval_every < 1 || config.eval_every > config.iterations) {
    return absl::InvalidArgumentError(
        absl::StrCat("--eval_every must be in [1, --iterations], got ", config.eval_every));
  }
  for (absl::string_view part : absl::StrSplit(absl::GetFlag(FLAGS_dimensions), ',')) {
    int d = 0;
    if (!absl::SimpleAtoi(part, &d) || d < 1 || d > 2000) {
      return absl::InvalidArgumentError(
          absl::StrCat("--dimensions: bad dimension \"", part, "\" (want integers in [1, 2000])"));
    }
    config.dimensions.push_back(d);
  }
  const std::pair<Method, double> overrides[] = {
      {Method::kSgld, absl::GetFlag(FLAGS_a_sgld)},
      {Method::kPsgld, absl::GetFlag(FLAGS_a_psgld)},
      {Method::kSgrld, absl::GetFlag(FLAGS_a_sgrld)},
      {Method::kHamcmc2, absl::GetFlag(FLAGS_a_hamcmc)},
      {Method::kHamcmc3, absl::GetFlag(FLAGS_a_hamcmc)},
  };
  for (const auto& [method, a] : overrides) {
    if (a < 0 || !std::isfinite(a)) {
      return absl::InvalidArgumentError(absl::StrCat("--a_*: step scale must be >= 0, got ", a));
    }
    if (a > 0) config.a_override[method] = a;
  }
  if (config.hamcmc_lambda < 0 || config.hamcmc_gamma < 0) {
    return absl::InvalidArgumentError("--hamcmc_lambda and --hamcmc_gamma must be >= 0");
  }
  // The data model and the samplers validate the remaining values (noise variance,
  // correlation, pSGLD alpha and lambda) and name them in their errors.
  return config;
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

// Prints "[label] 12000/20000 ..." lines on stderr at most every half second.
class Progress {
 public:
  Progress(std::string label, int64_t total) : label_(std::move(label)), total_(total) {}

  void Update(int64_t done, double error) {
    const Clock::time_point now = Clock::now();
    if (done < total_ && now - last_ < std::chrono::milliseconds(500)) return;
    last_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const double rate = done / std::max(elapsed, 1e-9);
    std::cerr << absl::StrFormat("[%s] %lld/%lld (%3.0f%%) %8.0f it/s  ETA %5.1f s  error %.3e\n",
                                 label_, done, total_, 100.0 * done / total_, rate,
                                 (total_ - done) / rate, error);
  }

 private:
  std::string label_;
  int64_t total_;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_ = start_;
};

// A Figure 2 run: the error of the step-weighted running mean every eval_every iterations,
// with the cumulative time spent in Step() (the estimator's bookkeeping is not timed).
struct Trace {
  std::vector<int64_t> iterations;
  std::vector<double> seconds;
  std::vector<double> errors;
};

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
    seconds += std::chrono::duration<double>(Clock::now() - start).count();
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
  std::cerr << absl::StrFormat("[tune %s %s] a = %g, lambda = %g, gamma = %g sigma^2/N\n",
                               problem.experiment.name, Info(method).label, best.a, best.lambda,
                               best.gamma);
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
    const auto it = config.a_override.find(method);
    const bool all_set =
        it != config.a_override.end() &&
        (!IsHamcmc(method) || (config.hamcmc_lambda > 0 && config.hamcmc_gamma > 0));
    if (config.tune && !all_set) {
      SGMCMC_ASSIGN_OR_RETURN(tuning, Tune(config, problem, method, warmup_step));
    }
    if (it != config.a_override.end()) tuning.a = it->second;
    if (IsHamcmc(method)) {
      if (config.hamcmc_lambda > 0) tuning.lambda = config.hamcmc_lambda;
      if (config.hamcmc_gamma > 0) tuning.gamma = config.hamcmc_gamma;
      tuning.warmup_step = warmup_step;
    }
    tunings[method] = tuning;
  }
  return tunings;
}

absl::Status WriteText(const std::string& path, const std::string& text) {
  std::ofstream file(path);
  file << text;
  file.close();
  if (!file) return absl::UnavailableError(absl::StrCat("cannot write ", path));
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------------------
// Figure 1.

struct Figure1Row {
  std::string label;
  Tuning tuning;
  double mean_error = 0;        // ||theta-bar - mean of retained draws||^2
  double covariance_error = 0;  // ||Sigma-hat - Sigma||_F / ||Sigma||_F
  double ess[2] = {0, 0};
  double rhat[2] = {0, 0};
  double seconds = 0;
};

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

absl::StatusOr<std::vector<Figure1Row>> RunFigure1(const Config& config) {
  SGMCMC_ASSIGN_OR_RETURN(const Problem problem, MakeProblem(config, {"fig1", 2}));
  SGMCMC_RETURN_IF_ERROR(
      WriteText(config.output_dir + "/fig1_contours.csv", ContourCsv(problem.exact)));
  const int64_t burn_in = config.iterations / 2;
  const std::vector<Method> methods = {Method::kSgld, Method::kPsgld, Method::kSgrld,
                                       Method::kHamcmc2};
  SGMCMC_ASSIGN_OR_RETURN(const auto tunings, ResolveTunings(config, problem, methods));
  std::vector<Figure1Row> rows;
  for (Method method : methods) {
    const MethodInfo& info = Info(method);
    const Tuning& tuning = tunings.at(method);
    SGMCMC_ASSIGN_OR_RETURN(
        auto sampler, MakeSampler(config, problem, method, tuning, config.seed, /*stream=*/1));
    Progress progress(absl::StrCat("fig1 ", info.label), config.iterations);
    std::vector<double> draws;
    draws.reserve(2 * (config.iterations - burn_in));
    const Clock::time_point start = Clock::now();
    double warmup_seconds = 0;
    for (int64_t t = 1; t <= config.iterations; ++t) {
      sampler->Step();
      if (t == burn_in)
        warmup_seconds = std::chrono::duration<double>(Clock::now() - start).count();
      if (t > burn_in) draws.insert(draws.end(), sampler->theta().begin(), sampler->theta().end());
      progress.Update(t, 0);
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();

    // Draws in the CmdStan layout, lp__ = log p(theta, x).
    const std::string path = absl::StrCat(config.output_dir, "/fig1_", info.key, ".csv");
    std::ofstream file(path);
    eval::CmdStanCsvOptions csv;
    csv.model = "linear_regression";
    csv.algorithm = info.key;
    csv.num_samples = config.iterations - burn_in;
    csv.num_warmup = burn_in;
    csv.seed = config.seed;
    csv.output_file = path;
    csv.extra = {{"step_size", absl::StrFormat("(%g/t)^0.51", tuning.a)},
                 {"batch_size", absl::StrCat(config.batch_size())},
                 {"num_items", absl::StrCat(config.num_items)}};
    SGMCMC_ASSIGN_OR_RETURN(
        eval::CmdStanCsvWriter writer,
        eval::CmdStanCsvWriter::Create(&file, eval::VectorParameterNames("theta", 2), csv));
    for (size_t i = 0; i < draws.size(); i += 2) {
      const absl::Span<const double> theta(draws.data() + i, 2);
      SGMCMC_RETURN_IF_ERROR(writer.WriteDraw(problem.model.LogJoint(theta), theta));
    }
    SGMCMC_RETURN_IF_ERROR(writer.Finish(warmup_seconds, seconds - warmup_seconds));

    Figure1Row row;
    row.label = info.label;
    row.tuning = tuning;
    row.seconds = seconds;
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
    rows.push_back(row);
  }
  std::string csv =
      "method,a,lambda,gamma,mean_error,covariance_error,ess_1,ess_2,rhat_1,rhat_2,seconds\n";
  for (const Figure1Row& row : rows) {
    absl::StrAppendFormat(&csv, "%s,%g,%g,%g,%.6g,%.6g,%.1f,%.1f,%.4f,%.4f,%.4f\n", row.label,
                          row.tuning.a, row.tuning.lambda, row.tuning.gamma, row.mean_error,
                          row.covariance_error, row.ess[0], row.ess[1], row.rhat[0], row.rhat[1],
                          row.seconds);
  }
  SGMCMC_RETURN_IF_ERROR(WriteText(config.output_dir + "/fig1_summary.csv", csv));
  return rows;
}

// ---------------------------------------------------------------------------------------
// Figure 2.

struct Figure2Result {
  int dimension = 0;
  std::vector<Method> methods;
  std::vector<Tuning> tunings;
  std::vector<Trace> traces;  // averaged over replications
};

absl::StatusOr<Figure2Result> RunFigure2(const Config& config, int dimension) {
  const std::string name = absl::StrCat("D", dimension);
  SGMCMC_ASSIGN_OR_RETURN(const Problem problem, MakeProblem(config, {name, dimension}));
  std::vector<Method> methods;
  for (const MethodInfo& info : kMethods) methods.push_back(info.method);
  SGMCMC_ASSIGN_OR_RETURN(const auto tunings, ResolveTunings(config, problem, methods));
  Figure2Result result;
  result.dimension = dimension;
  for (const MethodInfo& info : kMethods) {
    const Tuning& tuning = tunings.at(info.method);
    Trace mean;
    for (int r = 0; r < config.replications; ++r) {
      SGMCMC_ASSIGN_OR_RETURN(auto sampler,
                              MakeSampler(config, problem, info.method, tuning, config.seed,
                                          /*stream=*/100 + r));
      Progress progress(absl::StrFormat("fig2 D=%d %s rep %d/%d", dimension, info.label, r + 1,
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
  SGMCMC_RETURN_IF_ERROR(
      WriteText(absl::StrCat(config.output_dir, "/fig2_D", dimension, ".csv"), csv));
  return result;
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

void PrintFigure1(const Config& config, const std::vector<Figure1Row>& figure1) {
  std::cout << absl::StrFormat(
      "\nFigure 1: D = 2, sigma^2 = %g, N = %d, N_Omega = %d, T = %d (first half burn-in), "
      "eps_t = (a/t)^0.51\n",
      config.noise_variance, config.num_items, config.batch_size(), config.iterations);
  std::cout << absl::StrFormat("%-14s %9s %7s %7s %13s %11s %9s %9s %7s %7s %8s\n", "method", "a",
                               "lambda", "gamma", "|mean err|^2", "cov rel err", "ESS(th1)",
                               "ESS(th2)", "Rhat1", "Rhat2", "seconds");
  for (const Figure1Row& row : figure1) {
    std::cout << absl::StrFormat(
        "%-14s %9.2g %7.2g %7.2g %13.3e %11.3f %9.0f %9.0f %7.3f %7.3f %8.2f\n", row.label,
        row.tuning.a, row.tuning.lambda, row.tuning.gamma, row.mean_error, row.covariance_error,
        row.ess[0], row.ess[1], row.rhat[0], row.rhat[1], row.seconds);
  }
}

void PrintFigure2(const Config& config, const std::vector<Figure2Result>& figure2) {
  const int64_t t = config.iterations;
  std::cout << absl::StrFormat(
      "\nFigure 2: error ||theta_bar - theta_hat_t||^2 (eq. 12 estimate), mean of %d chains\n",
      config.replications);
  std::string fig2 =
      "dimension,method,a,lambda,gamma,error_T100,error_T10,error_T2,error_T,seconds,"
      "us_per_iteration\n";
  for (const Figure2Result& result : figure2) {
    std::cout << absl::StrFormat("%-5s %-14s %9s %7s %7s %11s %11s %11s %11s %9s %9s\n", "D",
                                 "method", "a", "lambda", "gamma", "err@T/100", "err@T/10",
                                 "err@T/2", "err@T", "seconds", "us/iter");
    for (size_t m = 0; m < result.methods.size(); ++m) {
      const Trace& trace = result.traces[m];
      const double seconds = trace.seconds.back();
      const double values[] = {ErrorAt(trace, t / 100), ErrorAt(trace, t / 10),
                               ErrorAt(trace, t / 2), trace.errors.back()};
      const Tuning& tuning = result.tunings[m];
      std::cout << absl::StrFormat(
          "%-5d %-14s %9.2g %7.2g %7.2g %11.3e %11.3e %11.3e %11.3e %9.3f %9.2f\n",
          result.dimension, Info(result.methods[m]).label, tuning.a, tuning.lambda, tuning.gamma,
          values[0], values[1], values[2], values[3], seconds, 1e6 * seconds / t);
      absl::StrAppendFormat(&fig2, "%d,%s,%g,%g,%g,%.6g,%.6g,%.6g,%.6g,%.6g,%.4f\n",
                            result.dimension, Info(result.methods[m]).label, tuning.a,
                            tuning.lambda, tuning.gamma, values[0], values[1], values[2], values[3],
                            seconds, 1e6 * seconds / t);
    }
    // The paper's claim: HAMCMC below SGLD and pSGLD in error versus iterations.
    const std::vector<const Trace*> baselines = {&result.traces[0], &result.traces[1]};
    for (size_t m = 3; m < result.methods.size(); ++m) {
      std::cout << absl::StrFormat(
          "      %s below both SGLD and pSGLD at %.0f%% of the recorded iterations >= T/100\n",
          Info(result.methods[m]).label,
          100 * WinFraction(result.traces[m], baselines, config.iterations));
    }
  }
  const absl::Status status = WriteText(config.output_dir + "/fig2_summary.csv", fig2);
  if (!status.ok()) std::cout << status.message() << "\n";
}

void PrintSummary(const Config& config, const std::vector<Figure1Row>& figure1,
                  const std::vector<Figure2Result>& figure2) {
  if (!figure1.empty()) PrintFigure1(config, figure1);
  if (!figure2.empty()) PrintFigure2(config, figure2);
}

absl::Status Run(const char* argv0) {
  SGMCMC_ASSIGN_OR_RETURN(const Config config, ConfigFromFlags());
  std::error_code error;
  std::filesystem::create_directories(config.output_dir, error);
  if (error) {
    return absl::UnavailableError(
        absl::StrCat("--output_dir: cannot create ", config.output_dir, ": ", error.message()));
  }
  std::cout << absl::StrFormat(
      "linear_regression: seed=%d T=%d N=%d N_Omega=%d sigma^2=%g covariates=%s rho=%g "
      "scale_ratio=%g dimensions=%s replications=%d tune=%d\n",
      config.seed, config.iterations, config.num_items, config.batch_size(), config.noise_variance,
      absl::GetFlag(FLAGS_covariates), config.correlation, config.scale_ratio,
      absl::StrJoin(config.dimensions, ","), config.replications, config.tune);
  const Clock::time_point start = Clock::now();
  std::vector<Figure1Row> figure1;
  if (config.figure1) {
    SGMCMC_ASSIGN_OR_RETURN(figure1, RunFigure1(config));
  }
  std::vector<Figure2Result> figure2;
  for (int d : config.figure2 ? config.dimensions : std::vector<int>()) {
    SGMCMC_ASSIGN_OR_RETURN(Figure2Result result, RunFigure2(config, d));
    figure2.push_back(std::move(result));
  }
  PrintSummary(config, figure1, figure2);
  if (config.plot) {
    const absl::Status status =
        RunGnuplotScript(argv0, "sgmcmc/tools/plots/linear_regression.gp", config.output_dir);
    if (status.ok()) {
      std::cout << "Figures: " << config.output_dir << "/figure1.png, " << config.output_dir
                << "/figure2.png\n";
    } else {
      std::cout << "PNGs skipped (the CSVs are written): " << status.message() << "\n";
    }
  }
  std::cout << absl::StrFormat("Done in %.1f s; outputs in %s (seed %d)\n",
                               std::chrono::duration<double>(Clock::now() - start).count(),
                               config.output_dir, config.seed);
  return absl::OkStatus();
}

}  // namespace
}  // namespace sgmcmc::tools

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "Reproduces Figures 1 and 2 of Simsekli et al. (2016), HAMCMC on Bayesian linear "
      "regression: samples over the true posterior (D = 2) and posterior-mean error versus "
      "iterations and time (D = 10, 100). Writes CSVs (and PNGs via gnuplot) to "
      "--output_dir.");
  absl::ParseCommandLine(argc, argv);
  const absl::Status status = sgmcmc::tools::Run(argv[0]);
  if (!status.ok()) {
    std::cerr << "linear_regression: " << status << "\n";
    return 1;
  }
  return 0;
}
