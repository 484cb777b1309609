// alpha_stable_mf: the speech-denoising experiment of the HAMCMC paper (Simsekli et al. 2016,
// Sec. 4.2, Fig. 3) with alpha-stable matrix factorisation, and a synthetic recovery check
// (tools/alpha_stable_mf_experiment.h).
//
// --mode=denoise (default): W_speech (K = 100, alpha = 1.2) is trained on --data_dir/train and
// fixed; on each --data_dir/test/mix_NN.wav, SGLD, pSGLD and HAMCMC (M = 5) sample the rest
// (noise K = 5, alpha = 1.89); SDR of the Wiener-filtered estimate against clean_NN.wav.
// Without --data_dir the tool first runs tools/speech/make_speech_data.sh --short into
// --output_dir/data (one training pair of sentences, one test mixture; needs espeak-ng and
// sox) and, with the default --samples=600, finishes in well under a minute.
// --mode=synthetic: relative error of the averaged W H on data drawn from the model (100 x 100,
// K = 1 by default; log parametrisation with LogParametrizationSettings(), the step flags
// apply to denoise mode only), next to the derived rate e* and the best constant matrix.
//
// Outputs in --output_dir: sdr.csv, summary.txt, sdr_<method>.dat, spectrogram_*.dat and the
// first signal's WAVs (clean, noisy, denoised per method), and with gnuplot sdr.png (box plot)
// and spectrograms.png (tools/plots/alpha_stable_mf.gp); synthetic.csv in synthetic mode.
//
// A chain that diverges (non-finite W or H) is reported with its iteration and marked
// DIVERGED in summary.txt (and left out of sdr.csv / synthetic.csv); the other runs go on and
// their outputs are written, and the tool then exits with status 1 naming the diverged runs
// and their step flags (as tools/matrix_factorization does). A diverged training chain of
// W_speech, on which every run depends, ends the tool at once.
//
// Checkpoints: every run (the training of W_speech, each test signal x method; each method in
// synthetic mode) is recorded in --output_dir/checkpoint_MODE.pb, and the chain of the run
// under way every --checkpoint_every sweeps; --resume takes the recorded runs from there and
// continues the run under way from its chain, bit-identically
// (tools/alpha_stable_mf_checkpoint.h); --stop_after_runs and --stop_after interrupt.
//
// Example (the paper's sample counts on the full generated data set):
//   tools/speech/make_speech_data.sh /tmp/speech
//   bazel run -c opt //tools:alpha_stable_mf -- --data_dir=/tmp/speech --samples=2500 \
//     --average_last=200 --train_samples=1000 --output_dir=/tmp/amf
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "models/mf/matrix_factorization.h"
#include "tools/alpha_stable_mf_experiment.h"
#include "tools/gnuplot.h"
#include "tools/tool_support.h"

ABSL_FLAG(std::string, mode, "denoise", "denoise or synthetic.");
ABSL_FLAG(std::string, data_dir, "",
          "Output of tools/speech/make_speech_data.sh; empty: generate a short one.");
ABSL_FLAG(std::string, output_dir, "alpha_stable_mf_out", "Where the outputs go.");
ABSL_FLAG(std::string, methods, "sgld,psgld,hamcmc", "Comma-separated samplers.");
ABSL_FLAG(int, samples, 600, "Gibbs sweeps per test signal (the paper: 2500).");
ABSL_FLAG(int, average_last, 200, "Averaged last samples (the paper: 200).");
ABSL_FLAG(int, train_samples, 300, "Sweeps of the W_speech training chain.");
ABSL_FLAG(int, train_average_last, 100, "Averaged last samples of the training chain.");
ABSL_FLAG(std::string, train_method, "sgld", "Sampler of the training chain.");
ABSL_FLAG(double, train_step, 1e-5, "Constant step of the training chain.");
ABSL_FLAG(int, phi_stride, 4,
          "Metropolis cyclic scan: sweep t updates the Phi's with index = t mod stride "
          "(1: all, the paper).");
