// The likelihood / base-measure interface of the generic DP mixture samplers of
// models/dp/neal8.h (Neal 2000, Algorithm 8; Zhang, Williamson & Perez-Cruz, Algorithms 1-2)
// and models/dp/parallel.h (their §3.2-3.3), with its conjugate implementation: multinomial
// likelihood, Dirichlet base (their eq. 8):
//   x_i | θ ~ Multinomial(n_i, θ),  θ ~ H = Dir(γ, ..., γ).
//
// A DpComponentModel is what the samplers need to know about f(x | θ) and H:
//   - LogLikelihood(x, θ): log f(x | θ) up to a term of x alone (LogNormalizer(x)); called
//     O(N K) times per sweep, so it is the one hot function.
//   - SampleBase / LogBaseDensity: θ ~ H and log h(θ) (Algorithm 8's auxiliary atoms; the MH
//     ratio of Algorithm 2).
//   - AccumulateStats / UpdateAtom: a cluster's summary statistics (a fixed number of
//     doubles, additive over members) and one move of θ that leaves p(θ | members) ∝
//     h(θ) Π f(x_i | θ) invariant, given those statistics and the current θ. A conjugate
//     model draws exactly (ignoring the current θ); a non-conjugate one (e.g. the low-rank
//     logistic-normal multinomial of §4.3, whose statistics are also the count sums) runs
//     an MCMC move such as elliptical slice sampling from the current θ.
//   - SampleEmpirical / LogEmpiricalDensity: the data-driven kernel θ̃_x of eq. 5, a
//     density (not a point mass: with a point mass the MH ratio of eq. 6 would reject every
//     empirical proposal, H having no atoms). Here Dir(x + γ), the posterior of θ given x
//     alone, concentrated at the smoothed proportions of x.
//   - LogMarginal(x) = log ∫ f(x | θ) dH(θ), the predictive of a new cluster, for held-out
//     evaluation only (a non-conjugate model may return a Monte Carlo estimate).
//   - UpdateGlobal: a move of the base measure's own parameters (e.g. the loadings Λ of
//     §4.3) given the instantiated atoms; called with the same engine on every worker at a
//     synchronisation. No-op here.
// Every method must be deterministic given its engine, and const methods thread-safe.
//
// Atoms here are log θ (D doubles), so LogLikelihood is the dot product Σ_d x_d log θ_d.
// Cost: LogLikelihood O(D); SampleBase/UpdateAtom/SampleEmpirical O(D) gamma draws;
// LogEmpiricalDensity, LogMarginal O(D) log-gamma calls.
//
// Example:
//   CountMatrix data = CountMatrix::FromRows(10, rows);
//   MultinomialDirichletModel model(/*dimension=*/10, /*gamma=*/1.0);
//   std::vector<double> atom(model.atom_size());
//   model.SampleBase(engine, atom.data());
//   double ll = model.LogLikelihood(data.row(0), atom.data()) + model.LogNormalizer(data.row(0));
#ifndef SGMCMC_MODELS_DP_COMPONENT_MODEL_H_
#define SGMCMC_MODELS_DP_COMPONENT_MODEL_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "base/check.h"
#include "rng/engine.h"

namespace sgmcmc::models {

// N rows of D non-negative counts (row-major doubles; integers for the multinomial).
struct CountMatrix {
  int dimension = 0;
  std::vector<double> values;  // rows x dimension

  int64_t rows() const {
    return dimension == 0 ? 0 : static_cast<int64_t>(values.size()) / dimension;
  }
  const double* row(int64_t i) const { return values.data() + i * dimension; }
};

class DpComponentModel {
 public:
  virtual ~DpComponentModel() = default;

  // D: entries of a data row.
  virtual int dimension() const = 0;
  // Doubles per atom θ.
  virtual int atom_size() const = 0;
  // Doubles of a cluster's summary statistics.
  virtual int stats_size() const = 0;

