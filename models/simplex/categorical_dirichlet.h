// Categorical data with a Dirichlet prior: the synthetic model of Baker et al. (2018), §2.3
// ("the running experiment") and §3.2 / Appendix E.2, as a samplers::CountModel.
//
// N observations z_i ∈ {1..d}, z_i | ω ~ Categorical(ω), ω ~ Dir(α 1); the posterior is
// Dir(α + n) with n_j = #{i : z_i = j}; the items are stored grouped by category (items
// 0..n_1−1 are category 1, and so on). For a minibatch S of n item ids the model reports the
// scaled counts ĉ_j = (N/n) #{i ∈ S : z_i = j}. With S drawn uniformly WITHOUT replacement
// (samplers::Minibatch; the paper's S_m ⊂ {1..N}, |S_m| = n), â_j = α + ĉ_j is unbiased for
// α + n_j with
//   Var[â_j] = (N/n)² · n p_j (1 − p_j) (N − n)/(N − 1),   p_j = n_j / N   (hypergeometric).
//
// The two experiments of the paper:
//   Sparse(): d = 10, N = 1000, n = (800, 100, 100, 0, ..., 0), α = 0.1
//             → Dir(800.1, 100.1, 100.1, 0.1 x 7);
//   Dense():  d = 10, N = 1000, n = (112, 119, 92, 98, 95, 96, 102, 92, 91, 103), α = 0.1
//             (the exact counts of Appendix E.2).
//
// Cost: ScaledCounts is O(n + d) (one label look-up per item; no heap allocation for
// d <= 16). The model stores one int32 label per item.
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(CategoricalDirichlet model,
//                           CategoricalDirichlet::Create(CategoricalDirichletOptions::Sparse()));
//   SGMCMC_ASSIGN_OR_RETURN(samplers::Minibatch minibatch,
//                           samplers::Minibatch::Create(model.num_items(), /*batch_size=*/10));
//   rng::Engine engine(seed, /*stream=*/0);
//   model.ScaledCounts(engine, minibatch.Draw(engine), scir, counts);
//   scir.Step(counts, h);
#ifndef SGMCMC_MODELS_SIMPLEX_CATEGORICAL_DIRICHLET_H_
#define SGMCMC_MODELS_SIMPLEX_CATEGORICAL_DIRICHLET_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "rng/engine.h"
#include "samplers/count_model.h"

namespace sgmcmc::models {

struct CategoricalDirichletOptions {
  // n_j, the number of observations in category j: each >= 0, at least 2 categories, total
  // N = Σ n_j in [1, 2^31). No default (empty is invalid).
  std::vector<int64_t> category_counts;
  // Symmetric Dirichlet prior concentration α: finite, > 0. Default 0.1.
  double alpha = 0.1;

  absl::Status Validate() const;

  // The paper's sparse ("running") and dense experiments, N = 1000, α = 0.1.
  static CategoricalDirichletOptions Sparse();
  static CategoricalDirichletOptions Dense();
};

class CategoricalDirichlet final : public samplers::CountModel {
 public:
  // InvalidArgument naming the field if options.Validate() fails.
  static absl::StatusOr<CategoricalDirichlet> Create(CategoricalDirichletOptions options);

  int num_simplices() const override { return 1; }
  int dimension() const override { return static_cast<int>(options_.category_counts.size()); }
  int64_t num_items() const override { return static_cast<int64_t>(labels_.size()); }
  std::vector<double> PriorConcentration() const override { return {options_.alpha}; }
  // `engine` and `parameters` are unused (the z are observed). Ids are checked (DCHECK).
  void ScaledCounts(rng::Engine& engine, absl::Span<const int64_t> batch,
                    const samplers::SimplexParameters& parameters,
                    samplers::SimplexCounts& counts) const override;

  const CategoricalDirichletOptions& options() const { return options_; }
  // The exact posterior Dir(α + n).
  std::vector<double> PosteriorConcentration() const;
  // Var[â_j] for a uniform minibatch of `batch_size` items without replacement (formula
  // above); batch_size in [1, N] (checked).
  double ScaledCountVariance(int category, int64_t batch_size) const;

 private:
  explicit CategoricalDirichlet(CategoricalDirichletOptions options);

  CategoricalDirichletOptions options_;
  std::vector<int32_t> labels_;  // category of each item, grouped by category
};

}  // namespace sgmcmc::models

#endif  // SGMCMC_MODELS_SIMPLEX_CATEGORICAL_DIRICHLET_H_
