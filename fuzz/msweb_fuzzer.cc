// Fuzz target: msweb DST files (data/msweb_reader.h), plain or gzip (first byte), read alone
// and then with the Vroots of a fixed training file. Contract: an error naming the file, or
// Vroots ascending and distinct with one title and URL each, a corpus that passes
// Corpus::Validate with one word per Vroot (its id as text) and one case id per document, and
// no Vroot twice in a document.
#include <algorithm>
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "data/corpus.h"
#include "data/msweb_reader.h"
#include "fuzz/fuzz_support.h"

namespace sgmcmc::fuzz {
namespace {

void CheckData(const data::MswebData& msweb, const data::MswebVroots* given) {
  const data::MswebVroots& vroots = msweb.vroots;
  SGMCMC_CHECK(std::is_sorted(vroots.ids.begin(), vroots.ids.end()));
  SGMCMC_CHECK(std::adjacent_find(vroots.ids.begin(), vroots.ids.end()) == vroots.ids.end());
  SGMCMC_CHECK_EQ(vroots.titles.size(), vroots.ids.size());
  SGMCMC_CHECK_EQ(vroots.urls.size(), vroots.ids.size());
  if (given != nullptr) SGMCMC_CHECK(vroots.ids == given->ids);
  const data::Corpus& corpus = msweb.corpus;
  SGMCMC_CHECK(corpus.Validate().ok()) << corpus.Validate();
  SGMCMC_CHECK_EQ(corpus.vocabulary_size(), static_cast<int>(vroots.ids.size()));
  for (int k = 0; k < corpus.vocabulary_size(); ++k) {
    SGMCMC_CHECK_EQ(corpus.vocabulary[k], absl::StrCat(vroots.ids[k]));
  }
  SGMCMC_CHECK_EQ(static_cast<int>(msweb.case_ids.size()), corpus.num_documents());
  for (int d = 0; d < corpus.num_documents(); ++d) {
    std::vector<int32_t> words(corpus.document(d).begin(), corpus.document(d).end());
    std::sort(words.begin(), words.end());
    SGMCMC_CHECK(std::adjacent_find(words.begin(), words.end()) == words.end());
  }
}

}  // namespace
}  // namespace sgmcmc::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sgmcmc;
  if (size == 0) return 0;
  static fuzz::ScratchFile* plain = new fuzz::ScratchFile("anonymous-msweb.data");
  static fuzz::ScratchFile* gzip = new fuzz::ScratchFile("anonymous-msweb.data.gz");
  static const data::MswebVroots* train = [] {
    fuzz::ScratchFile file("train.data");
    file.Write(
        "I,4,\"www.microsoft.com\",\"created by getlog.pl\"\n"
        "A,1000,1,\"Home\",\"/home\"\n"
        "A,1001,1,\"Support\",\"/support\"\n"
        "A,1003,1,\"Kb\",\"/kb\"\n");
    absl::StatusOr<data::MswebData> read = data::ReadMsweb(file.path());
    SGMCMC_CHECK(read.ok()) << read.status();
    return new data::MswebVroots(read->vroots);
  }();
  const absl::string_view text = fuzz::AsText(data + 1, size - 1);
  const std::string& path = fuzz::WritePlainOrGzip(data[0], text, *plain, *gzip);
  const data::MswebVroots* vroots = (data[0] & 2) ? train : nullptr;
  const absl::StatusOr<data::MswebData> msweb = data::ReadMsweb(path, vroots);
  if (!msweb.ok()) {
    fuzz::CheckInputError(msweb.status(), path);
    return 0;
  }
  fuzz::CheckData(*msweb, vroots);
  return 0;
}
