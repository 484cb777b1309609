#include "tools/alpha_stable_mf_experiment.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "data/wav.h"
#include "linalg/stft.h"
#include "models/mf/alpha_stable_mf.h"
#include "rng/engine.h"
#include "samplers/hamcmc.h"
#include "samplers/psgld.h"
#include "tools/alpha_stable_mf_checkpoint.h"

namespace sgmcmc::tools {
namespace {

// Factors of a trained W below this are raised to it (a fixed W must be > 0).
constexpr double kMinFixedW = 1e-12;
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// Whether a run's error is its chain's divergence (models::RunAlphaStableMf's Internal), which
// is recorded, not the end of the experiment.
bool IsDivergence(const absl::Status& status) {
  return status.code() == absl::StatusCode::kInternal &&
         absl::StrContains(status.message(), " diverged at iteration ");
}
// Floor of the normalised power spectrogram (-30 dB relative to its median).
constexpr double kPowerFloor = 1e-3;

// Sorted paths of dir/prefix*.wav.
absl::StatusOr<std::vector<std::string>> ListWavs(const std::string& dir,
                                                  const std::string& prefix) {
  std::error_code error;
  std::vector<std::string> paths;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    if (absl::StartsWith(name, prefix) && absl::EndsWith(name, ".wav")) {
      paths.push_back(entry.path().string());
    }
  }
  if (error) return absl::NotFoundError(absl::StrCat(dir, ": ", error.message()));
  if (paths.empty()) {
    return absl::NotFoundError(absl::StrCat(dir, ": no ", prefix, "*.wav files"));
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

absl::StatusOr<data::Wav> ReadWavAt(const std::string& path, int sample_rate) {
  absl::StatusOr<data::Wav> wav = data::ReadWav(path);
  if (!wav.ok()) return wav.status();
  if (wav->sample_rate != sample_rate) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": sample rate ", wav->sample_rate,
                                                   ", expected ", sample_rate));
  }
  return wav;
}

// |X|^2 divided by its median (so that the priors see O(1) factors) and raised to at least
// kPowerFloor: espeak-ng's speech has exact digital silence, and zero power would drive W, H
// to 0, where the GG(., ., -2/alpha) prior's gradient is unbounded.
Eigen::MatrixXd NormalisedPower(const Eigen::MatrixXcd& spectrum, double target_median) {
  Eigen::MatrixXd power = spectrum.cwiseAbs2();
  std::vector<double> values(power.data(), power.data() + power.size());
  std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
  const double median = std::max(values[values.size() / 2], 1e-300);
  return (power / median).cwiseMax(kPowerFloor) * target_median;
}

std::string MatrixDat(const Eigen::MatrixXd& m) {
  std::string out;
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      absl::StrAppendFormat(&out, "%s%.4g", j == 0 ? "" : " ", m(i, j));  // constexpr format
    }
    out += "\n";
  }
  return out;
}

std::string LogSpectrogram(absl::Span<const double> signal, int num_bins) {
  const Eigen::MatrixXd power = linalg::Stft(signal, num_bins).cwiseAbs2();
  return MatrixDat((power.array() + 1e-10).log10().matrix());
}

