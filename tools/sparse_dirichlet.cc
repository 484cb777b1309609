// sparse_dirichlet: reproduces the synthetic experiments of Baker, Fearnhead, Fox & Nemeth
// (2018), "Large-scale stochastic sampling from the probability simplex": Figure 1 (§2.3,
// boxplots on a log scale of ω₅ from 1000 iterations after 1000 burn-in, minibatch 10, SGRLD
// vs SCIR vs exact draws, sparse posterior) and Figure 2 (§3.2, Kolmogorov-Smirnov distance
// versus minibatch proportion 0.001..0.5, sparse and dense posteriors, 5 seeds, the best step
// size per seed and proportion from the grids of Table 1; Appendix E.2).
//
// Model: categorical data with a Dir(0.1) prior, N = 1000 (models/categorical_dirichlet.h);
// sparse counts 800/100/100/0 x 7, dense counts of Appendix E.2. Each chain starts at
// θ_j = α + n_j (the posterior mean of θ) for both samplers, draws minibatches without
// replacement from stream 0 of its seed, and records log ω after burn-in; d_KS is computed
// from log ω (eval/ks_dirichlet.h), so components below 1e-308 are no problem.
//
// Outputs (in --output_dir): fig1_omega5.csv (log10 ω₅ of the exact, SCIR and SGRLD draws),
// fig2_ks.csv (best d_KS per experiment, seed, proportion and method, with its step size;
// method "exact" = --iterations exact draws), fig2_ks_mean.csv (means over seeds, one column
// per experiment and method), ks_grid.csv (every step size), and fig1_omega5.png /
// fig2_ks.png drawn by tools/plots/sparse_dirichlet_fig{1,2}.gp (via tools/gnuplot.h) when
// gnuplot is on PATH. A summary table goes to stdout, progress to stderr. Runs are spread over
// --threads; results do not depend on it.
//
// Usage:
//   bazel run //tools:sparse_dirichlet -- --output_dir=/tmp/sd --seed=1
//   bazel-bin/tools/sparse_dirichlet --num_seeds=2 --proportions=0.01,0.5 --noplot
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/check.h"
#include "base/status_macros.h"
#include "eval/ks_dirichlet.h"
#include "models/categorical_dirichlet.h"
#include "rng/dirichlet.h"
#include "rng/engine.h"
#include "samplers/count_model.h"
#include "samplers/minibatch.h"
#include "samplers/scir.h"
#include "samplers/sgrld.h"
#include "samplers/simplex_sampler.h"
#include "tools/gnuplot.h"

ABSL_FLAG(std::string, output_dir, "/tmp/sgmcmc_sparse_dirichlet",
          "Directory for the CSV and PNG outputs (created if missing).");
ABSL_FLAG(uint64_t, seed, 1, "Base seed; the k-th of --num_seeds runs uses seed + k.");
ABSL_FLAG(int, num_seeds, 5, "Number of seeds (the paper: 5).");
ABSL_FLAG(int, iterations, 1000, "Recorded iterations per chain after burn-in.");
ABSL_FLAG(int, burn_in, 1000, "Burn-in iterations per chain.");
ABSL_FLAG(int, boxplot_minibatch, 10, "Minibatch size of Figure 1.");
ABSL_FLAG(std::vector<std::string>, proportions,
          std::vector<std::string>({"0.001", "0.002", "0.005", "0.01", "0.02", "0.05", "0.1", "0.2",
                                    "0.5"}),
          "Minibatch proportions n/N of Figure 2 (each in (0, 1]).");
ABSL_FLAG(std::vector<std::string>, scir_step_sizes,
          std::vector<std::string>({"1.0", "5e-1", "1e-1", "5e-2", "1e-2", "5e-3", "1e-3"}),
          "SCIR step-size grid (Table 1).");
ABSL_FLAG(std::vector<std::string>, sgrld_step_sizes,
          std::vector<std::string>({"5e-1", "1e-1", "5e-2", "1e-2", "5e-3", "1e-3", "5e-4",
                                    "1e-4"}),
          "SGRLD step-size grid (Table 1; paper convention: drift h/2, noise N(0, h θ)).");