ABSL_FLAG(int, speech_rank, 100, "K of the speech source.");
ABSL_FLAG(int, noise_rank, 5, "K of the noise source.");
ABSL_FLAG(double, sgld_step, 1e-4, "SGLD constant step (denoise mode).");
ABSL_FLAG(double, psgld_step, 1e-3, "pSGLD constant step (denoise mode).");
ABSL_FLAG(double, psgld_lambda, 1, "pSGLD lambda (denoise mode).");
ABSL_FLAG(double, hamcmc_step, 0.1, "HAMCMC constant step (denoise mode).");
ABSL_FLAG(int, hamcmc_memory, 5, "HAMCMC memory M (the paper: 5).");
ABSL_FLAG(double, hamcmc_gamma, 1e-3, "HAMCMC initial inverse-Hessian scale.");
ABSL_FLAG(double, hamcmc_damping, 100, "HAMCMC damping.");
ABSL_FLAG(double, hamcmc_warmup_step, 1e-5, "HAMCMC SGLD warm-up step.");
ABSL_FLAG(int, synthetic_size, 100, "Synthetic mode: rows = cols.");
ABSL_FLAG(int, synthetic_rank, 1, "Synthetic mode: K.");
ABSL_FLAG(uint64_t, seed, 1, "Seed.");
ABSL_FLAG(bool, plot, true, "Draw the PNGs with gnuplot when it is installed.");
ABSL_FLAG(bool, resume, false,
          "Continue from checkpoint_MODE.pb in --output_dir (same data and flags): the runs it "
          "holds (training of W_speech, each signal x method; each method in synthetic mode) "
          "are not run again and the run under way continues from its last --checkpoint_every "
          "sweep; the outputs equal an uninterrupted run's, the timings aside.");
ABSL_FLAG(int, checkpoint_every, 100,
          "Also write the checkpoint every this many sweeps of a run, with its chain, so that "
          "--resume continues the run from there (0: only after each run).");
ABSL_FLAG(int, stop_after_runs, 0,
          "Stop once this many runs are done, writing the checkpoint and no other output, as "
          "if interrupted; continue with --resume (0: run them all).");
ABSL_FLAG(int, stop_after, 0,
          "Stop when a run has done this many sweeps in all, writing the checkpoint with its "
          "chain and no other output, as if interrupted; continue with --resume (0: never).");

