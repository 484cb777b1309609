// Fuzz target: vocabulary files (data/uci_reader.h ReadUciVocabulary: one word per line, the
// format of UCI vocab files and of TextCorpusOptions::vocabulary_path). Contract: an error
// naming the file, or words that are non-empty, have no surrounding whitespace and no line
// break; the same file then reads with expected_size = its size and fails, naming the file,
// with any other size.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "base/check.h"
#include "data/uci_reader.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using sgmcmc::fuzz::CheckInputError;
  static sgmcmc::fuzz::ScratchFile* file = new sgmcmc::fuzz::ScratchFile("vocab.fuzz.txt");
  const std::string& path = file->Write(sgmcmc::fuzz::AsText(data, size));
  int64_t blank = 0;
  const absl::StatusOr<std::vector<std::string>> words =
      sgmcmc::data::ReadUciVocabulary(path, -1, &blank);
  if (!words.ok()) {
    CheckInputError(words.status(), path);
    return 0;
  }
  SGMCMC_CHECK_GE(blank, 0);
  for (const std::string& word : *words) {
    SGMCMC_CHECK(!word.empty());
    SGMCMC_CHECK(word.find('\n') == std::string::npos);
    SGMCMC_CHECK(!absl::ascii_isspace(static_cast<unsigned char>(word.front())) &&
                 !absl::ascii_isspace(static_cast<unsigned char>(word.back())))
        << "'" << word << "'";
  }
  const int n = static_cast<int>(words->size());
  const absl::StatusOr<std::vector<std::string>> again = sgmcmc::data::ReadUciVocabulary(path, n);
  SGMCMC_CHECK(again.ok() && *again == *words) << again.status();
  CheckInputError(sgmcmc::data::ReadUciVocabulary(path, n + 1).status(), path);
  return 0;
}