ABSL_FLAG(int, threads, 2, "Worker threads (results do not depend on it).");
ABSL_FLAG(bool, plot, true, "Draw the PNGs with gnuplot (if gnuplot is on PATH).");

namespace sgmcmc::tools {
namespace {

using models::CategoricalDirichlet;
using models::CategoricalDirichletOptions;

enum class Method { kScir, kSgrld, kExact };

const char* MethodName(Method method) {
  switch (method) {
    case Method::kScir:
      return "scir";
    case Method::kSgrld:
      return "sgrld";
    case Method::kExact:
      return "exact";
  }
  return "";
}

struct Config {
  std::string output_dir;
  uint64_t seed = 1;
  int num_seeds = 5;
  int iterations = 1000;
  int burn_in = 1000;
  int boxplot_minibatch = 10;
  std::vector<double> proportions;
  std::vector<double> scir_step_sizes;
  std::vector<double> sgrld_step_sizes;
  int threads = 2;
  bool plot = true;

  const std::vector<double>& step_sizes(Method method) const {
    return method == Method::kScir ? scir_step_sizes : sgrld_step_sizes;
  }
};

absl::StatusOr<std::vector<double>> ParseDoubles(const char* flag,
                                                 const std::vector<std::string>& values,
                                                 double lo_exclusive, double hi_inclusive) {
  std::vector<double> out;
  for (const std::string& v : values) {
    double x;
    if (!absl::SimpleAtod(v, &x) || !(x > lo_exclusive) || !(x <= hi_inclusive)) {
      return absl::InvalidArgumentError(absl::StrCat("--", flag, ": '", v, "' is not a number in (",
                                                     lo_exclusive, ", ", hi_inclusive, "]"));
    }
    out.push_back(x);
  }
  if (out.empty()) return absl::InvalidArgumentError(absl::StrCat("--", flag, " is empty"));
  return out;
}

absl::StatusOr<Config> ConfigFromFlags() {
  Config config;
  config.output_dir = absl::GetFlag(FLAGS_output_dir);
  config.seed = absl::GetFlag(FLAGS_seed);
  config.num_seeds = absl::GetFlag(FLAGS_num_seeds);
  config.iterations = absl::GetFlag(FLAGS_iterations);
  config.burn_in = absl::GetFlag(FLAGS_burn_in);
  config.boxplot_minibatch = absl::GetFlag(FLAGS_boxplot_minibatch);
  config.threads = absl::GetFlag(FLAGS_threads);
  config.plot = absl::GetFlag(FLAGS_plot);
  if (config.output_dir.empty()) return absl::InvalidArgumentError("--output_dir is empty");
  if (config.num_seeds < 1) return absl::InvalidArgumentError("--num_seeds must be >= 1");
  if (config.iterations < 2) return absl::InvalidArgumentError("--iterations must be >= 2");
  if (config.burn_in < 0) return absl::InvalidArgumentError("--burn_in must be >= 0");
  if (config.boxplot_minibatch < 1 || config.boxplot_minibatch > 1000) {
    return absl::InvalidArgumentError("--boxplot_minibatch must be in [1, N = 1000]");
  }
  if (config.threads < 1) return absl::InvalidArgumentError("--threads must be >= 1");
  SGMCMC_ASSIGN_OR_RETURN(config.proportions,
                          ParseDoubles("proportions", absl::GetFlag(FLAGS_proportions), 0, 1));
  SGMCMC_ASSIGN_OR_RETURN(
      config.scir_step_sizes,
      ParseDoubles("scir_step_sizes", absl::GetFlag(FLAGS_scir_step_sizes), 0, 1e6));
  SGMCMC_ASSIGN_OR_RETURN(
      config.sgrld_step_sizes,
      ParseDoubles("sgrld_step_sizes", absl::GetFlag(FLAGS_sgrld_step_sizes), 0, 1e6));
  return config;
}

struct Experiment {
  std::string name;
  CategoricalDirichlet model;
  std::vector<double> posterior;
};

std::vector<Experiment> MakeExperiments() {
  std::vector<Experiment> experiments;
  for (const auto& [name, options] : {std::pair{"sparse", CategoricalDirichletOptions::Sparse()},
                                      std::pair{"dense", CategoricalDirichletOptions::Dense()}}) {
    CategoricalDirichlet model = *CategoricalDirichlet::Create(options);
    std::vector<double> posterior = model.PosteriorConcentration();
    experiments.push_back({name, std::move(model), std::move(posterior)});
  }
  return experiments;
}

int64_t MinibatchSize(double proportion, int64_t num_items) {
  return std::clamp<int64_t>(std::llround(proportion * num_items), 1, num_items);
}

// One unit of work: a chain (or the exact draws) and what to keep from it.
struct Job {
  int experiment = 0;
  int seed_index = 0;
  int proportion_index = -1;  // -1: the Figure 1 runs (minibatch --boxplot_minibatch)
  Method method = Method::kScir;
  int step_index = 0;
  bool keep_omega5 = false;
};

struct JobResult {
  double ks = 0;
  std::vector<double> log10_omega5;
};

// Runs a chain of `method` with step h and returns log ω after burn-in, row-major.
std::vector<double> RunChain(const Experiment& experiment, Method method, double h,
                             int64_t batch_size, uint64_t seed, const Config& config) {
  const CategoricalDirichlet& model = experiment.model;
  const int dim = model.dimension();
  const samplers::SimplexSamplerOptions options{1, dim, model.PriorConcentration(), seed};
  std::unique_ptr<samplers::SimplexSampler> sampler;
  if (method == Method::kScir) {
    sampler = std::make_unique<samplers::Scir>(*std::move(samplers::Scir::Create(options)));
  } else {
    sampler = std::make_unique<samplers::Sgrld>(*std::move(samplers::Sgrld::Create(options)));
  }
  SGMCMC_CHECK(sampler->SetTheta(0, experiment.posterior).ok());
  samplers::Minibatch minibatch = *samplers::Minibatch::Create(model.num_items(), batch_size);
  rng::Engine engine(seed, /*stream=*/0);
  samplers::SimplexCounts counts;
  std::vector<double> log_omega(static_cast<size_t>(config.iterations) * dim);
  for (int m = 0; m < config.burn_in + config.iterations; ++m) {
    model.ScaledCounts(engine, minibatch.Draw(engine), *sampler, counts);
    sampler->Step(counts, h);
    if (m >= config.burn_in) {
      sampler->LogSimplex(
          0, absl::MakeSpan(log_omega).subspan(static_cast<size_t>(m - config.burn_in) * dim, dim));
    }
  }
  return log_omega;
}

std::vector<double> ExactDraws(const Experiment& experiment, uint64_t seed, int count) {
  const int dim = experiment.model.dimension();
  rng::Engine engine(seed, /*stream=*/1);
  std::vector<double> log_omega(static_cast<size_t>(count) * dim);
  for (int i = 0; i < count; ++i) {
    rng::LogDirichletSample(engine, experiment.posterior,
                            absl::MakeSpan(log_omega).subspan(static_cast<size_t>(i) * dim, dim));
  }
  return log_omega;
}

JobResult RunJob(const Job& job, const std::vector<Experiment>& experiments, const Config& config) {
  const Experiment& experiment = experiments[job.experiment];
  const uint64_t seed = config.seed + job.seed_index;
  const int dim = experiment.model.dimension();
  std::vector<double> log_omega;
  if (job.method == Method::kExact) {
    log_omega = ExactDraws(experiment, seed, config.iterations);
  } else {
    const int64_t batch_size =
        job.proportion_index < 0
            ? config.boxplot_minibatch
            : MinibatchSize(config.proportions[job.proportion_index], experiment.model.num_items());
    log_omega = RunChain(experiment, job.method, config.step_sizes(job.method)[job.step_index],
                         batch_size, seed, config);
  }
  JobResult result;
  result.ks = eval::DirichletKsDistanceFromLog(log_omega, dim, experiment.posterior)->distance;
  if (job.keep_omega5) {
    for (size_t i = 4; i < log_omega.size(); i += dim) {
      result.log10_omega5.push_back(log_omega[i] / std::log(10.0));
    }
  }
  return result;
}

std::vector<Job> MakeJobs(const Config& config, int num_experiments) {
  std::vector<Job> jobs;
  for (int e = 0; e < num_experiments; ++e) {
    for (int s = 0; s < config.num_seeds; ++s) {
      jobs.push_back({e, s, -1, Method::kExact, 0, e == 0 && s == 0});
      for (int p = 0; p < static_cast<int>(config.proportions.size()); ++p) {
        for (Method method : {Method::kScir, Method::kSgrld}) {
          for (int h = 0; h < static_cast<int>(config.step_sizes(method).size()); ++h) {
            jobs.push_back({e, s, p, method, h, false});
          }
        }
      }
    }
  }
  // Figure 1: sparse experiment, first seed, minibatch --boxplot_minibatch, every step size.
  for (Method method : {Method::kScir, Method::kSgrld}) {
    for (int h = 0; h < static_cast<int>(config.step_sizes(method).size()); ++h) {
      jobs.push_back({0, 0, -1, method, h, true});
    }
  }
  return jobs;
}

// Runs every job on config.threads threads; prints progress to stderr.
std::vector<JobResult> RunAll(const std::vector<Job>& jobs,
                              const std::vector<Experiment>& experiments, const Config& config) {
  std::vector<JobResult> results(jobs.size());
  std::atomic<size_t> next{0}, done{0};
  std::vector<std::thread> workers;
  for (int t = 0; t < config.threads; ++t) {
    workers.emplace_back([&] {
      for (size_t i = next++; i < jobs.size(); i = next++) {
        results[i] = RunJob(jobs[i], experiments, config);
        ++done;
      }
    });
  }
  const auto start = std::chrono::steady_clock::now();
  while (done < jobs.size()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const size_t finished = done;
    const double rate = finished / std::max(elapsed, 1e-9);
    std::cerr << absl::StrFormat("\r[sparse_dirichlet] %zu/%zu chains, %.1f chains/s, ETA %.0f s  ",
                                 finished, jobs.size(), rate,
                                 rate > 0 ? (jobs.size() - finished) / rate : 0.0)
              << std::flush;
  }
  for (std::thread& worker : workers) worker.join();
  std::cerr << "\n";
  return results;
}

// Best (smallest d_KS) step size per (experiment, seed, proportion, method).
struct Best {
  double ks = INFINITY;
  double step_size = 0;
};
using BestKey = std::tuple<int, int, int, Method>;  // experiment, seed, proportion, method

absl::Status WriteFile(const std::string& path, const std::string& contents) {
  std::ofstream out(path);
  out << contents;
  out.close();
  if (!out) return absl::UnavailableError(absl::StrCat("cannot write ", path));
  return absl::OkStatus();
}

std::string Fmt(double x) { return absl::StrFormat("%.6g", x); }

absl::Status WriteOutputs(const Config& config, const std::vector<Experiment>& experiments,
                          const std::vector<Job>& jobs, const std::vector<JobResult>& results,
                          const std::map<BestKey, Best>& best,
                          const std::map<std::pair<int, int>, double>& exact_ks) {
  const std::string dir = config.output_dir;
  std::string grid = "experiment,seed,proportion,minibatch_size,method,step_size,ks\n";
  for (size_t i = 0; i < jobs.size(); ++i) {
    const Job& job = jobs[i];
    if (job.method == Method::kExact || job.proportion_index < 0) continue;
    const double p = config.proportions[job.proportion_index];
    absl::StrAppend(&grid, experiments[job.experiment].name, ",", config.seed + job.seed_index, ",",
                    Fmt(p), ",", MinibatchSize(p, experiments[job.experiment].model.num_items()),
                    ",", MethodName(job.method), ",",
                    Fmt(config.step_sizes(job.method)[job.step_index]), ",", Fmt(results[i].ks),
                    "\n");
  }
  SGMCMC_RETURN_IF_ERROR(WriteFile(dir + "/ks_grid.csv", grid));

  std::string fig2 = "experiment,seed,proportion,minibatch_size,method,step_size,ks\n";
  // Means over seeds, wide: one row per proportion, one column per (experiment, method).
  std::string fig2_mean = "proportion";
  for (const Experiment& experiment : experiments) {
    for (Method method : {Method::kScir, Method::kSgrld, Method::kExact}) {
      absl::StrAppend(&fig2_mean, ",", experiment.name, "_", MethodName(method));
    }
  }
  absl::StrAppend(&fig2_mean, "\n");
  for (int p = 0; p < static_cast<int>(config.proportions.size()); ++p) {
    const double proportion = config.proportions[p];
    absl::StrAppend(&fig2_mean, Fmt(proportion));
    for (int e = 0; e < static_cast<int>(experiments.size()); ++e) {
      const int64_t batch_size = MinibatchSize(proportion, experiments[e].model.num_items());
      for (Method method : {Method::kScir, Method::kSgrld, Method::kExact}) {
        double sum = 0;
        for (int s = 0; s < config.num_seeds; ++s) {
          const Best b =
              method == Method::kExact ? Best{exact_ks.at({e, s}), 0} : best.at({e, s, p, method});
          absl::StrAppend(&fig2, experiments[e].name, ",", config.seed + s, ",", Fmt(proportion),
                          ",", batch_size, ",", MethodName(method), ",", Fmt(b.step_size), ",",
                          Fmt(b.ks), "\n");
          sum += b.ks;
        }
        absl::StrAppend(&fig2_mean, ",", Fmt(sum / config.num_seeds));
      }
    }
    absl::StrAppend(&fig2_mean, "\n");
  }
  SGMCMC_RETURN_IF_ERROR(WriteFile(dir + "/fig2_ks.csv", fig2));
  SGMCMC_RETURN_IF_ERROR(WriteFile(dir + "/fig2_ks_mean.csv", fig2_mean));

  // Figure 1: exact draws and the best-step SCIR / SGRLD chains, wide format.
  std::map<Method, const JobResult*> fig1;
  std::map<Method, double> fig1_ks;
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (!jobs[i].keep_omega5) continue;
    const Method m = jobs[i].method;
    if (!fig1_ks.count(m) || results[i].ks < fig1_ks[m]) {
      fig1[m] = &results[i];
      fig1_ks[m] = results[i].ks;
    }
  }
  std::string csv = "exact,scir,sgrld\n";
  for (int i = 0; i < config.iterations; ++i) {
    absl::StrAppend(&csv, Fmt(fig1[Method::kExact]->log10_omega5[i]), ",",
                    Fmt(fig1[Method::kScir]->log10_omega5[i]), ",",
                    Fmt(fig1[Method::kSgrld]->log10_omega5[i]), "\n");
  }
  return WriteFile(dir + "/fig1_omega5.csv", csv);
}

void PrintSummary(const Config& config, const std::vector<Experiment>& experiments,
                  const std::map<BestKey, Best>& best,
                  const std::map<std::pair<int, int>, double>& exact_ks) {
  std::cout << absl::StrFormat(
      "Figure 2: d_KS at the best Table-1 step size per seed (mean over %d seeds; seeds "
      "%d..%d)\n",
      config.num_seeds, config.seed, config.seed + config.num_seeds - 1);
  std::cout << absl::StrFormat("%-7s %10s %5s %10s %10s %10s %12s\n", "exp", "proportion", "n",
                               "SCIR", "SGRLD", "exact", "SCIR<SGRLD");
  for (int e = 0; e < static_cast<int>(experiments.size()); ++e) {
    int wins = 0, total = 0;
    double exact = 0;
    for (int s = 0; s < config.num_seeds; ++s) exact += exact_ks.at({e, s}) / config.num_seeds;
    for (int p = 0; p < static_cast<int>(config.proportions.size()); ++p) {
      double scir = 0, sgrld = 0;
      int row_wins = 0;
      for (int s = 0; s < config.num_seeds; ++s) {
        const double a = best.at({e, s, p, Method::kScir}).ks;
        const double b = best.at({e, s, p, Method::kSgrld}).ks;
        scir += a / config.num_seeds;
        sgrld += b / config.num_seeds;
        row_wins += a < b;
      }
      wins += row_wins;
      total += config.num_seeds;
      std::cout << absl::StrFormat(
          "%-7s %10g %5d %10.4f %10.4f %10.4f %10d/%d\n", experiments[e].name,
          config.proportions[p],
          MinibatchSize(config.proportions[p], experiments[e].model.num_items()), scir, sgrld,
          exact, row_wins, config.num_seeds);
    }
    std::cout << absl::StrFormat("%s: SCIR below SGRLD in %d of %d (proportion, seed) pairs\n",
                                 experiments[e].name, wins, total);
  }
  std::cout << "Per-seed values and step sizes: " << config.output_dir << "/fig2_ks.csv\n";
}

// Draws fig1_omega5.png and fig2_ks.png with the gnuplot scripts in the runfiles; says why
// when it cannot (gnuplot not on PATH, script missing), the CSVs being written either way.
void Plot(const Config& config, const char* argv0) {
  if (!config.plot) return;
  for (const char* script : {"sgmcmc/tools/plots/sparse_dirichlet_fig1.gp",
                             "sgmcmc/tools/plots/sparse_dirichlet_fig2.gp"}) {
    const absl::Status status = RunGnuplotScript(argv0, script, config.output_dir);
    if (!status.ok()) {
      std::cout << "figures skipped: " << status.message() << "\n";
      return;
    }
  }
  std::cout << "Figures: " << config.output_dir << "/fig1_omega5.png, " << config.output_dir
            << "/fig2_ks.png\n";
}

absl::Status Run(const char* argv0) {
  SGMCMC_ASSIGN_OR_RETURN(const Config config, ConfigFromFlags());
  std::error_code error;
  std::filesystem::create_directories(config.output_dir, error);
  if (error) {
    return absl::UnavailableError(
        absl::StrCat("--output_dir: cannot create ", config.output_dir, ": ", error.message()));
  }
  std::cout << "sparse_dirichlet: seed=" << config.seed << " num_seeds=" << config.num_seeds
            << " iterations=" << config.iterations << " burn_in=" << config.burn_in
            << " threads=" << config.threads << "\n";
  const auto start = std::chrono::steady_clock::now();
  const std::vector<Experiment> experiments = MakeExperiments();
  const std::vector<Job> jobs = MakeJobs(config, static_cast<int>(experiments.size()));
  const std::vector<JobResult> results = RunAll(jobs, experiments, config);

  std::map<BestKey, Best> best;
  std::map<std::pair<int, int>, double> exact_ks;
  for (size_t i = 0; i < jobs.size(); ++i) {
    const Job& job = jobs[i];
    if (job.method == Method::kExact) {
      exact_ks[{job.experiment, job.seed_index}] = results[i].ks;
      continue;
    }
    if (job.proportion_index < 0) continue;
    Best& b = best[{job.experiment, job.seed_index, job.proportion_index, job.method}];
    if (results[i].ks < b.ks) b = {results[i].ks, config.step_sizes(job.method)[job.step_index]};
  }
  SGMCMC_RETURN_IF_ERROR(WriteOutputs(config, experiments, jobs, results, best, exact_ks));
  PrintSummary(config, experiments, best, exact_ks);
  Plot(config, argv0);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << absl::StrFormat("%zu chains in %.1f s; outputs in %s\n", jobs.size(), seconds,
                               config.output_dir);
  return absl::OkStatus();
}

}  // namespace
}  // namespace sgmcmc::tools

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "Reproduces Figures 1 and 2 of Baker et al. (2018): SCIR vs SGRLD on sparse and dense "
      "Dirichlet posteriors. Writes CSVs (and PNGs via gnuplot) to --output_dir.");
  absl::ParseCommandLine(argc, argv);
  const absl::Status status = sgmcmc::tools::Run(argv[0]);
  if (!status.ok()) {
    std::cerr << "sparse_dirichlet: " << status << "\n";
    return 1;
  }
  return 0;
}
