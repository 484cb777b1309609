// The two-stage distributed sampler of Zhang, Williamson & Perez-Cruz (Algorithm 3) for a DP
// mixture with any likelihood and base measure (models/dp/component_model.h), over a
// parallel::Communicator (threads in one process, or Open MPI ranks).
//
// The N training rows are split into P contiguous shards, worker p owning rows
// [N p / P, N (p + 1) / P). Replicated on every worker (identical, recomputed on each from the
// same numbers): the K instantiated features (atoms θ_k, global counts n_k), α, and the draws
// π ~ Dir(n_1..n_K), B ~ Beta(N, α) and p* ~ U{0..P−1} of the last synchronisation.
//
// Accelerated (approximate) stage, the first `accelerated_iterations` iterations (§3.2):
// worker p refreshes its m unoccupied atoms from the empirical distribution of its own rows
// (eq. 5 with ρ = 1: θ ~ K(· | x_j), j ∝ 1 / f(x_j | θ_{z_j}); always accepted), then draws
//   P(z_i = k) ∝ P n_{-i,k,p} f(x_i | θ_k)  (instantiated k: local counts scaled by P, eq. 7),
//              n_{-i,k} f(x_i | θ_k)      (features new on this worker, K*_p),
//              (α / m) f(x_i | ψ_s)        (unoccupied slot s: opens a new local feature),
// and moves the atoms of its new features given its local members.
// Exact stage (§3.3; the partially collapsed hybrid of Dubey et al. 2020 for the DP): G =
// B Σ_{k∈S} π_k δ_θk + (1 − B) G' with G' ~ DP(α, H) collapsed on worker p* alone. Read
// literally (S = every occupied feature, workers p ≠ p* drawing z_i ∝ π_k f(x_i | θ_k) over
// S), the scheme is not exact for P > 1: S depends on the allocations at the last
// synchronisation, so the restriction is not a Gibbs step of a fixed class (on the five-point
// test set it gave a total variation of 0.19 against the enumerated posterior at P = 2). We
// use the exact form of the same construction, ordering p*'s points last (exchangeability):
//   - S = the features holding a point off p*; (w_S, w_0) | z ~ Dir(n_S, α + n_tail), drawn
//     as π ~ Dir(n_S), B ~ Beta(Σ_S n_k, α + n_tail), n_tail = p*'s points in the other
//     features, which form p*'s collapsed tail (CRP with concentration α);
//   - a point off p* moves, z_i ∝ π_k f(x_i | θ_k), only among the features of S that hold
//     another point of its worker, and only if its own feature does (so every feature of S
//     stays occupied off p*: a Gibbs step within a class the sweep preserves);
//   - worker p* draws
//       P(z_i = k) ∝ B π_k f(x_i | θ_k)                              (k ∈ S),
//                  (1 − B) n'_{-i,j} / (n'_{-i} + α) f(x_i | θ'_j)    (tail feature j),
//                  (1 − B) α / (m (n'_{-i} + α)) f(x_i | ψ_s)         (new, Algorithm 8),
//     n' counting p*'s tail points; the tail is Neal's Algorithm 8 with fresh auxiliary atoms
//     ψ ~ H each iteration (ρ = 0) and a singleton's atom swapped into a random slot
//     (models/dp/neal8.h), and the tail atoms move given their members after each iteration.
// With P = 1 this is Algorithm 8 on all points (S is empty).
// Synchronisation, every `sync_every` iterations and when the accelerated stage ends: the
// workers' counts and summary statistics of the instantiated features and their new features
// (atoms, counts, statistics) are summed (AllReduceSum with disjoint supports); every worker
// then relabels the occupied features (old ones in order, then new ones by worker and slot),
// drops empty ones, and with the shared global stream draws the next p*, moves each atom
// given its global statistics, calls model.UpdateGlobal, draws α (West 1992), π and B.
// In the accelerated stage S is every occupied feature, B ~ Beta(N, α). The exact stage
// leaves the DP mixture posterior invariant (its allocation steps are exact conditionals
// given (π, B, θ), its global steps exact draws of α | K, N, (π, B) | z, α and θ | z), so a chain
// started from the accelerated stage's output converges to it.
//
// Random streams: worker p's iteration t uses rng::Engine(seed,
// DpTaggedStream(kDpParallelWorkerStreamTag, t, p)); synchronisation s (0 = the start) uses
// Engine(seed, DpTaggedStream(kDpParallelGlobalStreamTag, s, 0)). All sums are of integer
// counts or disjoint supports, hence exact, so a run is bit-identical for a seed and worker
// count on threads and under MPI (for models whose statistics are integer-valued, as the
// multinomial's; real-valued statistics are summed in the back end's order).
//
// Checkpoints: SaveState right after a synchronisation (models/dp/parallel_state.proto) holds
// the replicated state, the rows' features and the component model's global state; every
// worker's local state follows from them (the unoccupied atoms are redrawn before they are
// read), so RestoreState continues a run bit-identically on as many workers.
//
// Cost per iteration on worker p: O(n_p (K + K_p + m) · cost(LogLikelihood)); per
// synchronisation O((K + ΣK*_p)(stats + atom)) communicated and O(n_p stats) to recount,
// plus K atom updates on every worker.
//
// Example (threads):
//   absl::Status status = parallel::RunOnThreads(4, [&](parallel::Communicator& comm) {
//     SGMCMC_ASSIGN_OR_RETURN(auto sampler,
//                             DpParallelSampler::Create(&comm, &model, &data, options));
//     for (int t = 0; t < 100; ++t) SGMCMC_RETURN_IF_ERROR(sampler->Iterate());
//     return absl::OkStatus();
//   });
#ifndef SGMCMC_MODELS_DP_PARALLEL_H_
#define SGMCMC_MODELS_DP_PARALLEL_H_

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "models/dp/component_model.h"
#include "models/dp/neal8.h"
#include "models/dp/parallel_state.pb.h"
#include "parallel/communicator.h"
#include "rng/engine.h"

