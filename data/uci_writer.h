// WriteUciCorpus: writes a corpus in the UCI "Bag of Words" format (see data/uci_reader.h).
//
// Each document's tokens are counted per word and written as "docID wordID count" lines sorted
// by docID then wordID (1-based ids), as the format requires; empty documents have no lines
// but count in D. Reading the files back with ReadUciCorpus gives the same documents with each
// document's tokens grouped by ascending word id (so a corpus read from a UCI file survives
// a write/read round trip unchanged). A docword path ending in ".gz" is gzip-compressed.
//
// Cost: O(N log n_d) (a sort of each document's word ids) plus the output size.
//
// Example:
//   SGMCMC_RETURN_IF_ERROR(WriteUciCorpus(corpus, "docword.ap.txt.gz", "vocab.ap.txt"));
#ifndef SGMCMC_DATA_UCI_WRITER_H_
#define SGMCMC_DATA_UCI_WRITER_H_

#include <string>

#include "absl/status/status.h"
#include "data/corpus.h"

namespace sgmcmc::data {

// Writes `corpus` (which must pass Corpus::Validate()) to `docword_path` and its vocabulary,
// one word per line, to `vocab_path`. Fails with the path on an I/O error.
absl::Status WriteUciCorpus(const Corpus& corpus, const std::string& docword_path,
                            const std::string& vocab_path);

}  // namespace sgmcmc::data

#endif  // SGMCMC_DATA_UCI_WRITER_H_
