// lda_topic_recovery: scores learned topic matrices against the true topics of a synthetic
// corpus (topics.phi of tools/lda_generate_corpus) with eval/topic_recovery.h: true topics
// matched to learned ones by an optimal assignment (Hungarian algorithm) on Hellinger
// distances, and the mean distance of the matched pairs. Any program's topics are scored the
// same way: ours (.phi), gensim's get_topics() or scikit-learn's components_ saved as .tsv
// (K lines of V numbers) or .f64 (data/topic_matrix.h).
//
// Every row of every matrix is divided by its sum first (as lda_evaluate does: scikit-learn's
// components_ are unnormalised); a negative or non-finite entry, or a zero row, is an error
// naming the file, row and column. K_learned may differ from K_true (eval/topic_recovery.h
// says how: spare learned topics are ignored, missing ones count 1 in
// mean_hellinger_over_true).
//
// Output CSV (--output, or stdout), one line per --topics file:
//   file,num_topics,mean_hellinger,mean_hellinger_over_true,unmatched_true_topics,
//   unmatched_learned_topics
// and with --matching_output a CSV of the pairs: file,true_topic,learned_topic,hellinger.
//
// Usage:
//   bazel run -c opt //tools:lda_topic_recovery -- --true_topics=/tmp/synth/topics.phi \
//       --topics=/tmp/run/topic_matrix_mean_scir.phi,/tmp/sklearn.tsv --output=recovery.csv
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "base/status_macros.h"
#include "data/topic_matrix.h"
#include "eval/topic_recovery.h"
#include "tools/tool_support.h"

ABSL_FLAG(std::string, true_topics, "", "The true K x V topic matrix (.phi, .tsv or .f64).");
ABSL_FLAG(std::string, topics, "", "Comma-separated learned topic matrices to score.");
ABSL_FLAG(std::string, output, "", "CSV of the scores; empty: stdout.");
ABSL_FLAG(std::string, matching_output, "", "Optional CSV of the matched pairs.");

namespace sgmcmc::tools {
namespace {

absl::StatusOr<data::TopicMatrix> ReadNormalised(const std::string& path,
                                                 int vocabulary_size) {
  SGMCMC_ASSIGN_OR_RETURN(data::TopicMatrix matrix,
                          data::ReadTopicMatrix(path, vocabulary_size));
  SGMCMC_RETURN_IF_ERROR(data::NormalizeTopicRows(matrix, path));
  return matrix;
}

absl::Status Run(const char* /*argv0*/) {
  const std::string truth_path = FromWorkingDirectory(absl::GetFlag(FLAGS_true_topics));
  const std::string topics_flag = absl::GetFlag(FLAGS_topics);
  if (truth_path.empty() || topics_flag.empty()) {
    return absl::InvalidArgumentError("--true_topics and --topics are required");
  }
  SGMCMC_ASSIGN_OR_RETURN(const data::TopicMatrix truth, ReadNormalised(truth_path, -1));
  std::string scores =
      "file,num_topics,mean_hellinger,mean_hellinger_over_true,unmatched_true_topics,"
      "unmatched_learned_topics\n";
  std::string matching = "file,true_topic,learned_topic,hellinger\n";
  const std::vector<std::string> names = absl::StrSplit(topics_flag, ',');
  for (const std::string& name : names) {
    const std::string path = FromWorkingDirectory(name);
    // The vocabulary size is checked against the truth's (for .f64 it is needed to read).
    SGMCMC_ASSIGN_OR_RETURN(const data::TopicMatrix learned,
                            ReadNormalised(path, truth.vocabulary_size));
    const absl::StatusOr<eval::TopicRecovery> score = eval::TopicRecoveryScore(truth, learned);
    if (!score.ok()) {
      return absl::Status(score.status().code(),
                          absl::StrCat(path, " against ", truth_path, ": ",
                                       score.status().message()));
    }
    absl::StrAppendFormat(&scores, "%s,%d,%.9g,%.9g,%d,%d\n", name, learned.num_topics,
                          score->mean_hellinger, score->mean_hellinger_over_true,
                          score->unmatched_true_topics, score->unmatched_learned_topics);
    for (const eval::TopicMatch& match : score->matches) {
      absl::StrAppendFormat(&matching, "%s,%d,%d,%.9g\n", name, match.true_topic,
                            match.learned_topic, match.hellinger);
    }
  }
  const std::string matching_path = FromWorkingDirectory(absl::GetFlag(FLAGS_matching_output));
  if (!matching_path.empty()) SGMCMC_RETURN_IF_ERROR(WriteFile(matching_path, matching));
  const std::string output = FromWorkingDirectory(absl::GetFlag(FLAGS_output));
  if (output.empty()) {
    std::cout << scores;
    return absl::OkStatus();
  }
  return WriteFile(output, scores);
}

}  // namespace
}  // namespace sgmcmc::tools

int main(int argc, char** argv) {
  return sgmcmc::tools::ToolMain(
      argc, argv,
      "Scores learned topic matrices against true topics (matched mean Hellinger distance); "
      "see the header of tools/lda_topic_recovery.cc.",
      sgmcmc::tools::Run);
}
