#include "models/simplex/categorical_dirichlet.h"

#include <cmath>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "base/check.h"

namespace sgmcmc::models {

absl::Status CategoricalDirichletOptions::Validate() const {
  if (category_counts.size() < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("CategoricalDirichletOptions.category_counts must have >= 2 categories, got ",
                     category_counts.size()));
  }
  int64_t total = 0;
  for (size_t j = 0; j < category_counts.size(); ++j) {
    if (category_counts[j] < 0) {
      return absl::InvalidArgumentError(absl::StrCat("CategoricalDirichletOptions.category_counts[",
                                                     j, "] must be >= 0, got ",
                                                     category_counts[j]));
    }
    total += category_counts[j];
    if (total >= (int64_t{1} << 31)) {
      return absl::InvalidArgumentError(
          "CategoricalDirichletOptions.category_counts must total less than 2^31");
    }
  }
  if (total < 1) {
    return absl::InvalidArgumentError(
        "CategoricalDirichletOptions.category_counts must total at least 1");
  }
  if (!(alpha > 0) || !std::isfinite(alpha)) {
    return absl::InvalidArgumentError(
        absl::StrCat("CategoricalDirichletOptions.alpha must be finite and > 0, got ", alpha));
  }
  return absl::OkStatus();
}

CategoricalDirichletOptions CategoricalDirichletOptions::Sparse() {
  CategoricalDirichletOptions options;
  options.category_counts = {800, 100, 100, 0, 0, 0, 0, 0, 0, 0};
  options.alpha = 0.1;
  return options;
}

CategoricalDirichletOptions CategoricalDirichletOptions::Dense() {
  CategoricalDirichletOptions options;
  options.category_counts = {112, 119, 92, 98, 95, 96, 102, 92, 91, 103};
  options.alpha = 0.1;
  return options;
}

CategoricalDirichlet::CategoricalDirichlet(CategoricalDirichletOptions options)
    : options_(std::move(options)) {
  for (size_t j = 0; j < options_.category_counts.size(); ++j) {
    labels_.insert(labels_.end(), options_.category_counts[j], static_cast<int32_t>(j));
  }
}

absl::StatusOr<CategoricalDirichlet> CategoricalDirichlet::Create(
    CategoricalDirichletOptions options) {
  if (absl::Status s = options.Validate(); !s.ok()) return s;
  return CategoricalDirichlet(std::move(options));
}

void CategoricalDirichlet::ScaledCounts(rng::Engine& /*engine*/, absl::Span<const int64_t> batch,
                                        const samplers::SimplexParameters& /*parameters*/,
                                        samplers::SimplexCounts& counts) const {
  SGMCMC_CHECK(!batch.empty()) << "CategoricalDirichlet::ScaledCounts: empty batch";
  absl::InlinedVector<int64_t, 16> tally(dimension(), 0);
  for (int64_t id : batch) {
    SGMCMC_DCHECK(id >= 0 && id < num_items())
        << "CategoricalDirichlet::ScaledCounts: id " << id << " outside [0, " << num_items() << ")";
    ++tally[labels_[id]];
  }
  const double scale = static_cast<double>(num_items()) / static_cast<double>(batch.size());
  counts.Reset(1, dimension());
  for (int j = 0; j < dimension(); ++j) {
    if (tally[j] > 0) counts.Append(0, j, scale * static_cast<double>(tally[j]));
  }
}

std::vector<double> CategoricalDirichlet::PosteriorConcentration() const {
  std::vector<double> posterior;
  for (int64_t n : options_.category_counts) posterior.push_back(options_.alpha + n);
  return posterior;
}

double CategoricalDirichlet::ScaledCountVariance(int category, int64_t batch_size) const {
  SGMCMC_CHECK(category >= 0 && category < dimension())
      << "CategoricalDirichlet::ScaledCountVariance: category " << category << " outside [0, "
      << dimension() << ")";
  SGMCMC_CHECK(batch_size >= 1 && batch_size <= num_items())
      << "CategoricalDirichlet::ScaledCountVariance: batch_size " << batch_size << " outside [1, "
      << num_items() << "]";
  const double big_n = static_cast<double>(num_items());
  const double n = static_cast<double>(batch_size);
  const double p = options_.category_counts[category] / big_n;
  const double finite_population = big_n > 1 ? (big_n - n) / (big_n - 1) : 0.0;
  return (big_n / n) * (big_n / n) * n * p * (1 - p) * finite_population;
}

}  // namespace sgmcmc::models
