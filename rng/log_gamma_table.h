// LogGammaTable: exact log-gamma variates for ONE fixed shape, from a table built once — the
// fast sampler for the many same-shape draws of SCIR's zero-count entries (Baker et al. 2018,
// §3; samplers/scir.h), where rng::LogGammaSample's per-call set-up dominates.
//
// Method: table-hat rejection (Devroye 1986, "Non-Uniform Random Variate Generation",
// sec. VIII.2, "strip methods") on y = log G, G ~ Gamma(a, 1), whose density
//   f(y) ∝ exp(a y − e^y)
// is log-concave for every a > 0 (second derivative of log f: −e^y). Relative to the mode
// y_m = log a, with d = y − y_m, log f(y) − log f(y_m) = φ(d) = −a (expm1(d) − d) (no
// cancellation for any a). The table has:
//  - body: breakpoints where φ = −k δ (k = 0..kLevels, δ = kLevelStep) on each side of the
//    mode, found by bisection; on each interval f is monotone, so the constant hat
//    exp(max φ at the ends) dominates it, and, φ being concave, so the chord of φ between
//    the ends is below φ: with e^x >= 1 + x, the trapezoid 1 + chord − log_hat is a squeeze;
//  - tails beyond the outermost breakpoints (φ ≈ −kLevels δ = −16): the tangent of the
//    concave log f there is an exponential hat, sampled by inversion (one Exp(1) draw),
//    accepted with probability exp(−e^{y_0}(expm1(t) − t)), t = y − y_0 (exact density/hat).
// A piece is picked by a Walker alias table (rng::AliasTable) over the hat areas (one engine
// word), then one more word gives the position in the interval (53 bits) and the cell of the
// vertical coordinate (11 bits); a cell wholly under the squeeze accepts at once (~97% of
// draws), otherwise a fresh uniform completes the vertical coordinate V and the point is
// accepted under the squeeze or by the exact test log V <= φ(y) − log_hat. This is plain
// rejection from a dominating hat: the output has exactly the law of log G (no
// interpolation), to double precision (the alias coin has 2^-64 resolution per column).
//
// Shapes in [kMinShape, kMaxShape] = [1e-300, 1e6] (the table adapts: for a = 1e-4 the body
// spans y in about [−1.6e5, 3]; for a = 1e-300 the left tail reaches ~−1e302, still finite;
// above 1e6 the intervals would shrink towards the resolution of y near log a).
//
// Cost: Create ~0.1 ms (2 x kLevels bisections, the alias table; ~28 KB). Sample: two engine
// words, two table loads and a few multiplies in the common case (inlined; the rest is out of
// line). Measured by //rng:log_gamma_table_benchmark (--config=bench, one core of the loaded
// 2-core VM, CPU time): Sample ~11-12 ns and Fill ~11 ns per draw at every shape from 1e-4
// to 3; rng::LogGammaSample on the same run: 19 ns at 1e-4, 23 ns at 0.01, 33 ns at 0.1,
// 52 ns at 0.49.
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(rng::LogGammaTable table, rng::LogGammaTable::Create(0.01));
//   double log_g = table.Sample(engine);   // log of a Gamma(0.01, 1) draw, finite
#ifndef SGMCMC_RNG_LOG_GAMMA_TABLE_H_
#define SGMCMC_RNG_LOG_GAMMA_TABLE_H_

#include <array>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "rng/categorical.h"
#include "rng/engine.h"
#include "rng/uniform.h"

namespace sgmcmc::rng {

class LogGammaTable {
 public:
  // Body levels per side of the mode and their spacing δ in log density: the body covers
  // log f >= max log f − kLevels * kLevelStep = −16 (the tails hold ~1e-7 of the mass);
  // hat/density <= e^δ per interval.
  static constexpr int kLevels = 256;
  static constexpr double kLevelStep = 1.0 / 16;

  static constexpr double kMinShape = 1e-300;
  static constexpr double kMaxShape = 1e6;

  // InvalidArgument unless kMinShape <= shape <= kMaxShape, 1 <= levels <= 4096 and
  // 0 < level_step <= 1. `levels` and `level_step` set the body (defaults above); coarser
  // tables stay exact but reject more and send more draws to the tails (tests use that).
  static absl::StatusOr<LogGammaTable> Create(double shape, int levels = kLevels,
                                              double level_step = kLevelStep);