// Runs `run` on `model` as the experiment's run `key` (data fingerprint `data`, see
// tools/alpha_stable_mf_checkpoint.proto): from its saved chain if it was under way, its chain
// saved every options.checkpoint_every sweeps and where options.stop_after stops it (the
// result is then incomplete). DataLoss naming the checkpoint if the saved chain does not fit.
absl::StatusOr<models::AlphaStableMfResult> RunWithCheckpoints(
    models::AlphaStableMf& model, models::AlphaStableMfRunOptions run,
    const AlphaStableMfExperimentOptions& options, AlphaStableMfCheckpointer& checkpoints,
    const std::string& key, uint64_t data) {
  absl::StatusOr<std::optional<models::AlphaStableMfChainState>> saved =
      checkpoints.FindInProgress(key, data);
  if (!saved.ok()) return saved.status();
  if (saved->has_value()) run.resume = &**saved;
  run.checkpoint_every = options.checkpoint_every;
  run.stop_after = options.stop_after;
  run.checkpoint = [&](const models::AlphaStableMfChainState& state) {
    return checkpoints.SaveInProgress(key, data, state);
  };
  absl::StatusOr<models::AlphaStableMfResult> result = models::RunAlphaStableMf(model, run);
  if (!result.ok() && run.resume != nullptr &&
      result.status().code() == absl::StatusCode::kInvalidArgument) {
    return absl::DataLossError(absl::StrCat(options.checkpoint_path, ": the saved chain of ",
                                            key, " does not fit: ",
                                            result.status().message()));
  }
  return result;
}

// One chain of `method` with the experiment's sample counts on a fresh model of `power`, as
// run `key` (RunWithCheckpoints).
absl::StatusOr<models::AlphaStableMfResult> SampleModel(
    const Eigen::MatrixXd& power, const models::AlphaStableMfOptions& model_options,
    const AlphaStableMfExperimentOptions& options, const AlphaStableMfSamplerSettings& settings,
    models::MfMethod method, AlphaStableMfCheckpointer& checkpoints, const std::string& key,
    uint64_t data) {
  absl::StatusOr<std::unique_ptr<models::AlphaStableMf>> model =
      models::AlphaStableMf::Create(power, model_options);
  if (!model.ok()) return model.status();
  models::AlphaStableMfRunOptions run;
  run.sampler = settings.RunOptions(method, options.samples, options.seed);
  run.average_last = options.average_last;
  run.phi_stride = settings.phi_stride;
  return RunWithCheckpoints(**model, run, options, checkpoints, key, data);
}

// The progress line of a resumed experiment.
void PrintResumed(const AlphaStableMfExperimentOptions& options,
                  const AlphaStableMfCheckpointer& checkpoints) {
  const std::string note = checkpoints.InProgressNote();
  if (checkpoints.resumed_runs() > 0 || !note.empty()) {
    std::cout << "resumed from " << options.checkpoint_path << ": "
              << checkpoints.resumed_runs() << " run(s) done" << note << "\n";
  }
}

}  // namespace

AlphaStableMfSamplerSettings LogParametrizationSettings() {
  AlphaStableMfSamplerSettings settings;
  settings.sgld_step = 1e-3;
  settings.psgld_step = 1e-3;
  settings.psgld_lambda = 1;
  settings.hamcmc_step = 0.3;
  settings.hamcmc_memory = 5;
  settings.hamcmc_gamma = 1e-3;
  settings.hamcmc_damping = 100;
  settings.hamcmc_warmup_step = 1e-3;
  settings.phi_stride = 1;
  return settings;
}

models::MfRunOptions AlphaStableMfSamplerSettings::RunOptions(models::MfMethod method,
                                                              int iterations,
                                                              uint64_t seed) const {
  models::MfRunOptions run;
  run.method = method;
  run.iterations = iterations;
  run.burn_in = 0;
  run.seed = seed;
  run.batch_size = 0;
  run.step_size = method == models::MfMethod::kSgld    ? sgld_step
                  : method == models::MfMethod::kPsgld ? psgld_step
                                                       : hamcmc_step;
  run.psgld_lambda = psgld_lambda;
  run.hamcmc_memory = hamcmc_memory;
  run.hamcmc_gamma = hamcmc_gamma;
  run.hamcmc_damping = hamcmc_damping;
  run.hamcmc_warmup_step = hamcmc_warmup_step;
  return run;
}

