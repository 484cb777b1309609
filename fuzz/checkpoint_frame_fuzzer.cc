// Fuzz target: the checksummed checkpoint frame (tools/checkpoint_file.h UnframeCheckpoint,
// and ReadCheckpoint on the same bytes). Contract: DataLoss or InvalidArgument naming the
// file, or a payload; a framed file's payload frames back to exactly the file's bytes (so no
// damaged frame is taken for a whole one); an unframed (legacy) file is its own payload and
// cannot start with the tag byte; every single-byte change of a valid frame is refused.
#include <cstdint>
#include <string>

#include "base/check.h"
#include "fuzz/fuzz_support.h"
#include "tools/checkpoint_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sgmcmc;
  static fuzz::ScratchFile* file = new fuzz::ScratchFile("checkpoint_scir.pb");
  const absl::string_view bytes = fuzz::AsText(data, size);
  const std::string& path = file->Write(bytes);
  const absl::StatusOr<std::string> payload = tools::UnframeCheckpoint(path, "lda", bytes);
  const absl::StatusOr<std::string> read = tools::ReadCheckpoint(path, "lda");
  SGMCMC_CHECK_EQ(read.ok(), payload.ok());
  if (!payload.ok()) {
    fuzz::CheckInputError(payload.status(), path);
    return 0;
  }
  SGMCMC_CHECK(*read == *payload);
  const std::string framed = tools::FrameCheckpoint("lda", *payload);
  if (bytes == framed) {
    // A whole frame: one changed byte (chosen by the input) must be refused.
    std::string damaged(bytes);
    const size_t at = data[size / 2] % damaged.size();
    damaged[at] = static_cast<char>(damaged[at] ^ (1 + data[size - 1] % 255));
    fuzz::CheckInputError(tools::UnframeCheckpoint(path, "lda", damaged).status(), path);
    fuzz::CheckInputError(tools::UnframeCheckpoint(path, "sam", bytes).status(), path);
  } else {
    SGMCMC_CHECK(*payload == bytes) << "a payload that is neither the file nor framed by it";
    SGMCMC_CHECK(static_cast<uint8_t>(bytes[0]) != 0xff);
  }
  // The payload always frames and unframes back to itself.
  const absl::StatusOr<std::string> round = tools::UnframeCheckpoint(path, "lda", framed);
  SGMCMC_CHECK(round.ok() && *round == *payload) << round.status();
  return 0;
}
