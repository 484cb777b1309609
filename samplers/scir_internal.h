// Internal to //samplers:scir: the exact CIR transition of one entry (SCIR, Baker et al.
// 2018, eq. 3.2; scir.h) shared by the eager row kernels (scir.cc) and the lazy pool sampler
// (scir_lazy.cc). Not part of the public API; the draws are described in scir.cc.
#ifndef SGMCMC_SAMPLERS_SCIR_INTERNAL_H_
#define SGMCMC_SAMPLERS_SCIR_INTERNAL_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>

#include "rng/engine.h"
#include "rng/gamma.h"
#include "rng/log_gamma_table.h"
#include "rng/normal.h"
#include "rng/poisson.h"
#include "rng/uniform.h"

namespace sgmcmc::samplers::scir_internal {

// Just above log(DBL_MIN) = −708.396: ShiftedExp flushes results below the normal range to 0.
constexpr double kMinNormalLog = -708.39;
constexpr double kLog2 = 0.69314718055994530942;
constexpr double kLowest = std::numeric_limits<double>::lowest();

// The h-dependent constants of the CIR transition: log(1 − e^{-h}) scales the gamma draw and
// log(e^{-h}/(1 − e^{-h})) turns log θ into the log of the Poisson mean.
struct CirConstants {
  explicit CirConstants(double h)
      : log_scale(std::log(-std::expm1(-h))), log_rate(-h - log_scale), rate(std::exp(log_rate)) {}
  double log_scale;
  double log_rate;
  double rate;  // e^{-h}/(1 − e^{-h})
};

// Below this Poisson mean, P(P >= 1) = 1 − e^{−λ} < 2^-54 is below double resolution:
// e^{−λ} rounds to 1 and rng::PoissonSample's inversion returns 0 for every uniform, so the
// draw is skipped (the zero-count fast path of sparse rows: with β = 0.01 about 70% of the
// stationary θ are below 1e-16).
constexpr double kNegligiblePoissonMean = 0x1p-54;
constexpr double kLogNegligiblePoissonMean = -54 * 0.69314718055994530942;

// log(e^x + e^y) for x, y not both −inf.
inline double LogAddExp(double x, double y) {
  const double hi = std::max(x, y);
  return hi + std::log1p(std::exp(std::min(x, y) - hi));
}

// log((Z + s)²/2) = 2 log|Z + s| − log 2, the noncentral χ²₁(s²)/2 part of the transition.
inline double LogHalfSquare(double z_plus_s) { return 2 * std::log(std::abs(z_plus_s)) - kLog2; }

// √(2λ) from log λ.
inline double RootTwoLambda(double log_lambda) { return std::exp(0.5 * (log_lambda + kLog2)); }

// Below this, λ = c θ computed from the cached linear θ may have lost precision (subnormal,
// or θ flushed to 0): λ and √(2λ) are then recomputed from log θ.
constexpr double kLinearFloor = 1e-290;

// The Poisson mean λ = θ e^{-h}/(1 − e^{-h}) of an entry, with √(2λ) on demand: from the
// cached linear θ (one multiply) unless that is below kLinearFloor, else from log θ (0 when
// negligible, without an exp; Root() is then still exact, from log λ).
struct PoissonMean {
  PoissonMean(double theta, double log_theta, const CirConstants& cir)
      : lambda(cir.rate * theta), log_lambda(log_theta + cir.log_rate) {
    if (!(lambda >= kLinearFloor)) {
      lambda = log_lambda < kLogNegligiblePoissonMean ? 0 : std::exp(log_lambda);
    }
  }
  double Root() const {
    return lambda >= kLinearFloor ? std::sqrt(2 * lambda) : RootTwoLambda(log_lambda);
  }
  double lambda;
  double log_lambda;
};

// P ~ Poisson(λ) for the CIR transition. λ < kNegligiblePoissonMean: 0 without a draw. For
// λ < 1, P >= 1 has probability 1 − e^{−λ} <= λ, so one uniform u >= λ settles P = 0 without
// an exp (nearly every entry of a sparse row); given P >= 1, P is zero-truncated Poisson,
// drawn by proposing K = 1 + Poisson(λ) (pmf ∝ λ^{K−1}/(K−1)!) and accepting with
// probability 1/K (target ∝ λ^K/K! = proposal · λ/K; acceptance (1 − e^{−λ})/λ >= 0.63).
// λ >= 1: rng::PoissonSample.
// The λ < 1 case given its uniform u (drawn by the caller, possibly in bulk).
inline int64_t CirPoissonSampleSmall(rng::Engine& engine, double lambda, double u) {
  if (u >= lambda || u >= -std::expm1(-lambda)) return 0;
  for (;;) {
    const int64_t k = 1 + rng::PoissonSample(engine, lambda);
    if (rng::UniformDouble(engine) * static_cast<double>(k) < 1) return k;
  }
}

inline int64_t CirPoissonSample(rng::Engine& engine, double lambda) {
  if (lambda < kNegligiblePoissonMean) return 0;
  if (lambda >= 1) return rng::PoissonSample(engine, lambda);
  return CirPoissonSampleSmall(engine, lambda, rng::UniformDouble(engine));
}

// CirPoissonSample for every finite λ, as a double: above rng::kMaxPoissonMean = 2^62 (a θ of
// e^43 at h = 1, or a count-sized θ at a step of 1e-10; P then exceeds int64 range) by
// rng::PoissonSampleUnbounded, exact up to rounding; below, the same draw and engine words.
inline double CirPoissonSampleReal(rng::Engine& engine, double lambda) {
  if (lambda > rng::kMaxPoissonMean) return rng::PoissonSampleUnbounded(engine, lambda);
  return static_cast<double>(CirPoissonSample(engine, lambda));
}

// log θ' of the exact CIR transition towards Gamma(a, 1), a = alpha + count, from Poisson
// mean λ. θ'/(1 − e^{-h}) = Gamma(a + Poisson(λ)) = χ'²(2a, 2λ)/2, drawn as:
//  - a >= 1/2 (rest = a − 1/2 = (alpha − 1/2) + count >= 0): a noncentral χ² with df = 2a >= 1
//    is (Z + √(2λ))² + χ²(2a − 1), so θ'/(1 − e^{-h}) = (Z + √(2λ))²/2 + Gamma(a − 1/2): one
//    normal, plus (rest > 0) one log-gamma combined by log-add-exp;
//  - a < 1/2: P ~ Poisson(λ) (CirPoissonSampleReal), then log Gamma(a + P).
// `zero_count_table`, if not null, samples log Gamma(alpha − 1/2) (alpha >= 1/2) or
// log Gamma(alpha) (alpha < 1/2) and replaces rng::LogGammaSample for zero counts.
inline double LogCirTransition(rng::Engine& engine, const PoissonMean& mean, double alpha,
                               double count, const CirConstants& cir,
                               const rng::LogGammaTable* zero_count_table) {
  const double rest = (alpha - 0.5) + count;
  if (rest >= 0) {
    const double z = rng::NormalSample(engine);
    double log_g = LogHalfSquare(z + mean.Root());
    if (rest > 0) {
      log_g = LogAddExp(log_g, count == 0 && zero_count_table != nullptr
                                   ? zero_count_table->Sample(engine)
                                   : rng::LogGammaSample(engine, rest));
    }
    return std::max(cir.log_scale + log_g, kLowest);
  }
  const double p = CirPoissonSampleReal(engine, mean.lambda);
  if (p == 0 && count == 0 && zero_count_table != nullptr) {
    return cir.log_scale + zero_count_table->Sample(engine);
  }
  return cir.log_scale + rng::LogGammaSample(engine, (alpha + count) + p);
}

// The shared rng::LogGammaTable of `shape`, or null outside the table's shapes.
inline std::shared_ptr<const rng::LogGammaTable> LogGammaTableOrNull(double shape) {
  if (shape < rng::LogGammaTable::kMinShape || shape > rng::LogGammaTable::kMaxShape) {
    return nullptr;
  }
  return *rng::LogGammaTable::Shared(shape);
}

// The table of every zero-count gamma draw of LogCirTransition under a symmetric prior α:
// shape α − 1/2 (α > 1/2, normal decomposition) or α (α < 1/2, P = 0); null for α = 1/2
// (no gamma draw) or outside the table's shapes.
inline std::shared_ptr<const rng::LogGammaTable> ZeroCountTable(double alpha) {
  if (alpha == 0.5) return nullptr;
  return LogGammaTableOrNull(alpha > 0.5 ? alpha - 0.5 : alpha);
}

}  // namespace sgmcmc::samplers::scir_internal

#endif  // SGMCMC_SAMPLERS_SCIR_INTERNAL_H_