namespace {

// The samplers' own checks of `method`'s settings (its step being `step`, named
// `step_field`), naming the settings' fields ("psgld_lambda", not "PsgldOptions.lambda").
absl::Status ValidateSamplerSettings(const AlphaStableMfSamplerSettings& settings,
                                     models::MfMethod method, double step,
                                     absl::string_view step_field) {
  if (!(std::isfinite(step) && step > 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat(step_field, " must be finite and > 0, got ", step));
  }
  if (method == models::MfMethod::kPsgld) {
    samplers::PsgldOptions psgld;
    psgld.lambda = settings.psgld_lambda;
    return NameFlags(psgld.Validate(/*num_items=*/1), {{"PsgldOptions.lambda", "psgld_lambda"}});
  }
  if (method == models::MfMethod::kHamcmc) {
    samplers::HamcmcOptions hamcmc;
    hamcmc.memory = settings.hamcmc_memory;
    hamcmc.gamma = settings.hamcmc_gamma;
    hamcmc.damping = settings.hamcmc_damping;
    hamcmc.warmup_step = settings.hamcmc_warmup_step;
    return NameFlags(hamcmc.Validate(/*num_items=*/1),
                     {{"HamcmcOptions.memory", "hamcmc_memory"},
                      {"HamcmcOptions.gamma", "hamcmc_gamma"},
                      {"HamcmcOptions.damping", "hamcmc_damping"},
                      {"HamcmcOptions.warmup_step", "hamcmc_warmup_step"}});
  }
  return absl::OkStatus();
}

const char* StepField(models::MfMethod method) {
  return method == models::MfMethod::kSgld    ? "sgld_step"
         : method == models::MfMethod::kPsgld ? "psgld_step"
                                              : "hamcmc_step";
}

}  // namespace

absl::Status AlphaStableMfExperimentOptions::Validate() const {
  if (num_bins < 2) return absl::InvalidArgumentError("num_bins must be >= 2");
  for (const auto& [field, rank] : {std::pair<const char*, int>{"speech_rank", speech_rank},
                                    {"noise_rank", noise_rank},
                                    {"synthetic_rank", synthetic_rank}}) {
    if (rank < 1) {
      return absl::InvalidArgumentError(absl::StrCat(field, " must be >= 1, got ", rank));
    }
  }
  // W (num_bins x K) H has rank at most num_bins: a larger K adds only redundant parameters.
  for (const auto& [field, rank] : {std::pair<const char*, int>{"speech_rank", speech_rank},
                                    {"noise_rank", noise_rank}}) {
    if (rank > num_bins) {
      return absl::InvalidArgumentError(absl::StrCat(
          field, " must be <= num_bins = ", num_bins, " (the spectrogram's rows: W H has rank "
          "at most that, a larger rank only adds redundant parameters), got ", rank));
    }
  }
  if (samples < 1 || average_last < 1 || average_last > samples) {
    return absl::InvalidArgumentError(absl::StrCat(
        "samples must be >= 1 and average_last in [1, samples], got ", samples, " and ",
        average_last));
  }
  if (train_samples < 1 || train_average_last < 1 || train_average_last > train_samples) {
    return absl::InvalidArgumentError(absl::StrCat(
        "train_samples must be >= 1 and train_average_last in [1, train_samples], got ",
        train_samples, " and ", train_average_last));
  }
  if (methods.empty()) return absl::InvalidArgumentError("methods must not be empty");
  for (const auto& [field, value] :
       {std::pair<const char*, int>{"stop_after_runs", stop_after_runs},
        {"checkpoint_every", checkpoint_every},
        {"stop_after", stop_after}}) {
    if (value < 0) {
      return absl::InvalidArgumentError(absl::StrCat(field, " must be >= 0, got ", value));
    }
  }
  if (settings.phi_stride < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("phi_stride must be >= 1, got ", settings.phi_stride));
  }
  for (const models::MfMethod method : methods) {
    const double step = method == models::MfMethod::kSgld    ? settings.sgld_step
                        : method == models::MfMethod::kPsgld ? settings.psgld_step
                                                             : settings.hamcmc_step;
    if (absl::Status s = ValidateSamplerSettings(settings, method, step, StepField(method));
        !s.ok()) {
      return s;
    }
  }
  if (absl::Status s = ValidateSamplerSettings(settings, train_method, train_step, "train_step");
      !s.ok()) {
    return s;
  }
  for (const auto& [field, size] : {std::pair<const char*, int>{"synthetic_rows", synthetic_rows},
                                    {"synthetic_cols", synthetic_cols}}) {
    if (size < 1) {
      return absl::InvalidArgumentError(absl::StrCat(field, " must be >= 1, got ", size));
    }
  }
  if (synthetic_rank > std::min(synthetic_rows, synthetic_cols)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "synthetic_rank must be <= min(rows, cols) = ", std::min(synthetic_rows, synthetic_cols),
        " of the synthetic matrix (W H has rank at most that, a larger rank only adds redundant "
        "parameters), got ", synthetic_rank));
  }
  // Dense V (rows x cols) and W, H ((rows + cols) x rank): a size of 10^8 was a bad_alloc.
  const int64_t cells = std::max(int64_t{synthetic_rows} * synthetic_cols,
                                 (int64_t{synthetic_rows} + synthetic_cols) * synthetic_rank);
  if (cells > kMaxSyntheticCells) {
    return absl::InvalidArgumentError(absl::StrCat(
        "synthetic_rows x synthetic_cols and (synthetic_rows + synthetic_cols) x synthetic_rank "
        "must be <= ", kMaxSyntheticCells, ", got ", cells));
  }
  return absl::OkStatus();
}