namespace sgmcmc::models {

inline constexpr uint64_t kDpParallelWorkerStreamTag = 0xD6;
inline constexpr uint64_t kDpParallelGlobalStreamTag = 0xD7;

struct DpParallelOptions {
  DpConcentrationOptions concentration;
  // m, unoccupied atoms per worker; >= 1. Default 3.
  int num_auxiliary = 3;
  // L, iterations between synchronisations; >= 1. Default 10 (the paper's §4.2).
  int sync_every = 10;
  // Iterations of the approximate accelerated stage before the exact one; >= 0 (0: the
  // hybrid sampler of Dubey et al. alone). Default 50 (§4.2).
  int accelerated_iterations = 50;
  // Key of every random stream. Default 1.
  uint64_t seed = 1;

  absl::Status Validate() const;
};

// The rows [begin, end) that `comm`'s rank owns of `rows` split over its ranks in contiguous
// shards whose sizes differ by at most one: [rows·r/P, rows·(r+1)/P) for rank r of P.
std::pair<int64_t, int64_t> RankRows(int64_t rows, const parallel::Communicator& comm);

// What every distributed DP sampler of a worker holds: its communicator, its component model,
// the data (all rows) and the rows [begin_, end_) it owns (RankRows). A private base of
// DpParallelSampler and DpDistributedSlice; the pointers must outlive the sampler.
class DpWorkerRows {
 protected:
  DpWorkerRows(parallel::Communicator* comm, DpComponentModel* model, const CountMatrix* data)
      : comm_(comm),
        model_(model),
        data_(data),
        begin_(RankRows(data->rows(), *comm).first),
        end_(RankRows(data->rows(), *comm).second) {}

  parallel::Communicator* comm_;
  DpComponentModel* model_;
  const CountMatrix* data_;
  int64_t begin_, end_;  // this worker's rows
};

// InvalidArgument, prefixed by `sampler`, unless `data` has >= 1 row of model.dimension()
// entries and `initial_allocations` is empty or one label >= 0 per row.
absl::Status ValidateDistributedInput(const char* sampler, const DpComponentModel& model,
                                      const CountMatrix& data,
                                      absl::Span<const int32_t> initial_allocations);

// Collective helpers of the distributed DP samplers. Σ over the rows x of `test` of
// DpLogPredictive(model, x, log_weights, atoms, log_rest), the rows split over the ranks and
// the sum exact and identical on every rank.
absl::StatusOr<double> DistributedTestLogPredictive(parallel::Communicator& comm,
                                                    const DpComponentModel& model,
                                                    const CountMatrix& test,
                                                    absl::Span<const double> log_weights,
                                                    absl::Span<const double> atoms,
                                                    double log_rest);
// The `total` labels of all ranks, each rank passing those of its rows [begin, begin +
// local.size()) (disjoint shards covering [0, total)).
absl::StatusOr<std::vector<int32_t>> GatherShards(parallel::Communicator& comm, int64_t total,
                                                  int64_t begin,
                                                  absl::Span<const int32_t> local);

class DpParallelSampler : private DpWorkerRows {
 public:
  // Collective (every rank, same arguments). `comm`, `model` and `data` (the full training
  // set on every rank, >= 1 row) outlive the sampler. Each worker needs its own `model`
  // instance (one per thread with the thread back end): synchronisations call its
  // UpdateGlobal. `initial_allocations`: one label >= 0
  // per row, the same on every rank (equal labels share a feature), or empty for one
  // feature. InvalidArgument for bad options or labels; a communicator error otherwise.
  static absl::StatusOr<std::unique_ptr<DpParallelSampler>> Create(
      parallel::Communicator* comm, DpComponentModel* model, const CountMatrix* data,
      const DpParallelOptions& options, absl::Span<const int32_t> initial_allocations = {});

