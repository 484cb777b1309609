// sparse_dirichlet: reproduces the synthetic experiments of Baker, Fearnhead, Fox & Nemeth
// (2018), "Large-scale stochastic sampling from the probability simplex": Figures 1 and 2,
// SCIR vs SGRLD on sparse and dense Dirichlet posteriors (the experiments and their outputs:
// tools/sparse_dirichlet_experiment.h; the flags are the fields of SparseDirichletOptions).
//
// Outputs (in --output_dir): fig1_omega5.csv, fig2_ks.csv, fig2_ks_mean.csv, ks_grid.csv, and
// fig1_omega5.png / fig2_ks.png drawn by tools/plots/sparse_dirichlet_fig{1,2}.gp (via
// tools/gnuplot.h) when gnuplot is on PATH. A summary table (d_KS, and the kernel Stein
// discrepancy of the same chains and of the exact draws) goes to stdout, progress to stderr. Runs are spread over --threads; results do not depend on it.
//
// Usage:
//   bazel run //tools:sparse_dirichlet -- --output_dir=/tmp/sd --seed=1
//   bazel-bin/tools/sparse_dirichlet --num_seeds=2 --proportions=0.01,0.5 --noplot
#include <chrono>
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "tools/gnuplot.h"
#include "tools/sparse_dirichlet_experiment.h"
#include "tools/tool_support.h"

namespace sgmcmc::tools {
namespace {

// The defaults of the grid flags: SparseDirichletOptions' grids.
std::vector<std::string> ToStrings(const std::vector<double>& values) {
  std::vector<std::string> out;
  for (const double x : values) out.push_back(absl::StrCat(x));
  return out;
}

}  // namespace
}  // namespace sgmcmc::tools

using sgmcmc::tools::SparseDirichletOptions;
using sgmcmc::tools::ToStrings;

ABSL_FLAG(std::string, output_dir, "/tmp/sgmcmc_sparse_dirichlet",
          "Directory for the CSV and PNG outputs (created if missing).");
ABSL_FLAG(uint64_t, seed, SparseDirichletOptions().seed,
          "Base seed; the k-th of --num_seeds runs uses seed + k.");
ABSL_FLAG(int, num_seeds, SparseDirichletOptions().num_seeds, "Number of seeds (the paper: 5).");
ABSL_FLAG(int, iterations, SparseDirichletOptions().iterations,
          "Recorded iterations per chain after burn-in.");
ABSL_FLAG(int, burn_in, SparseDirichletOptions().burn_in, "Burn-in iterations per chain.");
ABSL_FLAG(int, boxplot_minibatch, SparseDirichletOptions().boxplot_minibatch,
          "Minibatch size of Figure 1.");
ABSL_FLAG(std::vector<std::string>, proportions, ToStrings(SparseDirichletOptions().proportions),
          "Minibatch proportions n/N of Figure 2 (each in (0, 1]).");
ABSL_FLAG(std::vector<std::string>, scir_step_sizes,
          ToStrings(SparseDirichletOptions().scir_step_sizes), "SCIR step-size grid (Table 1).");
ABSL_FLAG(std::vector<std::string>, sgrld_step_sizes,
          ToStrings(SparseDirichletOptions().sgrld_step_sizes),
          "SGRLD step-size grid (Table 1; paper convention: drift h/2, noise N(0, h θ)).");
ABSL_FLAG(int, threads, SparseDirichletOptions().threads,
          "Worker threads (results do not depend on it).");
ABSL_FLAG(bool, plot, true, "Draw the PNGs with gnuplot (if gnuplot is on PATH).");

