// The speech-denoising experiment of the HAMCMC paper (Simsekli et al. 2016, Sec. 4.2, Fig. 3)
// with alpha-stable matrix factorisation (models/mf/alpha_stable_mf.h), and its synthetic
// recovery check.
//
// Denoising: the STFTs (linalg/stft.h, I = 256 bins) of the training speech
// (data_dir/train/clean_*.wav) are concatenated and W_speech (I x 100, alpha = 1.2) is trained
// on them by one chain (train_method); its average over the last samples is then fixed. For
// every test mixture data_dir/test/mix_NN.wav, each method samples H_speech, W_noise, H_noise
// (K = 5, alpha = 1.89) and the Phi's; the speech estimate is the Monte Carlo average of the
// Wiener gain sigma2_speech / sigma2 times the mixture's STFT, inverted by InverseStft, and
// scored by SDR = 10 log10(|s|^2 / |s - s_hat|^2) against data_dir/test/clean_NN.wav (plain
// SDR, no distortion filter as in BSS Eval). Power spectrograms are divided by their median
// so that the GG(2, 1, -2/alpha) priors see O(1) factors.
//
// Synthetic check: data from the one-source model (rows x cols, rank, alpha = 1.2), the
// relative Frobenius error of the averaged W H against the truth per method (log
// parametrisation), next to the derived rate e* and that of the best constant matrix.
//
// Cost: per test signal and method, samples x (I J (S stable draws + K) + I J K / 10) flops;
// training likewise on the training frames. The time per sample is reported.
//
// Example:
//   AlphaStableMfExperimentOptions options;
//   options.data_dir = "/tmp/speech";  // made by tools/speech/make_speech_data.sh
//   SGMCMC_ASSIGN_OR_RETURN(SpeechDenoisingResult r, RunSpeechDenoising(options));
//   std::cout << SdrCsv(r);
#ifndef SGMCMC_TOOLS_ALPHA_STABLE_MF_EXPERIMENT_H_
#define SGMCMC_TOOLS_ALPHA_STABLE_MF_EXPERIMENT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "Eigen/Dense"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "models/mf/matrix_factorization.h"
#include "tools/tool_support.h"

namespace sgmcmc::tools {

// Step sizes and sampler settings per method (constant steps, as in models/mf/matrix_factorization).
// The defaults were tuned by hand on the short generated mixture (a few runs each): larger
// steps make SGLD diverge (the GG prior's gradient is unbounded at 0 and the likelihood's
// grows with |X|^2 / sigma2), pSGLD needs lambda ~ 1 (a small lambda turns the flat tails into
// huge noise) and HAMCMC a small H^0 with strong damping.
struct AlphaStableMfSamplerSettings {
  double sgld_step = 1e-4;
  double psgld_step = 1e-3;
  double psgld_lambda = 1;
  double hamcmc_step = 0.1;
  int hamcmc_memory = 5;  // the paper's M
  double hamcmc_gamma = 1e-3;
  double hamcmc_damping = 100;
  double hamcmc_warmup_step = 1e-5;
  // Cyclic scan of the Metropolis step (models/mf/alpha_stable_mf.h); 1 = every Phi each sweep
  // (the paper), which costs about 3/4 of a sweep's time.
  int phi_stride = 1;

  // The MfRunOptions of `method` with `iterations` and `seed`; batch_size 0 (N / 10).
  models::MfRunOptions RunOptions(models::MfMethod method, int iterations, uint64_t seed) const;
};

// Settings for the log parametrisation on data at the GG priors' scale: SGLD and pSGLD step
// 1e-3 (pSGLD lambda 1), HAMCMC step 0.3 with gamma 1e-3, damping 100 and warm-up step 1e-3,
// M = 5, phi_stride 1.
AlphaStableMfSamplerSettings LogParametrizationSettings();

// Largest dense synthetic matrix (cells of V, or of W and H together): 2^26 doubles, 512 MB
// each, far above the 100 x 100 default and the paper's spectrograms.
inline constexpr int64_t kMaxSyntheticCells = int64_t{1} << 26;

struct AlphaStableMfExperimentOptions {
  // Directory with train/clean_*.wav and test/{clean,mix}_NN.wav.
  std::string data_dir;
  int num_bins = 256;
  int speech_rank = 100;
  int noise_rank = 5;
  double speech_alpha = 1.2;
  double noise_alpha = 1.89;
  // Training of W_speech: method, sweeps and how many last samples are averaged.
  // SGLD by default: pSGLD's preconditioner 1 / (lambda + sqrt(v)) turns the flat tails of
  // the GG posteriors into huge noise and the chain diverges.
  models::MfMethod train_method = models::MfMethod::kSgld;
  double train_step = 1e-5;
  int train_samples = 300;
  int train_average_last = 100;
  // Denoising: methods, sweeps per signal and averaged last samples (the paper: 2500, 200).
  std::vector<models::MfMethod> methods = {models::MfMethod::kSgld, models::MfMethod::kPsgld,
                                           models::MfMethod::kHamcmc};
  int samples = 600;
  int average_last = 200;
  AlphaStableMfSamplerSettings settings;
  uint64_t seed = 1;
  // Synthetic check: rows x cols, rank, and the samplers' settings there. The synthetic chains
  // use the log parametrisation (models::AlphaStableParametrization::kLog), whose likelihood
  // curvature in log W is about (2 / alpha)^2 J for every entry, hence these steps (the same as
  // models/mf/alpha_stable_mf_recovery_test, where they recover V to the derived rate).
  // rows x cols and (rows + cols) x rank at most kMaxSyntheticCells.
  int synthetic_rows = 100;
  int synthetic_cols = 100;
  int synthetic_rank = 1;
  AlphaStableMfSamplerSettings synthetic_settings = LogParametrizationSettings();
  // Checkpoint file (tools/alpha_stable_mf_checkpoint.h), rewritten after every run (the
  // training of W_speech, each test signal x method; each method in synthetic mode) and, with
  // the chain of the run under way, every checkpoint_every sweeps of a run (>= 0; 0, the
  // default: only after runs); empty (default): none. With `resume`, the runs it holds are
  // taken from it, not run again, and the run under way continues from its chain; the outputs
  // equal an uninterrupted experiment's, the timings aside. stop_after_runs (>= 0; 0, the
  // default: never) stops once that many runs are done, stop_after (>= 0; 0, the default:
  // never) once a run has done that many sweeps in all (its chain saved), as if interrupted.
  std::string checkpoint_path;
  bool resume = false;
  int stop_after_runs = 0;
  int checkpoint_every = 0;
  int stop_after = 0;

