#include "data/wav.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "base/read_file.h"
#include "base/status_macros.h"

namespace sgmcmc::data {
namespace {

uint32_t ReadU32(absl::string_view bytes, size_t offset) {
  uint32_t v = 0;
  for (int b = 3; b >= 0; --b) v = (v << 8) | static_cast<uint8_t>(bytes[offset + b]);
  return v;
}

uint16_t ReadU16(absl::string_view bytes, size_t offset) {
  return static_cast<uint16_t>(static_cast<uint8_t>(bytes[offset]) |
                               (static_cast<uint8_t>(bytes[offset + 1]) << 8));
}

void AppendU32(std::string& out, uint32_t v) {
  for (int b = 0; b < 4; ++b) out.push_back(static_cast<char>((v >> (8 * b)) & 0xff));
}

void AppendU16(std::string& out, uint16_t v) {
  out.push_back(static_cast<char>(v & 0xff));
  out.push_back(static_cast<char>(v >> 8));
}

absl::Status Malformed(absl::string_view name, size_t offset, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(name, ": offset ", offset, ": ", what));
}

// One sample of `bits` bits at `p` in format 1 (PCM) or 3 (float), scaled to [-1, 1].
double DecodeSample(const char* p, int format, int bits) {
  const auto* u = reinterpret_cast<const uint8_t*>(p);
  if (format == 3) {
    if (bits == 32) {
      uint32_t raw = u[0] | (u[1] << 8) | (u[2] << 16) | (static_cast<uint32_t>(u[3]) << 24);
      float f;
      std::memcpy(&f, &raw, 4);
      return f;
    }
    uint64_t raw = 0;
    for (int b = 7; b >= 0; --b) raw = (raw << 8) | u[b];
    double d;
    std::memcpy(&d, &raw, 8);
    return d;
  }
  switch (bits) {
    case 8:
      return (static_cast<int>(u[0]) - 128) / 128.0;
    case 16:
      return static_cast<int16_t>(u[0] | (u[1] << 8)) / 32768.0;
    case 24: {
      int32_t v = u[0] | (u[1] << 8) | (u[2] << 16);
      if (v & 0x800000) v -= 0x1000000;
      return v / 8388608.0;
    }
    default: {
      const int32_t v = static_cast<int32_t>(u[0] | (u[1] << 8) | (u[2] << 16) |
                                             (static_cast<uint32_t>(u[3]) << 24));
      return v / 2147483648.0;
    }
  }
}

}  // namespace