  // log f(x | θ) − LogNormalizer(x).
  virtual double LogLikelihood(const double* x, const double* atom) const = 0;
  // The term of log f(x | θ) that does not depend on θ.
  virtual double LogNormalizer(const double* x) const = 0;
  // stats += sign * (statistics of x); sign is +1 (add a member) or −1 (remove one).
  virtual void AccumulateStats(const double* x, double sign, double* stats) const = 0;

  virtual void SampleBase(rng::Engine& engine, double* atom) const = 0;
  virtual double LogBaseDensity(const double* atom) const = 0;
  // atom (in: current value; out: the new one) moved by a kernel invariant for
  // p(θ | members) given the members' summary statistics.
  virtual void UpdateAtom(rng::Engine& engine, const double* stats, double* atom) const = 0;

  virtual void SampleEmpirical(rng::Engine& engine, const double* x, double* atom) const = 0;
  virtual double LogEmpiricalDensity(const double* x, const double* atom) const = 0;

  // log ∫ f(x | θ) dH(θ), normalizer included.
  virtual double LogMarginal(const double* x) const = 0;

  // Moves the base measure's parameters given the `num_atoms` instantiated atoms (row-major).
  virtual void UpdateGlobal(rng::Engine& engine, absl::Span<const double> atoms,
                            int num_atoms) {
    (void)engine;
    (void)atoms;
    (void)num_atoms;
  }

  // The parameters UpdateGlobal moves, for checkpoints (empty, the default: none), and their
  // restoration: RestoreGlobalState(GlobalState()) on a model made with the same arguments
  // makes it behave bit-identically. InvalidArgument (nothing changed) for a state of the
  // wrong length or with non-finite values; the default accepts only an empty state.
  virtual std::vector<double> GlobalState() const { return {}; }
  virtual absl::Status RestoreGlobalState(absl::Span<const double> state);
};

// log (Σ_d x_d)! / Π_d x_d!, the multinomial coefficient of a count row of `dimension` entries.
double MultinomialLogCoefficient(const double* x, int dimension);

// Multinomial likelihood with a symmetric Dirichlet(γ) base; atoms are log θ.
class MultinomialDirichletModel final : public DpComponentModel {
 public:
  // dimension >= 2, gamma finite > 0 (checked).
  MultinomialDirichletModel(int dimension, double gamma);

  int dimension() const override { return dimension_; }
  int atom_size() const override { return dimension_; }
  int stats_size() const override { return dimension_; }
  double gamma() const { return gamma_; }

  double LogLikelihood(const double* x, const double* atom) const override;
  double LogNormalizer(const double* x) const override;
  void AccumulateStats(const double* x, double sign, double* stats) const override;
  void SampleBase(rng::Engine& engine, double* atom) const override;
  double LogBaseDensity(const double* atom) const override;
  void UpdateAtom(rng::Engine& engine, const double* stats, double* atom) const override;
  void SampleEmpirical(rng::Engine& engine, const double* x, double* atom) const override;
  double LogEmpiricalDensity(const double* x, const double* atom) const override;
  double LogMarginal(const double* x) const override;

  // log ∫ Π_{i in c} f(x_i | θ) dH(θ) − Σ_i LogNormalizer(x_i), from the cluster's count sums
  // (the Dirichlet-multinomial of the cluster; for enumerating posteriors in tests).
  double LogClusterMarginal(const double* stats) const;

 private:
  int dimension_;
  double gamma_;
  double log_base_constant_;  // log Γ(Dγ) − D log Γ(γ)
};

// log n for the counts n = 0..max_n (log 0 = −inf), looked up: the samplers' prior terms
// log n_{-i,k} are O(K) per point, and a log costs more than the 10-D likelihood. Each entry
// is std::log(n), so draws are unchanged. O(max_n) memory, built once.
class LogCountTable {
 public:
  // max_n >= 0 (checked).
  explicit LogCountTable(int64_t max_n);
  // n in [0, max_n] (checked in debug builds).
  double operator()(int64_t n) const;

