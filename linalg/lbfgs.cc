#include "linalg/lbfgs.h"

#include <array>
#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/check.h"

namespace sgmcmc::linalg {

absl::Status LbfgsOptions::Validate() const {
  if (max_pairs < 1 || max_pairs > kMaxPairs) {
    return absl::InvalidArgumentError(absl::StrCat(
        "LbfgsOptions.max_pairs must be in [1, ", kMaxPairs, "], got ", max_pairs));
  }
  if (!(damping >= 0 && std::isfinite(damping))) {
    return absl::InvalidArgumentError(
        absl::StrCat("LbfgsOptions.damping must be finite and >= 0, got ", damping));
  }
  if (!(gamma > 0 && std::isfinite(gamma))) {
    return absl::InvalidArgumentError(
        absl::StrCat("LbfgsOptions.gamma must be finite and > 0, got ", gamma));
  }
  if (!(curvature_threshold >= 0 && curvature_threshold < 1)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "LbfgsOptions.curvature_threshold must be in [0, 1), got ", curvature_threshold));
  }
  if (initial_scaling != InitialScaling::kFixed &&
      initial_scaling != InitialScaling::kNewestPair) {
    return absl::InvalidArgumentError("LbfgsOptions.initial_scaling is not a known value");
  }
  return absl::OkStatus();
}

absl::StatusOr<Lbfgs> Lbfgs::Create(int dim, const LbfgsOptions& options) {
  if (dim < 1) {
    return absl::InvalidArgumentError(absl::StrCat("Lbfgs: dim must be >= 1, got ", dim));
  }
  if (absl::Status status = options.Validate(); !status.ok()) return status;
  return Lbfgs(dim, options);
}

Lbfgs::Lbfgs(int dim, const LbfgsOptions& options)
    : dim_(dim),
      options_(options),
      s_(dim, options.max_pairs),
      y_(dim, options.max_pairs),
      q_(dim, options.max_pairs),
      accepted_(options.max_pairs, false),
      sy_(options.max_pairs, 0),
      a_sigma_(options.max_pairs, 0),
      gamma_(options.gamma),
      scratch_(dim) {
  SGMCMC_CHECK(dim >= 1) << "Lbfgs: dim must be >= 1, got " << dim;
  const absl::Status status = options.Validate();
  SGMCMC_CHECK(status.ok()) << "Lbfgs: " << status.message();
  active_.reserve(options.max_pairs);
}

void Lbfgs::CheckSize(const char* function, const char* argument, Eigen::Index size) const {
  SGMCMC_CHECK(size == dim_) << "Lbfgs::" << function << ": " << argument << " has size "
                             << size << ", expected dim " << dim_;
}

bool Lbfgs::AddPair(const Eigen::Ref<const Eigen::VectorXd>& s,
                    const Eigen::Ref<const Eigen::VectorXd>& y) {
  CheckSize("AddPair", "s", s.size());
  CheckSize("AddPair", "y", y.size());
  const int max_pairs = options_.max_pairs;
  newest_slot_ = (newest_slot_ + 1) % max_pairs;
  slot_count_ = std::min(slot_count_ + 1, max_pairs);
  const int slot = newest_slot_;
  s_.col(slot) = s;
  y_.col(slot) = y + options_.damping * s;
  const double sy = s_.col(slot).dot(y_.col(slot));
  const double threshold =
      options_.curvature_threshold * s_.col(slot).norm() * y_.col(slot).norm();
  // Written so that NaN or infinite values fail the test.
  accepted_[slot] = sy > threshold && std::isfinite(sy) && std::isfinite(threshold);
  sy_[slot] = sy;
  Rebuild();
  return accepted_[slot];
}

void Lbfgs::Clear() {
  slot_count_ = 0;
  newest_slot_ = -1;
  std::fill(accepted_.begin(), accepted_.end(), false);
  Rebuild();
}

void Lbfgs::SetInitialDiagonal(const Eigen::Ref<const Eigen::VectorXd>& diagonal) {
  CheckSize("SetInitialDiagonal", "diagonal", diagonal.size());
  for (Eigen::Index i = 0; i < diagonal.size(); ++i) {
    SGMCMC_CHECK(diagonal[i] > 0 && std::isfinite(diagonal[i]))
        << "Lbfgs::SetInitialDiagonal: entry " << i << " is " << diagonal[i]
        << ", expected finite and > 0";
  }
  initial_diagonal_ = diagonal;
  initial_diagonal_sqrt_ = diagonal.cwiseSqrt();
  Rebuild();
}