double SignalToDistortionRatio(absl::Span<const double> clean, absl::Span<const double> estimate) {
  double signal = 0, error = 0;
  for (size_t n = 0; n < clean.size(); ++n) {
    signal += clean[n] * clean[n];
    error += (clean[n] - estimate[n]) * (clean[n] - estimate[n]);
  }
  return 10 * std::log10(signal / error);
}

absl::StatusOr<SpeechDenoisingResult> RunSpeechDenoising(
    const AlphaStableMfExperimentOptions& options) {
  if (absl::Status s = options.Validate(); !s.ok()) return s;
  SpeechDenoisingResult result;
  // Training spectrogram: the training files' STFT frames side by side.
  absl::StatusOr<std::vector<std::string>> train_paths =
      ListWavs(options.data_dir + "/train", "clean_");
  if (!train_paths.ok()) return train_paths.status();
  std::vector<Eigen::MatrixXcd> train_spectra;
  Eigen::Index train_frames = 0;
  for (size_t f = 0; f < train_paths->size(); ++f) {
    absl::StatusOr<data::Wav> wav = data::ReadWav((*train_paths)[f]);
    if (!wav.ok()) return wav.status();
    if (f == 0) result.sample_rate = wav->sample_rate;
    if (wav->sample_rate != result.sample_rate) {
      return absl::InvalidArgumentError(absl::StrCat((*train_paths)[f], ": sample rate ",
                                                     wav->sample_rate, ", expected ",
                                                     result.sample_rate));
    }
    train_spectra.push_back(linalg::Stft(wav->samples, options.num_bins));
    train_frames += train_spectra.back().cols();
  }
  Eigen::MatrixXcd train(options.num_bins, train_frames);
  Eigen::Index column = 0;
  for (const Eigen::MatrixXcd& s : train_spectra) {
    train.middleCols(column, s.cols()) = s;
    column += s.cols();
  }
  result.train_frames = static_cast<int>(train_frames);
  absl::StatusOr<AlphaStableMfCheckpointer> checkpoints = AlphaStableMfCheckpointer::Open(
      options, "denoise",
      FingerprintValues(absl::MakeConstSpan(reinterpret_cast<const double*>(train.data()),
                                            2 * static_cast<size_t>(train.size()))));
  if (!checkpoints.ok()) return checkpoints.status();
  PrintResumed(options, *checkpoints);

  models::AlphaStableSource speech;
  speech.alpha = options.speech_alpha;
  speech.rank = options.speech_rank;
  // The scale at which the GG(2, 1, -2/alpha) priors (median of W, H about 1/2) expect the
  // data: V = sum_k W H ~ K / 4, and a median power ~ V^(2/alpha) (log 2 median Phi ~ 1).
  const double target_median = std::pow(speech.rank / 4.0, 2 / speech.alpha);
  if (checkpoints->trained()) {
    speech.fixed_w = checkpoints->fixed_w();
    result.train_seconds_per_sample = checkpoints->train_seconds_per_sample();
    result.train_acceptance_rate = checkpoints->train_acceptance_rate();
  } else {
    models::AlphaStableMfOptions train_options;
    train_options.sources = {speech};
    absl::StatusOr<std::unique_ptr<models::AlphaStableMf>> train_model =
        models::AlphaStableMf::Create(NormalisedPower(train, target_median), train_options);
    if (!train_model.ok()) return train_model.status();
    models::AlphaStableMfRunOptions train_run;
    train_run.sampler =
        options.settings.RunOptions(options.train_method, options.train_samples, options.seed);
    train_run.sampler.step_size = options.train_step;
    if (options.train_method == models::MfMethod::kHamcmc) {
      train_run.sampler.hamcmc_warmup_step = options.train_step;
    }
    train_run.average_last = options.train_average_last;
    train_run.phi_stride = options.settings.phi_stride;
    absl::StatusOr<models::AlphaStableMfResult> trained = RunWithCheckpoints(
        **train_model, train_run, options, *checkpoints, "train", /*data=*/0);
    if (!trained.ok()) {
      const absl::Status named = NameFlags(trained.status(), {{"step_size", "train_step"}});
      return absl::Status(named.code(), absl::StrCat("training W: ", named.message()));
    }
    if (!trained->complete) {  // options.stop_after
      result.complete = false;
      return result;
    }
    result.train_seconds_per_sample = trained->seconds_per_sample;
    result.train_acceptance_rate = trained->acceptance_rate;
    std::cout << "trained W_speech on " << train_frames << " frames: "
              << trained->seconds_per_sample * 1e3 << " ms/sample, acceptance "
              << trained->acceptance_rate << "\n";
    speech.fixed_w = trained->mean_w[0].cwiseMax(kMinFixedW);
    if (absl::Status s = checkpoints->SetTrained(speech.fixed_w, result.train_seconds_per_sample,
                                                 result.train_acceptance_rate);
        !s.ok()) {
      return s;
    }
  }

  models::AlphaStableSource noise;
  noise.alpha = options.noise_alpha;
  noise.rank = options.noise_rank;
  models::AlphaStableMfOptions denoise_options;
  denoise_options.sources = {speech, noise};

  absl::StatusOr<std::vector<std::string>> mix_paths =
      ListWavs(options.data_dir + "/test", "mix_");
  if (!mix_paths.ok()) return mix_paths.status();
  for (const std::string& mix_path : *mix_paths) {
    const std::string file = std::filesystem::path(mix_path).filename().string();
    const std::string name = file.substr(0, file.size() - 4);
    const std::string clean_path = options.data_dir + "/test/clean_" + name.substr(4) + ".wav";
    absl::StatusOr<data::Wav> mix = ReadWavAt(mix_path, result.sample_rate);
    if (!mix.ok()) return mix.status();
    absl::StatusOr<data::Wav> clean = ReadWavAt(clean_path, result.sample_rate);
    if (!clean.ok()) return clean.status();
    if (clean->samples.size() != mix->samples.size()) {
      return absl::InvalidArgumentError(absl::StrCat(clean_path, ": ", clean->samples.size(),
                                                     " samples, the mixture has ",
                                                     mix->samples.size()));
    }
    const Eigen::MatrixXcd spectrum = linalg::Stft(mix->samples, options.num_bins);
    const Eigen::MatrixXd power = NormalisedPower(spectrum, target_median);
    const double input_sdr = SignalToDistortionRatio(clean->samples, mix->samples);
    const uint64_t mix_fingerprint = FingerprintValues(mix->samples);
    for (models::MfMethod method : options.methods) {
      absl::StatusOr<std::optional<DenoisedSignal>> done = checkpoints->FindSignal(
          name, std::string(models::MfMethodName(method)), mix_fingerprint);
      if (!done.ok()) return done.status();
      if (done->has_value()) {
        result.denoised.push_back(**std::move(done));
        continue;
      }
      if (checkpoints->ShouldStop()) {
        result.complete = false;
        return result;
      }
      DenoisedSignal out;
      out.name = name;
      out.method = models::MfMethodName(method);
      absl::StatusOr<models::AlphaStableMfResult> sampled =
          SampleModel(power, denoise_options, options, options.settings, method, *checkpoints,
                      absl::StrCat(name, "/", out.method), mix_fingerprint);
      if (!sampled.ok()) {
        // A divergence names the method's step ("lower step_size" did not say whose).
        const absl::Status named =
            NameFlags(sampled.status(), {{"step_size", StepField(method)}});
        if (!IsDivergence(named)) {
          return absl::Status(named.code(), absl::StrCat(name, ": ", named.message()));
        }
        // Recorded, and the other runs go on.
        out.diverged = std::string(named.message());
        out.sdr_db = out.acceptance_rate = out.seconds_per_sample = kNan;
        out.input_sdr_db = input_sdr;
        std::cout << name << " " << out.method << " DIVERGED: " << out.diverged << "\n";
        if (absl::Status s = checkpoints->AddSignal(out, mix_fingerprint); !s.ok()) return s;
        result.denoised.push_back(std::move(out));
        continue;
      }
      if (!sampled->complete) {  // options.stop_after
        result.complete = false;
        return result;
      }
      const Eigen::MatrixXcd estimate = spectrum.array() * sampled->mean_gain[0].array();
      out.denoised =
          linalg::InverseStft(estimate, static_cast<int>(mix->samples.size()));
      out.sdr_db = SignalToDistortionRatio(clean->samples, out.denoised);
      out.input_sdr_db = input_sdr;
      out.acceptance_rate = sampled->acceptance_rate;
      out.seconds_per_sample = sampled->seconds_per_sample;
      std::cout << absl::StrFormat("%s %-6s SDR %6.2f dB (input %5.2f dB), %.2f ms/sample, "
                                   "acceptance %.3f\n",
                                   name, out.method, out.sdr_db, input_sdr,
                                   out.seconds_per_sample * 1e3, out.acceptance_rate);
      if (absl::Status s = checkpoints->AddSignal(out, mix_fingerprint); !s.ok()) return s;
      result.denoised.push_back(std::move(out));
    }
    result.names.push_back(name);
    result.clean.push_back(std::move(clean->samples));
    result.mixture.push_back(std::move(mix->samples));
  }
  return result;
}

