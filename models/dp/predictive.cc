#include "models/dp/predictive.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "base/check.h"

namespace sgmcmc::models {
namespace {

double LogSumExp(absl::Span<const double> values) {
  double m = -std::numeric_limits<double>::infinity();
  for (double v : values) m = std::max(m, v);
  if (!std::isfinite(m)) return m;
  double sum = 0;
  for (double v : values) sum += std::exp(v - m);
  return m + std::log(sum);
}

}  // namespace

DpPredictiveAverage::Bag DpPredictiveAverage::MakeBag(absl::Span<const int32_t> tokens,
                                                      int vocabulary_size, double a) {
  std::vector<int32_t> sorted(tokens.begin(), tokens.end());
  std::sort(sorted.begin(), sorted.end());
  Bag bag;
  const double n = static_cast<double>(sorted.size());
  bag.log_coefficient = std::lgamma(n + 1);
  bag.log_dm = std::lgamma(vocabulary_size * a) - std::lgamma(vocabulary_size * a + n);
  for (size_t k = 0; k < sorted.size();) {
    size_t end = k;
    while (end < sorted.size() && sorted[end] == sorted[k]) ++end;
    const double count = static_cast<double>(end - k);
    bag.words.push_back(sorted[k]);
    bag.counts.push_back(count);
    bag.log_coefficient -= std::lgamma(count + 1);
    bag.log_dm += std::lgamma(a + count) - std::lgamma(a);
    k = end;
  }
  return bag;
}

double DpPredictiveAverage::LogPredictive(const DpMixtureDraw& draw, const Bag& bag,
                                          absl::Span<double> terms) const {
  const int k = draw.num_components();
  for (int j = 0; j < k; ++j) {
    const double* log_theta = draw.log_atoms.data() + static_cast<size_t>(j) * vocabulary_size_;
    double sum = std::log(draw.weights[j]);
    for (size_t e = 0; e < bag.words.size(); ++e) sum += bag.counts[e] * log_theta[bag.words[e]];
    terms[j] = sum;
  }
  terms[k] = draw.log_leftover + bag.log_dm;
  return bag.log_coefficient + LogSumExp(terms.first(k + 1));
}

double DpLogPredictive(const DpMixtureDraw& draw, double atom_concentration,
                       absl::Span<const int32_t> tokens) {
  data::Corpus one;
  one.vocabulary.resize(draw.vocabulary_size);
  one.AddDocument(tokens);
  DpPredictiveAverage average(&one, atom_concentration);
  average.Add(draw);
  return average.MeanLogPredictive();
}

DpPredictiveAverage::DpPredictiveAverage(const data::Corpus* test, double atom_concentration)
    : atom_concentration_(atom_concentration), vocabulary_size_(test->vocabulary_size()) {
  SGMCMC_CHECK(atom_concentration > 0 && std::isfinite(atom_concentration))
      << "DpPredictiveAverage: atom_concentration must be finite and > 0, got "
      << atom_concentration;
  for (int i = 0; i < test->num_documents(); ++i) {
    bags_.push_back(MakeBag(test->document(i), vocabulary_size_, atom_concentration_));
  }
  Reset();
}

void DpPredictiveAverage::Reset() {
  log_sum_.assign(bags_.size(), -std::numeric_limits<double>::infinity());
  num_draws_ = 0;
}

void DpPredictiveAverage::Add(const DpMixtureDraw& draw) {
  SGMCMC_CHECK(draw.vocabulary_size == vocabulary_size_)
      << "DpPredictiveAverage::Add: draw over " << draw.vocabulary_size << " words, test set over "
      << vocabulary_size_;
  SGMCMC_CHECK(draw.log_atoms.size() ==
               static_cast<size_t>(draw.num_components()) * vocabulary_size_)
      << "DpPredictiveAverage::Add: log_atoms has " << draw.log_atoms.size() << " entries";
  scratch_.resize(draw.num_components() + 1);
  for (size_t i = 0; i < bags_.size(); ++i) {
    const double lp = LogPredictive(draw, bags_[i], absl::MakeSpan(scratch_));
    const double m = std::max(log_sum_[i], lp);
    log_sum_[i] = m + std::log(std::exp(log_sum_[i] - m) + std::exp(lp - m));
  }
  ++num_draws_;
}

double DpPredictiveAverage::MeanLogPredictive() const {
  if (num_draws_ == 0 || log_sum_.empty()) return 0;
  double sum = 0;
  for (double l : log_sum_) sum += l - std::log(static_cast<double>(num_draws_));
  return sum / static_cast<double>(log_sum_.size());
}

DpPredictiveState DpPredictiveAverage::GetState() const {
  DpPredictiveState state;
  state.mutable_log_sum()->Assign(log_sum_.begin(), log_sum_.end());
  state.set_num_draws(num_draws_);
  return state;
}

absl::Status DpPredictiveAverage::RestoreState(const DpPredictiveState& state) {
  if (static_cast<size_t>(state.log_sum_size()) != log_sum_.size()) {
    return absl::InvalidArgumentError(absl::StrCat("DpPredictiveState.log_sum has ",
                                                   state.log_sum_size(), " entries, the test set ",
                                                   log_sum_.size(), " users"));
  }
  if (state.num_draws() < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("DpPredictiveState.num_draws must be >= 0, got ", state.num_draws()));
  }
  for (int i = 0; i < state.log_sum_size(); ++i) {
    if (std::isnan(state.log_sum(i)) ||
        state.log_sum(i) == std::numeric_limits<double>::infinity()) {
      return absl::InvalidArgumentError(
          absl::StrCat("DpPredictiveState.log_sum[", i, "] = ", state.log_sum(i)));
    }
  }
  log_sum_.assign(state.log_sum().begin(), state.log_sum().end());
  num_draws_ = state.num_draws();
  return absl::OkStatus();
}

}  // namespace sgmcmc::models
