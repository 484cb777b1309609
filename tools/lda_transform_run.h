// The `lda_transform` tool's engine (tools/lda_transform.cc is its command line): topic
// proportions θ of new documents under saved topic matrices, by fold-in with φ fixed
// (eval/fold_in.h: deterministic fixed-point iterations, α given), written as a D x K matrix.
//
// Inputs: one or more topic matrices (data/topic_matrix.h: .phi, .tsv or .f64, rows
// normalised here), e.g. the `lda` tool's topic_matrix_mean_RUN.phi (the posterior mean) or
// several of its snapshots (then θ is the average of the fold-ins over them, the average over
// kept samples); and the documents, either a UCI docword file with the vocabulary of φ, or raw
// text (one document per line, or a directory of files) tokenised as the `lda` tool does and
// mapped onto the vocabulary of φ (words outside it are dropped; every line gives a row, empty
// or not).
//
// Output: D lines of K tab-separated proportions ("%.9g"), line d for document d.
//
// Cost: reading the inputs plus the fold-ins (eval/fold_in.h), O(S iterations nnz K).
//
// Example:
//   LdaTransformOptions options;
//   options.topics = {"lda_output/topic_matrix_mean_scir_fast.phi"};
//   options.docword = "new_docs.txt";
//   options.vocab = "vocab.kos.txt";
//   options.output = "theta.tsv";
//   SGMCMC_RETURN_IF_ERROR(RunLdaTransform(options, std::cerr));
#ifndef SGMCMC_TOOLS_LDA_TRANSFORM_RUN_H_
#define SGMCMC_TOOLS_LDA_TRANSFORM_RUN_H_

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "data/topic_matrix.h"
#include "eval/fold_in.h"

namespace sgmcmc::tools {

struct LdaTransformOptions {
  // Topic matrices (at least one); with several, θ is the mean of their fold-ins. All must
  // have the same K and V.
  std::vector<std::string> topics;
  // Either a UCI corpus (docword, plain or gzip, and its vocabulary file, whose size must be
  // φ's V) ...
  std::string docword;
  // ... or raw text (`text`: a file with one document per line, or a directory of files),
  // with `vocab` (one word per line, φ's columns in order) as the fixed vocabulary.
  std::string text;
  std::string vocab;
  // Where the D x K matrix goes (tab-separated text).
  std::string output;
  // α, iterations and tolerance of the fold-in; α = 0: models::DefaultLdaAlpha(K), the α of
  // an lda run over K topics that named neither preset nor alpha (K α = 0.05 K within
  // [5, 10], α <= 0.1), logged.
  eval::FoldInOptions fold_in;
  // Worker threads, >= 1; the output does not depend on it. Default 1.
  int threads = 1;
};

// Reads the topic matrices of `paths` and normalises their rows. Errors name the file (and
// line for text); InvalidArgument if a matrix's K or V differs from the first's or, when
// vocabulary_size >= 0, its V differs from vocabulary_size.
absl::StatusOr<std::vector<data::TopicMatrix>> ReadNormalizedTopicMatrices(
    const std::vector<std::string>& paths, int vocabulary_size = -1);

// Reads the inputs, folds in and writes options.output; a line per step to `log`. Errors
// name the flag or the file (and line) at fault.
absl::Status RunLdaTransform(const LdaTransformOptions& options, std::ostream& log);

}  // namespace sgmcmc::tools

#endif  // SGMCMC_TOOLS_LDA_TRANSFORM_RUN_H_
