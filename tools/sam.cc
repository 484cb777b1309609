// sam: the spherical admixture model (models/sam/sam.h) under SGGMC and gSGNHT (minibatch and full
// batch) and GMC-bGibbs (blockwise Gibbs: θ_d | β by GMC for every document, then one
// full-batch GMC step of β | θ), log-perplexity on held-out documents versus wall time
// (Liu, Zhu & Song 2016, Sec. 5).
//
// Data: --train/--test in the 20news-diff tf-idf format (data/tfidf_reader.h), e.g.
//   bazel run //tools:sam -- --train=../shared/data/20news-diff/diff.train.tfidf1.data.gz
//       --test=../shared/data/20news-diff/diff.test.tfidf1.data.gz --num_topics=20
// or, by default, documents generated from SAM itself (V = 50, K = 4, 500 + 200 documents),
// which runs in well under a minute.
//
// Experiments (--experiments, default all three):
//  - toy: SGGMC and gSGNHT on the slides' circle with N(0, 1000 I) gradient noise;
//    sam_toy_angles.csv (bin centre, exact density, histograms) and the draws (every 10th)
//    as CmdStan CSV, sam_toy_sggmc.csv and sam_toy_gsgnht.csv; KS distances printed.
//  - synthetic: the two-vMF posterior; sam_synthetic_marginals.csv (exact and GMC / SGGMC /
//    gSGNHT marginal histograms of both angles) and the draws as CmdStan CSV,
//    sam_synthetic_{gmc,sggmc,gsgnht}.csv; mode fractions printed.
//  - sam: sam_perplexity.csv (method, iteration, seconds (sampling only, evaluation
//    excluded), log_perplexity of the draws after --burn_in (every --average_every-th) averaged as
//    in the slides, or of the current draw before); the β draws after --burn_in, every
//    --beta_thin-th, as CmdStan CSV, sam_beta_METHOD.csv (all V·K coordinates of a kept draw: thin
//    more for large V·K).
// Checkpoints (sam experiment): --checkpoint_every writes sam_checkpoint_METHOD.pb (the β
// sampler, the model's θ draws, GMC points and visit counters, the running perplexity, the rows
// and β draws so far); --resume continues from them bit-identically; --stop_after interrupts.
// Plots (gnuplot, tools/plots/sam.gp, unless --noplot): sam_toy.png (angle histograms vs the
// exact density), sam_synthetic.png (marginals vs exact), sam_perplexity.png (log-perplexity
// vs sampler seconds, every method), each drawn when its CSV is in --output_dir. The experiments
// and their outputs: tools/sam_experiment.h; the flags are the fields of SamOptions.
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_split.h"
#include "base/status_macros.h"
#include "tools/gnuplot.h"
#include "tools/sam_experiment.h"
#include "tools/tool_support.h"

ABSL_FLAG(std::string, train, "", "training documents (tf-idf format); empty: generated");
ABSL_FLAG(std::string, test, "", "held-out documents (tf-idf format); empty: generated");
ABSL_FLAG(std::string, uci_docword, "",
          "instead of --train/--test: a UCI bag-of-words corpus, turned into tf-idf "
          "(data/tfidf.h); every --test_every-th document is held out");
ABSL_FLAG(std::string, uci_vocab, "", "vocabulary file of --uci_docword");
ABSL_FLAG(int, tfidf_words, 5000, "vocabulary size kept for --uci_docword (largest df)");
ABSL_FLAG(int, test_every, 10, "held-out document interval for --uci_docword");
ABSL_FLAG(int, num_topics, 4, "K");
ABSL_FLAG(double, kappa, 50, "κ, concentration of documents about βθ/‖βθ‖");
ABSL_FLAG(double, sigma, 1, "σ, concentration of topics about μ");
ABSL_FLAG(double, kappa0, 1, "κ₀, concentration of μ about the mean direction m");
ABSL_FLAG(double, alpha, 1, "symmetric Dirichlet α");
ABSL_FLAG(double, step, 0.003, "step size ε of SGGMC and gSGNHT");
ABSL_FLAG(double, friction, 5, "friction C");
ABSL_FLAG(int, batch_size, 20, "minibatch size of the minibatch runs");
ABSL_FLAG(int, theta_draws, 3,
          "theta_d GMC draws kept per document visit (averaged in the beta gradient; "
          "GMC-bGibbs keeps 1)");
