// WAV (RIFF/WAVE) reading and writing for the speech-denoising experiment (HAMCMC paper,
// Simsekli et al. 2016, Sec. 4.2): integer PCM with 8, 16, 24 or 32 bits and IEEE float with 32
// or 64 bits, any number of channels, read into mono samples (channels averaged; integer PCM
// scaled by 2^(bits - 1) into [-1, 1), 8-bit PCM offset by 128; float samples as stored, which
// may exceed [-1, 1] but must be finite: a NaN or infinity is an error). Chunks other than
// "fmt " and "data" (LIST, fact, ...) are skipped. Writing produces 16-bit PCM mono, rounding
// and clipping to [-32768, 32767].
//
// Errors: NotFound if the file cannot be opened; InvalidArgument for a malformed file, with the
// path and the byte offset of the offending field, e.g. "a.wav: offset 20: unsupported WAV
// format 3 with 16 bits" or "a.wav: offset 40: data chunk of 1000 bytes runs past the end of
// the file (900 bytes)" or "a.wav: offset 44: sample 0 of channel 0 is not finite: nan".
//
// Cost: O(file size); the whole file is read into memory.
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(sgmcmc::data::Wav wav, sgmcmc::data::ReadWav("speech.wav"));
//   SGMCMC_RETURN_IF_ERROR(sgmcmc::data::WriteWav("copy.wav", wav));
#ifndef SGMCMC_DATA_WAV_H_
#define SGMCMC_DATA_WAV_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace sgmcmc::data {

struct Wav {
  int sample_rate = 16000;
  // Mono samples, nominally in [-1, 1].
  std::vector<double> samples;
};

absl::StatusOr<Wav> ReadWav(const std::string& path);
// Parses the bytes of a WAV file; `name` labels error messages.
absl::StatusOr<Wav> ParseWav(absl::string_view bytes, absl::string_view name);

// Writes 16-bit PCM mono; Internal on an I/O error, InvalidArgument for a sample rate <= 0.
absl::Status WriteWav(const std::string& path, const Wav& wav);
// The bytes WriteWav writes.
std::string SerializeWav(const Wav& wav);

}  // namespace sgmcmc::data

#endif  // SGMCMC_DATA_WAV_H_
