// lda_generate_corpus: writes a synthetic corpus drawn from the LDA generative model with known
// topics (data/synthetic_lda_corpus.h states the model: Zipf base measure b_w ∝ (w + 1)^−s,
// topics φ_k ~ Dirichlet(β V b), Poisson or fixed document lengths, θ_d ~ Dirichlet(α)), for
// runs at scale and for scoring learned topics against the truth (tools/lda_topic_recovery.cc,
// eval/topic_recovery.h).
//
// Output in --output_dir:
//   docword.txt[.gz]          the --documents training documents (UCI bag of words)
//   heldout.docword.txt[.gz]  --heldout_documents further documents of the same model (if > 0)
//   vocab.txt                 the V words "w1" .. "wV" (word w + 1 has Zipf rank w + 1)
//   topics.phi                the true K x V topic matrix φ (data/topic_matrix.h, bit-exact)
//   generator.txt             the options, one "name = value" per line
// (.gz with --gzip). Files appear under their names only when complete (written as
// .tmp.<name>, then renamed), so a failed run leaves nothing that looks like a result.
//
// Streaming: no corpus is held in memory. Every document comes from its own counter-based
// random stream, so the tool draws each file twice: a first pass counts the UCI header's NNZ,
// a second writes the same documents. Memory is the K per-topic alias tables (16 K V bytes:
// 800 MB at K = 1000, V = 50,000) and does not grow with D. The output is a function of the
// options and --seed alone (bit-identical files on any machine).
//
// Usage:
//   bazel run -c opt //tools:lda_generate_corpus -- --output_dir=/tmp/synth \
//       --documents=1000000 --vocabulary_size=50000 --num_topics=1000 \
//       --mean_document_length=100 --heldout_documents=10000 --gzip
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/seconds_since.h"
#include "base/status_macros.h"
#include "data/synthetic_lda_corpus.h"
#include "data/topic_matrix.h"
#include "data/uci_writer.h"
#include "tools/tool_support.h"

ABSL_FLAG(std::string, output_dir, "", "Directory for the corpus files (created).");
ABSL_FLAG(int64_t, documents, 1000, "Training documents D (>= 1).");
ABSL_FLAG(int64_t, heldout_documents, 0, "Held-out documents in a separate file (>= 0).");
ABSL_FLAG(int, vocabulary_size, 10000, "Vocabulary size V (>= 1).");
ABSL_FLAG(int, num_topics, 100, "True topics K (>= 1).");
ABSL_FLAG(double, zipf_exponent, 1.0, "s of the base measure b_w ∝ (w + 1)^-s (>= 0).");
ABSL_FLAG(double, beta, 0.01, "Mean topic-word concentration: φ_k ~ Dir(beta V b) (> 0).");
ABSL_FLAG(double, alpha, 0.1,
          "Document-topic concentration: θ_d ~ Dir(alpha) (> 0). At large K the default 0.1 "
          "mixes many topics per document (K = 1000, 100 tokens: about 70), where the lda "
          "tools' default alpha by K (0.01 there, fitted on real text) is wrong by construction: "
          "set --alpha=0.1 on them, or generate with --alpha=0.01 (bench/README.md, \"α at "
          "large K\").");
ABSL_FLAG(std::string, document_length, "poisson",
          "Length law: 'poisson' (mean --mean_document_length) or 'fixed'.");
ABSL_FLAG(double, mean_document_length, 100, "Poisson mean, or the fixed length (integer).");
ABSL_FLAG(uint64_t, seed, 1, "Key of all random streams.");
ABSL_FLAG(bool, gzip, false, "gzip the docword files (.txt.gz).");