ABSL_FLAG(int, theta_burn_in, 3, "theta_d GMC iterations discarded per document visit");
ABSL_FLAG(double, theta_step, 0.1, "leapfrog step of the theta_d GMC");
ABSL_FLAG(int, theta_leapfrog_steps, 5, "leapfrog steps per theta_d GMC iteration");
ABSL_FLAG(int, num_threads, 1,
          "threads for the theta_d GMC runs of a minibatch (outputs identical for any count)");
ABSL_FLAG(int, beta_thin, 100,
          "write every this-many-th beta draw after --burn_in to sam_beta_METHOD.csv (0: none)");
ABSL_FLAG(int, checkpoint_every, 0,
          "write sam_checkpoint_METHOD.pb in --output_dir every this many iterations of the sam "
          "experiment and at each method's end (0: only when stopped by --stop_after)");
ABSL_FLAG(bool, resume, false,
          "continue each method of the sam experiment from its checkpoint in --output_dir "
          "(same data and flags; bit-identical to an uninterrupted run)");
ABSL_FLAG(int, stop_after, 0,
          "stop the sam experiment when a method reaches this many iterations in all, writing "
          "its checkpoint and no other sam output; continue with --resume (0: run to the end)");
ABSL_FLAG(bool, plot, true, "draw the PNG plots with gnuplot (--noplot: do not)");
ABSL_FLAG(double, gmc_step, 0.003, "leapfrog step of the β | θ GMC step of GMC-bGibbs");
ABSL_FLAG(int, iterations, 1500, "iterations per method");
ABSL_FLAG(int, burn_in, 500, "draws before this iteration are not averaged");
ABSL_FLAG(int, average_every, 1,
          "every this-many-th draw after --burn_in enters the averaged log-perplexity");
ABSL_FLAG(int, eval_every, 100, "evaluation interval (iterations)");
ABSL_FLAG(int, theta_samples, 100, "Dirichlet samples per document in the perplexity");
ABSL_FLAG(std::string, methods, "sggmc,gsgnht,sggmc_full,gsgnht_full,gmc_bgibbs",
          "comma-separated methods");
ABSL_FLAG(uint64_t, seed, 1, "seed");
ABSL_FLAG(std::string, output_dir, "sam_out", "output directory");
ABSL_FLAG(std::string, experiments, "toy,synthetic,sam", "comma-separated: toy, synthetic, sam");
ABSL_FLAG(int, toy_iterations, 100000, "iterations of each toy chain (L = 100 inner steps)");
ABSL_FLAG(int, synthetic_iterations, 100000,
          "iterations of the synthetic chains (GMC; SGGMC with minibatches runs 10x)");

