// Limited-memory BFGS inverse-Hessian approximation H with its square-root factor S (S Sᵀ = H)
// and its inverse B = H⁻¹, all matrix-free: the building block of HAMCMC.
//
// Paper: Şimşekli, Badeau, Cemgil & Richard (2016), "Stochastic Quasi-Newton Langevin Monte
// Carlo", §2.2 and §3.2. With the pairs (s_1, y_1), ..., (s_n, y_n), oldest first, and
// H⁰ = γ I, eq. 6 is
//   H^m = (I - ρ_m s_m y_mᵀ) H^{m-1} (I - ρ_m y_m s_mᵀ) + ρ_m s_m s_mᵀ,  ρ_m = 1 / (s_mᵀ y_m),
// and H = H^n (the paper writes H_t^1 = γI and H_t = H_t^{M-1}; we index from H⁰ as
// docs/ALGORITHMS.md "L-BFGS with a square-root factor" does, so M-1 pairs give M-1 updates).
//  - ApplyH: H g by the two-loop recursion (Nocedal & Wright 2006, Algorithm 7.4).
//  - ApplySqrtH: S z by the product form of eq. 11 (Brodlie, Gourlay & Greenstadt 1973):
//      S^m = (I - p_m q_mᵀ) S^{m-1},  S⁰ = √γ I,  p_m = s_m / (s_mᵀ y_m),
//      q_m = y_m + a_m B^{m-1} s_m,  a_m = √(s_mᵀ y_m / s_mᵀ B^{m-1} s_m).
//    Eq. 11 as printed has q = a B s - y with s_mᵀ B y_m under the root; expanding
//    S^m S^mᵀ shows that sign and that root do not reproduce eq. 6 (the cross terms come out
//    with the wrong sign), while the q above does, and it is exactly S^m = (C^m)^{-ᵀ} for the
//    C^m of eq. 11. The tests check S Sᵀ = H against the dense eq. 6.
//  - ApplyB: B x = C Cᵀ x with the product form of eq. 11,
//      C^m = (I - u_m v_mᵀ) C^{m-1},  C⁰ = γ^{-1/2} I,  v_m = s_m / (s_mᵀ B^{m-1} s_m),
//      u_m = √(s_mᵀ B^{m-1} s_m / s_mᵀ y_m) y_m + B^{m-1} s_m  (= q_m / a_m).
//    AddPair uses it to form the vectors B^{m-1} s_m that S needs.
//
// The memory (HAMCMC Algorithm 1, line 8, and §3.2):
//  - AddPair(s, y) stores the pair (s, y + λ s) (λ = options.damping, the trust-region
//    damping of §3.2) as the newest of at most options.max_pairs = M-1 slots, evicting the
//    oldest slot. A pair with sᵀy <= 1e-10 ‖s‖ ‖y‖ (after damping; options.curvature_threshold)
//    is skipped: it still takes its slot, so the memory always holds exactly the pairs of
//    the last M-1 calls, but it is not used, and H stays positive definite. This matters for
//    HAMCMC: H_t must be built from the pairs τ = t-M+1 ... t-1 only (never from an older
//    pair, which could involve θ_{t-M}).
//  - SetInitialDiagonal(d) replaces H⁰ = γ I by H⁰ = diag(d) (d > 0), so S⁰ = diag(√d) and
//    B⁰ = diag(1 / d) in the product forms above; the algebra of eq. 6 and eq. 11 holds for
//    any symmetric positive-definite H⁰. HAMCMC may use a state-dependent H⁰ as long as it
//    does not depend on θ_{t-M}, the point the step moves (docs/ALGORITHMS.md, "HAMCMC with
//    a diagonal H⁰").
//  - γ (H⁰ = γ I) is, with InitialScaling::kFixed (the default; HAMCMC's input γ), the
//    constant options.gamma; with InitialScaling::kNewestPair, sᵀy / yᵀy of the newest pair
//    in use (Nocedal & Wright eq. 7.20; options.gamma while no pair is in use).
//
// Cost, with n <= M-1 pairs in use and D = dim: AddPair O(n² D) (it rebuilds the product
// form); ApplyH 8nD + D flops; ApplySqrtH 4nD + D flops; ApplyB 8nD + D flops; memory
// 3 (M-1) D + D doubles. No D×D matrix, no allocation after construction (the Apply* methods
// are const and thread-compatible). Measured: linalg/lbfgs_benchmark.cc.
//
// Example (HAMCMC, memory M):
//   LbfgsOptions options;
//   options.max_pairs = M - 1;
//   options.damping = lambda;
//   options.gamma = gamma;
//   Lbfgs lbfgs(dim, options);
//   lbfgs.AddPair(theta_t - theta_t_minus_M, grad_t - grad_t_minus_M);  // each step
//   lbfgs.ApplyH(gradient, drift);   // H ∇Ũ
//   lbfgs.ApplySqrtH(z, noise);      // S z ~ N(0, H) for z ~ N(0, I)
#ifndef SGMCMC_LINALG_LBFGS_H_
#define SGMCMC_LINALG_LBFGS_H_

#include <vector>

#include "Eigen/Dense"
#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace sgmcmc::linalg {