namespace sgmcmc::tools {
namespace {

absl::StatusOr<std::vector<double>> ParseDoubles(const char* flag,
                                                 const std::vector<std::string>& values) {
  std::vector<double> out;
  for (const std::string& v : values) {
    double x;
    if (!absl::SimpleAtod(v, &x)) {
      return absl::InvalidArgumentError(absl::StrCat("--", flag, ": '", v, "' is not a number"));
    }
    out.push_back(x);
  }
  return out;
}

absl::StatusOr<SparseDirichletOptions> OptionsFromFlags() {
  SparseDirichletOptions options;
  options.seed = absl::GetFlag(FLAGS_seed);
  options.num_seeds = absl::GetFlag(FLAGS_num_seeds);
  options.iterations = absl::GetFlag(FLAGS_iterations);
  options.burn_in = absl::GetFlag(FLAGS_burn_in);
  options.boxplot_minibatch = absl::GetFlag(FLAGS_boxplot_minibatch);
  options.threads = absl::GetFlag(FLAGS_threads);
  SGMCMC_ASSIGN_OR_RETURN(options.proportions,
                          ParseDoubles("proportions", absl::GetFlag(FLAGS_proportions)));
  SGMCMC_ASSIGN_OR_RETURN(options.scir_step_sizes,
                          ParseDoubles("scir_step_sizes", absl::GetFlag(FLAGS_scir_step_sizes)));
  SGMCMC_ASSIGN_OR_RETURN(options.sgrld_step_sizes,
                          ParseDoubles("sgrld_step_sizes", absl::GetFlag(FLAGS_sgrld_step_sizes)));
  SGMCMC_RETURN_IF_ERROR(AsFlagError(options.Validate()));
  return options;
}

// Draws fig1_omega5.png and fig2_ks.png with the gnuplot scripts in the runfiles; says why
// when it cannot (gnuplot not on PATH, script missing), the CSVs being written either way.
void Plot(const std::string& output_dir, const char* argv0) {
  for (const char* script : {"sgmcmc/tools/plots/sparse_dirichlet_fig1.gp",
                             "sgmcmc/tools/plots/sparse_dirichlet_fig2.gp"}) {
    const absl::Status status = RunGnuplotScript(argv0, script, output_dir);
    if (!status.ok()) {
      std::cout << "figures skipped: " << status.message() << "\n";
      return;
    }
  }
  std::cout << "Figures: " << output_dir << "/fig1_omega5.png, " << output_dir << "/fig2_ks.png\n";
}

absl::Status Run(const char* argv0) {
  SGMCMC_ASSIGN_OR_RETURN(SparseDirichletOptions options, OptionsFromFlags());
  const std::string output_dir = FromWorkingDirectory(absl::GetFlag(FLAGS_output_dir));
  if (output_dir.empty()) return absl::InvalidArgumentError("--output_dir is empty");
  SGMCMC_RETURN_IF_ERROR(CreateOutputDirectory(output_dir, "--output_dir"));
  std::cout << "sparse_dirichlet: seed=" << options.seed << " num_seeds=" << options.num_seeds
            << " iterations=" << options.iterations << " burn_in=" << options.burn_in
            << " threads=" << options.threads << "\n";
  const auto start = std::chrono::steady_clock::now();
  options.progress = &std::cerr;
  SGMCMC_ASSIGN_OR_RETURN(const SparseDirichletResult result, RunSparseDirichlet(options));
  SGMCMC_RETURN_IF_ERROR(WriteFiles(output_dir, SparseDirichletOutputFiles(options, result)));
  std::cout << SparseDirichletSummary(options, result)
            << "Per-seed values and step sizes: " << output_dir << "/fig2_ks.csv\n";
  if (absl::GetFlag(FLAGS_plot)) Plot(output_dir, argv0);
  std::cout << absl::StrFormat("%zu chains in %.1f s; outputs in %s\n", result.chains.size(),
                               SecondsSince(start), output_dir);
  return absl::OkStatus();
}

}  // namespace
}  // namespace sgmcmc::tools

int main(int argc, char** argv) {
  return sgmcmc::tools::ToolMain(
      argc, argv,
      "Reproduces Figures 1 and 2 of Baker et al. (2018): SCIR vs SGRLD on sparse and dense "
      "Dirichlet posteriors. Writes CSVs (and PNGs via gnuplot) to --output_dir.",
      sgmcmc::tools::Run);
}