namespace sgmcmc::tools {
namespace {

std::vector<std::string> SplitList(const std::string& list) {
  return absl::StrSplit(list, ',', absl::SkipEmpty());
}

absl::StatusOr<SamOptions> OptionsFromFlags(const std::string& dir) {
  SamOptions options;
  options.train = FromWorkingDirectory(absl::GetFlag(FLAGS_train));
  options.test = FromWorkingDirectory(absl::GetFlag(FLAGS_test));
  options.uci_docword = FromWorkingDirectory(absl::GetFlag(FLAGS_uci_docword));
  options.uci_vocab = FromWorkingDirectory(absl::GetFlag(FLAGS_uci_vocab));
  options.tfidf_words = absl::GetFlag(FLAGS_tfidf_words);
  options.test_every = absl::GetFlag(FLAGS_test_every);
  options.num_topics = absl::GetFlag(FLAGS_num_topics);
  options.kappa = absl::GetFlag(FLAGS_kappa);
  options.sigma = absl::GetFlag(FLAGS_sigma);
  options.kappa0 = absl::GetFlag(FLAGS_kappa0);
  options.alpha = absl::GetFlag(FLAGS_alpha);
  options.step = absl::GetFlag(FLAGS_step);
  options.friction = absl::GetFlag(FLAGS_friction);
  options.batch_size = absl::GetFlag(FLAGS_batch_size);
  options.gmc_step = absl::GetFlag(FLAGS_gmc_step);
  options.theta_draws = absl::GetFlag(FLAGS_theta_draws);
  options.theta_burn_in = absl::GetFlag(FLAGS_theta_burn_in);
  options.theta_step = absl::GetFlag(FLAGS_theta_step);
  options.theta_leapfrog_steps = absl::GetFlag(FLAGS_theta_leapfrog_steps);
  options.num_threads = absl::GetFlag(FLAGS_num_threads);
  options.beta_thin = absl::GetFlag(FLAGS_beta_thin);
  options.checkpoint_every = absl::GetFlag(FLAGS_checkpoint_every);
  options.resume = absl::GetFlag(FLAGS_resume);
  options.stop_after = absl::GetFlag(FLAGS_stop_after);
  options.iterations = absl::GetFlag(FLAGS_iterations);
  options.burn_in = absl::GetFlag(FLAGS_burn_in);
  options.eval_every = absl::GetFlag(FLAGS_eval_every);
  options.average_every = absl::GetFlag(FLAGS_average_every);
  options.theta_samples = absl::GetFlag(FLAGS_theta_samples);
  options.methods = SplitList(absl::GetFlag(FLAGS_methods));
  options.seed = absl::GetFlag(FLAGS_seed);
  options.experiments = SplitList(absl::GetFlag(FLAGS_experiments));
  options.toy_iterations = absl::GetFlag(FLAGS_toy_iterations);
  options.synthetic_iterations = absl::GetFlag(FLAGS_synthetic_iterations);
  options.output_dir = dir;
  options.log = &std::cout;
  SGMCMC_RETURN_IF_ERROR(AsFlagError(options.Validate()));
  return options;
}

absl::Status RunExperiments(const SamOptions& options, const std::string& dir) {
  if (options.Wants("toy")) {
    SGMCMC_ASSIGN_OR_RETURN(const SamToyResult toy, RunSamToy(options));
    SGMCMC_RETURN_IF_ERROR(WriteFiles(dir, SamToyOutputFiles(toy)));
  }
  if (options.Wants("synthetic")) {
    SGMCMC_ASSIGN_OR_RETURN(const SamSyntheticResult synthetic, RunSamSynthetic(options));
    SGMCMC_RETURN_IF_ERROR(WriteFiles(dir, SamSyntheticOutputFiles(synthetic)));
  }
  if (!options.Wants("sam")) return absl::OkStatus();
  SGMCMC_ASSIGN_OR_RETURN(const SamData data, LoadSamData(options));
  SGMCMC_ASSIGN_OR_RETURN(const SamPerplexityResult perplexity, RunSamPerplexity(options, data));
  if (perplexity.stopped) {
    std::cout << "stopped after iteration " << options.stop_after << "; checkpoint in " << dir
              << "; continue with --resume\n";
    return absl::OkStatus();
  }
  return WriteFiles(dir, SamPerplexityOutputFiles(perplexity));
}

absl::Status Run(const char* argv0) {
  const std::string dir = FromWorkingDirectory(absl::GetFlag(FLAGS_output_dir));
  SGMCMC_ASSIGN_OR_RETURN(const SamOptions options, OptionsFromFlags(dir));
  SGMCMC_RETURN_IF_ERROR(CreateOutputDirectory(dir, "--output_dir"));
  SGMCMC_RETURN_IF_ERROR(RunExperiments(options, dir));
  if (!absl::GetFlag(FLAGS_plot)) return absl::OkStatus();
  const absl::Status plotted = RunGnuplotScript(argv0, "sgmcmc/tools/plots/sam.gp", dir);
  if (plotted.ok()) {
    std::cout << "plots: " << dir << "/sam_*.png\n";
  } else {
    std::cout << "plots skipped: " << plotted.message() << "\n";
  }
  return absl::OkStatus();
}

}  // namespace
}  // namespace sgmcmc::tools

int main(int argc, char** argv) {
  return sgmcmc::tools::ToolMain(argc, argv,
                                 "SAM under SGGMC, gSGNHT and GMC-bGibbs: held-out "
                                 "log-perplexity versus wall time.",
                                 sgmcmc::tools::Run);
}
