// The experiments of //tools:sparse_dirichlet (tools/sparse_dirichlet.cc is its command
// line): the synthetic experiments of Baker, Fearnhead, Fox & Nemeth (2018), "Large-scale
// stochastic sampling from the probability simplex": Figure 1 (§2.3, boxplots on a log scale
// of ω₅ from 1000 iterations after 1000 burn-in, minibatch 10, SGRLD vs SCIR vs exact draws,
// sparse posterior) and Figure 2 (§3.2, Kolmogorov-Smirnov distance versus minibatch
// proportion 0.001..0.5, sparse and dense posteriors, 5 seeds, the best step size per seed and
// proportion from the grids of Table 1; Appendix E.2).
//
// Model: categorical data with a Dir(0.1) prior, N = 1000 (models/simplex/categorical_dirichlet.h);
// sparse counts 800/100/100/0 x 7, dense counts of Appendix E.2. Each chain starts at
// θ_j = α + n_j (the posterior mean of θ) for both samplers, draws minibatches without
// replacement from stream 0 of its seed, and records log ω after burn-in; d_KS is computed
// from log ω (eval/ks_dirichlet.h), so components below 1e-308 are no problem. The exact
// draws of a seed come from its stream 1. Chains are spread over `threads`; the results do
// not depend on it.
//
// Every chain (and the exact draws) also gets its kernel Stein discrepancy to the exact
// posterior, in the Dirichlet's additive-log-ratio coordinates (kSparseDirichletKsdDraws below):
// reported for the same best-d_KS chains, next to d_KS.
//
// Outputs (SparseDirichletOutputFiles): fig1_omega5.csv (log10 ω₅ of the exact, SCIR and
// SGRLD draws), fig2_ks.csv (best d_KS per experiment, seed, proportion and method, with its
// step size and that chain's KSD; method "exact" = `iterations` exact draws), fig2_ks_mean.csv
// (means over seeds, one column per experiment and method, then the same for the KSD,
// <experiment>_<method>_ksd) and ks_grid.csv (every step size: d_KS and KSD).
//
// Cost: 2 · num_seeds · (1 + proportions · G) + G chains, G = |SCIR grid| + |SGRLD grid|,
// each burn_in + iterations steps plus one d_KS and one KSD (~20 + ~2 ms per chain at the
// defaults, which run 1375 chains: ~45-50 s on 2 threads).
//
// Example:
//   SparseDirichletOptions options;
//   options.num_seeds = 2;
//   SGMCMC_ASSIGN_OR_RETURN(const SparseDirichletResult result, RunSparseDirichlet(options));
//   SGMCMC_RETURN_IF_ERROR(WriteFiles(dir, SparseDirichletOutputFiles(options, result)));
//   std::cout << SparseDirichletSummary(options, result);
#ifndef SGMCMC_TOOLS_SPARSE_DIRICHLET_EXPERIMENT_H_
#define SGMCMC_TOOLS_SPARSE_DIRICHLET_EXPERIMENT_H_

#include <cmath>
#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "models/simplex/categorical_dirichlet.h"
#include "tools/tool_support.h"