namespace sgmcmc::tools {
namespace {

absl::Status GenerateShortData(const char* argv0, const std::string& dir) {
  absl::StatusOr<std::string> script =
      FindRunfile(argv0, "sgmcmc/tools/speech/make_speech_data.sh");
  if (!script.ok()) return script.status();
  if (dir.find_first_of("'\"$`\\") != std::string::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("--output_dir ", dir, " has quote or shell characters"));
  }
  const std::string command = absl::StrCat("'", *script, "' '", dir, "' --short");
  if (std::system(command.c_str()) != 0) {
    return absl::InternalError(absl::StrCat("generating the speech data failed: ", command));
  }
  return absl::OkStatus();
}

// A diverged chain names its step field ("lower psgld_step"): the flag of that name.
absl::Status NameStepFlags(const absl::Status& status) {
  return NameFlags(status, {{"sgld_step", "--sgld_step"},
                            {"psgld_step", "--psgld_step"},
                            {"hamcmc_step", "--hamcmc_step"},
                            {"train_step", "--train_step"}});
}

absl::Status Run(const char* argv0) {
  AlphaStableMfExperimentOptions options;
  absl::StatusOr<std::vector<models::MfMethod>> methods =
      models::ParseMfMethods(absl::GetFlag(FLAGS_methods));
  if (!methods.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--methods: ", methods.status().message()));
  }
  options.methods = *std::move(methods);
  absl::StatusOr<models::MfMethod> train_method =
      models::ParseMfMethod(absl::GetFlag(FLAGS_train_method));
  if (!train_method.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--train_method: ", train_method.status().message()));
  }
  options.train_method = *train_method;
  options.train_step = absl::GetFlag(FLAGS_train_step);
  options.settings.phi_stride = absl::GetFlag(FLAGS_phi_stride);
  options.samples = absl::GetFlag(FLAGS_samples);
  options.average_last = absl::GetFlag(FLAGS_average_last);
  options.train_samples = absl::GetFlag(FLAGS_train_samples);
  options.train_average_last = absl::GetFlag(FLAGS_train_average_last);
  options.speech_rank = absl::GetFlag(FLAGS_speech_rank);
  options.noise_rank = absl::GetFlag(FLAGS_noise_rank);
  options.settings.sgld_step = absl::GetFlag(FLAGS_sgld_step);
  options.settings.psgld_step = absl::GetFlag(FLAGS_psgld_step);
  options.settings.psgld_lambda = absl::GetFlag(FLAGS_psgld_lambda);
  options.settings.hamcmc_step = absl::GetFlag(FLAGS_hamcmc_step);
  options.settings.hamcmc_memory = absl::GetFlag(FLAGS_hamcmc_memory);
  options.settings.hamcmc_gamma = absl::GetFlag(FLAGS_hamcmc_gamma);
  options.settings.hamcmc_damping = absl::GetFlag(FLAGS_hamcmc_damping);
  options.settings.hamcmc_warmup_step = absl::GetFlag(FLAGS_hamcmc_warmup_step);
  options.synthetic_rows = options.synthetic_cols = absl::GetFlag(FLAGS_synthetic_size);
  options.synthetic_rank = absl::GetFlag(FLAGS_synthetic_rank);
  options.seed = absl::GetFlag(FLAGS_seed);
  options.resume = absl::GetFlag(FLAGS_resume);
  options.stop_after_runs = absl::GetFlag(FLAGS_stop_after_runs);
  options.checkpoint_every = absl::GetFlag(FLAGS_checkpoint_every);
  options.stop_after = absl::GetFlag(FLAGS_stop_after);
  // The flag of synthetic_rows and synthetic_cols is --synthetic_size (rows = cols).
  if (absl::Status s = NameFlags(options.Validate(), {{"synthetic_rows", "synthetic_size"},
                                                      {"synthetic_cols", "synthetic_size"}});
      !s.ok()) {
    return AsFlagError(s);
  }

  const std::string output_dir = FromWorkingDirectory(absl::GetFlag(FLAGS_output_dir));
  if (absl::Status s = CreateOutputDirectory(output_dir, "--output_dir"); !s.ok()) return s;
  const std::string mode = absl::GetFlag(FLAGS_mode);
  // Every run of the mode is checkpointed there (tools/alpha_stable_mf_checkpoint.h).
  options.checkpoint_path = absl::StrCat(output_dir, "/checkpoint_", mode, ".pb");
  const std::string stopped =
      absl::StrCat("stopped (--stop_after_runs=", options.stop_after_runs, ", --stop_after=",
                   options.stop_after, "); checkpoint in ", options.checkpoint_path,
                   "; continue with --resume\n");
  if (mode == "synthetic") {
    absl::StatusOr<std::vector<SyntheticRecoveryRow>> rows = RunSyntheticRecovery(options);
    if (!rows.ok()) return rows.status();
    if (rows->size() < options.methods.size()) {
      std::cout << stopped;
      return absl::OkStatus();
    }
    const std::string csv = SyntheticCsv(*rows);
    std::cout << csv;
    if (absl::Status s = WriteFile(output_dir + "/synthetic.csv", csv); !s.ok()) return s;
    // A diverged method is an error, after the others' rows are written.
    return DivergedRuns(*rows);
  }
  if (mode != "denoise") {
    return absl::InvalidArgumentError(
        absl::StrCat("--mode must be denoise or synthetic, got \"", mode, "\""));
  }
  options.data_dir = FromWorkingDirectory(absl::GetFlag(FLAGS_data_dir));
  if (options.data_dir.empty()) {
    options.data_dir = output_dir + "/data";
    if (absl::Status s = GenerateShortData(argv0, options.data_dir); !s.ok()) return s;
  }
  absl::StatusOr<SpeechDenoisingResult> result = RunSpeechDenoising(options);
  if (!result.ok()) {
    return NameStepFlags(result.status());
  }
  if (!result->complete) {
    std::cout << stopped;
    return absl::OkStatus();
  }
  std::cout << SdrSummary(*result);
  if (absl::Status s = WriteFiles(output_dir, SpeechOutputs(*result, options.num_bins)); !s.ok()) {
    return s;
  }
  if (absl::GetFlag(FLAGS_plot)) {
    absl::Status plotted =
        RunGnuplotScript(argv0, "sgmcmc/tools/plots/alpha_stable_mf.gp", output_dir);
    if (!plotted.ok()) std::cout << "figures skipped: " << plotted.message() << "\n";
  }
  std::cout << "outputs in " << output_dir << "\n";
  // A diverged run is an error, after the others' outputs are written; it names its flag.
  return NameStepFlags(DivergedRuns(result->denoised));
}

}  // namespace
}  // namespace sgmcmc::tools

int main(int argc, char** argv) {
  return sgmcmc::tools::ToolMain(
      argc, argv, "alpha_stable_mf [--mode=denoise|synthetic] [--data_dir=DIR] [flags]",
      sgmcmc::tools::Run);
}
