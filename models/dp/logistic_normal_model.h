// The low-rank logistic-normal multinomial of Zhang, Williamson & Perez-Cruz §4.3, eq. (9)
// (models/simplex/logistic_normal_multinomial.h) as a DpComponentModel (models/dp/component_model.h),
// so that the DP mixture samplers of models/dp/neal8.h, models/dp/parallel.h and
// models/dp/distributed_slice.h run the paper's non-conjugate experiments:
//   x_i | θ_k ~ Multinomial(Σ_d x_id, softmax(η_k)),  η_k ~ H = N(m, Λ Λᵀ + s² I).
// An adapter only: every density and move is the wrapped model's.
//   - Atom: [η (D) | log softmax(η) (D)], atom_size 2D, kept consistent by every method, so
//     LogLikelihood is one dot product Σ_d x_d log θ_d.
//   - Statistics: the summed counts (D doubles, integers); UpdateAtom rounds them into
//     MultinomialStatistics and runs the model's elliptical slice steps from the current η.
//   - UpdateGlobal: the model's UpdateBase, (Λ, m) | atoms by elliptical slice sampling.
//   - Empirical kernel of eq. 5: η ~ N(log(x + ½) − mean_d log(x_d + ½), τ² I), a density on
//     R^D around the log of the smoothed proportions of x (τ = empirical_sd).
//   - LogMarginal(x): a Monte Carlo estimate, log (1/M) Σ_j f(x | η_j) over a fixed bank of M
//     base draws η_j = m + Λ z_j + s ε_j (z_j, ε_j standard normal, drawn once from
//     rng::Engine(bank_seed, 0) and re-mapped after each UpdateGlobal); for held-out
//     evaluation only (consistent as M grows; biased low for finite M, by Jensen).
//
// Cost: LogLikelihood O(D); SampleBase O(D r); UpdateAtom as the model's plus O(D) copies;
// LogBaseDensity O(D r + r²); LogMarginal O(M D); UpdateGlobal the model's UpdateBase plus
// O(M D r) for the bank.
//
// Example:
//   LogisticNormalMultinomialOptions lnm;
//   lnm.dimension = 784;
//   rng::Engine engine(seed, 0);
//   SGMCMC_ASSIGN_OR_RETURN(LogisticNormalMultinomial base,
//                           LogisticNormalMultinomial::Create(lnm, engine));
//   DpLogisticNormalModel model(std::move(base), DpLogisticNormalOptions{});
//   DpNeal8 sampler(&model, &data, DpNeal8Options{});
#ifndef SGMCMC_MODELS_DP_LOGISTIC_NORMAL_MODEL_H_
#define SGMCMC_MODELS_DP_LOGISTIC_NORMAL_MODEL_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "models/dp/component_model.h"
#include "models/simplex/logistic_normal_multinomial.h"
#include "rng/engine.h"

namespace sgmcmc::models {

struct DpLogisticNormalOptions {
  // τ, the standard deviation of the empirical kernel; finite, > 0. Default 0.5.
  double empirical_sd = 0.5;
  // M, the base draws of the LogMarginal estimate; >= 1. Default 64.
  int marginal_draws = 64;
  // Key of the bank's stream. Default 1.
  uint64_t bank_seed = 1;

  absl::Status Validate() const;
};

class DpLogisticNormalModel final : public DpComponentModel {
 public:
  // options valid (checked).
  DpLogisticNormalModel(LogisticNormalMultinomial model, const DpLogisticNormalOptions& options);

  const LogisticNormalMultinomial& model() const { return model_; }

  int dimension() const override { return model_.dimension(); }
  int atom_size() const override { return 2 * model_.dimension(); }
  int stats_size() const override { return model_.dimension(); }

  double LogLikelihood(const double* x, const double* atom) const override;
  double LogNormalizer(const double* x) const override;
  void AccumulateStats(const double* x, double sign, double* stats) const override;
  void SampleBase(rng::Engine& engine, double* atom) const override;
  double LogBaseDensity(const double* atom) const override;
  void UpdateAtom(rng::Engine& engine, const double* stats, double* atom) const override;
  void SampleEmpirical(rng::Engine& engine, const double* x, double* atom) const override;
  double LogEmpiricalDensity(const double* x, const double* atom) const override;
  double LogMarginal(const double* x) const override;
  void UpdateGlobal(rng::Engine& engine, absl::Span<const double> atoms, int num_atoms) override;
  // (Λ row-major, m): the base the UpdateGlobal moves; restoring it also re-maps the bank.
  std::vector<double> GlobalState() const override;
  absl::Status RestoreGlobalState(absl::Span<const double> state) override;

 private:
  // Writes η and its log softmax into `atom`.
  void StoreAtom(absl::Span<const double> eta, double* atom) const;
  // The empirical kernel's centre for x.
  std::vector<double> EmpiricalCentre(const double* x) const;
  // Re-maps the bank's standard normals through the current (Λ, m).
  void RefreshBank();

  LogisticNormalMultinomial model_;
  DpLogisticNormalOptions options_;
  std::vector<double> bank_normals_;    // M x (r + D)
  std::vector<double> bank_log_probs_;  // M x D
};

}  // namespace sgmcmc::models

#endif  // SGMCMC_MODELS_DP_LOGISTIC_NORMAL_MODEL_H_