namespace sgmcmc::tools {

enum class SimplexMethod { kScir, kSgrld, kExact };

// The kernel Stein discrepancy (eval/kernel_stein_discrepancy.h: IMQ kernel, c = 1,
// beta = -1/2, the V-statistic) of a chain's recorded ω against the exact posterior Dir(a),
// a = α + n, in the Dirichlet's additive-log-ratio (ALR) coordinates y_j = log(ω_j / ω_r),
// j ≠ r, with r the component of largest a_r (the first on ties; never near 0): there
// log p(y) = Σ_j a_j log ω_j + const and the score is a_j − A ω_j, A = Σ_j a_j (bounded, so
// the target is not distantly dissipative and Gorham & Mackey's detection guarantee does not
// apply as stated; the value is still 0 only at the target). A component with log ω = −inf (SGRLD
// after an exact mirror hit) enters as log(DBL_TRUE_MIN) ≈ −744.4. The exact reference uses the
// d_KS exact draws themselves. Not log θ: the samplers' θ have different laws (SCIR's θ_j ~
// Gamma(α_j + n_j, 1) independent; SGRLD's expanded-mean θ has ω ~ Dir(α + n) independent of
// θ· ~ Gamma(Σα, 1), log-θ score α_j + n_j − θ_j − N ω_j), so KSDs on log θ would be against two
// targets and not comparable; ω is what both report and what d_KS measures. The recorded draws
// are thinned by ceil(iterations / kSparseDirichletKsdDraws), to at most this many (every 2nd at
// the defaults), ~1.5 ms per chain at d = 10.
inline constexpr int kSparseDirichletKsdDraws = 500;

// "scir", "sgrld", "exact": the method's name in the CSVs.
const char* SimplexMethodName(SimplexMethod method);

struct SparseDirichletOptions {
  // Base seed; the k-th of `num_seeds` runs uses seed + k.
  uint64_t seed = 1;
  // Number of seeds, >= 1 (the paper: 5).
  int num_seeds = 5;
  // Recorded iterations per chain after burn-in, >= 2; also the number of exact draws.
  int iterations = 1000;
  // Burn-in iterations per chain, >= 0.
  int burn_in = 1000;
  // Minibatch size of Figure 1, in [1, N = 1000].
  int boxplot_minibatch = 10;
  // Minibatch proportions n/N of Figure 2, each in (0, 1], not empty.
  std::vector<double> proportions = {0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5};
  // SCIR step-size grid (Table 1), each in (0, 1e6], not empty.
  std::vector<double> scir_step_sizes = {1.0, 5e-1, 1e-1, 5e-2, 1e-2, 5e-3, 1e-3};
  // SGRLD step-size grid (Table 1; paper convention: drift h/2, noise N(0, h θ)), each in
  // (0, 1e6], not empty.
  std::vector<double> sgrld_step_sizes = {5e-1, 1e-1, 5e-2, 1e-2, 5e-3, 1e-3, 5e-4, 1e-4};
  // Worker threads, >= 1 (the results do not depend on it).
  int threads = 2;
  // Receives a progress line every half second ("\r[sparse_dirichlet] 12/40 chains ...");
  // null: no progress.
  std::ostream* progress = nullptr;

  // The grid of `method` (kScir or kSgrld).
  const std::vector<double>& step_sizes(SimplexMethod method) const {
    return method == SimplexMethod::kScir ? scir_step_sizes : sgrld_step_sizes;
  }

  // InvalidArgument naming the field, e.g. "num_seeds must be >= 1" or
  // "proportions: '2' is not a number in (0, 1]".
  absl::Status Validate() const;
};

// One posterior: "sparse" or "dense".
struct SparseDirichletExperiment {
  std::string name;
  models::CategoricalDirichlet model;
  std::vector<double> posterior;  // the exact posterior's concentrations
};

// One chain (or the exact draws) and what was kept from it.
struct SparseDirichletChain {
  int experiment = 0;         // index into SparseDirichletResult::experiments
  int seed_index = 0;         // the chain's seed is options.seed + seed_index
  int proportion_index = -1;  // -1: exact draws or a Figure 1 chain (boxplot_minibatch)
  SimplexMethod method = SimplexMethod::kScir;
  int step_index = 0;                // into options.step_sizes(method)
  bool keep_omega5 = false;          // the chain is a candidate for Figure 1
  double ks = 0;                     // d_KS of the recorded draws to the exact posterior
  std::vector<double> log10_omega5;  // log10 ω₅ of every recorded draw if keep_omega5
  // KSD of the recorded draws (of the exact draws for kExact) to the exact posterior, in ALR
  // coordinates; see kSparseDirichletKsdDraws.
  double ksd = 0;
};

// The smallest d_KS over the step-size grid and its step size.
struct SparseDirichletBest {
  double ks = INFINITY;
  double step_size = 0;
  double ksd = NAN;  // the KSD of the same chain
};

struct SparseDirichletResult {
  std::vector<SparseDirichletExperiment> experiments;  // sparse, dense
  std::vector<SparseDirichletChain> chains;
  // Keyed by (experiment, seed index, proportion index, method), kScir and kSgrld.
  std::map<std::tuple<int, int, int, SimplexMethod>, SparseDirichletBest> best;
  // d_KS and KSD of the exact draws, keyed by (experiment, seed index).
  std::map<std::pair<int, int>, double> exact_ks;
  std::map<std::pair<int, int>, double> exact_ksd;
};

// Runs every chain of Figures 1 and 2. InvalidArgument if `options` are not valid.
absl::StatusOr<SparseDirichletResult> RunSparseDirichlet(const SparseDirichletOptions& options);

// The output files (see the header comment).
OutputFiles SparseDirichletOutputFiles(const SparseDirichletOptions& options,
                                       const SparseDirichletResult& result);

// The summary table of Figure 2 (mean d_KS over seeds, SCIR wins per experiment).
std::string SparseDirichletSummary(const SparseDirichletOptions& options,
                                   const SparseDirichletResult& result);

}  // namespace sgmcmc::tools

#endif  // SGMCMC_TOOLS_SPARSE_DIRICHLET_EXPERIMENT_H_
