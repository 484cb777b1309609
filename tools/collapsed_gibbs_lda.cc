// collapsed_gibbs_lda: the exact LDA baseline. Trains collapsed Gibbs (Griffiths & Steyvers
// 2004; models/lda/collapsed_gibbs_lda.h) on a UCI bag-of-words corpus and tracks the
// document-completion perplexity of docs/ALGORITHMS.md ("Evaluation protocol shared by all
// LDA samplers"; eval/perplexity.h) on held-out documents, the same split and perplexity code as
// the `lda` tool, so its numbers are the "collapsed Gibbs run to convergence" reference of the
// SG-MCMC samplers.
//
// Data (data/corpus_loader.h, as the `lda` tool): --docword/--vocab (default: the embedded
// KOS corpus). Held-out documents are drawn with rng::Engine(--seed, data::kSplitStream)
// (--test_documents of them, default 10%), or
// taken from --test_docword (same vocabulary, e.g. the 20 Newsgroups test file); every 10th
// token of a test document is held out, the rest observed.
//
// Every --eval_every sweeps, φ_kw = (n_kw + β)/(n_k + Vβ) of the current state is evaluated:
// --eval_sweeps Gibbs sweeps on each test document's observed tokens (the first half
// discarded) estimate η̂, and p_dw = Σ_k η̂_dk φ_kw scores the held-out tokens. Printed and
// written: the perplexity of that evaluation alone ("perplexity") and of the running mean of
// p_dw over the evaluations after --burn_in sweeps ("running", the estimate of eq. 14 of
// Patterson & Teh 2013), by the protocol of eval/evaluation_schedule.h shared with `lda`. --threads parallelises the evaluation; the sampler itself is the
// exact sequential chain, so every output is identical for any --threads.
//
// Outputs (with --output_dir): trace.csv (sweep, seconds, tokens_per_second, log_joint,
// perplexity, running_perplexity), topics.txt (top words per topic of the final state).
// Progress lines go to stderr, the final summary to stdout.
//
// Usage:
//   bazel run -c opt //tools:collapsed_gibbs_lda -- --sweeps=1000 --output_dir=/tmp/cgs_kos
//   bazel-bin/tools/collapsed_gibbs_lda --docword=/data/ap/docword.ap.txt.gz
//       --vocab=/data/ap/vocab.ap.txt --num_topics=50 --threads=2
//   bazel-bin/tools/collapsed_gibbs_lda
//       --docword=/data/20newsgroups/docword.20news.train.txt.gz
//       --test_docword=/data/20newsgroups/docword.20news.test.txt.gz
//       --vocab=/data/20newsgroups/vocab.20news.txt
// (each command on one line).
#include <algorithm>
#include <iostream>
#include <numeric>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "base/status_macros.h"
#include "data/corpus.h"
#include "data/corpus_config.pb.h"
#include "data/corpus_loader.h"
#include "data/split.h"
#include "eval/evaluation_schedule.h"
#include "eval/perplexity.h"
#include "models/lda/collapsed_gibbs_lda.h"
#include "parallel/thread_pool.h"
#include "tools/tool_support.h"

ABSL_FLAG(std::string, docword, "",
          "Training corpus: UCI docword file (plain or .gz). Empty: the embedded KOS corpus.");
ABSL_FLAG(std::string, vocab, "", "Vocabulary file of --docword (and of --test_docword).");
ABSL_FLAG(std::string, test_docword, "",
          "Optional test corpus over the same vocabulary; then all of --docword is training "
          "data and --test_documents is ignored.");
ABSL_FLAG(int, test_documents, 0,
          "Held-out documents drawn from --docword; 0 = 10% of the documents.");
ABSL_FLAG(int, num_topics, 50, "Number of topics K (>= 1).");
ABSL_FLAG(double, alpha, 0.1, "Document-topic Dirichlet parameter α (> 0).");
ABSL_FLAG(double, beta, 0.5,
          "Topic-word Dirichlet parameter β (> 0); default: the SCIR paper's LDA setting.");
ABSL_FLAG(int, sweeps, 1000, "Gibbs sweeps over the training corpus.");
ABSL_FLAG(int, burn_in, 100,
          "Evaluations after fewer sweeps than this do not enter the running-mean perplexity "
          "(>= 0).");
ABSL_FLAG(int, eval_every, 10, "Evaluate the perplexity every this many sweeps (>= 1).");
ABSL_FLAG(int, eval_sweeps, sgmcmc::eval::kDefaultEvalSweeps,
          "Gibbs sweeps per test document per evaluation, the first half discarded (>= 2).");
