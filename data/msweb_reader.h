// Reader for the UCI "Anonymous Microsoft Web Data" (msweb) DST format (Breese, Heckerman &
// Kadie 1998; https://archive.ics.uci.edu/dataset/138, anonymous-msweb.data / .test, plain
// or gzip). One record per line, comma-separated, strings in double quotes:
//   I,4,"www.microsoft.com","created by getlog.pl"   header (ignored)
//   T,...  N,...                                       type/name declarations (ignored)
//   A,<vroot id>,1,"<title>","<url>"                  a Vroot (an area of the site)
//   C,"<case id>",<case id>                           starts a user (case)
//   V,<vroot id>,1                                    the current user visited that Vroot
// The users become the documents of a data::Corpus in file order (word = Vroot, one token per
// visit); word k is the k-th smallest Vroot id, so the word ids match the UCI bag-of-words
// conversion's vocab.msweb.txt. Reading a test file with the training file's Vroots
// (`vroots`) gives the same word ids on both.
//
// Malformed input is InvalidArgument "path:line: what was expected, what was found": an
// unknown record type, a wrong number of fields, a non-integer id, an unterminated quote, a
// Vroot declared twice, a V line before any C line or naming an undeclared Vroot, a Vroot
// repeated within one case, a C line whose two case ids differ, a vote other than 1.
//
// Cost: one pass, O(bytes); msweb's 1.3 MB (32,711 users) in ~0.05 s.
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(MswebData train, ReadMsweb("anonymous-msweb.data.gz"));
//   SGMCMC_ASSIGN_OR_RETURN(MswebData test,
//                           ReadMsweb("anonymous-msweb.test.gz", &train.vroots));
#ifndef SGMCMC_DATA_MSWEB_READER_H_
#define SGMCMC_DATA_MSWEB_READER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "data/corpus.h"

namespace sgmcmc::data {

// The Vroots (attributes) of a file, ascending by id: word k of the corpus is vroot ids[k].
struct MswebVroots {
  std::vector<int> ids;
  std::vector<std::string> titles;
  std::vector<std::string> urls;
};

struct MswebData {
  MswebVroots vroots;
  std::vector<int64_t> case_ids;  // user d's case id
  Corpus corpus;                  // vocabulary: the Vroot ids as text
};

// Reads a DST file. With `vroots` null the file's own A lines define the words; otherwise the
// given Vroots do (the file's A lines are still checked) and a V line naming a Vroot outside
// them is an error.
absl::StatusOr<MswebData> ReadMsweb(const std::string& path,
                                    const MswebVroots* vroots = nullptr);

}  // namespace sgmcmc::data

#endif  // SGMCMC_DATA_MSWEB_READER_H_