absl::StatusOr<Wav> ParseWav(absl::string_view bytes, absl::string_view name) {
  if (bytes.size() < 12) {
    return Malformed(name, 0, absl::StrCat("file of ", bytes.size(),
                                           " bytes is too short for a RIFF header (12 bytes)"));
  }
  if (bytes.substr(0, 4) != "RIFF") return Malformed(name, 0, "missing \"RIFF\" tag");
  if (bytes.substr(8, 4) != "WAVE") return Malformed(name, 8, "missing \"WAVE\" tag");
  int format = 0, channels = 0, bits = 0;
  Wav wav;
  bool have_format = false;
  size_t offset = 12;
  while (offset + 8 <= bytes.size()) {
    const absl::string_view id = bytes.substr(offset, 4);
    const uint32_t size = ReadU32(bytes, offset + 4);
    const size_t body = offset + 8;
    if (size > bytes.size() - body) {
      return Malformed(name, offset + 4,
                       absl::StrCat("\"", id, "\" chunk of ", size,
                                    " bytes runs past the end of the file (", bytes.size(),
                                    " bytes)"));
    }
    if (id == "fmt ") {
      // Found by //fuzz:wav_fuzzer: a second fmt chunk silently replaced the first's format.
      if (have_format) return Malformed(name, offset, "a second fmt chunk");
      if (size < 16) {
        return Malformed(name, offset + 4, absl::StrCat("fmt chunk of ", size, " bytes (< 16)"));
      }
      format = ReadU16(bytes, body);
      channels = ReadU16(bytes, body + 2);
      wav.sample_rate = static_cast<int>(ReadU32(bytes, body + 4));
      bits = ReadU16(bytes, body + 14);
      if (format == 0xFFFE && size >= 26) format = ReadU16(bytes, body + 24);  // extensible
      const bool pcm = format == 1 && (bits == 8 || bits == 16 || bits == 24 || bits == 32);
      const bool flt = format == 3 && (bits == 32 || bits == 64);
      if (!pcm && !flt) {
        return Malformed(name, body, absl::StrCat("unsupported WAV format ", format, " with ",
                                                  bits, " bits"));
      }
      if (channels < 1) return Malformed(name, body + 2, "zero channels");
      if (wav.sample_rate < 1) {
        return Malformed(name, body + 4,
                         absl::StrCat("sample rate ", ReadU32(bytes, body + 4),
                                      " not in [1, 2^31 - 1]"));
      }
      have_format = true;
    } else if (id == "data") {
      if (!have_format) return Malformed(name, offset, "data chunk before the fmt chunk");
      const size_t frame = static_cast<size_t>(channels) * (bits / 8);
      if (size % frame != 0) {
        return Malformed(name, offset + 4,
                         absl::StrCat("data chunk of ", size,
                                      " bytes is not a whole number of frames of ", frame,
                                      " bytes"));
      }
      const size_t frames = size / frame;
      wav.samples.resize(frames);
      for (size_t n = 0; n < frames; ++n) {
        double sum = 0;
        for (int c = 0; c < channels; ++c) {
          const size_t at = body + n * frame + c * (bits / 8);
          const double sample = DecodeSample(bytes.data() + at, format, bits);
          // A float sample can be NaN or infinite; it would poison every later sum silently.
          if (!std::isfinite(sample)) {
            return Malformed(name, at, absl::StrCat("sample ", n, " of channel ", c,
                                                    " is not finite: ", sample));
          }
          sum += sample;
        }
        wav.samples[n] = sum / channels;
      }
      return wav;
    }
    offset = body + size + (size & 1);  // chunks are padded to even sizes
  }
  return Malformed(name, std::min(offset, bytes.size()),
                   have_format ? "no data chunk" : "no fmt chunk");
}

absl::StatusOr<Wav> ReadWav(const std::string& path) {
  SGMCMC_ASSIGN_OR_RETURN(const std::string bytes, base::ReadFileBytes(path));
  return ParseWav(bytes, path);
}

std::string SerializeWav(const Wav& wav) {
  const uint32_t data_bytes = static_cast<uint32_t>(wav.samples.size() * 2);
  std::string out = "RIFF";
  AppendU32(out, 36 + data_bytes);
  out += "WAVEfmt ";
  AppendU32(out, 16);
  AppendU16(out, 1);  // PCM
  AppendU16(out, 1);  // mono
  AppendU32(out, static_cast<uint32_t>(wav.sample_rate));
  AppendU32(out, static_cast<uint32_t>(wav.sample_rate) * 2);
  AppendU16(out, 2);
  AppendU16(out, 16);
  out += "data";
  AppendU32(out, data_bytes);
  for (double x : wav.samples) {
    const double scaled = std::round(x * 32768.0);
    const auto v = static_cast<int16_t>(std::clamp(scaled, -32768.0, 32767.0));
    AppendU16(out, static_cast<uint16_t>(v));
  }
  return out;
}

absl::Status WriteWav(const std::string& path, const Wav& wav) {
  if (wav.sample_rate < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("WriteWav: sample_rate must be > 0, got ", wav.sample_rate));
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  const std::string bytes = SerializeWav(wav);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) return absl::InternalError(absl::StrCat(path, ": write failed"));
  return absl::OkStatus();
}

}  // namespace sgmcmc::data