ABSL_FLAG(int, threads, 1, "Threads for the perplexity evaluation (>= 1).");
ABSL_FLAG(uint64_t, seed, 1, "Seed of the split, the sampler and the evaluation.");
ABSL_FLAG(std::string, output_dir, "",
          "Directory for trace.csv and topics.txt (created if missing); empty: no files. "
          "Relative paths are taken from where `bazel run` was started.");
ABSL_FLAG(int, top_words, 10, "Words per topic in topics.txt.");

namespace sgmcmc::tools {
namespace {

absl::StatusOr<data::CorpusAndSplit> LoadData(const char* argv0) {
  const std::string docword = absl::GetFlag(FLAGS_docword);
  const std::string vocab = absl::GetFlag(FLAGS_vocab);
  const std::string test_docword = absl::GetFlag(FLAGS_test_docword);
  if (docword.empty() != vocab.empty()) {
    return absl::InvalidArgumentError("--docword and --vocab must be given together");
  }
  if (!test_docword.empty() && docword.empty()) {
    return absl::InvalidArgumentError("--test_docword needs --docword and --vocab");
  }
  data::CorpusConfig config;
  if (!docword.empty()) {
    config.mutable_uci()->set_docword(docword);
    config.mutable_uci()->set_vocab(vocab);
  }
  if (!test_docword.empty()) {
    config.mutable_test_uci()->set_docword(test_docword);
    config.mutable_test_uci()->set_vocab(vocab);
  }
  data::HeldOutOptions held_out;
  held_out.num_test_documents = absl::GetFlag(FLAGS_test_documents);
  SGMCMC_ASSIGN_OR_RETURN(
      data::CorpusAndSplit loaded,
      data::LoadCorpusAndSplit(config, held_out, absl::GetFlag(FLAGS_seed), argv0));
  std::cerr << loaded.description << "\n";
  return loaded;
}

// topics.txt: per topic, its token count and its `top_words` most frequent words.
std::string TopicsText(const models::CollapsedGibbsLda& lda,
                       const std::vector<std::string>& vocabulary, int top_words) {
  std::string out;
  std::vector<int> order(lda.vocabulary_size());
  for (int k = 0; k < lda.num_topics(); ++k) {
    std::iota(order.begin(), order.end(), 0);
    const int n = std::min<int>(top_words, order.size());
    std::partial_sort(order.begin(), order.begin() + n, order.end(), [&](int a, int b) {
      const int ca = lda.word_topic_count(a, k), cb = lda.word_topic_count(b, k);
      return ca != cb ? ca > cb : a < b;
    });
    absl::StrAppend(&out, "topic ", k, " (", lda.topic_count(k), " tokens):");
    for (int i = 0; i < n; ++i) absl::StrAppend(&out, " ", vocabulary[order[i]]);
    out += "\n";
  }
  return out;
}

absl::Status Run(const char* argv0) {
  const int sweeps = absl::GetFlag(FLAGS_sweeps);
  const int eval_every = absl::GetFlag(FLAGS_eval_every);
  const int burn_in = absl::GetFlag(FLAGS_burn_in);
  const int threads = absl::GetFlag(FLAGS_threads);
  if (sweeps < 1) return absl::InvalidArgumentError("--sweeps must be >= 1");
  if (eval_every < 1) return absl::InvalidArgumentError("--eval_every must be >= 1");
  if (burn_in < 0) return absl::InvalidArgumentError("--burn_in must be >= 0");
  SGMCMC_RETURN_IF_ERROR(CheckThreadCount("--threads", threads));
  if (absl::GetFlag(FLAGS_top_words) < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("--top_words must be >= 1, got ", absl::GetFlag(FLAGS_top_words)));
  }
  if (absl::GetFlag(FLAGS_eval_sweeps) < 2) {
    return absl::InvalidArgumentError("--eval_sweeps must be >= 2");
  }

  SGMCMC_ASSIGN_OR_RETURN(data::CorpusAndSplit data, LoadData(argv0));
  models::CollapsedGibbsLdaOptions options;
  options.num_topics = absl::GetFlag(FLAGS_num_topics);
  options.alpha = absl::GetFlag(FLAGS_alpha);
  options.beta = absl::GetFlag(FLAGS_beta);
  options.seed = absl::GetFlag(FLAGS_seed);
  SGMCMC_ASSIGN_OR_RETURN(models::CollapsedGibbsLda lda,
                          models::CollapsedGibbsLda::Create(data.train, options));