absl::StatusOr<std::vector<SyntheticRecoveryRow>> RunSyntheticRecovery(
    const AlphaStableMfExperimentOptions& options) {
  if (absl::Status s = options.Validate(); !s.ok()) return s;
  models::AlphaStableSource source;
  source.alpha = options.speech_alpha;
  source.rank = options.synthetic_rank;
  rng::Engine engine(options.seed, /*stream=*/3);
  const models::SyntheticAlphaStableData data = models::GenerateAlphaStableData(
      options.synthetic_rows, options.synthetic_cols, source, engine);
  const Eigen::MatrixXd truth = data.w * data.h;
  const double constant_error = (truth.array() - truth.mean()).matrix().norm() / truth.norm();
  models::AlphaStableMfOptions model_options;
  model_options.sources = {source};
  model_options.parametrization = models::AlphaStableParametrization::kLog;
  const double derived_error =
      M_PI / std::sqrt(6.0) *
      std::sqrt(static_cast<double>(options.synthetic_rank) *
                (options.synthetic_rows + options.synthetic_cols - options.synthetic_rank) /
                (static_cast<double>(options.synthetic_rows) * options.synthetic_cols));
  absl::StatusOr<AlphaStableMfCheckpointer> checkpoints =
      AlphaStableMfCheckpointer::Open(options, "synthetic", FingerprintValues(
          absl::MakeConstSpan(data.power.data(), static_cast<size_t>(data.power.size()))));
  if (!checkpoints.ok()) return checkpoints.status();
  PrintResumed(options, *checkpoints);
  std::vector<SyntheticRecoveryRow> rows;
  for (models::MfMethod method : options.methods) {
    if (std::optional<SyntheticRecoveryRow> done =
            checkpoints->FindRow(std::string(models::MfMethodName(method)))) {
      rows.push_back(*done);
      continue;
    }
    if (checkpoints->ShouldStop()) return rows;
    SyntheticRecoveryRow row;
    row.method = models::MfMethodName(method);
    absl::StatusOr<models::AlphaStableMfResult> sampled =
        SampleModel(data.power, model_options, options, options.synthetic_settings, method,
                    *checkpoints, row.method, /*data=*/0);
    if (!sampled.ok()) {
      if (!IsDivergence(sampled.status())) return sampled.status();
      // The synthetic settings have no flags: "lower step_size" stays as the model says.
      row.diverged = std::string(sampled.status().message());
      row.relative_error = row.acceptance_rate = row.seconds_per_sample = kNan;
      row.constant_error = constant_error;
      row.derived_error = derived_error;
      std::cout << row.method << " DIVERGED: " << row.diverged << "\n";
      if (absl::Status s = checkpoints->AddRow(row); !s.ok()) return s;
      rows.push_back(row);
      continue;
    }
    if (!sampled->complete) return rows;  // options.stop_after
    row.relative_error = (sampled->mean_v[0] - truth).norm() / truth.norm();
    row.constant_error = constant_error;
    row.derived_error = derived_error;
    row.acceptance_rate = sampled->acceptance_rate;
    row.seconds_per_sample = sampled->seconds_per_sample;
    if (absl::Status s = checkpoints->AddRow(row); !s.ok()) return s;
    rows.push_back(row);
  }
  return rows;
}

