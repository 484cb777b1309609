// The proposal step shared by Hoermann's transformed-rejection generators PTRS (Poisson) and
// BTRS (binomial) (W. Hoermann 1993, "The transformed rejection method for generating Poisson
// random variables" and "The generation of binomial random variates"): with U uniform on
// (-1/2, 1/2), us = 1/2 - |U| and V uniform on (0, 1),
//   k = floor((2 a / us + b) U + centre + offset).
// The centre (mean or n p, up to 2^62) is split into whole and fractional parts so that k is
// exact integer arithmetic even beyond 2^53, where a double cannot hold every integer.
// Proposals more than 2^61 from the centre (over 2^30 standard deviations for any mean these
// generators accept) have pmf exactly 0 in double precision and are reported as rejected, so
// k never overflows.
//
// Cost: two uniforms, a division and a floor per trial.
//
// Example:
//   const TransformedRejectionProposal proposal(a, b, mean, 0.43);
//   TransformedRejectionProposal::Trial t;
//   if (proposal.Draw(engine, t) && t.us >= 0.07 && t.v <= v_r) return t.k;
#ifndef SGMCMC_RNG_INTERNAL_TRANSFORMED_REJECTION_H_
#define SGMCMC_RNG_INTERNAL_TRANSFORMED_REJECTION_H_

#include <cmath>
#include <cstdint>

#include "rng/engine.h"
#include "rng/uniform.h"

namespace sgmcmc::rng_internal {

class TransformedRejectionProposal {
 public:
  struct Trial {
    int64_t k;  // proposed value
    double us;  // 1/2 - |U|, in (0, 1/2)
    double v;   // V, in (0, 1)
  };

  // Hat constants a, b of PTRS/BTRS; centre in [0, 2^62] and offset (0.43 or 0.5) added to it.
  TransformedRejectionProposal(double a, double b, double centre, double offset) : a_(a), b_(b) {
    const double whole = std::floor(centre);
    whole_ = static_cast<int64_t>(whole);
    frac_ = centre - whole + offset;
  }

  // Draws one proposal into trial; false if it is to be rejected as out of range.
  bool Draw(rng::Engine& engine, Trial& trial) const {
    const double u = rng::UniformDouble(engine) - 0.5;
    trial.v = rng::UniformDouble(engine);
    trial.us = 0.5 - std::fabs(u);
    const double offset = std::floor((2 * a_ / trial.us + b_) * u + frac_);
    if (!(std::fabs(offset) < kMaxOffset)) return false;
    trial.k = whole_ + static_cast<int64_t>(offset);
    return true;
  }

  // log(V scale / (a / us^2 + b)), the left side of the exact acceptance test
  // log_hat <= log pmf(k) (+ a constant): scale is 1 / alpha in PTRS, alpha in BTRS.
  double LogHat(const Trial& trial, double scale) const {
    return std::log(trial.v * scale / (a_ / (trial.us * trial.us) + b_));
  }

 private:
  static constexpr double kMaxOffset = 0x1p61;

  double a_, b_;
  int64_t whole_;
  double frac_;
};

}  // namespace sgmcmc::rng_internal

#endif  // SGMCMC_RNG_INTERNAL_TRANSFORMED_REJECTION_H_
