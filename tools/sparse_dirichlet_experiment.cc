#include "tools/sparse_dirichlet_experiment.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/types/span.h"
#include "base/check.h"
#include "base/status_macros.h"
#include "eval/kernel_stein_discrepancy.h"
#include "eval/ks_dirichlet.h"
#include "rng/dirichlet.h"
#include "rng/engine.h"
#include "samplers/count_model.h"
#include "samplers/minibatch.h"
#include "samplers/scir.h"
#include "samplers/sgrld.h"
#include "samplers/simplex_sampler.h"

namespace sgmcmc::tools {
namespace {

using models::CategoricalDirichlet;
using models::CategoricalDirichletOptions;
using Experiment = SparseDirichletExperiment;
using Method = SimplexMethod;
using Options = SparseDirichletOptions;

absl::Status CheckGrid(const char* field, const std::vector<double>& values, double lo_exclusive,
                       double hi_inclusive) {
  for (const double x : values) {
    if (!(x > lo_exclusive) || !(x <= hi_inclusive)) {
      return absl::InvalidArgumentError(absl::StrCat(field, ": '", x, "' is not a number in (",
                                                     lo_exclusive, ", ", hi_inclusive, "]"));
    }
  }
  if (values.empty()) return absl::InvalidArgumentError(absl::StrCat(field, " is empty"));
  return absl::OkStatus();
}

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

// Runs a chain of `method` with step h and returns log ω after burn-in, row-major.
std::vector<double> RunChain(const Experiment& experiment, Method method, double h,
                             int64_t batch_size, uint64_t seed, const Options& options) {
  const CategoricalDirichlet& model = experiment.model;
  const int dim = model.dimension();
  const samplers::SimplexSamplerOptions sampler_options{1, dim, model.PriorConcentration(), seed};
  std::unique_ptr<samplers::SimplexSampler> sampler;
  if (method == Method::kScir) {
    sampler = std::make_unique<samplers::Scir>(*std::move(samplers::Scir::Create(sampler_options)));
  } else {
    sampler =
        std::make_unique<samplers::Sgrld>(*std::move(samplers::Sgrld::Create(sampler_options)));
  }
  SGMCMC_CHECK(sampler->SetTheta(0, experiment.posterior).ok());
  samplers::Minibatch minibatch = *samplers::Minibatch::Create(model.num_items(), batch_size);
  rng::Engine engine(seed, /*stream=*/0);
  samplers::SimplexCounts counts;
  std::vector<double> log_omega(static_cast<size_t>(options.iterations) * dim);
  for (int m = 0; m < options.burn_in + options.iterations; ++m) {
    model.ScaledCounts(engine, minibatch.Draw(engine), *sampler, counts);
    sampler->Step(counts, h);
    if (m >= options.burn_in) {
      sampler->LogSimplex(0, absl::MakeSpan(log_omega).subspan(
                                 static_cast<size_t>(m - options.burn_in) * dim, dim));
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

// KSD (eval/kernel_stein_discrepancy.h: IMQ kernel, c = 1, beta = -1/2, V-statistic) of the
// draws log_omega[0], log_omega[stride], ... (at most kSparseDirichletKsdDraws) against the exact
// Dir(a) posterior in its additive-log-ratio coordinates y_j = log ω_j − log ω_r (j ≠ r, r the
// component with the largest a_r, the first on ties): log p(y) = Σ_j a_j log ω_j + const, score
// a_j − A ω_j with A = Σ a. log ω_j = −inf (an SGRLD component at θ = 0) enters as
// log(DBL_TRUE_MIN) ≈ −744.4, the least positive double's.
double AlrKsd(const Experiment& experiment, const std::vector<double>& log_omega) {
  const std::vector<double>& a = experiment.posterior;
  const int dim = static_cast<int>(a.size());
  const int r = static_cast<int>(std::max_element(a.begin(), a.end()) - a.begin());
  double total = 0;
  for (const double a_j : a) total += a_j;
  const size_t n = log_omega.size() / dim;
  const size_t stride =
      std::max<size_t>(1, (n + kSparseDirichletKsdDraws - 1) / kSparseDirichletKsdDraws);
  const double floor = std::log(std::numeric_limits<double>::denorm_min());
  std::vector<double> points, scores;
  for (size_t i = 0; i < n; i += stride) {
    const double* draw = log_omega.data() + i * dim;
    const double log_reference = std::max(draw[r], floor);
    for (int j = 0; j < dim; ++j) {
      if (j == r) continue;
      points.push_back(std::max(draw[j], floor) - log_reference);
      scores.push_back(a[j] - total * std::exp(draw[j]));
    }
  }
  const absl::StatusOr<eval::KsdEstimate> ksd =
      eval::KernelSteinDiscrepancy(points, scores, dim - 1, {}, {});
  return ksd.ok() ? ksd->value() : std::numeric_limits<double>::quiet_NaN();
}

// Runs `chain` and fills its ks, ksd (and log10_omega5 if kept).
void RunJob(const std::vector<Experiment>& experiments, const Options& options,
            SparseDirichletChain& chain) {
  const Experiment& experiment = experiments[chain.experiment];
  const uint64_t seed = options.seed + chain.seed_index;
  const int dim = experiment.model.dimension();
  std::vector<double> log_omega;
  if (chain.method == Method::kExact) {
    log_omega = ExactDraws(experiment, seed, options.iterations);
  } else {
    const int64_t batch_size = chain.proportion_index < 0
                                   ? options.boxplot_minibatch
                                   : MinibatchSize(options.proportions[chain.proportion_index],
                                                   experiment.model.num_items());
    log_omega =
        RunChain(experiment, chain.method, options.step_sizes(chain.method)[chain.step_index],
                 batch_size, seed, options);
  }
  chain.ks = eval::DirichletKsDistanceFromLog(log_omega, dim, experiment.posterior)->distance;
  chain.ksd = AlrKsd(experiment, log_omega);
  if (chain.keep_omega5) {
    for (size_t i = 4; i < log_omega.size(); i += dim) {
      chain.log10_omega5.push_back(log_omega[i] / std::log(10.0));
    }
  }
}

std::vector<SparseDirichletChain> MakeJobs(const Options& options, int num_experiments) {
  std::vector<SparseDirichletChain> jobs;
  for (int e = 0; e < num_experiments; ++e) {
    for (int s = 0; s < options.num_seeds; ++s) {
      jobs.push_back({e, s, -1, Method::kExact, 0, e == 0 && s == 0, 0, {}});
      for (int p = 0; p < static_cast<int>(options.proportions.size()); ++p) {
        for (Method method : {Method::kScir, Method::kSgrld}) {
          for (int h = 0; h < static_cast<int>(options.step_sizes(method).size()); ++h) {
            jobs.push_back({e, s, p, method, h, false, 0, {}});
          }
        }
      }
    }
  }
  // Figure 1: sparse experiment, first seed, minibatch boxplot_minibatch, every step size.
  for (Method method : {Method::kScir, Method::kSgrld}) {
    for (int h = 0; h < static_cast<int>(options.step_sizes(method).size()); ++h) {
      jobs.push_back({0, 0, -1, method, h, true, 0, {}});
    }
  }
  return jobs;
}

// Runs every job on options.threads threads; writes progress to options.progress.
void RunAll(const std::vector<Experiment>& experiments, const Options& options,
            std::vector<SparseDirichletChain>& jobs) {
  std::atomic<size_t> next{0}, done{0};
  std::vector<std::thread> workers;
  for (int t = 0; t < options.threads; ++t) {
    workers.emplace_back([&] {
      for (size_t i = next++; i < jobs.size(); i = next++) {
        RunJob(experiments, options, jobs[i]);
        ++done;
      }
    });
  }
  if (options.progress != nullptr) {
    const auto start = std::chrono::steady_clock::now();
    while (done < jobs.size()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      const size_t finished = done;
      *options.progress << absl::StrFormat(
                               "\r[sparse_dirichlet] %zu/%zu chains, %s  ", finished, jobs.size(),
                               RateAndEta(finished, jobs.size(), SecondsSince(start), "chains"))
                        << std::flush;
    }
  }
  for (std::thread& worker : workers) worker.join();
  if (options.progress != nullptr) *options.progress << "\n";
}

std::string Fmt(double x) { return absl::StrFormat("%.6g", x); }

}  // namespace

const char* SimplexMethodName(SimplexMethod method) {
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

absl::Status SparseDirichletOptions::Validate() const {
  if (num_seeds < 1) return absl::InvalidArgumentError("num_seeds must be >= 1");
  if (iterations < 2) return absl::InvalidArgumentError("iterations must be >= 2");
  if (burn_in < 0) return absl::InvalidArgumentError("burn_in must be >= 0");
  if (boxplot_minibatch < 1 || boxplot_minibatch > 1000) {
    return absl::InvalidArgumentError("boxplot_minibatch must be in [1, N = 1000]");
  }
  if (threads < 1) return absl::InvalidArgumentError("threads must be >= 1");
  SGMCMC_RETURN_IF_ERROR(CheckGrid("proportions", proportions, 0, 1));
  SGMCMC_RETURN_IF_ERROR(CheckGrid("scir_step_sizes", scir_step_sizes, 0, 1e6));
  return CheckGrid("sgrld_step_sizes", sgrld_step_sizes, 0, 1e6);
}

absl::StatusOr<SparseDirichletResult> RunSparseDirichlet(const SparseDirichletOptions& options) {
  SGMCMC_RETURN_IF_ERROR(options.Validate());
  SparseDirichletResult result;
  result.experiments = MakeExperiments();
  result.chains = MakeJobs(options, static_cast<int>(result.experiments.size()));
  RunAll(result.experiments, options, result.chains);
  for (const SparseDirichletChain& chain : result.chains) {
    if (chain.method == Method::kExact) {
      result.exact_ks[{chain.experiment, chain.seed_index}] = chain.ks;
      result.exact_ksd[{chain.experiment, chain.seed_index}] = chain.ksd;
      continue;
    }
    if (chain.proportion_index < 0) continue;
    SparseDirichletBest& b =
        result.best[{chain.experiment, chain.seed_index, chain.proportion_index, chain.method}];
    if (chain.ks < b.ks) {
      b = {chain.ks, options.step_sizes(chain.method)[chain.step_index], chain.ksd};
    }
  }
  return result;
}

OutputFiles SparseDirichletOutputFiles(const SparseDirichletOptions& options,
                                       const SparseDirichletResult& result) {
  const std::vector<Experiment>& experiments = result.experiments;
  std::string grid = "experiment,seed,proportion,minibatch_size,method,step_size,ks,ksd\n";
  for (const SparseDirichletChain& chain : result.chains) {
    if (chain.method == Method::kExact || chain.proportion_index < 0) continue;
    const double p = options.proportions[chain.proportion_index];
    absl::StrAppend(&grid, experiments[chain.experiment].name, ",", options.seed + chain.seed_index,
                    ",", Fmt(p), ",",
                    MinibatchSize(p, experiments[chain.experiment].model.num_items()), ",",
                    SimplexMethodName(chain.method), ",",
                    Fmt(options.step_sizes(chain.method)[chain.step_index]), ",", Fmt(chain.ks),
                    ",", Fmt(chain.ksd), "\n");
  }

  std::string fig2 = "experiment,seed,proportion,minibatch_size,method,step_size,ks,ksd\n";
  // Means over seeds, wide: one row per proportion, one column per (experiment, method).
  std::string fig2_mean = "proportion";
  for (const Experiment& experiment : experiments) {
    for (Method method : {Method::kScir, Method::kSgrld, Method::kExact}) {
      absl::StrAppend(&fig2_mean, ",", experiment.name, "_", SimplexMethodName(method));
    }
  }
  for (const Experiment& experiment : experiments) {
    for (Method method : {Method::kScir, Method::kSgrld, Method::kExact}) {
      absl::StrAppend(&fig2_mean, ",", experiment.name, "_", SimplexMethodName(method), "_ksd");
    }
  }
  absl::StrAppend(&fig2_mean, "\n");
  for (int p = 0; p < static_cast<int>(options.proportions.size()); ++p) {
    const double proportion = options.proportions[p];
    absl::StrAppend(&fig2_mean, Fmt(proportion));
    std::string ksd_means;
    for (int e = 0; e < static_cast<int>(experiments.size()); ++e) {
      const int64_t batch_size = MinibatchSize(proportion, experiments[e].model.num_items());
      for (Method method : {Method::kScir, Method::kSgrld, Method::kExact}) {
        double sum = 0, ksd_sum = 0;
        for (int s = 0; s < options.num_seeds; ++s) {
          const SparseDirichletBest b =
              method == Method::kExact
                  ? SparseDirichletBest{result.exact_ks.at({e, s}), 0, result.exact_ksd.at({e, s})}
                  : result.best.at({e, s, p, method});
          absl::StrAppend(&fig2, experiments[e].name, ",", options.seed + s, ",", Fmt(proportion),
                          ",", batch_size, ",", SimplexMethodName(method), ",", Fmt(b.step_size),
                          ",", Fmt(b.ks), ",", Fmt(b.ksd), "\n");
          sum += b.ks;
          ksd_sum += b.ksd;
        }
        absl::StrAppend(&fig2_mean, ",", Fmt(sum / options.num_seeds));
        absl::StrAppend(&ksd_means, ",", Fmt(ksd_sum / options.num_seeds));
      }
    }
    absl::StrAppend(&fig2_mean, ksd_means, "\n");
  }

  // Figure 1: exact draws and the best-step SCIR / SGRLD chains, wide format.
  std::map<Method, const SparseDirichletChain*> fig1;
  std::map<Method, double> fig1_ks;
  for (const SparseDirichletChain& chain : result.chains) {
    if (!chain.keep_omega5) continue;
    const Method m = chain.method;
    if (!fig1_ks.count(m) || chain.ks < fig1_ks[m]) {
      fig1[m] = &chain;
      fig1_ks[m] = chain.ks;
    }
  }
  std::string csv = "exact,scir,sgrld\n";
  for (int i = 0; i < options.iterations; ++i) {
    absl::StrAppend(&csv, Fmt(fig1[Method::kExact]->log10_omega5[i]), ",",
                    Fmt(fig1[Method::kScir]->log10_omega5[i]), ",",
                    Fmt(fig1[Method::kSgrld]->log10_omega5[i]), "\n");
  }
  return {{"ks_grid.csv", std::move(grid)},
          {"fig2_ks.csv", std::move(fig2)},
          {"fig2_ks_mean.csv", std::move(fig2_mean)},
          {"fig1_omega5.csv", std::move(csv)}};
}

std::string SparseDirichletSummary(const SparseDirichletOptions& options,
                                   const SparseDirichletResult& result) {
  const std::vector<Experiment>& experiments = result.experiments;
  std::string out = absl::StrFormat(
      "Figure 2: d_KS at the best Table-1 step size per seed (mean over %d seeds; seeds "
      "%d..%d)\n",
      options.num_seeds, options.seed, options.seed + options.num_seeds - 1);
  absl::StrAppendFormat(&out, "%-7s %10s %5s %10s %10s %10s %12s %10s %10s %10s\n", "exp",
                        "proportion", "n", "SCIR", "SGRLD", "exact", "SCIR<SGRLD", "KSD SCIR",
                        "KSD SGRLD", "KSD exact");
  for (int e = 0; e < static_cast<int>(experiments.size()); ++e) {
    int wins = 0, total = 0;
    double exact = 0, exact_ksd = 0;
    for (int s = 0; s < options.num_seeds; ++s) {
      exact += result.exact_ks.at({e, s}) / options.num_seeds;
      exact_ksd += result.exact_ksd.at({e, s}) / options.num_seeds;
    }
    for (int p = 0; p < static_cast<int>(options.proportions.size()); ++p) {
      double scir = 0, sgrld = 0, scir_ksd = 0, sgrld_ksd = 0;
      int row_wins = 0;
      for (int s = 0; s < options.num_seeds; ++s) {
        const SparseDirichletBest& a = result.best.at({e, s, p, Method::kScir});
        const SparseDirichletBest& b = result.best.at({e, s, p, Method::kSgrld});
        scir += a.ks / options.num_seeds;
        sgrld += b.ks / options.num_seeds;
        scir_ksd += a.ksd / options.num_seeds;
        sgrld_ksd += b.ksd / options.num_seeds;
        row_wins += a.ks < b.ks;
      }
      wins += row_wins;
      total += options.num_seeds;
      absl::StrAppendFormat(
          &out, "%-7s %10g %5d %10.4f %10.4f %10.4f %10d/%d %10.4f %10.4f %10.4f\n",
          experiments[e].name, options.proportions[p],
          MinibatchSize(options.proportions[p], experiments[e].model.num_items()), scir, sgrld,
          exact, row_wins, options.num_seeds, scir_ksd, sgrld_ksd, exact_ksd);
    }
    absl::StrAppendFormat(&out, "%s: SCIR below SGRLD in %d of %d (proportion, seed) pairs\n",
                          experiments[e].name, wins, total);
  }
  absl::StrAppendFormat(&out,
                        "KSD: of the same chains (the best d_KS step) and of the exact draws, in "
                        "the Dirichlet's additive-log-ratio coordinates log(omega_j / omega_r) "
                        "(score a_j - A omega_j); IMQ kernel c = 1, beta = -1/2, V-statistic of "
                        "<= %d draws\n",
                        kSparseDirichletKsdDraws);
  return out;
}

}  // namespace sgmcmc::tools