void Lbfgs::ClearInitialDiagonal() {
  initial_diagonal_.resize(0);
  initial_diagonal_sqrt_.resize(0);
  Rebuild();
}

void Lbfgs::Rebuild() {
  const int max_pairs = options_.max_pairs;
  active_.clear();
  for (int i = slot_count_ - 1; i >= 0; --i) {  // oldest first
    const int slot = (newest_slot_ - i + max_pairs) % max_pairs;
    if (accepted_[slot]) active_.push_back(slot);
  }
  gamma_ = options_.gamma;
  if (options_.initial_scaling == LbfgsOptions::InitialScaling::kNewestPair &&
      !active_.empty()) {
    const int newest = active_.back();
    gamma_ = sy_[newest] / y_.col(newest).squaredNorm();
  }
  for (int m = 0; m < num_pairs(); ++m) {
    const int j = active_[m];
    scratch_ = s_.col(j);
    ApplyPartialB(m, scratch_);  // B^{m-1} s_m in the 1-based notation of the header
    const double sigma = s_.col(j).dot(scratch_);
    q_.col(j) = y_.col(j) + std::sqrt(sy_[j] / sigma) * scratch_;
    a_sigma_[j] = std::sqrt(sy_[j] * sigma);
  }
}

void Lbfgs::ApplyPartialB(int k, Eigen::Ref<Eigen::VectorXd> out) const {
  // Cᵀ: the factors (I - v uᵀ) = (I - s qᵀ / (a σ)), newest first, then C⁰ᵀ C⁰ = I / γ.
  for (int m = k - 1; m >= 0; --m) {
    const int j = active_[m];
    out.noalias() -= (q_.col(j).dot(out) / a_sigma_[j]) * s_.col(j);
  }
  if (initial_diagonal_.size() > 0) {
    out.array() /= initial_diagonal_.array();
  } else {
    out *= 1 / gamma_;
  }
  // C: the factors (I - u vᵀ) = (I - q sᵀ / (a σ)), oldest first.
  for (int m = 0; m < k; ++m) {
    const int j = active_[m];
    out.noalias() -= (s_.col(j).dot(out) / a_sigma_[j]) * q_.col(j);
  }
}

void Lbfgs::ApplyH(const Eigen::Ref<const Eigen::VectorXd>& g,
                   Eigen::Ref<Eigen::VectorXd> out) const {
  CheckSize("ApplyH", "g", g.size());
  CheckSize("ApplyH", "out", out.size());
  std::array<double, LbfgsOptions::kMaxPairs> alpha;
  out = g;
  const int n = num_pairs();
  for (int m = n - 1; m >= 0; --m) {
    const int j = active_[m];
    alpha[m] = s_.col(j).dot(out) / sy_[j];
    out.noalias() -= alpha[m] * y_.col(j);
  }
  if (initial_diagonal_.size() > 0) {
    out.array() *= initial_diagonal_.array();
  } else {
    out *= gamma_;
  }
  for (int m = 0; m < n; ++m) {
    const int j = active_[m];
    const double beta = y_.col(j).dot(out) / sy_[j];
    out.noalias() += (alpha[m] - beta) * s_.col(j);
  }
}

void Lbfgs::ApplySqrtH(const Eigen::Ref<const Eigen::VectorXd>& z,
                       Eigen::Ref<Eigen::VectorXd> out) const {
  CheckSize("ApplySqrtH", "z", z.size());
  CheckSize("ApplySqrtH", "out", out.size());
  if (initial_diagonal_.size() > 0) {
    out = initial_diagonal_sqrt_.cwiseProduct(z);
  } else {
    out = std::sqrt(gamma_) * z;
  }
  for (int m = 0; m < num_pairs(); ++m) {  // S = (I - p_n q_nᵀ) ... (I - p_1 q_1ᵀ) √γ
    const int j = active_[m];
    out.noalias() -= (q_.col(j).dot(out) / sy_[j]) * s_.col(j);
  }
}

void Lbfgs::ApplyB(const Eigen::Ref<const Eigen::VectorXd>& x,
                   Eigen::Ref<Eigen::VectorXd> out) const {
  CheckSize("ApplyB", "x", x.size());
  CheckSize("ApplyB", "out", out.size());
  out = x;
  ApplyPartialB(num_pairs(), out);
}

}  // namespace sgmcmc::linalg
