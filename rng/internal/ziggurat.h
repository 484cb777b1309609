// The ziggurat method shared by //rng:normal and //rng:exponential (Marsaglia & Tsang 2000,
// "The ziggurat method for generating random variables", J. Stat. Softw. 5(8); 256 layers,
// with independent bits for layer, sign and position as recommended by Doornik 2005, "An
// improved ziggurat method to generate normal random samples").
//
// A monotone decreasing density f on [0, inf) with f(0) = 1 is covered by 256 layers of equal
// area v: layer 0 is the rectangle [0, r] x [0, f(r)] plus the tail beyond r (given the
// virtual width x[0] = v / f(r)), layer i >= 1 is [0, x[i]] x [f(x[i]), f(x[i+1])], with
// x[1] = r > x[2] > ... > x[256] = 0. One 64-bit engine word gives the layer (bits 0-7), a
// spare sign bit (bit 8) and a 53-bit position u (bits 11-63); the candidate is
// x = (u + 1/2) x[i] / 2^53. If x < x[i+1] it lies under f and is returned at once (the fast
// path, ~99% of draws for the normal); otherwise the wedge of layer i is tested against f, or
// for layer 0 a tail draw is made. The method is exact: every step is an exact rejection or
// an exact tail sampler, so the only approximation is double rounding in the tables.
//
// The tables are computed at compile time (constexpr, with the constexpr exp/log/sqrt below),
// so they are constant-initialised: no start-up cost and no static-initialisation order issue.
//
// Cost: the fast path is one engine word, one table load, a compare and a multiply.
//
// Example (see rng/exponential.h and rng/exponential.cc):
//   double ExponentialSlowPath(Engine& engine, uint64_t bits) {
//     return ZigguratSlowPath(engine, kExponentialZiggurat, bits, density, tail);
//   }
//   uint64_t bits;
//   double e = ZigguratSample<ExponentialSlowPath>(engine, kExponentialZiggurat, bits);
#ifndef SGMCMC_RNG_INTERNAL_ZIGGURAT_H_
#define SGMCMC_RNG_INTERNAL_ZIGGURAT_H_

#include <array>
#include <cstdint>

#include "rng/engine.h"
#include "rng/uniform.h"