std::string SdrCsv(const SpeechDenoisingResult& result) {
  std::string out = "signal,method,sdr_db,input_sdr_db,acceptance_rate,seconds_per_sample\n";
  for (const DenoisedSignal& d : result.denoised) {
    if (!d.diverged.empty()) continue;
    absl::StrAppendFormat(&out, "%s,%s,%.4f,%.4f,%.4f,%.6g\n", d.name, d.method, d.sdr_db,
                          d.input_sdr_db, d.acceptance_rate, d.seconds_per_sample);
  }
  return out;
}

std::string SdrSummary(const SpeechDenoisingResult& result) {
  std::vector<std::string> methods;
  std::map<std::string, std::pair<double, double>> sums;  // method -> (sdr, seconds)
  std::map<std::string, int> counts;
  double input_sum = 0;
  std::string diverged;
  for (const DenoisedSignal& d : result.denoised) {
    if (!d.diverged.empty()) {
      absl::StrAppendFormat(&diverged, "%-6s DIVERGED on %s: %s; not in sdr.csv\n", d.method,
                            d.name, d.diverged);
      continue;
    }
    if (counts[d.method]++ == 0) methods.push_back(d.method);
    sums[d.method].first += d.sdr_db;
    sums[d.method].second += d.seconds_per_sample;
  }
  for (size_t s = 0; s < result.names.size(); ++s) {
    input_sum += SignalToDistortionRatio(result.clean[s], result.mixture[s]);
  }
  std::string out = absl::StrFormat(
      "W_speech trained on %d frames (%.2f ms/sample, acceptance %.3f)\n", result.train_frames,
      result.train_seconds_per_sample * 1e3, result.train_acceptance_rate);
  absl::StrAppendFormat(&out, "mean input SDR over %d signals: %.2f dB\n", result.names.size(),
                        result.names.empty() ? 0.0 : input_sum / result.names.size());
  for (const std::string& m : methods) {
    absl::StrAppendFormat(&out, "%-6s mean SDR %6.2f dB  %.2f ms/sample\n", m,
                          sums[m].first / counts[m], sums[m].second / counts[m] * 1e3);
  }
  return out + diverged;
}

