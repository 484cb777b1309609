#include "tools/checkpoint_file.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tools/lda_checkpoint.pb.h"
#include "tools/tool_support.h"

namespace sgmcmc::tools {
namespace {

using ::testing::HasSubstr;

constexpr char kPath[] = "/runs/checkpoint_x.pb";

std::string Payload() { return std::string("\x0a\x05hello\x11\0\0\0\0\0\0\xf0\x3f", 16); }

TEST(CheckpointFileTest, RoundTripsThroughAFile) {
  const std::string path = std::string(std::getenv("TEST_TMPDIR")) + "/round_trip.pb";
  ASSERT_TRUE(WriteCheckpoint(path, "TestCheckpoint", Payload()).ok());
  const absl::StatusOr<std::string> read = ReadCheckpoint(path, "TestCheckpoint");
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, Payload());
  // The frame: 40 bytes and the kind around the payload; the file WriteCheckpoint writes in
  // pieces is FrameCheckpoint's.
  EXPECT_EQ(ReadFile(path)->size(), Payload().size() + 40 + 14);
  EXPECT_EQ(*ReadFile(path), FrameCheckpoint("TestCheckpoint", Payload()));
  const absl::StatusOr<std::string> missing = ReadCheckpoint(path + ".none", "TestCheckpoint");
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
}

// A message serialized straight into the file gives the bytes of framing its serialization:
// an empty message, a small one, and one of ~200 kB (many pieces of OstreamOutputStream's
// buffer).
TEST(CheckpointFileTest, MessageWrittenInPlaceEqualsTheFramedSerialization) {
  const std::string path = std::string(std::getenv("TEST_TMPDIR")) + "/message.pb";
  LdaCheckpoint checkpoint;
  for (int points : {0, 1, 5000}) {
    while (checkpoint.trace_size() < points) {
      LdaTracePoint* point = checkpoint.add_trace();
      point->set_iteration(checkpoint.trace_size());
      point->set_perplexity(1000.0 / checkpoint.trace_size());
      point->set_fold_in_perplexity_mean(std::sqrt(checkpoint.trace_size()));
    }
    ASSERT_TRUE(WriteCheckpointMessage(path, "lda", checkpoint).ok());
    EXPECT_EQ(*ReadFile(path), FrameCheckpoint("lda", checkpoint.SerializeAsString())) << points;
    const absl::StatusOr<std::string> read = ReadCheckpoint(path, "lda");
    ASSERT_TRUE(read.ok()) << read.status();
    LdaCheckpoint parsed;
    ASSERT_TRUE(parsed.ParseFromString(*read));
    EXPECT_EQ(parsed.trace_size(), points);
  }
  EXPECT_GT(ReadFile(path)->size(), 100000u);
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  EXPECT_THAT(WriteCheckpointMessage("/nonexistent_dir/x.pb", "lda", checkpoint).message(),
              HasSubstr("cannot write /nonexistent_dir/x.pb.tmp"));
}

TEST(CheckpointFileTest, EmptyPayloadAndEmptyKindRoundTrip) {
  for (const std::string kind : {"", "K"}) {
    const absl::StatusOr<std::string> read =
        UnframeCheckpoint(kPath, kind, FrameCheckpoint(kind, ""));
    ASSERT_TRUE(read.ok()) << read.status();
    EXPECT_EQ(*read, "");
  }
}

// A changed byte anywhere, payload or frame, to every other value of that byte: DataLoss naming
// the file (a changed kind byte included: the checksum covers the kind).
TEST(CheckpointFileTest, EveryChangedByteIsRefused) {
  const std::string file = FrameCheckpoint("TestCheckpoint", Payload());
  for (size_t i = 0; i < file.size(); ++i) {
    for (int delta = 1; delta < 256; ++delta) {
      std::string damaged = file;
      damaged[i] = static_cast<char>(static_cast<unsigned char>(damaged[i]) + delta);
      const absl::StatusOr<std::string> read = UnframeCheckpoint(kPath, "TestCheckpoint", damaged);
      ASSERT_EQ(read.status().code(), absl::StatusCode::kDataLoss)
          << "byte " << i << " + " << delta;
      ASSERT_THAT(read.status().message(), HasSubstr(kPath));
    }
  }
  std::string payload_flip = file;
  payload_flip[14 + 16 + 3] ^= 0x04;
  EXPECT_EQ(UnframeCheckpoint(kPath, "TestCheckpoint", payload_flip).status().message(),
            std::string(kPath) + ": checksum mismatch: the file is damaged");
}

TEST(CheckpointFileTest, EveryTruncationAndExtensionIsRefused) {
  const std::string file = FrameCheckpoint("TestCheckpoint", Payload());
  for (size_t length = 0; length < file.size(); ++length) {
    const absl::StatusOr<std::string> read =
        UnframeCheckpoint(kPath, "TestCheckpoint", file.substr(0, length));
    ASSERT_EQ(read.status().code(), absl::StatusCode::kDataLoss) << length;
    ASSERT_THAT(read.status().message(), HasSubstr(kPath));
  }
  EXPECT_THAT(UnframeCheckpoint(kPath, "TestCheckpoint", file.substr(0, file.size() - 1))
                  .status()
                  .message(),
              HasSubstr("truncated or damaged checkpoint: no end tag"));
  // Bytes appended after the end tag: no end tag either.
  EXPECT_EQ(UnframeCheckpoint(kPath, "TestCheckpoint", file + "x").status().code(),
            absl::StatusCode::kDataLoss);
}

TEST(CheckpointFileTest, AnotherKindIsRefusedByName) {
  const absl::StatusOr<std::string> read =
      UnframeCheckpoint(kPath, "lda", FrameCheckpoint("sam", Payload()));
  EXPECT_EQ(read.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(read.status().message(),
            std::string(kPath) + ": a checkpoint of kind 'sam', expected 'lda'");
}

// A checkpoint of the previous version (the bare serialized proto) is its own payload; an empty
// file is refused.
TEST(CheckpointFileTest, LegacyFileIsItsOwnPayload) {
  const absl::StatusOr<std::string> read = UnframeCheckpoint(kPath, "TestCheckpoint", Payload());
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, Payload());
  const absl::StatusOr<std::string> empty = UnframeCheckpoint(kPath, "TestCheckpoint", "");
  EXPECT_EQ(empty.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(empty.status().message(), std::string(kPath) + ": empty checkpoint file");
}

}  // namespace
}  // namespace sgmcmc::tools
