// LogGammaTable: exact log-gamma variates for ONE fixed shape, from a table built once — the
// fast sampler for the many same-shape draws of SCIR's zero-count entries (Baker et al. 2018,
// §3; samplers/scir.h), where rng::LogGammaSample's per-call set-up dominates.
//
// Method: a two-sided ziggurat (Marsaglia & Tsang 2000, "The Ziggurat Method for Generating
// Random Variables", J. Stat. Softw. 5(8)) on y = log G, G ~ Gamma(a, 1), whose density
//   f(y) ∝ exp(a y − e^y)
// is log-concave and unimodal for every a > 0. Relative to the mode y_m = log a, with
// d = y − y_m, f(y)/f(y_m) = g(d) = exp(φ(d)), φ(d) = −a (expm1(d) − d) (no cancellation for
// any a). Each side of the mode, x = |d| >= 0, is covered by layers of one common area v:
//  - a base layer: the rectangle [0, r] x [0, g(r)] plus, beyond r, the exponential tangent
//    hat of the concave log g at r (area g(r)/|φ'(±r)|);
//  - layers i: the rectangle [0, x_i] x [g(x_i), g(x_{i+1})], x_{i+1} = g⁻¹(g(x_i) + v/x_i),
//    up to the top layer, whose rectangle [0, x_i] x [g(x_i), g(x_i) + v/x_i] reaches above
//    the mode (its excess is rejected).
// The 2^kSlotBits slots are the layers of both sides, the unused ones empty (always
// rejected), so the union of the slots is a hat of 2^kSlotBits equal areas over f. One
// engine word gives the slot (top kSlotBits bits) and a 53-bit uniform u (low bits), so
// t = u x width of the slot (signed: the side); |t| below the next layer's x_{i+1} (or r)
// is under f and accepted at once (~99% of draws at the default 2^10 slots: 1.013-1.014
// engine words per draw on average for shapes 1e-4 to 3, against 1.045-1.052 with 2^8 slots,
// the default until session 21). Otherwise the exact test:
// a vertical coordinate in the layer (one more uniform) against g(|t|), or in the base
// layer's tail a point under the tangent hat (two Exp(1) draws) against f; a rejected point
// restarts with a new word. Plain rejection from a dominating hat: the output has exactly
// the law of log G (no interpolation), to double precision (the fast-accept bounds are
// shrunk by 1e-12 relative so rounding never accepts a point above f).
//
// Shapes in [kMinShape, kMaxShape] = [1e-300, 1e6] (for a = 1e-300 the left side reaches
// ~1e302, still finite; above 1e6 the layers would shrink towards the resolution of y near
// log a).
//
// Cost: Create is O(2^kSlotBits) table entries times 20 bisection steps on v (each building
// both sides by bisections; 16 KB of slots, 72 KB with the exact-test data; 20-60 ms, so
// Shared() builds one per shape per process). Sample is O(1): one engine word, one 16-byte table load, a
// multiply and a compare in the common case (inlined; the rest out of line). Measured:
// rng/log_gamma_table_benchmark.cc.
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(rng::LogGammaTable table, rng::LogGammaTable::Create(0.01));
//   double log_g = table.Sample(engine);   // log of a Gamma(0.01, 1) draw, finite
#ifndef SGMCMC_RNG_LOG_GAMMA_TABLE_H_
#define SGMCMC_RNG_LOG_GAMMA_TABLE_H_

#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "rng/engine.h"

namespace sgmcmc::rng {

class LogGammaTable {
 public:
  // Slots = 2^kSlotBits layers over both sides (the top bits of the word; the low 53 bits are
  // the position). 10 rather than 8: the exact test (an expm1 and a log, ~50 ns) runs for ~1%
  // of draws instead of ~4%, and SCIR's sparse step runs 7-12% faster
  // (samplers/scir_benchmark.cc); 11 was no faster and doubles Create's time.
  static constexpr int kSlotBits = 10;

  static constexpr double kMinShape = 1e-300;
  static constexpr double kMaxShape = 1e6;

  // InvalidArgument unless kMinShape <= shape <= kMaxShape and 2 <= slot_bits <= 11. Fewer
  // slots give wider layers: still exact, but more draws take the exact test and the tails
  // (tests use that).
  static absl::StatusOr<LogGammaTable> Create(double shape, int slot_bits = kSlotBits);

  // The default table for `shape`, built once per process and shared (tables are immutable,
  // so one can serve any number of samplers and threads): Create costs milliseconds, and a
  // run may build thousands of samplers with the same shape. Thread-safe. Errors as Create.
  static absl::StatusOr<std::shared_ptr<const LogGammaTable>> Shared(double shape);

  // log of a Gamma(shape(), 1) draw (finite). The common case (one engine word) is inlined;
  // the rest is out of line.
  double Sample(Engine& engine) const {
    const uint64_t word = engine();
    const int slot = static_cast<int>(word >> slot_shift_);
    const Slot& s = slots_[slot];
    const double t = Position(word) * s.signed_width;
    if (__builtin_expect(std::abs(t) < s.fast_bound, 1)) return log_mode_ + t;
    return SampleSlow(engine, slot, t);
  }

  // out[i] = Sample(engine) for each i in turn (the same draws).
  void Fill(Engine& engine, absl::Span<double> out) const {
    for (double& x : out) x = Sample(engine);
  }

  double shape() const { return shape_; }

 private:
  // The fast path's data: t = u x signed_width (negative on the left side), accepted when
  // |t| < fast_bound (0 for the top and empty slots).
  struct Slot {
    double signed_width;
    double fast_bound;
  };
  // The exact test's data. Layer slots: the vertical range [g_low, g_high] of the rectangle;
  // base slots: the rectangle's corner r (|t| < r is under f) and the tail beyond
  // `tail_origin` = y_m ± r with log-density slope `tail_slope` (> 0 on the left, < 0 on the
  // right) and `tail_scale` = e^{tail_origin}; empty slots reject.
  enum class Kind : uint8_t { kLayer, kBase, kEmpty };
  struct SlotTest {
    Kind kind;
    double g_low;
    double g_high;
    double corner;
    double tail_origin;
    double tail_slope;
    double tail_scale;
  };

  LogGammaTable(double shape, int slot_bits, std::vector<Slot> slots,
                std::vector<SlotTest> tests);

  // The uniform of the low 53 bits, in (0, 1).
  static double Position(uint64_t word) {
    return (static_cast<double>(word & ((uint64_t{1} << 53) - 1)) + 0.5) * 0x1p-53;
  }

  // Sample() after the fast test failed for `slot` with offset t: the exact test, then
  // retries with new words.
  [[gnu::noinline]] double SampleSlow(Engine& engine, int slot, double t) const;

  // log g(d) = φ(d) = log f(y_m + d) − log f(y_m).
  double Phi(double d) const { return -shape_ * (std::expm1(d) - d); }

  double shape_;
  double log_mode_;
  int slot_shift_;  // 64 − slot bits
  std::vector<Slot> slots_;
  std::vector<SlotTest> tests_;
};

}  // namespace sgmcmc::rng

#endif  // SGMCMC_RNG_LOG_GAMMA_TABLE_H_