  // log of a Gamma(shape(), 1) draw (finite). The common case (a body interval, the point
  // under the squeeze: two engine words) is inlined; the rest is out of line.
  double Sample(Engine& engine) const {
    const int piece = pieces_.Sample(engine);
    if (__builtin_expect(piece < body_intervals_, 1)) {
      const uint64_t bits = engine();
      const Candidate candidate = BodyCandidate(intervals_[piece], bits);
      if (candidate.cell + 1 <= candidate.squeeze * kSqueezeCells) return candidate.y;
      return SampleSlow(engine, piece, bits);
    }
    return SampleSlow(engine, piece, 0);
  }

  // out[i] = Sample(engine) for each i in turn (the same draws); a tight loop whose
  // iterations the CPU overlaps (table look-ups are latency-bound).
  void Fill(Engine& engine, absl::Span<double> out) const {
    for (double& x : out) x = Sample(engine);
  }

  double shape() const { return shape_; }

 private:
  // The low 11 bits of the position word pick the vertical cell (bits 0-10; the position
  // uses bits 11-63).
  static constexpr uint32_t kSqueezeCells = 2048;
  struct Interval {
    double lo;          // left end (y scale)
    double width;       // right end − lo
    double log_hat;     // hat: max of φ over the interval (plus a rounding margin)
    double chord_lo;    // φ(lo) − log_hat (minus a rounding margin), <= 0
    double chord_rise;  // φ(hi) − φ(lo): the chord is chord_lo + chord_rise * u
  };
  // Exponential tangent hat beyond `origin` (y scale) going outwards with rate |slope|;
  // `scale` = e^{origin}, the factor of the exact acceptance exponent.
  struct Tail {
    double origin;
    double slope;  // d log f / dy at origin: > 0 on the left, < 0 on the right
    double scale;
  };

  // A point under the hat of a body interval from one engine word: the position u (top 53
  // bits) gives y; the low 11 bits are the cell k of the vertical coordinate
  // v = (k + U')/kSqueezeCells. Squeeze: φ is concave, so on the interval φ − log_hat >=
  // chord(u) (linear between the ends), and e^x >= 1 + x: v <= squeeze = 1 + chord(u)
  // accepts, and so does the whole cell when (k + 1)/kSqueezeCells <= squeeze.
  struct Candidate {
    double y;
    double squeeze;
    uint32_t cell;
  };
  static Candidate BodyCandidate(const Interval& interval, uint64_t bits) {
    const double u = (static_cast<double>(bits >> 11) + 0.5) * 0x1p-53;
    return {interval.lo + interval.width * u, 1 + (interval.chord_lo + interval.chord_rise * u),
            static_cast<uint32_t>(bits) & (kSqueezeCells - 1)};
  }

  // Sample() from a piece already drawn (and, for a body interval, its position word `bits`)
  // that the inlined fast path did not accept: the exact test, the tails, and retries.
  [[gnu::noinline]] double SampleSlow(Engine& engine, int piece, uint64_t bits) const;

  LogGammaTable(double shape, AliasTable pieces, std::vector<Interval> intervals,
                std::array<Tail, 2> tails)
      : shape_(shape),
        log_mode_(std::log(shape)),
        body_intervals_(static_cast<int>(intervals.size())),
        pieces_(std::move(pieces)),
        intervals_(std::move(intervals)),
        tails_(tails) {}

  // log f(y_m + d) − log f(y_m).
  double Phi(double d) const { return -shape_ * (std::expm1(d) - d); }

  // One trial in tail `side` (0 left, 1 right); true and the draw in y when accepted.
  bool TailSample(Engine& engine, int side, double& y) const;

  double shape_;
  double log_mode_;
  int body_intervals_;
  AliasTable pieces_;  // body intervals 0..body_intervals_-1, then the left and right tails
  std::vector<Interval> intervals_;
  std::array<Tail, 2> tails_;
};

}  // namespace sgmcmc::rng

#endif  // SGMCMC_RNG_LOG_GAMMA_TABLE_H_
