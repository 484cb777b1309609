// Checkpoint files with a checksum: what every tool that checkpoints (lda, dp_mixture,
// matrix_factorization, sam, accelerated_dp, alpha_stable_mf) writes and reads, so that a damaged checkpoint is refused with an
// error naming the file instead of resuming with altered state (a serialized proto parses from
// most byte strings: a changed byte inside a double or a count is silently taken).
//
// Format (integers little-endian uint64; n = payload bytes, k = kind bytes):
//   [0, 8)              tag "\xffSGMCKP1"
//   [8, 16)             k
//   [16, 16+k)          kind: which checkpoint this is (the tool's name: "lda", ...)
//   [16+k, 16+k+n)      payload: the tool's serialized proto
//   [16+k+n, 24+k+n)    n
//   [24+k+n, 32+k+n)    checksum: FNV-1a 64 of every byte before it
//   [32+k+n, 40+k+n)    tag "\xffSGMCKP1" again
// A file is framed if it starts with the tag's first byte or ends with the tag, so one damaged
// tag byte still marks it framed (and refused). Every single-byte change is detected: FNV-1a
// applies a bijection of its state per byte, so two inputs of one length that differ in one
// byte hash differently; a truncation loses the end tag; a file of another kind is refused by
// name (the checksum covers the kind, so a damaged kind reads as damage, not as another kind).
//
// Legacy files: a checkpoint written before this format (the bare serialized proto) is read
// unchanged, so a run interrupted before the upgrade still resumes. It cannot be mistaken for
// a framed one: 0xff cannot start a serialized proto (wire type 7 is invalid), and it ends with
// the 8-byte tag only if its last string field does, with chance ~2^-64 for random bytes. A
// legacy file carries no checksum, so its damage is detected only as far as the proto parser
// and the tool's own checks go; an empty file is refused (no tool writes an empty checkpoint).
//
// Cost: one pass over the payload for the checksum, on top of the file I/O: about 25 ms per
// 16 MiB framed or unframed, 0.65 GB/s, on one core of the development machine
// (//tools:checkpoint_file_benchmark; FNV-1a is bound by its multiply's latency). FrameCheckpoint
// copies the payload into the file's bytes; WriteCheckpoint writes the frame around it without
// a copy, and WriteCheckpointMessage serializes a message straight into the file, so neither
// holds a second copy of an 800 MB checkpoint (a K = 1000 `lda` run's peak RSS went from 4.97
// to 3.84 GiB with both; bench/README.md, "The fold-in's fixed point, and the K = 1000
// evaluation").
//
// Example:
//   SGMCMC_RETURN_IF_ERROR(WriteCheckpoint(path, "lda", state.SerializeAsString()));
//   SGMCMC_ASSIGN_OR_RETURN(const std::string payload, ReadCheckpoint(path, "lda"));
//   if (!state.ParseFromString(payload)) return absl::DataLossError(path + ": not a ...");
#ifndef SGMCMC_TOOLS_CHECKPOINT_FILE_H_
#define SGMCMC_TOOLS_CHECKPOINT_FILE_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/message_lite.h"

namespace sgmcmc::tools {

// The file's bytes for `payload` of checkpoint kind `kind` (the format above).
std::string FrameCheckpoint(absl::string_view kind, absl::string_view payload);

// The payload of the file contents `file`, read from `path` (named in errors), for a checkpoint
// of kind `kind`. DataLoss "<path>: ..." if it is empty, truncated or damaged ("checksum
// mismatch: the file is damaged"); InvalidArgument "<path>: a checkpoint of kind '<other>',
// expected '<kind>'" for another kind. A legacy (unframed) file is its own payload.
absl::StatusOr<std::string> UnframeCheckpoint(const std::string& path, absl::string_view kind,
                                              absl::string_view file);

// WriteFile (atomic) of FrameCheckpoint(kind, payload) to `path`.
absl::Status WriteCheckpoint(const std::string& path, absl::string_view kind,
                             absl::string_view payload);

// The same file as WriteCheckpoint(path, kind, message.SerializeAsString()), with the message
// serialized straight into it (the checksum taken on the way): no copy of the serialized
// bytes is held (800 MB for a K = 1000, V = 50,000 LDA checkpoint).
absl::Status WriteCheckpointMessage(const std::string& path, absl::string_view kind,
                                    const google::protobuf::MessageLite& message);

// ReadFile of `path`, then UnframeCheckpoint; the errors of both.
absl::StatusOr<std::string> ReadCheckpoint(const std::string& path, absl::string_view kind);

}  // namespace sgmcmc::tools

#endif  // SGMCMC_TOOLS_CHECKPOINT_FILE_H_