struct LbfgsOptions {
  // How H⁰ = γ I is scaled.
  enum class InitialScaling {
    kFixed,       // γ = gamma (HAMCMC's input γ)
    kNewestPair,  // γ = sᵀy / yᵀy of the newest pair in use; gamma while none is
  };

  // Number of (s, y) slots, M - 1 for an L-BFGS memory of size M. Range [1, kMaxPairs].
  // Default 1 (M = 2).
  int max_pairs = 1;
  // λ >= 0 (finite): pairs are stored as (s, y + λ s), i.e. L-BFGS approximates
  // (∇²U + λI)⁻¹ (HAMCMC §3.2). Default 0.
  double damping = 0;
  // See InitialScaling. Default kFixed.
  InitialScaling initial_scaling = InitialScaling::kFixed;
  // γ > 0 (finite). Default 1.
  double gamma = 1;
  // A pair with sᵀy <= curvature_threshold ‖s‖ ‖y‖ is skipped. Range [0, 1). Default 1e-10.
  double curvature_threshold = 1e-10;

  static constexpr int kMaxPairs = 64;

  absl::Status Validate() const;
};

class Lbfgs {
 public:
  // dim >= 1 and valid options (checked; use Create for user configuration).
  Lbfgs(int dim, const LbfgsOptions& options);
  // As the constructor, but returns InvalidArgument naming the bad field or argument.
  static absl::StatusOr<Lbfgs> Create(int dim, const LbfgsOptions& options);

  // Pushes the pair (s, y + λ s) as the newest slot (see the file comment). Returns true if
  // the pair is used, false if it was skipped for non-positive curvature (or non-finite
  // values). s and y must have size dim() (checked). O(n² D).
  bool AddPair(const Eigen::Ref<const Eigen::VectorXd>& s,
               const Eigen::Ref<const Eigen::VectorXd>& y);

  // Forgets every pair: H = H⁰ (options.gamma · I unless a diagonal is set).
  void Clear();

  // H⁰ = diag(diagonal) instead of γ I, for the pairs in memory and those added later
  // (rebuilds the product form, O(n² D)). Every entry must be finite and > 0, and the size
  // dim() (checked). ClearInitialDiagonal returns to γ I.
  void SetInitialDiagonal(const Eigen::Ref<const Eigen::VectorXd>& diagonal);
  void ClearInitialDiagonal();
  // The diagonal of H⁰ if one is set, else empty.
  const Eigen::VectorXd& initial_diagonal() const { return initial_diagonal_; }

  int dim() const { return dim_; }
  // Pairs in use (accepted and not yet evicted), at most options().max_pairs.
  int num_pairs() const { return static_cast<int>(active_.size()); }
  // The current γ of H⁰ = γ I (unused while an initial diagonal is set).
  double gamma() const { return gamma_; }
  const LbfgsOptions& options() const { return options_; }

  // out = H g (two-loop recursion). out may alias g. Sizes must be dim() (checked).
  void ApplyH(const Eigen::Ref<const Eigen::VectorXd>& g, Eigen::Ref<Eigen::VectorXd> out) const;

  // out = S z with S Sᵀ = H (eq. 11 product form). For z ~ N(0, I), out ~ N(0, H).
  // out may alias z. Sizes must be dim() (checked).
  void ApplySqrtH(const Eigen::Ref<const Eigen::VectorXd>& z,
                  Eigen::Ref<Eigen::VectorXd> out) const;

  // out = B x with B = H⁻¹ (eq. 11 product form C Cᵀ). out may alias x.
  void ApplyB(const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::Ref<Eigen::VectorXd> out) const;

 private:
  // out = B^k x: B after the first k pairs in use (out = x initially, in place).
  void ApplyPartialB(int k, Eigen::Ref<Eigen::VectorXd> out) const;
  // Recomputes active_, γ and the product-form vectors q_m after the slots changed.
  void Rebuild();
  void CheckSize(const char* function, const char* argument, Eigen::Index size) const;

  int dim_;
  LbfgsOptions options_;
  // Slot i (ring buffer, slot_count_ used, newest at newest_slot_): columns i of s_, y_
  // (damped) and q_; accepted_[i] says whether the slot is used.
  Eigen::MatrixXd s_;
  Eigen::MatrixXd y_;
  Eigen::MatrixXd q_;
  std::vector<bool> accepted_;
  int slot_count_ = 0;
  int newest_slot_ = -1;
  // Slots in use, oldest first (capacity max_pairs, reserved once).
  std::vector<int> active_;
  // Per slot: sᵀy, and a (s ᵀ B s) = √(sᵀy · sᵀBs) (the denominator of u vᵀ = q sᵀ / (a σ)).
  std::vector<double> sy_;
  std::vector<double> a_sigma_;
  double gamma_;
  // H⁰'s diagonal and its square root; empty: H⁰ = γ I.
  Eigen::VectorXd initial_diagonal_;
  Eigen::VectorXd initial_diagonal_sqrt_;
  // Scratch vector for Rebuild (B^{m-1} s_m).
  Eigen::VectorXd scratch_;
};

}  // namespace sgmcmc::linalg

#endif  // SGMCMC_LINALG_LBFGS_H_
