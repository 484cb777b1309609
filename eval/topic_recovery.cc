#include "eval/topic_recovery.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "Eigen/Core"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "linalg/min_cost_assignment.h"

namespace sgmcmc::eval {
namespace {

using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Checks a K x V matrix of probability rows; returns each row's sum.
absl::StatusOr<std::vector<double>> CheckedRowSums(absl::Span<const double> values,
                                                   int num_topics, int vocabulary_size,
                                                   const char* name, double tolerance) {
  if (num_topics < 1 || vocabulary_size < 1) {
    return absl::InvalidArgumentError(absl::StrCat(name, ": K = ", num_topics, ", V = ",
                                                   vocabulary_size, "; both must be >= 1"));
  }
  const int64_t expected = static_cast<int64_t>(num_topics) * vocabulary_size;
  if (static_cast<int64_t>(values.size()) != expected) {
    return absl::InvalidArgumentError(absl::StrCat(name, ": ", values.size(),
                                                   " values, expected K x V = ", num_topics,
                                                   " x ", vocabulary_size, " = ", expected));
  }
  std::vector<double> sums(num_topics);
  for (int k = 0; k < num_topics; ++k) {
    const double* row = values.data() + static_cast<int64_t>(k) * vocabulary_size;
    double sum = 0;
    for (int w = 0; w < vocabulary_size; ++w) {
      if (!(row[w] >= 0) || !std::isfinite(row[w])) {
        return absl::InvalidArgumentError(absl::StrCat(
            name, ": topic ", k, ", word ", w, ": ", row[w],
            std::isfinite(row[w]) ? " is negative" : " is not finite"));
      }
      sum += row[w];
    }
    if (!(std::abs(sum - 1) <= tolerance)) {
      return absl::InvalidArgumentError(
          absl::StrFormat("%s: topic %d sums to %.17g, not 1 within row_sum_tolerance %g "
                          "(normalise the rows first)",
                          name, k, sum, tolerance));
    }
    sums[k] = sum;
  }
  return sums;
}

// √(row / sum) for the words [begin, begin + block.cols()) of every row.
void FillSqrtBlock(absl::Span<const double> values, const std::vector<double>& sums,
                   int vocabulary_size, int begin, RowMajorMatrix& block) {
  for (int k = 0; k < block.rows(); ++k) {
    const double* row = values.data() + static_cast<int64_t>(k) * vocabulary_size + begin;
    const double inverse = 1 / sums[k];
    for (int j = 0; j < block.cols(); ++j) block(k, j) = std::sqrt(row[j] * inverse);
  }
}

// The Hellinger distances sqrt(max(0, 1 − BC)) of all pairs, K_true x K_learned row-major.
std::vector<double> ApproximateDistances(absl::Span<const double> truth,
                                         const std::vector<double>& truth_sums,
                                         absl::Span<const double> learned,
                                         const std::vector<double>& learned_sums,
                                         int vocabulary_size) {
  const int kt = truth_sums.size(), kl = learned_sums.size();
  RowMajorMatrix bc = RowMajorMatrix::Zero(kt, kl);
  RowMajorMatrix a, b;
  for (int begin = 0; begin < vocabulary_size; begin += kTopicRecoveryBlockWords) {
    const int width = std::min(kTopicRecoveryBlockWords, vocabulary_size - begin);
    a.resize(kt, width);
    b.resize(kl, width);
    FillSqrtBlock(truth, truth_sums, vocabulary_size, begin, a);
    FillSqrtBlock(learned, learned_sums, vocabulary_size, begin, b);
    bc.noalias() += a * b.transpose();
  }
  std::vector<double> distances(static_cast<size_t>(kt) * kl);
  for (int i = 0; i < kt; ++i) {
    for (int j = 0; j < kl; ++j) {
      distances[static_cast<size_t>(i) * kl + j] = std::sqrt(std::max(0.0, 1 - bc(i, j)));
    }
  }
  return distances;
}

// sqrt(½ Σ (√p − √q)²) of two rows divided by their sums, capped at 1.
double Hellinger(const double* p, double p_sum, const double* q, double q_sum,
                 int vocabulary_size) {
  const double p_inverse = 1 / p_sum, q_inverse = 1 / q_sum;
  double sum = 0;
  for (int w = 0; w < vocabulary_size; ++w) {
    const double d = std::sqrt(p[w] * p_inverse) - std::sqrt(q[w] * q_inverse);
    sum += d * d;
  }
  return std::min(1.0, std::sqrt(0.5 * sum));
}

}  // namespace

absl::Status TopicRecoveryOptions::Validate() const {
  if (!(row_sum_tolerance >= 0 && row_sum_tolerance < 0.5)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "TopicRecoveryOptions.row_sum_tolerance = ", row_sum_tolerance, " not in [0, 0.5)"));
  }
  return absl::OkStatus();
}

