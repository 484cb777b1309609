#include "tools/alpha_stable_mf_experiment.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "data/wav.h"
#include "gtest/gtest.h"
#include "rng/engine.h"
#include "rng/normal.h"
#include "tools/alpha_stable_mf_checkpoint.pb.h"
#include "tools/checkpoint_file.h"
#include "tools/tool_support.h"

namespace sgmcmc::tools {
namespace {

TEST(SignalToDistortionRatioTest, IsTenLogOfEnergyRatio) {
  const std::vector<double> clean = {1, -1, 2, 0};
  const std::vector<double> estimate = {1.1, -1, 2, 0.1};  // error energy 0.02, signal 6
  EXPECT_NEAR(SignalToDistortionRatio(clean, estimate), 10 * std::log10(6 / 0.02), 1e-12);
}

// "Speech": a few harmonic tones switching every 0.1 s; "noise": white Gaussian noise at
// 5 dB SNR. Written as WAVs in the layout of tools/speech/make_speech_data.sh.
std::vector<double> Tones(int length, int offset) {
  std::vector<double> x(length);
  const double pitches[] = {180, 240, 300, 210};
  for (int n = 0; n < length; ++n) {
    const double f0 = pitches[((n + offset) / 1600) % 4];
    for (int h = 1; h <= 4; ++h) x[n] += 0.1 / h * std::sin(2 * M_PI * f0 * h * n / 16000.0);
  }
  return x;
}

std::string WriteDataSet() {
  const std::string dir = ::testing::TempDir() + "/speech";
  std::filesystem::create_directories(dir + "/train");
  std::filesystem::create_directories(dir + "/test");
  EXPECT_TRUE(data::WriteWav(dir + "/train/clean_00.wav", {16000, Tones(16000, 0)}).ok());
  const std::vector<double> clean = Tones(8000, 800);
  double energy = 0;
  for (double x : clean) energy += x * x;
  const double sd = std::sqrt(energy / clean.size() / std::pow(10, 0.5));
  rng::Engine engine(4);
  std::vector<double> mix = clean;
  for (double& x : mix) x += sd * rng::NormalSample(engine);
  EXPECT_TRUE(data::WriteWav(dir + "/test/clean_00.wav", {16000, clean}).ok());
  EXPECT_TRUE(data::WriteWav(dir + "/test/mix_00.wav", {16000, mix}).ok());
  return dir;
}

AlphaStableMfExperimentOptions SmallOptions(const std::string& dir) {
  AlphaStableMfExperimentOptions options;
  options.data_dir = dir;
  options.speech_rank = 10;
  options.train_samples = 150;
  options.train_average_last = 50;
  options.samples = 150;
  options.average_last = 50;
  return options;
}

// Denoise mode with K = 5, sgld and hamcmc, 40 sweeps per signal and `train_samples` of
// training, the last halves averaged: for the checkpoint tests.
AlphaStableMfExperimentOptions TinyDenoising(const std::string& dir, int train_samples) {
  AlphaStableMfExperimentOptions options = SmallOptions(dir);
  options.speech_rank = 5;
  options.train_samples = train_samples;
  options.train_average_last = train_samples / 2;
  options.samples = 40;
  options.average_last = 20;
  options.methods = {models::MfMethod::kSgld, models::MfMethod::kHamcmc};
  return options;
}

// Synthetic mode on a 20 x 20 matrix, `samples` sweeps, the last half averaged.
AlphaStableMfExperimentOptions SmallSynthetic(int samples) {
  AlphaStableMfExperimentOptions options;
  options.synthetic_rows = options.synthetic_cols = 20;
  options.samples = samples;
  options.average_last = samples / 2;
  return options;
}

// SDR of the best scalar gain g* m (g* = <s, m> / <m, m>, least squares) of `mixture` m
// against `clean` s: what a denoiser that only scales its input can reach at most.
double BestScalarGainSdr(const std::vector<double>& clean, const std::vector<double>& mixture) {
  double sm = 0, mm = 0;
  for (size_t n = 0; n < clean.size(); ++n) {
    sm += clean[n] * mixture[n];
    mm += mixture[n] * mixture[n];
  }
  std::vector<double> scaled = mixture;
  for (double& x : scaled) x *= sm / mm;
  return SignalToDistortionRatio(clean, scaled);
}

// The pipeline on tones in white noise at 5 dB: one row per method, the input SDR of the
// mixture is 5 dB (up to the sample estimate), every method beats the best scalar gain, and
// the outputs hold the files SpeechOutputs promises. The bar: a denoiser that does nothing
// scores the input SDR (4.9 dB here), one that only scales (a flat Wiener gain) at most
// 10 log10(|s|^2 / |s - g* m|^2) = 10 log10(1 + SNR) ≈ 6.1 dB; a per-bin gain that follows
// the tones' harmonics must beat it. Measured (seed 1): SGLD 8.4, pSGLD 7.3, HAMCMC 9.2 dB,
// i.e. 1.1-3.0 dB above the bar; the bar has no extra margin because it is already a strict
// upper bound for every gain that ignores the time-frequency structure.
TEST(RunSpeechDenoisingTest, DenoisesTonesInWhiteNoise) {
  const std::string dir = WriteDataSet();
  absl::StatusOr<SpeechDenoisingResult> result = RunSpeechDenoising(SmallOptions(dir));
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->names, std::vector<std::string>{"mix_00"});
  ASSERT_EQ(result->denoised.size(), 3u);
  const double scalar_sdr_db = BestScalarGainSdr(result->clean[0], result->mixture[0]);
  for (const DenoisedSignal& d : result->denoised) {
    EXPECT_NEAR(d.input_sdr_db, 5.0, 0.2);
    EXPECT_GT(d.sdr_db, scalar_sdr_db) << d.method << " (input " << d.input_sdr_db << " dB)";
    EXPECT_GT(d.acceptance_rate, 0.05);
    EXPECT_LT(d.acceptance_rate, 0.99);
  }
  const std::string csv = SdrCsv(*result);
  EXPECT_TRUE(absl::StartsWith(csv, "signal,method,sdr_db,"));
  EXPECT_TRUE(absl::StrContains(csv, "\nmix_00,hamcmc,"));
  const OutputFiles files = SpeechOutputs(*result, 256);
  std::vector<std::string> names;
  for (const auto& [name, contents] : files) names.push_back(name);
  for (const char* expected : {"sdr.csv", "summary.txt", "sdr_psgld.dat", "spectrogram_clean.dat",
                               "spectrogram_noisy.dat", "spectrogram_hamcmc.dat",
                               "mix_00_sgld.wav", "mix_00_clean.wav"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
  }
}

// A diverged chain ended the experiment, throwing the finished runs away, and said "lower
// step_size": it is recorded with its iteration and its method's step field (the tool's flag),
// the other methods run and are written, the summary marks it and sdr.csv leaves it out. The
// training chain's divergence is still an error (every run needs W_speech), naming train_step.
TEST(RunSpeechDenoisingTest, ADivergedRunIsMarkedAndTheOthersKept) {
  const std::string dir = WriteDataSet();
  AlphaStableMfExperimentOptions options = SmallOptions(dir);
  options.methods = {models::MfMethod::kSgld, models::MfMethod::kPsgld};
  options.settings.sgld_step = 1e300;  // theta overflows at the first step
  absl::StatusOr<SpeechDenoisingResult> result = RunSpeechDenoising(options);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->denoised.size(), 2u);
  const DenoisedSignal& diverged = result->denoised[0];
  EXPECT_TRUE(absl::StartsWith(diverged.diverged, "sgld diverged at iteration ") &&
              absl::EndsWith(diverged.diverged, "lower sgld_step"))
      << diverged.diverged;
  EXPECT_TRUE(std::isnan(diverged.sdr_db));
  EXPECT_TRUE(diverged.denoised.empty());
  EXPECT_TRUE(result->denoised[1].diverged.empty());
  EXPECT_TRUE(std::isfinite(result->denoised[1].sdr_db));
  const std::string csv = SdrCsv(*result);
  EXPECT_FALSE(absl::StrContains(csv, "mix_00,sgld,")) << csv;
  EXPECT_TRUE(absl::StrContains(csv, "mix_00,psgld,")) << csv;
  const std::string summary = SdrSummary(*result);
  EXPECT_TRUE(absl::StrContains(summary, "sgld   DIVERGED on mix_00: sgld diverged at iteration "))
      << summary;
  EXPECT_TRUE(absl::StrContains(summary, "psgld  mean SDR")) << summary;
  std::vector<std::string> names;
  for (const auto& [name, contents] : SpeechOutputs(*result, 256)) names.push_back(name);
  for (const char* absent : {"sdr_sgld.dat", "spectrogram_sgld.dat", "mix_00_sgld.wav"}) {
    EXPECT_EQ(std::find(names.begin(), names.end(), absent), names.end()) << absent;
  }
  EXPECT_NE(std::find(names.begin(), names.end(), "mix_00_psgld.wav"), names.end());
  const absl::Status status = DivergedRuns(result->denoised);
  EXPECT_EQ(status.code(), absl::StatusCode::kInternal);
  EXPECT_TRUE(absl::StartsWith(status.message(), "mix_00: sgld diverged at iteration "))
      << status;
  EXPECT_TRUE(DivergedRuns(absl::MakeConstSpan(result->denoised).subspan(1)).ok());

