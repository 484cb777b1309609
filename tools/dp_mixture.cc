// dp_mixture: reproduces Figure 3(b) / 4(b) of Baker, Fearnhead, Fox & Nemeth (2018), "Large-
// scale stochastic sampling from the probability simplex" (§5.2, Appendix D, Table 3): the
// Dirichlet-process mixture of multinomials of Dunson & Xing (2009) on the UCI Anonymous
// Microsoft Web Data, sampled by the stochastic slice sampler under SCIR and under SGRLD
// (minibatch n = 1000, fixed step sizes) and by the exact Gibbs slice sampler, several seeds
// each; held-out log predictive and occupied components against iterations and seconds.
//
// Data: --train / --test, the original DST files (anonymous-msweb.data[.gz] /
// anonymous-msweb.test[.gz]), or with --vocab UCI bag-of-words docword files (any sparse
// user x item count matrix, e.g. docword.msweb.{train,test}.txt.gz); by default the embedded subset
// //data/msweb (4,000 training and 1,000 test users, CC BY 4.0), for which the defaults finish in
// well under a minute. Outputs in --output_dir: see tools/dp_mixture_run.h (trace.csv, summary.csv,
// draws_*.csv in the CmdStan layout, clusters.csv: each run's clusters with their top items by
// name, allocations_*.csv: each training user's cluster) and log_predictive.png (gnuplot,
// unless --noplot).
// The summary table goes to stdout, progress lines to stderr. Checkpoints: every run writes
// checkpoint_METHOD_seedS.pb in --output_dir (every --checkpoint_every iterations and at its
// end); --resume continues interrupted runs from them, bit-identically (tools/dp_mixture_run.h).
// The α prior Gamma(b1, b2) is --alpha_shape / --alpha_rate, default Gamma(1, 1): the paper's
// prior is "uninformative" with no values given, so the default is ours.
// --atom_concentration, --atom_step, --stick_step and --initial_components replace Table 3's
// per-method a, h_θ, h_DP and K (0 keeps them), e.g. one prior a for every method; the
// summary notes when SCIR and SGRLD ran with different a, and on msweb which score the paper's
// ordering holds for (bench/dp_mixture_results.md). --initial_components=5,20,60 runs every
// method and seed from each start and warns when their cluster counts disagree (how to choose:
// bench/dp_mixture_results.md, "Choosing the start").
//
// Example:
//   bazel run //tools:dp_mixture                       # embedded subset, 5 seeds x 3 methods
//   bazel run //tools:dp_mixture -- --iterations=2000 --output_dir=/tmp/dp_msweb
//       --train=/work/shared/data/msweb/anonymous-msweb.data.gz
//       --test=/work/shared/data/msweb/anonymous-msweb.test.gz     (one command line)
//   bazel run //tools:dp_mixture -- --resume    # continue the runs of an interrupted command
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/status_macros.h"
#include "data/embedded_msweb.h"
#include "data/msweb_reader.h"
#include "data/uci_reader.h"
#include "parallel/thread_pool.h"
#include "tools/dp_mixture_run.h"
#include "tools/gnuplot.h"
#include "tools/tool_support.h"

ABSL_FLAG(std::string, train, "", "Training DST file (default: the embedded subset).");
ABSL_FLAG(std::string, test, "", "Test DST file (with --train).");
ABSL_FLAG(std::string, vocab, "",
          "If set, --train and --test are UCI bag-of-words docword files (e.g. "
          "docword.msweb.train.txt.gz) over this vocabulary file instead of DST files.");
ABSL_FLAG(std::string, methods, "scir,sgrld,gibbs", "Comma-separated: scir, sgrld, gibbs.");
ABSL_FLAG(int, seeds, 5, "Seeds per method (the paper: 5).");
ABSL_FLAG(uint64_t, first_seed, 1, "Seeds are first_seed, first_seed + 1, ...");
ABSL_FLAG(int64_t, iterations, 300, "Iterations per run.");
ABSL_FLAG(int64_t, eval_every, 10, "Evaluate the held-out log predictive every this many.");
ABSL_FLAG(double, burn_in_fraction, 0.5, "Fraction of iterations before draws are averaged.");
ABSL_FLAG(int, minibatch_size, 1000, "Minibatch n of SCIR/SGRLD (the paper: 1000).");
ABSL_FLAG(double, alpha_shape, 1.0,
          "Shape b1 of the Gamma(b1, b2) prior of the DP concentration alpha, > 0. The paper "
          "calls the prior uninformative but gives no values; the default Gamma(1, 1) is ours.");
ABSL_FLAG(double, alpha_rate, 1.0,
          "Rate b2 of the Gamma(b1, b2) prior of the DP concentration alpha, > 0 (default 1, "
          "ours: see --alpha_shape).");
ABSL_FLAG(double, atom_concentration, 0,
          "Dirichlet prior a of the atoms for every method, > 0; 0 (default): Table 3's value "
          "per method (SCIR and Gibbs 0.5, SGRLD 0.001).");
ABSL_FLAG(double, atom_step, 0,
          "Step size h_theta of the atoms for scir and sgrld, > 0; 0 (default): Table 3's "
          "(SCIR 0.1, SGRLD 0.001).");
