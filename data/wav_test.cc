#include "data/wav.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sgmcmc::data {
namespace {

using ::testing::HasSubstr;

TEST(WavTest, RoundTripsSixteenBitMono) {
  Wav wav;
  wav.sample_rate = 16000;
  for (int n = 0; n < 1000; ++n) wav.samples.push_back(0.8 * std::sin(0.05 * n));
  wav.samples.push_back(1.5);   // clipped to 32767 / 32768
  wav.samples.push_back(-1.0);  // exactly -32768
  const std::string path = ::testing::TempDir() + "/round_trip.wav";
  ASSERT_TRUE(WriteWav(path, wav).ok());
  absl::StatusOr<Wav> read = ReadWav(path);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->sample_rate, 16000);
  ASSERT_EQ(read->samples.size(), wav.samples.size());
  for (size_t n = 0; n < 1000; ++n) EXPECT_NEAR(read->samples[n], wav.samples[n], 0.5 / 32768);
  EXPECT_EQ(read->samples[1000], 32767.0 / 32768);
  EXPECT_EQ(read->samples[1001], -1.0);
}

// A stereo 24-bit file with a LIST chunk (odd size, padded) before the data: channels are
// averaged and the unknown chunk skipped.
TEST(WavTest, ReadsStereoTwentyFourBitAndSkipsUnknownChunks) {
  std::string bytes = SerializeWav(Wav{8000, {}});
  bytes.resize(12);  // RIFF header only
  auto u32 = [](uint32_t v) {
    std::string s;
    for (int b = 0; b < 4; ++b) s.push_back(static_cast<char>((v >> (8 * b)) & 0xff));
    return s;
  };
  auto u16 = [](uint16_t v) { return std::string{static_cast<char>(v & 0xff), static_cast<char>(v >> 8)}; };
  bytes += "fmt " + u32(16) + u16(1) + u16(2) + u32(8000) + u32(8000 * 6) + u16(6) + u16(24);
  bytes += "LIST" + u32(3) + std::string("abc") + std::string(1, '\0');
  // One frame: left 0x400000 (0.5), right 0xC00000 (-0.5 -> average 0); second frame: both
  // 0x200000 (0.25).
  bytes += "data" + u32(12) + std::string("\x00\x00\x40\x00\x00\xC0\x00\x00\x20\x00\x00\x20", 12);
  absl::StatusOr<Wav> wav = ParseWav(bytes, "stereo.wav");
  ASSERT_TRUE(wav.ok()) << wav.status();
  EXPECT_EQ(wav->sample_rate, 8000);
  ASSERT_EQ(wav->samples.size(), 2u);
  EXPECT_EQ(wav->samples[0], 0.0);
  EXPECT_EQ(wav->samples[1], 0.25);
}

TEST(WavTest, ErrorsNameFileAndOffset) {
  EXPECT_THAT(ParseWav("RIFF", "a.wav").status().message(),
              HasSubstr("a.wav: offset 0: file of 4 bytes is too short"));
  std::string bytes = SerializeWav(Wav{16000, {0.1, 0.2}});
  std::string bad_tag = bytes;
  bad_tag[8] = 'X';
  EXPECT_THAT(ParseWav(bad_tag, "b.wav").status().message(),
              HasSubstr("b.wav: offset 8: missing \"WAVE\" tag"));
  std::string bad_format = bytes;
  bad_format[20] = 2;  // format code 2 (ADPCM)
  EXPECT_THAT(ParseWav(bad_format, "c.wav").status().message(),
              HasSubstr("c.wav: offset 20: unsupported WAV format 2 with 16 bits"));
  const std::string truncated = bytes.substr(0, bytes.size() - 1);
  EXPECT_THAT(ParseWav(truncated, "d.wav").status().message(),
              HasSubstr("d.wav: offset 40: \"data\" chunk of 4 bytes runs past the end"));
  EXPECT_EQ(ReadWav(::testing::TempDir() + "/missing.wav").status().code(),
            absl::StatusCode::kNotFound);
}

// Found by //fuzz:wav_fuzzer: a float sample that is NaN or infinite was read as a sample.
TEST(WavTest, RefusesNonFiniteFloatSamplesAndNamesABadRate) {
  std::string bytes = SerializeWav(Wav{16000, {0.1, 0.2}});
  bytes[20] = 3;  // IEEE float, 32 bits: 2 samples of 16 bits become one of 32
  bytes[34] = 32;
  const uint32_t nan_bits = 0x7fc00000;
  std::memcpy(&bytes[44], &nan_bits, 4);
  EXPECT_THAT(ParseWav(bytes, "e.wav").status().message(),
              HasSubstr("e.wav: offset 44: sample 0 of channel 0 is not finite: nan"));
  const uint32_t two_wide = 0x40000000;  // 2.0f: finite, beyond [-1, 1], taken as stored
  std::memcpy(&bytes[44], &two_wide, 4);
  ASSERT_TRUE(ParseWav(bytes, "f.wav").ok());
  EXPECT_EQ(ParseWav(bytes, "f.wav")->samples, std::vector<double>{2.0});
  // Found by //fuzz:wav_fuzzer: a second fmt chunk (here float) replaced the first's format.
  std::string twice = SerializeWav(Wav{16000, {0.1}});
  std::string second_fmt = twice.substr(12, 24);
  second_fmt[8] = 3;  // IEEE float
  second_fmt[22] = 32;
  twice.insert(36, second_fmt);
  EXPECT_THAT(ParseWav(twice, "h.wav").status().message(),
              HasSubstr("h.wav: offset 36: a second fmt chunk"));
  std::string rate = SerializeWav(Wav{16000, {0.1}});
  rate[27] = static_cast<char>(0x80);  // sample rate 2^31 + 16000
  EXPECT_THAT(ParseWav(rate, "g.wav").status().message(),
              HasSubstr("g.wav: offset 24: sample rate 2147499648 not in [1, 2^31 - 1]"));
}

}  // namespace
}  // namespace sgmcmc::data