namespace sgmcmc::tools {
namespace {

absl::StatusOr<data::SyntheticLdaOptions> OptionsFromFlags() {
  data::SyntheticLdaOptions options;
  options.num_topics = absl::GetFlag(FLAGS_num_topics);
  options.vocabulary_size = absl::GetFlag(FLAGS_vocabulary_size);
  options.zipf_exponent = absl::GetFlag(FLAGS_zipf_exponent);
  options.beta = absl::GetFlag(FLAGS_beta);
  options.alpha = absl::GetFlag(FLAGS_alpha);
  const std::string law = absl::GetFlag(FLAGS_document_length);
  if (law == "poisson") {
    options.length_law = data::SyntheticLdaOptions::LengthLaw::kPoisson;
  } else if (law == "fixed") {
    options.length_law = data::SyntheticLdaOptions::LengthLaw::kFixed;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("--document_length must be 'poisson' or 'fixed', got '", law, "'"));
  }
  options.mean_document_length = absl::GetFlag(FLAGS_mean_document_length);
  options.seed = absl::GetFlag(FLAGS_seed);
  // The options' names are the flags' names.
  SGMCMC_RETURN_IF_ERROR(AsFlagError(options.Validate()));
  return options;
}

absl::Status Rename(const std::string& from, const std::string& to) {
  if (std::rename(from.c_str(), to.c_str()) != 0) {
    return absl::UnavailableError(absl::StrCat("cannot rename ", from, " to ", to));
  }
  return absl::OkStatus();
}

// Writes documents 0..count-1 of `set` to dir/name in two passes; prints the throughput.
absl::Status WriteDocuments(const data::SyntheticLdaCorpus& corpus, data::DocumentSet set,
                            int64_t count, const std::string& dir, const std::string& name) {
  data::SyntheticLdaCorpus::Scratch scratch;
  std::vector<data::WordCount> entries;
  auto start = std::chrono::steady_clock::now();
  const double cpu_start = ProcessCpuSeconds();
  int64_t num_entries = 0, num_tokens = 0;
  for (int64_t d = 0; d < count; ++d) {
    corpus.Document(set, d, scratch, entries);
    num_entries += entries.size();
    num_tokens += scratch.words.size();
  }
  const double count_seconds = SecondsSince(start);
  start = std::chrono::steady_clock::now();
  const std::string temporary = absl::StrCat(dir, "/.tmp.", name);
  SGMCMC_ASSIGN_OR_RETURN(
      std::unique_ptr<data::UciDocwordWriter> writer,
      data::UciDocwordWriter::Open(temporary, count, corpus.options().vocabulary_size,
                                   num_entries));
  for (int64_t d = 0; d < count; ++d) {
    corpus.Document(set, d, scratch, entries);
    writer->AddDocument(entries);
  }
  if (const absl::Status closed = writer->Close(); !closed.ok()) {
    std::remove(temporary.c_str());
    return closed;
  }
  const double write_seconds = SecondsSince(start);
  SGMCMC_RETURN_IF_ERROR(Rename(temporary, absl::StrCat(dir, "/", name)));
  const double total = count_seconds + write_seconds;
  const double cpu = ProcessCpuSeconds() - cpu_start;
  const double megabytes = writer->text_bytes() / 1e6;
  // CPU seconds too: on a shared machine the wall-clock rate says little.
  std::cerr << absl::StrFormat(
      "%s: D = %d, N = %d tokens, NNZ = %d, %.1f MB of text; count pass %.2f s, write pass "
      "%.2f s; %s documents/s, %.1f MB/s (text) overall; %.2f CPU s: %s documents/s, "
      "%.1f MB/s per CPU second\n",
      name, count, num_tokens, num_entries, megabytes, count_seconds, write_seconds,
      HumanRate(count / total), megabytes / total, cpu, HumanRate(count / cpu),
      megabytes / cpu);
  return absl::OkStatus();
}

std::string OptionsText(const data::SyntheticLdaOptions& options, int64_t documents,
                        int64_t heldout) {
  return absl::StrFormat(
      "documents = %d\nheldout_documents = %d\nvocabulary_size = %d\nnum_topics = %d\n"
      "zipf_exponent = %.17g\nbeta = %.17g\nalpha = %.17g\ndocument_length = %s\n"
      "mean_document_length = %.17g\nseed = %d\n",
      documents, heldout, options.vocabulary_size, options.num_topics, options.zipf_exponent,
      options.beta, options.alpha,
      options.length_law == data::SyntheticLdaOptions::LengthLaw::kFixed ? "fixed" : "poisson",
      options.mean_document_length, options.seed);
}

absl::Status Run(const char* /*argv0*/) {
  const std::string dir = FromWorkingDirectory(absl::GetFlag(FLAGS_output_dir));
  if (dir.empty()) return absl::InvalidArgumentError("--output_dir is required");
  const int64_t documents = absl::GetFlag(FLAGS_documents);
  const int64_t heldout = absl::GetFlag(FLAGS_heldout_documents);
  if (documents < 1) {
    return absl::InvalidArgumentError(absl::StrCat("--documents must be >= 1, got ", documents));
  }
  if (heldout < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("--heldout_documents must be >= 0, got ", heldout));
  }
  SGMCMC_ASSIGN_OR_RETURN(const data::SyntheticLdaOptions options, OptionsFromFlags());
  SGMCMC_RETURN_IF_ERROR(CreateOutputDirectory(dir, "--output_dir"));