ABSL_FLAG(double, stick_step, 0,
          "Step size h_DP of the stick breaks for scir and sgrld, > 0; 0 (default): Table 3's "
          "(SCIR 0.1, SGRLD 0.005).");
ABSL_FLAG(std::string, initial_components, "0",
          "Components every method starts with (Table 3's K; the samplers are truncation-free), "
          "each >= 1, or a comma-separated list of starts (e.g. 5,20,60: every method and seed "
          "runs from each, reported apart, with a warning when they disagree); 0 (default): "
          "Table 3's (SCIR and Gibbs 20, SGRLD 30).");
ABSL_FLAG(int, top_items, 10, "Items listed per cluster in clusters.csv, >= 1.");
ABSL_FLAG(int, threads, 1, "Worker threads (results are identical for any count).");
ABSL_FLAG(std::string, output_dir, "/tmp/sgmcmc_dp_mixture",
          "Where the outputs and the checkpoints (checkpoint_METHOD_seedS.pb) go.");
ABSL_FLAG(int64_t, checkpoint_every, 100,
          "Write each run's checkpoint every this many iterations (0: only when it ends or "
          "stops).");
ABSL_FLAG(bool, resume, false,
          "Continue every run from its checkpoint in --output_dir (same data and settings; the "
          "results equal an uninterrupted run's, timings aside, for any --threads).");
ABSL_FLAG(int64_t, stop_after, 0,
          "Stop every run after this many iterations in all, writing its checkpoint, and write "
          "no other outputs; continue with --resume (0: run to the end).");
ABSL_FLAG(bool, plot, true, "Draw log_predictive.png with gnuplot (if installed).");