  options = SmallOptions(dir);
  options.train_step = 1e300;
  const absl::Status training = RunSpeechDenoising(options).status();
  EXPECT_TRUE(absl::StartsWith(training.message(), "training W: sgld diverged at iteration ") &&
              absl::EndsWith(training.message(), "lower train_step"))
      << training;
}

// Synthetic mode likewise: the diverged method has a marked row, left out of the CSV, and the
// others' rows are unchanged by it.
TEST(RunSyntheticRecoveryTest, ADivergedMethodIsMarkedAndTheOthersKept) {
  AlphaStableMfExperimentOptions options = SmallSynthetic(60);
  options.methods = {models::MfMethod::kSgld, models::MfMethod::kPsgld};
  options.synthetic_settings.sgld_step = 1e300;
  absl::StatusOr<std::vector<SyntheticRecoveryRow>> rows = RunSyntheticRecovery(options);
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_TRUE(absl::StartsWith((*rows)[0].diverged, "sgld diverged at iteration "))
      << (*rows)[0].diverged;
  EXPECT_TRUE((*rows)[1].diverged.empty());
  // psgld's row is the one it has alone (every method draws its own streams).
  options.methods = {models::MfMethod::kPsgld};
  EXPECT_EQ((*rows)[1].relative_error, RunSyntheticRecovery(options).value()[0].relative_error);
  const std::string csv = SyntheticCsv(*rows);
  EXPECT_FALSE(absl::StrContains(csv, "\nsgld,")) << csv;
  EXPECT_TRUE(absl::StrContains(csv, "\npsgld,")) << csv;
  EXPECT_EQ(DivergedRuns(*rows).code(), absl::StatusCode::kInternal);
}

TEST(RunSpeechDenoisingTest, ReportsMissingFiles) {
  const std::string dir = ::testing::TempDir() + "/empty";
  std::filesystem::create_directories(dir + "/train");
  absl::StatusOr<SpeechDenoisingResult> result = RunSpeechDenoising(SmallOptions(dir));
  EXPECT_EQ(result.status().code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(absl::StrContains(result.status().message(), "no clean_*.wav")) << result.status();
}

// --synthetic_size=100000000 (10^16 cells) ended in bad_alloc (abort).
TEST(AlphaStableMfExperimentOptionsTest, RefusesAbsurdSyntheticSizes) {
  AlphaStableMfExperimentOptions options;
  EXPECT_TRUE(options.Validate().ok());
  options.synthetic_rows = options.synthetic_cols = 100000000;
  EXPECT_TRUE(absl::StrContains(options.Validate().message(),
                                "must be <= 67108864, got 10000000000000000"))
      << options.Validate();
  // A rank above the matrix's size ran and printed -nan: refused with the reason.
  options.synthetic_rows = options.synthetic_cols = 100;
  options.synthetic_rank = 1000000;
  EXPECT_EQ(options.Validate(),
            absl::InvalidArgumentError(
                "synthetic_rank must be <= min(rows, cols) = 100 of the synthetic matrix (W H "
                "has rank at most that, a larger rank only adds redundant parameters), got "
                "1000000"));
  options.synthetic_rank = 100;
  EXPECT_TRUE(options.Validate().ok());
  options = AlphaStableMfExperimentOptions();
  options.speech_rank = 257;
  EXPECT_TRUE(absl::StartsWith(options.Validate().message(),
                               "speech_rank must be <= num_bins = 256 (the spectrogram's rows"))
      << options.Validate();
}

// The samplers' errors reached the user as "mix_00: step_size must be finite and > 0" and
// "mix_00: HamcmcOptions.gamma ...", after the training chain had run: each names its
// settings field (= the tool's flag), before anything runs.
TEST(AlphaStableMfExperimentOptionsTest, NamesEachSamplerSetting) {
  struct Case {
    void (*set)(AlphaStableMfExperimentOptions&);
    const char* message;
  };
  const Case cases[] = {
      {[](auto& o) { o.settings.sgld_step = 0; }, "sgld_step must be finite and > 0, got 0"},
      {[](auto& o) { o.settings.psgld_step = -1; }, "psgld_step must be finite and > 0, got -1"},
      {[](auto& o) { o.settings.hamcmc_step = NAN; },
       "hamcmc_step must be finite and > 0, got nan"},
      {[](auto& o) { o.settings.psgld_lambda = 0; },
       "psgld_lambda must be finite and > 0, got 0"},
      {[](auto& o) { o.settings.hamcmc_memory = 1; }, "hamcmc_memory must be in [2, 65], got 1"},
      {[](auto& o) { o.settings.hamcmc_gamma = 0; }, "hamcmc_gamma must be finite and > 0, got 0"},
      {[](auto& o) { o.settings.hamcmc_damping = -1; },
       "hamcmc_damping must be finite and >= 0, got -1"},
      {[](auto& o) { o.settings.hamcmc_warmup_step = 0; },
       "hamcmc_warmup_step must be finite and > 0, got 0"},
      {[](auto& o) { o.settings.phi_stride = 0; }, "phi_stride must be >= 1, got 0"},
      {[](auto& o) { o.train_step = 0; }, "train_step must be finite and > 0, got 0"},
      {[](auto& o) { o.noise_rank = 0; }, "noise_rank must be >= 1, got 0"},
      {[](auto& o) { o.synthetic_cols = 0; }, "synthetic_cols must be >= 1, got 0"},
  };
  for (const Case& c : cases) {
    AlphaStableMfExperimentOptions options;
    c.set(options);
    EXPECT_EQ(options.Validate(), absl::InvalidArgumentError(c.message));
  }
  // Settings of a method that does not run are not checked.
  AlphaStableMfExperimentOptions options;
  options.methods = {models::MfMethod::kSgld};
  options.settings.hamcmc_gamma = 0;
  EXPECT_TRUE(options.Validate().ok());
}

// The synthetic check's contract, as in models/mf/alpha_stable_mf_recovery_test (which derives
// it): one |X_ij|^2 pins log V_ij to sigma = pi / sqrt(6), so an efficient estimate of the
// rank-1 I x J matrix has relative error about e* = sigma sqrt((I + J - 1) / (I J)) = 0.28 at
// I = J = 40; each sampler's averaged W H must be within 2 e* (the margin covers the Monte
// Carlo error of the last 400 of 800 correlated sweeps and the step-size bias; measured
// 0.33-0.41) and below the best constant matrix's error (0.67 here). A sampler that does not
// move, or an average of the wrong draws, stays near its start's error and fails both.
TEST(RunSyntheticRecoveryTest, OneRowPerMethodWithinTheDerivedError) {
  AlphaStableMfExperimentOptions options;
  options.synthetic_rows = options.synthetic_cols = 40;
  options.samples = 800;
  options.average_last = 400;
  absl::StatusOr<std::vector<SyntheticRecoveryRow>> rows = RunSyntheticRecovery(options);
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 3u);
  const double e_star = M_PI / std::sqrt(6.0) * std::sqrt(79.0 / 1600);
  for (const SyntheticRecoveryRow& row : *rows) {
    EXPECT_NEAR(row.derived_error, e_star, 1e-12);
    EXPECT_LT(row.relative_error, 2 * e_star) << row.method;
    EXPECT_LT(row.relative_error, row.constant_error) << row.method;
    std::cout << row.method << ": relative error " << row.relative_error << " (e* " << e_star
              << ", constant " << row.constant_error << ")\n";
  }
  EXPECT_TRUE(absl::StartsWith(SyntheticCsv(*rows), "method,relative_error,constant_error,"));
}

// Denoise mode stopped after 2 runs (the training of W_speech, then sgld) and resumed ends
// where the uninterrupted experiment ends: the same denoised signals and SDRs (the timings of
// the runs before the stop kept). Another setting is refused, naming the checkpoint.
TEST(RunSpeechDenoisingTest, StoppedAndResumedExperimentEqualsTheUninterruptedOne) {
  const std::string dir = WriteDataSet();
  AlphaStableMfExperimentOptions options = TinyDenoising(dir, 40);
  options.checkpoint_path = ::testing::TempDir() + "/amf_whole.pb";
  absl::StatusOr<SpeechDenoisingResult> whole = RunSpeechDenoising(options);
  ASSERT_TRUE(whole.ok()) << whole.status();
  for (const int stop : {2}) {
    options.checkpoint_path = absl::StrCat(::testing::TempDir(), "/amf_parts", stop, ".pb");
    options.stop_after_runs = stop;
    absl::StatusOr<SpeechDenoisingResult> stopped = RunSpeechDenoising(options);
    ASSERT_TRUE(stopped.ok()) << stopped.status();
    EXPECT_FALSE(stopped->complete);
    EXPECT_EQ(stopped->denoised.size(), static_cast<size_t>(stop - 1));
    options.stop_after_runs = 0;
    options.resume = true;
    absl::StatusOr<SpeechDenoisingResult> resumed = RunSpeechDenoising(options);
    options.resume = false;
    ASSERT_TRUE(resumed.ok()) << resumed.status();
    EXPECT_TRUE(resumed->complete);
    ASSERT_EQ(resumed->denoised.size(), whole->denoised.size());
    for (size_t d = 0; d < whole->denoised.size(); ++d) {
      EXPECT_EQ(resumed->denoised[d].method, whole->denoised[d].method);
      EXPECT_EQ(resumed->denoised[d].sdr_db, whole->denoised[d].sdr_db) << stop << " " << d;
      EXPECT_EQ(resumed->denoised[d].denoised, whole->denoised[d].denoised) << stop << " " << d;
      EXPECT_EQ(resumed->denoised[d].acceptance_rate, whole->denoised[d].acceptance_rate);
    }
    for (size_t d = 0; d < stopped->denoised.size(); ++d) {
      EXPECT_EQ(resumed->denoised[d].seconds_per_sample, stopped->denoised[d].seconds_per_sample);
    }
    EXPECT_EQ(SdrCsv(*resumed).substr(0, 40), SdrCsv(*whole).substr(0, 40));
  }
  options.resume = true;
  options.samples = 61;
  const absl::Status refused = RunSpeechDenoising(options).status();
  EXPECT_EQ(refused.code(), absl::StatusCode::kFailedPrecondition) << refused;
  EXPECT_TRUE(absl::StrContains(refused.message(),
                                options.checkpoint_path + ": written with different settings"))
      << refused;
}

// Synthetic mode stopped after its first method and resumed: the same rows.
TEST(RunSyntheticRecoveryTest, StoppedAndResumedEqualsTheUninterruptedOne) {
  AlphaStableMfExperimentOptions options = SmallSynthetic(100);
  const std::vector<SyntheticRecoveryRow> whole = RunSyntheticRecovery(options).value();
  options.checkpoint_path = ::testing::TempDir() + "/amf_synthetic.pb";
  options.stop_after_runs = 1;
  EXPECT_EQ(RunSyntheticRecovery(options).value().size(), 1u);
  options.stop_after_runs = 0;
  options.resume = true;
  const std::vector<SyntheticRecoveryRow> resumed = RunSyntheticRecovery(options).value();
  ASSERT_EQ(resumed.size(), whole.size());
  for (size_t r = 0; r < whole.size(); ++r) {
    EXPECT_EQ(resumed[r].method, whole[r].method);
    EXPECT_EQ(resumed[r].relative_error, whole[r].relative_error) << r;
    EXPECT_EQ(resumed[r].acceptance_rate, whole[r].acceptance_rate) << r;
  }
}

// Interrupted inside runs (--stop_after): first inside the training of W_speech (sweep 10 of
// 20), then, resumed, inside the first signal's sgld chain (sweep 30 of 40), then resumed to
// the end, with chains saved every 7 sweeps: the denoised signals, SDRs and acceptance rates
// equal the uninterrupted experiment's bit for bit.
TEST(RunSpeechDenoisingTest, InterruptedInsideRunsAndResumedEqualsTheUninterruptedOne) {
  const std::string dir = WriteDataSet();
  AlphaStableMfExperimentOptions options = TinyDenoising(dir, 20);
  const SpeechDenoisingResult whole = RunSpeechDenoising(options).value();
  options.checkpoint_path = ::testing::TempDir() + "/amf_inside.pb";
  options.checkpoint_every = 7;
  options.stop_after = 10;
  const SpeechDenoisingResult in_training = RunSpeechDenoising(options).value();
  EXPECT_FALSE(in_training.complete);
  EXPECT_TRUE(in_training.denoised.empty());
  options.resume = true;
  options.stop_after = 30;
  const SpeechDenoisingResult in_sgld = RunSpeechDenoising(options).value();
  EXPECT_FALSE(in_sgld.complete);
  EXPECT_TRUE(in_sgld.denoised.empty());
  options.stop_after = 0;
  const SpeechDenoisingResult resumed = RunSpeechDenoising(options).value();
  ASSERT_TRUE(resumed.complete);
  EXPECT_EQ(resumed.train_acceptance_rate, whole.train_acceptance_rate);
  ASSERT_EQ(resumed.denoised.size(), whole.denoised.size());
  for (size_t d = 0; d < whole.denoised.size(); ++d) {
    EXPECT_EQ(resumed.denoised[d].method, whole.denoised[d].method);
    EXPECT_EQ(resumed.denoised[d].denoised, whole.denoised[d].denoised) << d;
    EXPECT_EQ(resumed.denoised[d].sdr_db, whole.denoised[d].sdr_db) << d;
    EXPECT_EQ(resumed.denoised[d].acceptance_rate, whole.denoised[d].acceptance_rate) << d;
  }
}

// Synthetic mode interrupted inside its second method and resumed: the same rows. A damaged
// checkpoint, and one whose saved chain does not fit the run (a well-formed file from another
// version or hand), are refused naming the file, not resumed from.
TEST(RunSyntheticRecoveryTest, InterruptedInsideARunAndResumedEqualsTheUninterruptedOne) {
  AlphaStableMfExperimentOptions options = SmallSynthetic(100);
  options.methods = {models::MfMethod::kPsgld, models::MfMethod::kHamcmc};
  const std::vector<SyntheticRecoveryRow> whole = RunSyntheticRecovery(options).value();
  const std::string path = ::testing::TempDir() + "/amf_synthetic_inside.pb";
  options.checkpoint_path = path;
  options.checkpoint_every = 20;
  options.stop_after_runs = 1;  // psgld done, then hamcmc stopped at sweep 70
  EXPECT_EQ(RunSyntheticRecovery(options).value().size(), 1u);
  options.stop_after_runs = 0;
  options.stop_after = 70;
  options.resume = true;
  EXPECT_EQ(RunSyntheticRecovery(options).value().size(), 1u);
  const std::string bytes = ReadFile(path).value();
  options.stop_after = 0;
  const std::vector<SyntheticRecoveryRow> resumed = RunSyntheticRecovery(options).value();
  ASSERT_EQ(resumed.size(), whole.size());
  for (size_t r = 0; r < whole.size(); ++r) {
    EXPECT_EQ(resumed[r].relative_error, whole[r].relative_error) << r;
    EXPECT_EQ(resumed[r].acceptance_rate, whole[r].acceptance_rate) << r;
  }

  std::string damaged = bytes;
  damaged[damaged.size() / 2] ^= 0x10;
  ASSERT_TRUE(WriteFile(path, damaged).ok());
  absl::Status status = RunSyntheticRecovery(options).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
  EXPECT_TRUE(absl::StartsWith(status.message(), path + ": ")) << status;

  AlphaStableMfCheckpoint checkpoint;
  ASSERT_TRUE(
      checkpoint.ParseFromString(UnframeCheckpoint(path, "alpha_stable_mf", bytes).value()));
  ASSERT_EQ(checkpoint.in_progress().run(), "hamcmc");
  EXPECT_EQ(checkpoint.in_progress().state().iteration(), 70);
  checkpoint.mutable_in_progress()->mutable_state()->mutable_phi()->RemoveLast();
  ASSERT_TRUE(WriteCheckpoint(path, "alpha_stable_mf", checkpoint.SerializeAsString()).ok());
  status = RunSyntheticRecovery(options).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
  EXPECT_TRUE(absl::StrContains(
      status.message(),
      path + ": the saved chain of hamcmc does not fit: AlphaStableMfChainState.phi has 399 "
             "values, the model needs 400"))
      << status;
}

}  // namespace
}  // namespace sgmcmc::tools
