// Topic recovery: how well learned topics (rows of a K_learned x V topic matrix φ̂) recover
// the true topics of a synthetic corpus (rows of a K_true x V matrix φ, e.g. written by
// tools/lda_generate_corpus), scored the same way for every program that learns topics.
//
// Topics are probability vectors over the V words; their distance is the Hellinger distance
//   H(p, q) = sqrt(½ Σ_w (√p_w − √q_w)²) = sqrt(1 − Σ_w √(p_w q_w)) ∈ [0, 1]
// (0 for identical topics, 1 for topics with disjoint supports). True topics are matched to
// distinct learned topics by an optimal assignment: the matching of min(K_true, K_learned)
// pairs with the least total Hellinger distance, found exactly by the Hungarian algorithm
// (linalg/min_cost_assignment.h) on the K_true x K_learned distance matrix. The score is the
// mean Hellinger distance over the matched pairs; it does not depend on the order of either
// set of topics (topics are identifiable only up to a permutation).
//
// K_learned != K_true:
//   K_learned > K_true: every true topic gets its own learned topic; the K_learned − K_true
//     learned topics left over do not enter the score (an over-complete model is not
//     penalised for its spare topics).
//   K_learned < K_true: every learned topic is matched to one true topic; the K_true −
//     K_learned true topics left over are reported (unmatched_true_topics), and
//     mean_hellinger_over_true counts each of them at the maximum distance 1, so learning
//     fewer topics never improves that score. mean_hellinger averages the matched pairs only.
//
// Rows must be probability vectors: entries finite and >= 0, each row summing to 1 within
// options.row_sum_tolerance; each row is then divided by its sum (so the distances are those
// of exactly normalised rows).
//
// Numerics: the matching uses distances from Bhattacharyya coefficients BC = Σ √p √q computed
// as a blocked matrix product (sqrt(max(0, 1 − BC)); rounding error up to ~1e-8 near 0,
// which can only change the matching between pairings whose total distances agree to that
// level); the reported distances of the matched pairs are then recomputed from the first
// form above, exactly 0 for identical rows.
//
// Cost: O(K_true K_learned V) for the distance matrix (matrix products over blocks of
// kTopicRecoveryBlockWords words; O((K_true + K_learned) · block + K_true K_learned)
// memory), O(n² m) for the assignment with n = min(K_true, K_learned), m = max(...), and
// O(min(K) V) for the matched distances. K = 1000, V = 50,000: about 5·10^10 multiply-adds.
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(data::TopicMatrix truth, data::ReadTopicMatrix("true_topics.phi"));
//   SGMCMC_ASSIGN_OR_RETURN(data::TopicMatrix learned, data::ReadTopicMatrix("learned.phi"));
//   SGMCMC_ASSIGN_OR_RETURN(TopicRecovery score, TopicRecoveryScore(truth, learned));
//   std::cout << score.mean_hellinger;
#ifndef SGMCMC_EVAL_TOPIC_RECOVERY_H_
#define SGMCMC_EVAL_TOPIC_RECOVERY_H_

#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "data/topic_matrix.h"

namespace sgmcmc::eval {

// Words per block of the distance-matrix product.
inline constexpr int kTopicRecoveryBlockWords = 2048;

struct TopicRecoveryOptions {
  // Largest accepted |Σ_w row[w] − 1| for a row of either matrix; must be finite and in
  // [0, 0.5). Default 1e-6 (a .tsv written with 9 significant digits is within 1e-9).
  double row_sum_tolerance = 1e-6;

  absl::Status Validate() const;
};

// One matched pair.
struct TopicMatch {
  int true_topic = 0;
  int learned_topic = 0;
  double hellinger = 0;  // H(true row, learned row), in [0, 1]
};

struct TopicRecovery {
  // min(K_true, K_learned) pairs in ascending true_topic order.
  std::vector<TopicMatch> matches;
  // For each true topic, its learned topic, or -1 if it is left over (K_learned < K_true).
  std::vector<int> learned_for_true;
  // Mean Hellinger distance over `matches`.
  double mean_hellinger = 0;
  // (Σ matched distances + unmatched_true_topics) / K_true: left-over true topics count 1.
  double mean_hellinger_over_true = 0;
  int unmatched_true_topics = 0;
  int unmatched_learned_topics = 0;
};

// `true_topics`: K_true x V (row-major), `learned_topics`: K_learned x V; K_true, K_learned
// and V >= 1. InvalidArgument, naming the matrix ("true topics" / "learned topics"), the row
// and the word, if a size is not K x V, an entry is negative or not finite, or a row does
// not sum to 1 within the tolerance; or if the options are invalid.
absl::StatusOr<TopicRecovery> TopicRecoveryScore(absl::Span<const double> true_topics,
                                                 int num_true_topics,
                                                 absl::Span<const double> learned_topics,
                                                 int num_learned_topics, int vocabulary_size,
                                                 const TopicRecoveryOptions& options = {});

// The same for two topic matrices (data/topic_matrix.h); InvalidArgument if their
// vocabulary sizes differ ("true topics have V = 5, learned topics V = 6").
absl::StatusOr<TopicRecovery> TopicRecoveryScore(const data::TopicMatrix& true_topics,
                                                 const data::TopicMatrix& learned_topics,
                                                 const TopicRecoveryOptions& options = {});

}  // namespace sgmcmc::eval

#endif  // SGMCMC_EVAL_TOPIC_RECOVERY_H_