  absl::Status Validate() const;
};

// 10 log10(|clean|^2 / |clean - estimate|^2); the spans have equal lengths.
double SignalToDistortionRatio(absl::Span<const double> clean, absl::Span<const double> estimate);

struct DenoisedSignal {
  std::string name;  // "mix_00"
  std::string method;
  // Empty if the chain ran to the end; else why it stopped, e.g. "sgld diverged at iteration
  // 12 (non-finite W or H); lower sgld_step" (naming the method's settings field). A diverged
  // run has NaN SDRs and no `denoised` samples; the other runs go on (as in
  // tools/matrix_factorization).
  std::string diverged;
  double sdr_db = 0;
  double input_sdr_db = 0;  // SDR of the mixture itself
  double acceptance_rate = 0;
  double seconds_per_sample = 0;
  std::vector<double> denoised;
};

struct SpeechDenoisingResult {
  // False when stop_after_runs or stop_after stopped the experiment (the rest is partial).
  bool complete = true;
  int sample_rate = 16000;
  int train_frames = 0;
  double train_seconds_per_sample = 0;
  double train_acceptance_rate = 0;
  // Per test signal: clean and mixture samples (same order as the file names).
  std::vector<std::string> names;
  std::vector<std::vector<double>> clean;
  std::vector<std::vector<double>> mixture;
  std::vector<DenoisedSignal> denoised;  // signal-major, then method
};

// A diverged (signal, method) run is recorded (DenoisedSignal::diverged) and the experiment
// goes on; a diverged training chain of W_speech, on which every run depends, is an error
// ("training W: ... lower train_step").
absl::StatusOr<SpeechDenoisingResult> RunSpeechDenoising(
    const AlphaStableMfExperimentOptions& options);

struct SyntheticRecoveryRow {
  std::string method;
  // As DenoisedSignal::diverged (the errors are then NaN).
  std::string diverged;
  // Relative Frobenius error of the averaged W H against the truth.
  double relative_error = 0;
  // The error an efficient estimator reaches at this noise level,
  // e* = (pi / sqrt(6)) sqrt(K (I + J - K) / (I J)) (models/mf/alpha_stable_mf_recovery_test).
  double derived_error = 0;
  double constant_error = 0;
  double acceptance_rate = 0;
  double seconds_per_sample = 0;
};
// Fewer rows than methods when stop_after_runs or stop_after stopped it.
absl::StatusOr<std::vector<SyntheticRecoveryRow>> RunSyntheticRecovery(
    const AlphaStableMfExperimentOptions& options);

// sdr.csv: signal,method,sdr_db,input_sdr_db,acceptance_rate,seconds_per_sample; diverged
// runs are left out.
std::string SdrCsv(const SpeechDenoisingResult& result);
// Text summary: per-method mean SDR and time per sample over the runs that finished, and a
// "METHOD DIVERGED on SIGNAL: ..." line per diverged run.
std::string SdrSummary(const SpeechDenoisingResult& result);
// Internal naming every diverged run ("mix_00: sgld diverged at iteration 12 (...); lower
// sgld_step; ..."), to be returned after the other runs' outputs are written; OK if none.
absl::Status DivergedRuns(absl::Span<const DenoisedSignal> denoised);
absl::Status DivergedRuns(absl::Span<const SyntheticRecoveryRow> rows);
// Output files: sdr.csv, summary.txt, sdr_<method>.dat (one SDR per line, for the box plot),
// spectrogram_{clean,noisy,<method>}.dat of the first test signal (gnuplot matrix: log10 power,
// I rows x J columns) and the WAVs of the first signal (clean, noisy, denoised per method).
OutputFiles SpeechOutputs(const SpeechDenoisingResult& result, int num_bins);
// synthetic.csv: method,relative_error,constant_error,acceptance_rate,seconds_per_sample,
// derived_error; diverged methods are left out (DivergedRuns names them).
std::string SyntheticCsv(absl::Span<const SyntheticRecoveryRow> rows);

}  // namespace sgmcmc::tools

#endif  // SGMCMC_TOOLS_ALPHA_STABLE_MF_EXPERIMENT_H_