OutputFiles SpeechOutputs(const SpeechDenoisingResult& result, int num_bins) {
  OutputFiles files = {{"sdr.csv", SdrCsv(result)}, {"summary.txt", SdrSummary(result)}};
  std::map<std::string, std::string> per_method;
  std::vector<std::string> methods;
  for (const DenoisedSignal& d : result.denoised) {
    if (!d.diverged.empty()) continue;
    if (!per_method.count(d.method)) methods.push_back(d.method);
    absl::StrAppendFormat(&per_method[d.method], "%.4f\n", d.sdr_db);
  }
  for (const std::string& m : methods) files.emplace_back("sdr_" + m + ".dat", per_method[m]);
  if (result.names.empty()) return files;
  auto wav = [&](const std::vector<double>& samples) {
    return data::SerializeWav(data::Wav{result.sample_rate, samples});
  };
  files.emplace_back("spectrogram_clean.dat", LogSpectrogram(result.clean[0], num_bins));
  files.emplace_back("spectrogram_noisy.dat", LogSpectrogram(result.mixture[0], num_bins));
  files.emplace_back(result.names[0] + "_clean.wav", wav(result.clean[0]));
  files.emplace_back(result.names[0] + "_noisy.wav", wav(result.mixture[0]));
  for (const DenoisedSignal& d : result.denoised) {
    if (d.name != result.names[0] || !d.diverged.empty()) continue;
    files.emplace_back("spectrogram_" + d.method + ".dat", LogSpectrogram(d.denoised, num_bins));
    files.emplace_back(d.name + "_" + d.method + ".wav", wav(d.denoised));
  }
  return files;
}

