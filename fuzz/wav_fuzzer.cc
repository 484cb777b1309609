// Fuzz target: WAV files (data/wav.h ParseWav, and ReadWav on the same bytes). Contract: an
// error naming the source, or a positive sample rate and finite samples (in [-1, 1] for
// integer PCM); ReadWav agrees with ParseWav; and writing the result as 16-bit PCM and
// parsing it back gives the same rate and the samples, clipped to [-1, 1], to within one
// 16-bit step.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "base/check.h"
#include "data/wav.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sgmcmc;
  static fuzz::ScratchFile* file = new fuzz::ScratchFile("speech.wav");
  const absl::string_view bytes = fuzz::AsText(data, size);
  const absl::StatusOr<data::Wav> wav = data::ParseWav(bytes, "fuzz.wav");
  const std::string& path = file->Write(bytes);
  const absl::StatusOr<data::Wav> read = data::ReadWav(path);
  SGMCMC_CHECK_EQ(read.ok(), wav.ok()) << read.status() << " vs " << wav.status();
  if (!wav.ok()) {
    fuzz::CheckInputError(wav.status(), "fuzz.wav");
    fuzz::CheckInputError(read.status(), path);
    return 0;
  }
  SGMCMC_CHECK_GT(wav->sample_rate, 0);
  SGMCMC_CHECK_EQ(read->sample_rate, wav->sample_rate);
  SGMCMC_CHECK(read->samples == wav->samples);
  // With the fmt chunk first (bytes 12-15; the only one: a second is an error), bytes 20-21
  // hold the format; 1 is integer PCM.
  const bool pcm = size >= 22 && bytes.substr(12, 4) == "fmt " && data[20] == 1 && data[21] == 0;
  for (const double s : wav->samples) {
    SGMCMC_CHECK(std::isfinite(s)) << s;
    if (pcm) SGMCMC_CHECK(s >= -1 && s <= 1) << s;
  }
  const absl::StatusOr<data::Wav> again = data::ParseWav(data::SerializeWav(*wav), "again.wav");
  SGMCMC_CHECK(again.ok()) << again.status();
  SGMCMC_CHECK_EQ(again->sample_rate, wav->sample_rate);
  SGMCMC_CHECK_EQ(again->samples.size(), wav->samples.size());
  for (size_t i = 0; i < wav->samples.size(); ++i) {
    const double clipped = std::clamp(wav->samples[i], -1.0, 1.0);
    SGMCMC_CHECK_LE(std::abs(again->samples[i] - clipped), 1.0 / 32768 + 1e-12)
        << again->samples[i] << " vs " << wav->samples[i];
  }
  return 0;
}