absl::StatusOr<TopicRecovery> TopicRecoveryScore(absl::Span<const double> true_topics,
                                                 int num_true_topics,
                                                 absl::Span<const double> learned_topics,
                                                 int num_learned_topics, int vocabulary_size,
                                                 const TopicRecoveryOptions& options) {
  SGMCMC_RETURN_IF_ERROR(options.Validate());
  SGMCMC_ASSIGN_OR_RETURN(const std::vector<double> true_sums,
                          CheckedRowSums(true_topics, num_true_topics, vocabulary_size,
                                         "true topics", options.row_sum_tolerance));
  SGMCMC_ASSIGN_OR_RETURN(const std::vector<double> learned_sums,
                          CheckedRowSums(learned_topics, num_learned_topics, vocabulary_size,
                                         "learned topics", options.row_sum_tolerance));
  const std::vector<double> distances = ApproximateDistances(
      true_topics, true_sums, learned_topics, learned_sums, vocabulary_size);
  SGMCMC_ASSIGN_OR_RETURN(
      const linalg::Assignment assignment,
      linalg::MinCostAssignment(distances, num_true_topics, num_learned_topics));

  TopicRecovery result;
  result.learned_for_true = assignment.column_for_row;
  double total = 0;
  for (int k = 0; k < num_true_topics; ++k) {
    const int learned = assignment.column_for_row[k];
    if (learned < 0) continue;
    TopicMatch match;
    match.true_topic = k;
    match.learned_topic = learned;
    match.hellinger =
        Hellinger(true_topics.data() + static_cast<int64_t>(k) * vocabulary_size, true_sums[k],
                  learned_topics.data() + static_cast<int64_t>(learned) * vocabulary_size,
                  learned_sums[learned], vocabulary_size);
    total += match.hellinger;
    result.matches.push_back(match);
  }
  const int matched = result.matches.size();
  result.unmatched_true_topics = num_true_topics - matched;
  result.unmatched_learned_topics = num_learned_topics - matched;
  result.mean_hellinger = total / matched;
  result.mean_hellinger_over_true = (total + result.unmatched_true_topics) / num_true_topics;
  return result;
}

absl::StatusOr<TopicRecovery> TopicRecoveryScore(const data::TopicMatrix& true_topics,
                                                 const data::TopicMatrix& learned_topics,
                                                 const TopicRecoveryOptions& options) {
  if (true_topics.vocabulary_size != learned_topics.vocabulary_size) {
    return absl::InvalidArgumentError(absl::StrCat(
        "true topics have V = ", true_topics.vocabulary_size, ", learned topics V = ",
        learned_topics.vocabulary_size, ": not the same vocabulary"));
  }
  return TopicRecoveryScore(true_topics.values, true_topics.num_topics, learned_topics.values,
                            learned_topics.num_topics, true_topics.vocabulary_size, options);
}

}  // namespace sgmcmc::eval