  // The topics: streamed into topics.phi row by row as they are drawn.
  const auto start = std::chrono::steady_clock::now();
  const std::string phi_temporary = dir + "/.tmp.topics.phi";
  std::FILE* phi_file = std::fopen(phi_temporary.c_str(), "wb");
  if (phi_file == nullptr) {
    return absl::UnavailableError(absl::StrCat(phi_temporary, ": cannot open for writing"));
  }
  std::string bytes = data::EncodeTopicMatrixPhiHeader(options.num_topics,
                                                       options.vocabulary_size, 1);
  bool phi_ok = true;
  absl::StatusOr<data::SyntheticLdaCorpus> corpus = data::SyntheticLdaCorpus::Create(
      options, [&](int, absl::Span<const double> row) {
        data::AppendTopicMatrixPhiValues(row, bytes);
        phi_ok = phi_ok && std::fwrite(bytes.data(), 1, bytes.size(), phi_file) == bytes.size();
        bytes.clear();
      });
  phi_ok = std::fclose(phi_file) == 0 && phi_ok;
  if (!corpus.ok() || !phi_ok) {
    std::remove(phi_temporary.c_str());
    SGMCMC_RETURN_IF_ERROR(corpus.status());
    return absl::DataLossError(absl::StrCat(phi_temporary, ": write error"));
  }
  SGMCMC_RETURN_IF_ERROR(Rename(phi_temporary, dir + "/topics.phi"));
  std::cerr << absl::StrFormat("topics.phi: K = %d, V = %d, drawn with alias tables in %.2f s\n",
                               options.num_topics, options.vocabulary_size,
                               SecondsSince(start));

  std::string vocab;
  for (int w = 0; w < options.vocabulary_size; ++w) {
    absl::StrAppend(&vocab, data::SyntheticWord(w), "\n");
  }
  SGMCMC_RETURN_IF_ERROR(WriteFile(dir + "/vocab.txt", vocab));
  const std::string ending = absl::GetFlag(FLAGS_gzip) ? ".txt.gz" : ".txt";
  SGMCMC_RETURN_IF_ERROR(WriteDocuments(*corpus, data::DocumentSet::kTraining, documents, dir,
                                        "docword" + ending));
  if (heldout > 0) {
    SGMCMC_RETURN_IF_ERROR(WriteDocuments(*corpus, data::DocumentSet::kHeldOut, heldout, dir,
                                          "heldout.docword" + ending));
  }
  return WriteFile(dir + "/generator.txt", OptionsText(options, documents, heldout));
}

}  // namespace
}  // namespace sgmcmc::tools

int main(int argc, char** argv) {
  return sgmcmc::tools::ToolMain(
      argc, argv,
      "Writes a UCI corpus drawn from the LDA generative model with its true topics; see the "
      "header of tools/lda_generate_corpus.cc.",
      sgmcmc::tools::Run);
}
