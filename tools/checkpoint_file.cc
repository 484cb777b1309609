#include "tools/checkpoint_file.h"

#include <cstdint>
#include <ostream>
#include <streambuf>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "google/protobuf/io/zero_copy_stream_impl.h"
#include "tools/tool_support.h"

namespace sgmcmc::tools {
namespace {

// 0xff first: no serialized proto starts with it (wire type 7), so no legacy file does.
constexpr absl::string_view kTag("\xffSGMCKP1", 8);
constexpr size_t kWord = 8;
// The tag, the kind's length, the payload's length, the checksum and the tag again.
constexpr size_t kFrameBytes = 5 * kWord;

void AppendWord(uint64_t value, std::string& out) {
  for (size_t byte = 0; byte < kWord; ++byte) out.push_back(static_cast<char>(value >> (8 * byte)));
}

uint64_t ReadWord(absl::string_view bytes, size_t at) {
  uint64_t value = 0;
  for (size_t byte = 0; byte < kWord; ++byte) {
    value |= uint64_t{static_cast<unsigned char>(bytes[at + byte])} << (8 * byte);
  }
  return value;
}

uint64_t Checksum(absl::string_view bytes) {
  Fnv1a hash;
  hash.MixBytes(bytes);
  return hash.value();
}

// The frame around `payload` in two pieces, the bytes before it and the bytes after it, so
// that a writer need not copy the payload (FrameCheckpoint = head + payload + tail).
struct Frame {
  std::string head;
  std::string tail;
};

Frame MakeFrame(absl::string_view kind, absl::string_view payload) {
  Frame frame;
  absl::StrAppend(&frame.head, kTag);
  AppendWord(kind.size(), frame.head);
  absl::StrAppend(&frame.head, kind);
  AppendWord(payload.size(), frame.tail);
  Fnv1a hash;
  hash.MixBytes(frame.head);
  hash.MixBytes(payload);
  hash.MixBytes(frame.tail);
  AppendWord(hash.value(), frame.tail);
  absl::StrAppend(&frame.tail, kTag);
  return frame;
}

}  // namespace

std::string FrameCheckpoint(absl::string_view kind, absl::string_view payload) {
  const Frame frame = MakeFrame(kind, payload);
  return absl::StrCat(frame.head, payload, frame.tail);
}

absl::StatusOr<std::string> UnframeCheckpoint(const std::string& path, absl::string_view kind,
                                              absl::string_view file) {
  const auto damaged = [&](auto... what) {
    return absl::DataLossError(absl::StrCat(path, ": ", what...));
  };
  if (file.empty()) return damaged("empty checkpoint file");
  const bool framed = file[0] == kTag[0] || absl::EndsWith(file, kTag);
  if (!framed) return std::string(file);  // legacy: the bare payload
  const size_t size = file.size();
  if (size < kFrameBytes) {
    return damaged("truncated checkpoint: ", size, " bytes, fewer than its frame's ", kFrameBytes);
  }
  if (!absl::EndsWith(file, kTag)) return damaged("truncated or damaged checkpoint: no end tag");
  if (!absl::StartsWith(file, kTag)) return damaged("damaged checkpoint: its start tag differs");
  const uint64_t kind_size = ReadWord(file, kWord);
  if (kind_size > size - kFrameBytes) {
    return damaged("damaged checkpoint: a kind of ", kind_size, " bytes in a file of ", size);
  }
  const uint64_t payload_size = ReadWord(file, size - 3 * kWord);
  if (payload_size != size - kFrameBytes - kind_size) {
    return damaged("truncated or damaged checkpoint: its frame says ", payload_size,
                   " payload bytes, the file holds ", size - kFrameBytes - kind_size);
  }
  if (ReadWord(file, size - 2 * kWord) != Checksum(file.substr(0, size - 2 * kWord))) {
    return damaged("checksum mismatch: the file is damaged");
  }
  const absl::string_view written = file.substr(2 * kWord, kind_size);
  if (written != kind) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": a checkpoint of kind '", written, "', expected '", kind, "'"));
  }
  return std::string(file.substr(2 * kWord + kind_size, payload_size));
}

absl::Status WriteCheckpoint(const std::string& path, absl::string_view kind,
                             absl::string_view payload) {
  const Frame frame = MakeFrame(kind, payload);
  const absl::string_view pieces[] = {frame.head, payload, frame.tail};
  return WriteFilePieces(path, pieces);
}

namespace {

// Forwards every byte to `out` and takes their FNV-1a on the way (no put area, so every
// write reaches xsputn or overflow).
class HashingBuffer : public std::streambuf {
 public:
  explicit HashingBuffer(std::streambuf* out) : out_(out) {}
  Fnv1a& hash() { return hash_; }
  int64_t bytes() const { return bytes_; }

 protected:
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    hash_.MixBytes(absl::string_view(s, static_cast<size_t>(n)));
    bytes_ += n;
    return out_->sputn(s, n);
  }
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char byte = traits_type::to_char_type(c);
    return xsputn(&byte, 1) == 1 ? c : traits_type::eof();
  }

 private:
  std::streambuf* out_;
  Fnv1a hash_;
  int64_t bytes_ = 0;
};

}  // namespace

absl::Status WriteCheckpointMessage(const std::string& path, absl::string_view kind,
                                    const google::protobuf::MessageLite& message) {
  return WriteFileWith(path, [&](std::ostream& file) {
    HashingBuffer buffer(file.rdbuf());
    std::ostream out(&buffer);
    std::string head;
    absl::StrAppend(&head, kTag);
    AppendWord(kind.size(), head);
    absl::StrAppend(&head, kind);
    out.write(head.data(), static_cast<std::streamsize>(head.size()));
    {
      google::protobuf::io::OstreamOutputStream stream(&out);
      if (!message.SerializeToZeroCopyStream(&stream)) return false;
    }
    std::string tail;
    AppendWord(static_cast<uint64_t>(buffer.bytes()) - head.size(), tail);
    buffer.hash().MixBytes(tail);
    AppendWord(buffer.hash().value(), tail);
    absl::StrAppend(&tail, kTag);
    file.write(tail.data(), static_cast<std::streamsize>(tail.size()));
    return static_cast<bool>(out) && static_cast<bool>(file);
  });
}

absl::StatusOr<std::string> ReadCheckpoint(const std::string& path, absl::string_view kind) {
  SGMCMC_ASSIGN_OR_RETURN(const std::string file, ReadFile(path));
  return UnframeCheckpoint(path, kind, file);
}

}  // namespace sgmcmc::tools