 private:
  std::vector<double> table_;
};

inline double LogCountTable::operator()(int64_t n) const {
  SGMCMC_DCHECK(n >= 0 && n < static_cast<int64_t>(table_.size()));
  return table_[n];
}

// Clusters of a DP mixture sampler: atom, summary statistics and size per slot; freed slots
// are reused (lowest last-freed first), so slot numbers are deterministic. Not thread-safe.
class DpClusterTable {
 public:
  // `model` outlives the table.
  explicit DpClusterTable(const DpComponentModel* model) : model_(model) {}

  // Slots ever used (open or freed); iterate k < num_slots() and skip !is_open(k).
  int num_slots() const { return static_cast<int>(sizes_.size()); }
  bool is_open(int k) const { return open_[k]; }
  int num_open() const { return num_slots() - static_cast<int>(free_.size()); }
  int64_t size(int k) const { return sizes_[k]; }
  double* atom(int k) { return atoms_.data() + static_cast<size_t>(k) * model_->atom_size(); }
  const double* atom(int k) const {
    return atoms_.data() + static_cast<size_t>(k) * model_->atom_size();
  }
  const double* stats(int k) const {
    return stats_.data() + static_cast<size_t>(k) * model_->stats_size();
  }

  // A new empty cluster holding a copy of `atom`; returns its slot.
  int Open(const double* atom);
  // Frees slot k (open and empty; checked).
  void Close(int k);
  // x joins / leaves cluster k.
  void Add(int k, const double* x);
  void Remove(int k, const double* x);
  // Frees every slot.
  void Clear();

  // The whole table, for checkpoints: per slot its atom, statistics, size and open flag, and
  // the free slots in reuse order (the last is reused first).
  absl::Span<const double> all_atoms() const { return atoms_; }
  absl::Span<const double> all_stats() const { return stats_; }
  absl::Span<const int64_t> all_sizes() const { return sizes_; }
  absl::Span<const char> all_open() const { return open_; }
  absl::Span<const int> free_slots() const { return free_; }
  // Replaces the table by those contents (RestoreContents of the accessors' values restores it
  // exactly). InvalidArgument (nothing changed), naming what is wrong, unless the lengths fit
  // the slots and the model, the free slots are exactly the closed ones (once each), a closed
  // slot is empty and every size is >= 0.
  absl::Status RestoreContents(std::vector<double> atoms, std::vector<double> stats,
                               std::vector<int64_t> sizes, std::vector<char> open,
                               std::vector<int> free);

 private:
  const DpComponentModel* model_;
  std::vector<double> atoms_, stats_;
  std::vector<int64_t> sizes_;
  std::vector<char> open_;
  std::vector<int> free_;
};

// log p(x | mixing measure) = log[ Σ_k exp(log_weights[k]) f(x | atom_k)
//   + exp(log_rest) ∫ f(x | θ) dH(θ) ] for atoms (log_weights.size() rows of
// model.atom_size(), row-major). O(K D).
double DpLogPredictive(const DpComponentModel& model, const double* x,
                       absl::Span<const double> log_weights, absl::Span<const double> atoms,
                       double log_rest);

// Synthetic data of Zhang et al. §4.1: `components` atoms θ_c ~ Dir(γ) of dimension D and
// weights ~ Dir(1, ..., 1), then for each of the sizes.size() matrices, sizes[j] rows
// x ~ Multinomial(counts_per_row, θ_c), c ~ weights (all from one generating mixture).
// All draws from rng::Engine(seed). D >= 2, components >= 1, γ > 0 (checked).
std::vector<CountMatrix> SyntheticMultinomialMixture(absl::Span<const int> sizes, int dimension,
                                                     int counts_per_row, int components,
                                                     double gamma, uint64_t seed);

// α | K clusters, N points by West (1992) / Escobar & West (1995) §6: η ~ Beta(α + 1, N),
// then α ~ Gamma(shape + K, rate − log η) with odds (shape + K − 1) / (N (rate − log η)),
// else Gamma(shape + K − 1, rate − log η). shape, rate > 0; K >= 1; N >= 1.
double SampleAlphaWest(rng::Engine& engine, double alpha, int num_clusters, int64_t num_points,
                       double shape, double rate);

}  // namespace sgmcmc::models

#endif  // SGMCMC_MODELS_DP_COMPONENT_MODEL_H_
