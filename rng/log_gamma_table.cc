#include "rng/log_gamma_table.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "rng/exponential.h"

namespace sgmcmc::rng {
namespace {

// Added to every hat (and subtracted from every squeeze) in log space, so that rounding in the
// breakpoints and in φ can never put the density above its hat (~1e-16 relative errors).
constexpr double kLogMargin = 1e-12;

// d with φ(d) = −level on one side of the mode, by bisection of the bracket
// [inside, outside] (φ(inside) > −level >= φ(outside)) until it cannot shrink further. Any
// point of the bracket would do: the hats are computed at the breakpoints actually used.
template <typename PhiFn>
double SolveLevel(const PhiFn& phi, double level, double inside, double outside) {
  for (int iteration = 0; iteration < 4096; ++iteration) {
    const double mid = 0.5 * (inside + outside);
    if (mid == inside || mid == outside) break;
    if (phi(mid) > -level) {
      inside = mid;
    } else {
      outside = mid;
    }
  }
  return outside;
}

}  // namespace

absl::StatusOr<LogGammaTable> LogGammaTable::Create(double shape, int levels,
                                                    double level_step) {
  if (!(shape >= kMinShape && shape <= kMaxShape)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "LogGammaTable::Create: shape must be in [1e-300, 1e6], got ", shape));
  }
  if (levels < 1 || levels > 4096) {
    return absl::InvalidArgumentError(
        absl::StrCat("LogGammaTable::Create: levels must be in [1, 4096], got ", levels));
  }
  if (!(level_step > 0 && level_step <= 1)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "LogGammaTable::Create: level_step must be in (0, 1], got ", level_step));
  }
  const double a = shape;
  const double log_mode = std::log(a);
  const auto phi = [a](double d) { return -a * (std::expm1(d) - d); };

  // Breakpoints d (relative to the mode), increasing: the left side's levels from the
  // outermost inwards, the mode, then the right side's levels outwards. Brackets: for d <= 0,
  // a d < φ(d) < a d + a, so φ = −c has d in (−c/a − 1, −c/a); for d >= 0,
  // φ(d) <= −a d²/2, so d <= sqrt(2c/a).
  std::vector<double> breakpoints;
  breakpoints.reserve(2 * levels + 1);
  for (int k = levels; k >= 1; --k) {
    const double c = k * level_step;
    breakpoints.push_back(SolveLevel(phi, c, -c / a, -c / a - 1));
  }
  breakpoints.push_back(0);
  for (int k = 1; k <= levels; ++k) {
    const double c = k * level_step;
    breakpoints.push_back(SolveLevel(phi, c, 0, std::sqrt(2 * c / a)));
  }

  std::vector<Interval> intervals;
  std::vector<double> areas;
  intervals.reserve(breakpoints.size() - 1);
  areas.reserve(breakpoints.size() + 1);
  for (size_t i = 0; i + 1 < breakpoints.size(); ++i) {
    // The interval in y, and φ at its ends as the sampler will evaluate it (y − log_mode).
    const double lo = log_mode + breakpoints[i];
    const double hi = log_mode + breakpoints[i + 1];
    const double phi_lo = phi(lo - log_mode);
    const double phi_hi = phi(hi - log_mode);
    // f is monotone on the interval (the mode is a breakpoint): its extremes are at the ends.
    const double log_hat = std::max(phi_lo, phi_hi) + kLogMargin;
    intervals.push_back(
        {lo, hi - lo, log_hat, phi_lo - log_hat - kLogMargin, phi_hi - phi_lo});
    areas.push_back(std::exp(log_hat) * (hi - lo));
  }
  std::array<Tail, 2> tails;
  for (int side = 0; side < 2; ++side) {
    const double d = side == 0 ? breakpoints.front() : breakpoints.back();
    const double slope = -a * std::expm1(d);  // φ'(d)
    tails[side] = {log_mode + d, slope, a * std::exp(d)};
    areas.push_back(std::exp(phi(d)) / std::abs(slope));
  }
  absl::StatusOr<AliasTable> pieces = AliasTable::Create(areas);
  if (!pieces.ok()) {
    return absl::InternalError(absl::StrCat("LogGammaTable::Create: shape ", shape,
                                            ": alias table failed: ", pieces.status().message()));
  }
  return LogGammaTable(shape, *std::move(pieces), std::move(intervals), tails);
}

double LogGammaTable::SampleSlow(Engine& engine, int piece, uint64_t bits) const {
  for (;;) {
    if (piece < body_intervals_) {
      const Interval& interval = intervals_[piece];
      const Candidate candidate = BodyCandidate(interval, bits);
      if (candidate.cell + 1 <= candidate.squeeze * kSqueezeCells) return candidate.y;
      const double v = (candidate.cell + UniformDouble(engine)) * (1.0 / kSqueezeCells);
      if (v <= candidate.squeeze ||
          std::log(v) <= Phi(candidate.y - log_mode_) - interval.log_hat) {
        return candidate.y;
      }
    } else {
      double y;
      if (TailSample(engine, piece - body_intervals_, y)) return y;
    }
    piece = pieces_.Sample(engine);
    if (piece < body_intervals_) bits = engine();
  }
}

bool LogGammaTable::TailSample(Engine& engine, int side, double& y) const {
  const Tail& tail = tails_[side];
  // y − origin ~ −Exp(1)/slope: outwards from the origin on either side.
  const double t = -ExponentialSample(engine) / tail.slope;
  y = std::max(tail.origin + t, std::numeric_limits<double>::lowest());
  // Density over the tangent hat: exp(−e^{origin} (expm1(t) − t)); accept when an Exp(1)
  // draw (−log of a uniform) exceeds the exponent's magnitude.
  return ExponentialSample(engine) >= tail.scale * (std::expm1(t) - t);
}

}  // namespace sgmcmc::rng