  // Collective: one iteration of the current stage, then a synchronisation if one is due.
  absl::Status Iterate();

  int64_t iterations() const { return iterations_; }
  int64_t synchronisations() const { return syncs_; }
  // Whether the next iteration belongs to the accelerated stage.
  bool accelerated() const { return iterations_ < options_.accelerated_iterations; }
  // Whether the last Iterate ended with a synchronisation (the accessors below are current).
  bool just_synchronised() const { return just_synced_; }

  // The replicated state of the last synchronisation.
  int num_features() const { return static_cast<int>(counts_.size()); }
  absl::Span<const int64_t> feature_counts() const { return counts_; }
  absl::Span<const double> atoms() const { return atoms_; }
  double alpha() const { return alpha_; }
  int p_star() const { return p_star_; }

  // Collective, right after a synchronisation: every row's feature (in [0, num_features())).
  absl::StatusOr<std::vector<int32_t>> GatherAllocations();
  // Collective: Σ over the rows x of `test` of log p(x | state of the last synchronisation),
  // weights n_k / (N + α) for the features and α / (N + α) for a new one; rows split over
  // the workers, the sum exact and identical on every rank.
  absl::StatusOr<double> TestLogPredictive(const CountMatrix& test);

  // Collective, right after a synchronisation (FailedPrecondition otherwise): the sampler's
  // state (models/dp/parallel_state.proto), the same on every rank. RestoreState (every rank,
  // the same state) into a sampler made with the same model, data, options and worker count
  // continues bit-identically to the uninterrupted run. InvalidArgument naming the field
  // (nothing changed) if the state does not fit: lengths, worker count, allocations to
  // features whose counts are their member counts (a tail feature's rows all p*'s), finite
  // atoms, log π below +inf (−inf off S), α finite and > 0, the model's global state
  // (DpComponentModel::RestoreGlobalState).
  // Not collective; it also restores the model's global state.
  absl::StatusOr<DpParallelState> SaveState();
  absl::Status RestoreState(const DpParallelState& state);

 private:
  DpParallelSampler(parallel::Communicator* comm, DpComponentModel* model,
                    const CountMatrix* data, const DpParallelOptions& options);
  void AcceleratedSweep(rng::Engine& engine);
  void ExactSweep(rng::Engine& engine);
  void RemovePoint(int64_t i, bool swap_into_pool, rng::Engine& engine);
  // Local row i joins candidate `label` (a feature, a local feature, or pool slot s as
  // −1 − num_slots − s: a new local feature, the slot refilled by `refill`).
  void Place(int64_t i, int32_t label, absl::FunctionRef<void(double*)> refill);
  // The local features' atoms given their local members.
  void UpdateLocalAtoms(rng::Engine& engine);
  absl::Status Synchronise();
  // The local counts and the tail's table from z_ (features) and instantiated_, as a
  // synchronisation leaves them.
  void BuildLocal();

  DpParallelOptions options_;
  int64_t iterations_ = 0, syncs_ = 0;
  bool just_synced_ = false;
  // Replicated.
  std::vector<double> atoms_;  // K x atom_size
  std::vector<int64_t> counts_;
  std::vector<double> log_pi_;
  std::vector<char> instantiated_;  // feature k in S, as of the last synchronisation
  double log_b_ = 0, log1m_b_ = 0, alpha_;
  int p_star_ = 0;
  // Local: z_ for rows [begin_, end_): k >= 0 an instantiated feature, −1 − c local
  // feature c of `local_` (new features in the accelerated stage, the tail on p*).
  std::vector<int32_t> z_;
  std::vector<double> log_normalizers_;  // LogNormalizer of the local rows
  LogCountTable log_count_;  // log n for local counts n <= the local rows
  std::vector<int64_t> local_counts_;  // per instantiated feature
  DpClusterTable local_;
  int64_t tail_points_ = 0;
  std::vector<double> pool_;  // m x atom_size
  std::vector<int32_t> slot_feature_;  // tail slot -> feature, as of the last sync
  std::vector<double> log_weights_;
  std::vector<int> candidates_;
};

}  // namespace sgmcmc::models

#endif  // SGMCMC_MODELS_DP_PARALLEL_H_