std::string SyntheticCsv(absl::Span<const SyntheticRecoveryRow> rows) {
  std::string out =
      "method,relative_error,constant_error,acceptance_rate,seconds_per_sample,derived_error\n";
  for (const SyntheticRecoveryRow& r : rows) {
    if (!r.diverged.empty()) continue;
    absl::StrAppendFormat(&out, "%s,%.4f,%.4f,%.4f,%.6g,%.4f\n", r.method, r.relative_error,
                          r.constant_error, r.acceptance_rate, r.seconds_per_sample,
                          r.derived_error);
  }
  return out;
}

absl::Status DivergedRuns(absl::Span<const DenoisedSignal> denoised) {
  std::string message;
  for (const DenoisedSignal& d : denoised) {
    if (d.diverged.empty()) continue;
    absl::StrAppend(&message, message.empty() ? "" : "; ", d.name, ": ", d.diverged);
  }
  if (message.empty()) return absl::OkStatus();
  return absl::InternalError(
      absl::StrCat(message, " (the runs that finished are in summary.txt and sdr.csv)"));
}

absl::Status DivergedRuns(absl::Span<const SyntheticRecoveryRow> rows) {
  std::string message;
  for (const SyntheticRecoveryRow& r : rows) {
    if (r.diverged.empty()) continue;
    absl::StrAppend(&message, message.empty() ? "" : "; ", r.diverged);
  }
  if (message.empty()) return absl::OkStatus();
  return absl::InternalError(
      absl::StrCat(message, " (the methods that finished are in synthetic.csv)"));
}

}  // namespace sgmcmc::tools
