// Fuzz target: UCI docword files read three ways that must agree (data/uci_reader.h,
// data/uci_stream.h): ReadUciCorpus (in memory, with a vocabulary of W words), the
// UciDocumentReader (document by document, twice through Rewind) and the UciMinibatchStream
// (shuffled minibatches over one epoch). Contract: each either fails with an error naming the
// file or returns documents 0..D-1 whose tokens are word ids in [0, W); the three agree on
// success and on failure, and a corpus read into memory passes Corpus::Validate.
//
// The first input byte picks the encoding: plain text, gzip of the rest, a gzip of the rest
// truncated at a fuzzer-chosen point, or the rest as raw bytes (corrupt gzip streams).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "base/status_macros.h"
#include "data/corpus.h"
#include "data/minibatch.h"
#include "data/uci_reader.h"
#include "data/uci_stream.h"
#include "fuzz/fuzz_support.h"
#include "rng/engine.h"

namespace sgmcmc::fuzz {
namespace {

// Small limits so that a header cannot make an execution slow (each input is read four
// ways); the limit checks themselves are part of the contract under test.
data::UciLimits Limits() {
  data::UciLimits limits;
  limits.max_tokens = 1 << 12;
  limits.max_documents = 1 << 8;
  limits.max_vocabulary_size = 1 << 8;
  return limits;
}

// Every document of the file through UciDocumentReader, twice (Rewind); the error of either
// pass otherwise.
absl::StatusOr<std::vector<std::vector<int32_t>>> ReadByDocument(const std::string& path) {
  SGMCMC_ASSIGN_OR_RETURN(data::UciDocumentReader reader,
                          data::UciDocumentReader::Open(path, Limits()));
  const data::UciHeader header = reader.header();
  SGMCMC_CHECK(header.num_documents >= 0 && header.num_documents <= Limits().max_documents);
  SGMCMC_CHECK(header.vocabulary_size >= 1 &&
               header.vocabulary_size <= Limits().max_vocabulary_size);
  std::vector<std::vector<int32_t>> documents;
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<std::vector<int32_t>> read;
    int document = -1;
    std::vector<int32_t> tokens;
    int64_t total = 0;
    while (true) {
      SGMCMC_ASSIGN_OR_RETURN(const bool more, reader.Next(&document, &tokens));
      if (!more) break;
      SGMCMC_CHECK_EQ(document, static_cast<int>(read.size()));
      for (const int32_t w : tokens) {
        SGMCMC_CHECK(w >= 0 && w < header.vocabulary_size) << w;
      }
      total += static_cast<int64_t>(tokens.size());
      SGMCMC_CHECK_LE(total, Limits().max_tokens);
      read.push_back(tokens);
    }
    SGMCMC_CHECK_EQ(static_cast<int>(read.size()), header.num_documents);
    SGMCMC_CHECK_EQ(reader.next_document(), header.num_documents);
    if (pass == 0) {
      documents = std::move(read);
      SGMCMC_RETURN_IF_ERROR(reader.Rewind());
    } else {
      SGMCMC_CHECK(read == documents) << "a second pass after Rewind differs";
    }
  }
  return documents;
}

// One epoch of the minibatch stream; every document comes exactly once, as in the file.
absl::Status CheckStream(const std::string& path,
                         const std::vector<std::vector<int32_t>>& documents) {
  data::UciStreamOptions options;
  options.batch_size = 3;
  options.shuffle_buffer_documents = 4;
  options.max_epochs = 1;
  options.limits = Limits();
  SGMCMC_ASSIGN_OR_RETURN(data::UciMinibatchStream stream,
                          data::UciMinibatchStream::Open(path, options));
  rng::Engine engine(7, 0);
  data::DocumentMinibatch batch;
  std::vector<int> seen(documents.size(), 0);
  const bool check_ids = !documents.empty();  // empty: a file the readers refuse
  while (true) {
    SGMCMC_ASSIGN_OR_RETURN(const bool more, stream.Next(engine, &batch));
    if (!more) break;
    SGMCMC_CHECK_EQ(static_cast<int>(batch.ids.size()), batch.documents.num_documents());
    for (int i = 0; i < static_cast<int>(batch.ids.size()); ++i) {
      const int id = batch.ids[i];
      if (!check_ids) continue;
      SGMCMC_CHECK(id >= 0 && id < static_cast<int>(documents.size())) << id;
      ++seen[id];
      const absl::Span<const int32_t> tokens = batch.documents.document(i);
      SGMCMC_CHECK(std::vector<int32_t>(tokens.begin(), tokens.end()) == documents[id])
          << "streamed document " << id << " differs from the file's";
    }
  }
  for (size_t d = 0; d < seen.size(); ++d) {
    SGMCMC_CHECK_EQ(seen[d], 1) << "document " << d << " streamed " << seen[d] << " times";
  }
  return absl::OkStatus();
}

void FuzzOne(const std::string& bytes, bool gzip_name) {
  static ScratchFile* docword = new ScratchFile("docword.fuzz.txt");
  static ScratchFile* docword_gz = new ScratchFile("docword.fuzz.txt.gz");
  static ScratchFile* vocab = new ScratchFile("vocab.fuzz.txt");
  const std::string& path = (gzip_name ? docword_gz : docword)->Write(bytes);

  const absl::StatusOr<std::vector<std::vector<int32_t>>> documents = ReadByDocument(path);
  if (!documents.ok()) CheckInputError(documents.status(), path);

  // The in-memory reader, given a vocabulary of exactly W words when the header parsed.
  absl::StatusOr<data::UciDocumentReader> opened = data::UciDocumentReader::Open(path, Limits());
  const int w = opened.ok() ? opened->header().vocabulary_size : 1;
  std::string words;
  for (int i = 0; i < w; ++i) absl::StrAppend(&words, "w", i, "\n");
  vocab->Write(words);
  data::UciReadSummary summary;
  const absl::StatusOr<data::Corpus> corpus =
      data::ReadUciCorpus(path, vocab->path(), &summary, Limits());
  SGMCMC_CHECK_EQ(corpus.ok(), documents.ok())
      << "in memory: " << corpus.status() << "; by document: " << documents.status();
  if (!corpus.ok()) {
    CheckInputError(corpus.status(), path);
    // One epoch of the stream reads the whole file, so it meets the same error.
    const absl::Status stream = CheckStream(path, {});
    SGMCMC_CHECK(!stream.ok()) << "the stream accepts a file the readers refuse: "
                               << corpus.status();
    CheckInputError(stream, path);
    return;
  }
  SGMCMC_CHECK(corpus->Validate().ok()) << corpus->Validate();
  SGMCMC_CHECK_EQ(corpus->num_documents(), static_cast<int>(documents->size()));
  SGMCMC_CHECK_EQ(corpus->vocabulary_size(), w);
  SGMCMC_CHECK_EQ(summary.num_tokens, corpus->num_tokens());
  int empty = 0;
  for (int d = 0; d < corpus->num_documents(); ++d) {
    const absl::Span<const int32_t> tokens = corpus->document(d);
    SGMCMC_CHECK(std::vector<int32_t>(tokens.begin(), tokens.end()) == (*documents)[d]);
    empty += tokens.empty();
  }
  SGMCMC_CHECK_EQ(summary.num_empty_documents, empty);
  const absl::Status stream = CheckStream(path, *documents);
  if (corpus->num_documents() == 0) {
    CheckInputError(stream, path);  // "nothing to stream"
  } else {
    SGMCMC_CHECK(stream.ok()) << "the stream refuses a file the readers accept: " << stream;
  }
}

}  // namespace
}  // namespace sgmcmc::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string rest(sgmcmc::fuzz::AsText(data + 1, size - 1));
  switch (data[0] % 4) {
    case 0:
      sgmcmc::fuzz::FuzzOne(rest, /*gzip_name=*/false);
      break;
    case 1:
      sgmcmc::fuzz::FuzzOne(sgmcmc::fuzz::Gzip(rest), /*gzip_name=*/true);
      break;
    case 2: {
      const std::string gz = sgmcmc::fuzz::Gzip(rest);
      sgmcmc::fuzz::FuzzOne(gz.substr(0, gz.size() * (data[0] / 4) / 64), true);
      break;
    }
    default:
      sgmcmc::fuzz::FuzzOne(rest, /*gzip_name=*/true);
      break;
  }
  return 0;
}