namespace sgmcmc::rng_internal {

// ---- Compile-time elementary functions (accurate to a few ulp; tested against <cmath>). ----

// ln 2 split so that k * kLn2Hi is exact for |k| < 2^11 (the fdlibm constants).
inline constexpr double kLn2Hi = 6.93147180369123816490e-01;
inline constexpr double kLn2Lo = 1.90821492927058770002e-10;
inline constexpr double kSqrt2 = 1.41421356237309504880;

// exp(x) for |x| < 700: x = k ln2 + r with |r| <= ln2 / 2, a degree-24 Taylor polynomial in
// r, then scaling by 2^k.
constexpr double ConstexprExp(double x) {
  const double t = x * 1.44269504088896340736;  // x / ln 2
  int k = static_cast<int>(t < 0 ? t - 0.5 : t + 0.5);
  const double r = (x - k * kLn2Hi) - k * kLn2Lo;
  double sum = 1;
  for (int n = 24; n >= 1; --n) sum = 1 + sum * r / n;
  for (; k > 0; --k) sum *= 2;
  for (; k < 0; ++k) sum *= 0.5;
  return sum;
}

// log(y) for finite y > 0: y = m 2^e with m in [sqrt(1/2), sqrt(2)], then
// log m = 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.172, by its odd power series.
constexpr double ConstexprLog(double y) {
  int e = 0;
  double m = y;
  while (m > kSqrt2) {
    m *= 0.5;
    ++e;
  }
  while (m < kSqrt2 / 2) {
    m *= 2;
    --e;
  }
  const double s = (m - 1) / (m + 1);
  const double s2 = s * s;
  double sum = 0;
  for (int n = 41; n >= 1; n -= 2) sum = 1.0 / n + s2 * sum;
  return e * kLn2Hi + (2 * s * sum + e * kLn2Lo);
}

// sqrt(y) for finite y >= 0 by Newton's iteration from above (monotone, stops when it no
// longer decreases).
constexpr double ConstexprSqrt(double y) {
  if (y == 0) return 0;
  double x = y > 1 ? y : 1.0;
  for (;;) {
    const double next = 0.5 * (x + y / x);
    if (next >= x) return x;
    x = next;
  }
}

// ---- Tables. ----

inline constexpr int kZigguratLayerBits = 8;
inline constexpr int kZigguratLayers = 1 << kZigguratLayerBits;
// Bit of the engine word not used by the ziggurat: callers may use it as a sign.
inline constexpr uint64_t kZigguratSignBit = uint64_t{1} << kZigguratLayerBits;
// The position u is the top 53 bits of the word.
inline constexpr int kZigguratPositionShift = 11;

struct ZigguratLayer {
  // Positions u < accept_below give x = (u + 1/2) * width_scale < x[i+1] (inside the core).
  uint64_t accept_below;
  double width_scale;  // x[i] / 2^53
};

struct ZigguratTable {
  std::array<ZigguratLayer, kZigguratLayers> layers;
  std::array<double, kZigguratLayers + 1> x;  // layer widths, decreasing; x[256] = 0
  std::array<double, kZigguratLayers + 1> f;  // f(x[i]); f[256] = f(0) = 1
  double r;                                   // where the tail starts (x[1])
  double v;                                   // the common layer area
  // Relative area error of the top layer, x[255] (1 - f(x[255])) / v - 1: zero for exact
  // (r, v); checked in tests to confirm the constants and the constexpr math.
  double closure;
};

// Builds the table for density f (f(0) = 1, decreasing) with inverse f_inverse, tail start r
// and layer area v = r f(r) + integral_r^inf f, both as solved for 256 layers.
template <typename Density, typename InverseDensity>
constexpr ZigguratTable MakeZigguratTable(double r, double v, Density f, InverseDensity f_inverse) {
  constexpr int n = kZigguratLayers;
  ZigguratTable t{};
  t.r = r;
  t.v = v;
  t.x[0] = v / f(r);
  t.x[1] = r;
  for (int i = 1; i < n - 1; ++i) t.x[i + 1] = f_inverse(f(t.x[i]) + v / t.x[i]);
  t.x[n] = 0;
  for (int i = 0; i <= n; ++i) t.f[i] = f(t.x[i]);
  for (int i = 0; i < n; ++i) {
    // (u + 1/2) x[i] / 2^53 < x[i+1]  <=>  u < 2^53 x[i+1] / x[i] - 1/2. Rounding in the
    // ratio is below 2 units of u, so 2 is subtracted: a point that misses the fast path
    // only because of the margin still lies under f and is accepted by the wedge test (or,
    // in layer 0, by the explicit x < r test), so the margin costs nothing in exactness.
    const double bound = 0x1p53 * (t.x[i + 1] / t.x[i]) - 0.5 - 2;
    t.layers[i].accept_below = bound > 0 ? static_cast<uint64_t>(bound) : 0;
    t.layers[i].width_scale = t.x[i] * 0x1p-53;
  }
  t.closure = t.x[n - 1] * (1 - t.f[n - 1]) / v - 1;
  return t;
}

// ---- Sampling. ----

// The candidate x for position u in a layer of scale width_scale.
inline double ZigguratCandidate(uint64_t position, double width_scale) {
  return (static_cast<double>(static_cast<int64_t>(position)) + 0.5) * width_scale;
}

// The fast path: sets x and returns true when the word lands in a layer's core.
inline bool ZigguratFastPath(const ZigguratTable& table, uint64_t bits, double& x) {
  const ZigguratLayer& layer = table.layers[bits & (kZigguratLayers - 1)];
  const uint64_t position = bits >> kZigguratPositionShift;
  x = ZigguratCandidate(position, layer.width_scale);
  return position < layer.accept_below;
}

// The rest of the ziggurat, starting from a word `bits` that missed the fast path. `density`
// evaluates f(x) (f(0) = 1); `tail(engine)` draws from f restricted to [r, inf). Returns a draw
// from f on [0, inf); bit kZigguratSignBit of the first word is not used.
template <typename Density, typename Tail>
double ZigguratSlowPath(rng::Engine& engine, const ZigguratTable& table, uint64_t bits,
                        Density density, Tail tail) {
  for (;;) {
    const int i = static_cast<int>(bits & (kZigguratLayers - 1));
    const uint64_t position = bits >> kZigguratPositionShift;
    const double x = ZigguratCandidate(position, table.layers[i].width_scale);
    if (i == 0) return x < table.r ? x : tail(engine);
    if (position < table.layers[i].accept_below) return x;
    const double y = table.f[i] + rng::UniformDouble(engine) * (table.f[i + 1] - table.f[i]);
    if (y < density(x)) return x;
    bits = engine();
  }
}

// A draw from the table's density on [0, inf): the inlined fast path, else slow_path(engine,
// bits) (an out-of-line ZigguratSlowPath). `bits` receives the first engine word, whose bit
// kZigguratSignBit is independent of the draw.
template <double (*slow_path)(rng::Engine&, uint64_t)>
inline double ZigguratSample(rng::Engine& engine, const ZigguratTable& table, uint64_t& bits) {
  bits = engine();
  double x;
  if (__builtin_expect(!ZigguratFastPath(table, bits, x), 0)) x = slow_path(engine, bits);
  return x;
}

}  // namespace sgmcmc::rng_internal

#endif  // SGMCMC_RNG_INTERNAL_ZIGGURAT_H_