namespace sgmcmc::tools {
namespace {

absl::Status Run(const std::string& argv0) {
  DpExperimentOptions options;
  options.iterations = absl::GetFlag(FLAGS_iterations);
  options.eval_every = absl::GetFlag(FLAGS_eval_every);
  options.burn_in_fraction = absl::GetFlag(FLAGS_burn_in_fraction);
  options.minibatch_size = absl::GetFlag(FLAGS_minibatch_size);
  options.alpha_shape = absl::GetFlag(FLAGS_alpha_shape);
  options.alpha_rate = absl::GetFlag(FLAGS_alpha_rate);
  options.atom_concentration = absl::GetFlag(FLAGS_atom_concentration);
  options.atom_step = absl::GetFlag(FLAGS_atom_step);
  options.stick_step = absl::GetFlag(FLAGS_stick_step);
  options.top_items = absl::GetFlag(FLAGS_top_items);
  std::vector<int> starts;
  for (absl::string_view item :
       absl::StrSplit(absl::GetFlag(FLAGS_initial_components), ',', absl::SkipWhitespace())) {
    int start = 0;
    if (!absl::SimpleAtoi(item, &start) || start < 0 ||
        (start == 0 && absl::GetFlag(FLAGS_initial_components) != "0")) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--initial_components: expected 0 or a comma-separated list of integers >= 1, got '",
          absl::GetFlag(FLAGS_initial_components), "'"));
    }
    if (std::find(starts.begin(), starts.end(), start) != starts.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--initial_components: ", start, " is listed twice"));
    }
    starts.push_back(start);
  }
  if (starts.empty()) {
    return absl::InvalidArgumentError("--initial_components: expected 0 or a list of starts");
  }
  options.initial_components = starts.front();
  if (absl::Status s = options.Validate(); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--", s.message()));
  }
  std::vector<DpMethod> methods;
  for (absl::string_view name : absl::StrSplit(absl::GetFlag(FLAGS_methods), ',')) {
    absl::StatusOr<DpMethod> method = ParseDpMethod(name);
    if (!method.ok()) return absl::InvalidArgumentError(absl::StrCat("--methods: ", method.status().message()));
    methods.push_back(*method);
  }
  DpCheckpointOptions checkpoints;
  checkpoints.directory = absl::GetFlag(FLAGS_output_dir);
  checkpoints.every = absl::GetFlag(FLAGS_checkpoint_every);
  checkpoints.resume = absl::GetFlag(FLAGS_resume);
  checkpoints.stop_after = absl::GetFlag(FLAGS_stop_after);
  if (absl::Status s = checkpoints.Validate(); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--", s.message()));
  }
  const int seeds = absl::GetFlag(FLAGS_seeds);
  const int threads = absl::GetFlag(FLAGS_threads);
  if (seeds < 1) return absl::InvalidArgumentError("--seeds must be >= 1");
  SGMCMC_RETURN_IF_ERROR(CheckThreadCount("--threads", threads));

  data::MswebData train, test;
  // msweb (the paper's data) or a UCI corpus: what the header and the notes may say.
  bool msweb = true;
  const std::string train_path = absl::GetFlag(FLAGS_train);
  if (train_path.empty() && !absl::GetFlag(FLAGS_vocab).empty()) {
    return absl::InvalidArgumentError("--vocab needs --train and --test (UCI docword files)");
  }
  if (train_path.empty()) {
    SGMCMC_ASSIGN_OR_RETURN(data::EmbeddedMsweb msweb, data::LoadEmbeddedMsweb(argv0));
    train = std::move(msweb.train);
    test = std::move(msweb.test);
    std::cout << "data: embedded msweb subset (UCI Anonymous Microsoft Web Data, CC BY 4.0)\n";
  } else {
    if (absl::GetFlag(FLAGS_test).empty()) {
      return absl::InvalidArgumentError("--test is required with --train");
    }
    const std::string vocab = absl::GetFlag(FLAGS_vocab);
    if (vocab.empty()) {
      SGMCMC_ASSIGN_OR_RETURN(train, data::ReadMsweb(train_path));
      SGMCMC_ASSIGN_OR_RETURN(test, data::ReadMsweb(absl::GetFlag(FLAGS_test), &train.vroots));
    } else {
      // The UCI conversion of msweb (vocab.msweb.txt) is msweb too.
      msweb = absl::StrContains(std::filesystem::path(vocab).filename().string(), "msweb");
      data::UciReadSummary summary;
      SGMCMC_ASSIGN_OR_RETURN(train.corpus, data::ReadUciCorpus(train_path, vocab, &summary));
      std::cout << summary.BriefReport() << "\n";
      SGMCMC_ASSIGN_OR_RETURN(test.corpus,
                              data::ReadUciCorpus(absl::GetFlag(FLAGS_test), vocab, &summary));
      std::cout << summary.BriefReport() << "\n";
    }
    SGMCMC_RETURN_IF_ERROR(
        CheckDpData(train.corpus, test.corpus, train_path, absl::GetFlag(FLAGS_test)));
    std::cout << "data: " << train_path << ", " << absl::GetFlag(FLAGS_test) << "\n";
  }
  const char* rows = msweb ? " users, " : " rows, ";
  const char* tokens = msweb ? " visits" : " tokens";
  std::cout << "train: " << train.corpus.num_documents() << rows << train.corpus.num_tokens()
            << tokens << "; test: " << test.corpus.num_documents() << rows
            << test.corpus.num_tokens() << tokens << "; " << train.corpus.vocabulary_size()
            << (msweb ? " Vroots\n" : " items\n");
  std::cout << "seeds=" << absl::GetFlag(FLAGS_first_seed) << ".."
            << absl::GetFlag(FLAGS_first_seed) + seeds - 1 << " iterations=" << options.iterations
            << " minibatch=" << options.minibatch_size << " threads=" << threads
            << " alpha ~ Gamma(" << options.alpha_shape << ", " << options.alpha_rate << ")"
            << (options.atom_concentration > 0
                    ? absl::StrCat(" a=", options.atom_concentration, " for every method")
                    : std::string(" a per Table 3"))
            << "\n";

  std::unique_ptr<parallel::ThreadPool> pool;
  if (threads > 1) pool = std::make_unique<parallel::ThreadPool>(threads);
  std::vector<DpRunResult> runs;
  for (const int start : starts) {
    options.initial_components = start;
    for (DpMethod method : methods) {
      for (int s = 0; s < seeds; ++s) {
        SGMCMC_ASSIGN_OR_RETURN(
            DpRunResult run,
            RunDpChain(train.corpus, test.corpus, method, absl::GetFlag(FLAGS_first_seed) + s,
                       options, checkpoints, pool.get(), &std::cerr));
        runs.push_back(std::move(run));
      }
    }
  }
  const std::string output_dir = absl::GetFlag(FLAGS_output_dir);
  if (!runs.back().finished(options)) {
    std::cout << "stopped after iteration " << checkpoints.stop_after << " of "
              << options.iterations << "; checkpoints in " << output_dir
              << "; continue with --resume\n";
    return absl::OkStatus();
  }
  std::cout << DpSummaryTable(runs, msweb);
  // msweb: the Vroots' titles and the users' case ids; a UCI corpus: its vocabulary and
  // docIDs (row numbers).
  DpOutputNames names;
  names.item_names =
      train.vroots.titles.empty() ? train.corpus.vocabulary : train.vroots.titles;
  names.user_ids = train.case_ids;
  SGMCMC_RETURN_IF_ERROR(WriteDpOutputs(runs, output_dir, names));
  std::cout << "outputs in " << output_dir << "\n";
  if (absl::GetFlag(FLAGS_plot)) {
    DrawFigure(argv0, "sgmcmc/tools/plots/dp_mixture.gp", output_dir, "log_predictive.png",
               std::cout);
  }
  return absl::OkStatus();
}

}  // namespace
}  // namespace sgmcmc::tools

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "Reproduces Figure 3(b)/4(b) of Baker et al. (2018): the DP mixture of multinomials on "
      "msweb with the stochastic slice sampler (SCIR, SGRLD) and the exact Gibbs slice "
      "sampler; held-out log predictive vs iterations and seconds. CSVs (+ PNG) in "
      "--output_dir.");
  absl::ParseCommandLine(argc, argv);
  const absl::Status status = sgmcmc::tools::Run(argv[0]);
  if (!status.ok()) {
    std::cerr << "dp_mixture: " << status << "\n";
    return 1;
  }
  return 0;
}
