#include "tools/alpha_stable_mf_experiment.h"

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "data/wav.h"
#include "gtest/gtest.h"
#include "rng/engine.h"
#include "rng/normal.h"

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

// A smoke test of the pipeline on tones in white noise at 5 dB: one row per method, the input
// SDR of the mixture is 5 dB (up to the sample estimate), the Wiener gain (<= 1) never costs
// more than 0.5 dB, and the outputs hold the files SpeechOutputs promises. (How much the
// short chains gain here is small and method-dependent, measured +0.0 to +0.5 dB; the real
// comparison is the tool's run on speech.)
TEST(RunSpeechDenoisingTest, DenoisesTonesInWhiteNoise) {
  const std::string dir = WriteDataSet();
  absl::StatusOr<SpeechDenoisingResult> result = RunSpeechDenoising(SmallOptions(dir));
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->names, std::vector<std::string>{"mix_00"});
  ASSERT_EQ(result->denoised.size(), 3u);
  for (const DenoisedSignal& d : result->denoised) {
    EXPECT_NEAR(d.input_sdr_db, 5.0, 0.2);
    EXPECT_GT(d.sdr_db, d.input_sdr_db - 0.5) << d.method;
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
  options.synthetic_rows = options.synthetic_cols = 100;
  options.synthetic_rank = 1000000;
  EXPECT_TRUE(absl::StrContains(options.Validate().message(), "got 200000000"))
      << options.Validate();
}

TEST(RunSyntheticRecoveryTest, OneRowPerMethodWithTheConstantBaseline) {
  AlphaStableMfExperimentOptions options;
  options.synthetic_rows = options.synthetic_cols = 20;
  options.samples = 300;
  options.average_last = 100;
  absl::StatusOr<std::vector<SyntheticRecoveryRow>> rows = RunSyntheticRecovery(options);
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 3u);
  for (const SyntheticRecoveryRow& row : *rows) {
    EXPECT_TRUE(std::isfinite(row.relative_error)) << row.method;
    EXPECT_GT(row.constant_error, 0);
    // e* = (pi / sqrt(6)) sqrt(K (I + J - K) / (I J)) with I = J = 20, K = 1.
    EXPECT_NEAR(row.derived_error, M_PI / std::sqrt(6.0) * std::sqrt(39.0 / 400), 1e-12);
  }
  EXPECT_TRUE(absl::StartsWith(SyntheticCsv(*rows), "method,relative_error,constant_error,"));
}

// Denoise mode stopped after 2 runs (the training of W_speech, then sgld) and resumed ends
// where the uninterrupted experiment ends: the same denoised signals and SDRs (the timings of
// the runs before the stop kept). Another setting is refused, naming the checkpoint.
TEST(RunSpeechDenoisingTest, StoppedAndResumedExperimentEqualsTheUninterruptedOne) {
  const std::string dir = WriteDataSet();
  AlphaStableMfExperimentOptions options = SmallOptions(dir);
  options.speech_rank = 5;
  options.train_samples = 40;
  options.train_average_last = 20;
  options.samples = 40;
  options.average_last = 20;
  options.methods = {models::MfMethod::kSgld, models::MfMethod::kHamcmc};
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
  AlphaStableMfExperimentOptions options;
  options.synthetic_rows = options.synthetic_cols = 20;
  options.samples = 100;
  options.average_last = 50;
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

}  // namespace
}  // namespace sgmcmc::tools