  eval::EvaluationScheduleOptions eval_options;
  eval_options.iterations = sweeps;
  eval_options.eval_every = eval_every;
  eval_options.burn_in = burn_in;
  eval_options.eval_sweeps = absl::GetFlag(FLAGS_eval_sweeps);
  eval_options.num_topics = options.num_topics;
  eval_options.alpha = options.alpha;
  eval_options.seed = options.seed;
  SGMCMC_ASSIGN_OR_RETURN(eval::EvaluationSchedule schedule,
                          eval::EvaluationSchedule::Create(data.test, eval_options));
  const eval::DocumentCompletionPerplexity& perplexity = schedule.perplexity();
  parallel::ThreadPool pool(threads);

  std::cerr << absl::StrFormat(
      "collapsed Gibbs LDA: %d training documents, %d tokens, V = %d; %d test documents, %d "
      "held-out tokens; K = %d, alpha = %g, beta = %g, seed = %d, %d sweeps, %d threads\n",
      data.train.num_documents(), data.train.num_tokens(), data.train.vocabulary_size(),
      data.test.observed.num_documents(), perplexity.num_held_out_tokens(), options.num_topics, options.alpha,
      options.beta, options.seed, sweeps, threads);

  // trace.csv is rewritten after every evaluation, so it can be watched during a long run.
  const std::string output_dir = FromWorkingDirectory(absl::GetFlag(FLAGS_output_dir));
  const std::string trace_path = output_dir + "/trace.csv";
  std::string trace = "sweep,seconds,tokens_per_second,log_joint,perplexity,running_perplexity\n";
  if (!output_dir.empty()) {
    SGMCMC_RETURN_IF_ERROR(CreateOutputDirectory(output_dir, "--output_dir"));
    SGMCMC_RETURN_IF_ERROR(WriteFile(trace_path, trace));
  }

  std::vector<double> phi(static_cast<size_t>(options.num_topics) *
                          data.train.vocabulary_size());
  absl::Duration sampling = absl::ZeroDuration();
  double last = 0, running = 0;
  for (int sweep = 1; sweep <= sweeps; ++sweep) {
    const absl::Time start = absl::Now();
    lda.Sweep();
    sampling += absl::Now() - start;
    if (!schedule.IsDue(sweep)) continue;
    lda.TopicWordDistributions(absl::MakeSpan(phi));
    schedule.Evaluate(sweep, phi, &pool);
    last = perplexity.last_perplexity();
    running = perplexity.perplexity();
    const double seconds = absl::ToDoubleSeconds(sampling);
    const double rate = static_cast<double>(lda.num_tokens()) * sweep / seconds;
    const double log_joint = lda.LogJoint();
    std::cerr << absl::StrFormat(
        "sweep %5d  %7.1f s  %5.2f M tokens/s  ETA %6.0f s  log p(w,z) %.6e  perplexity "
        "%.2f  running %.2f (%d evaluations)\n",
        sweep, seconds, rate / 1e6, seconds / sweep * (sweeps - sweep), log_joint, last,
        running, perplexity.num_evaluations());
    if (!output_dir.empty()) {
      absl::StrAppend(&trace, absl::StrFormat("%d,%.4f,%.0f,%.10g,%.6f,%.6f\n", sweep, seconds,
                                              rate, log_joint, last, running));
      SGMCMC_RETURN_IF_ERROR(WriteFile(trace_path, trace));
    }
  }
  if (!output_dir.empty()) {
    SGMCMC_RETURN_IF_ERROR(WriteFile(
        output_dir + "/topics.txt",
        TopicsText(lda, data.train.vocabulary, absl::GetFlag(FLAGS_top_words))));
  }
  std::cout << absl::StrFormat(
      "collapsed Gibbs LDA K=%d alpha=%g beta=%g: %d sweeps in %.1f s sampling (%.1f ms per "
      "sweep); final perplexity %.2f, running-mean perplexity %.2f over %d evaluations\n",
      options.num_topics, options.alpha, options.beta, sweeps, absl::ToDoubleSeconds(sampling),
      absl::ToDoubleMilliseconds(sampling) / sweeps, last, running,
      perplexity.num_evaluations());
  return absl::OkStatus();
}

}  // namespace
}  // namespace sgmcmc::tools

int main(int argc, char** argv) {
  return sgmcmc::tools::ToolMain(
      argc, argv,
      "Collapsed Gibbs LDA baseline with document-completion perplexity; see the header of "
      "tools/collapsed_gibbs_lda.cc.",
      sgmcmc::tools::Run);
}
