#include "rng/log_gamma_table.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "rng/exponential.h"
#include "rng/uniform.h"

namespace sgmcmc::rng {
namespace {

// Fast-accept bounds are multiplied by this, so that the rounding of t = u x width (and of the
// bisections) never fast-accepts a point above the density.
constexpr double kBoundShrink = 1 - 1e-12;

// Bisects [inside, outside] (where `is_inside` holds at inside and not at outside, and
// changes once between) until it cannot shrink; returns the final bracket.
template <typename Predicate>
std::pair<double, double> Bisect(const Predicate& is_inside, double inside, double outside) {
  for (int iteration = 0; iteration < 4096; ++iteration) {
    const double mid = 0.5 * (inside + outside);
    if (mid == inside || mid == outside) break;
    (is_inside(mid) ? inside : outside) = mid;
  }
  return {inside, outside};
}

// One side of the mode: g(x) = f(y_m + sign x)/f(y_m) for x >= 0, decreasing from 1.
struct Side {
  double a;
  double sign;  // +1: right (y > y_m), −1: left

  double LogG(double x) const {
    const double d = sign * x;
    return -a * (std::expm1(d) - d);
  }
  double G(double x) const { return std::exp(LogG(x)); }
  // |d log g/dx| = a |e^{±x} − 1|.
  double Slope(double x) const { return a * std::abs(std::expm1(sign * x)); }
  // Area of the base layer with corner r: the rectangle r g(r) plus the tangent tail
  // g(r)/|φ'|; decreasing in r for a log-concave g (from +inf at 0 to 0).
  double BaseArea(double r) const { return G(r) * (r + 1 / Slope(r)); }

  // The bracket [inside, outside] of the x with log g(x) = log_level < 0, bisected until it
  // cannot shrink: log g(inside) > log_level >= log g(outside). Brackets: right side,
  // φ(d) <= −a d²/2, so x <= sqrt(2c/a); left side, φ(−x) < a − a x, so x <= c/a + 1.
  std::pair<double, double> Inverse(double log_level) const {
    const double c = -log_level;
    double outside = sign > 0 ? std::sqrt(2 * c / a) : c / a + 1;
    while (!(LogG(outside) <= log_level)) outside *= 2;
    return Bisect([&](double x) { return LogG(x) > log_level; }, 0, outside);
  }

  // The r with BaseArea(r) = v (any point of the final bracket).
  double BaseCorner(double v) const {
    double outside = 1;
    while (BaseArea(outside) > v) outside *= 2;
    return Bisect([&](double r) { return BaseArea(r) > v; }, 0, outside).second;
  }
};

// One layer of a side before it becomes a slot.
struct Layer {
  double width;       // x_i, or v/g(r) for the base layer (x scale)
  double fast_bound;  // |t| below this is accepted at once
  bool base;
  double g_low, g_high;  // layers: the rectangle's vertical range
  double corner;         // base: r
};

// The layers of one side for the common area v, base first; stops early (returning more
// than max_layers entries) when the side needs more than max_layers.
std::vector<Layer> BuildSide(const Side& side, double v, int max_layers) {
  std::vector<Layer> layers;
  const double r = side.BaseCorner(v);
  double x = r;
  double g_low = side.G(r);
  layers.push_back({v / g_low, r * kBoundShrink, true, 0, g_low, r});
  while (static_cast<int>(layers.size()) <= max_layers) {
    const double top = g_low + v / x;
    if (!(top < 1)) {  // the top layer: above the mode, nothing is accepted at once
      layers.push_back({x, 0, false, g_low, top, 0});
      break;
    }
    // Points with |t| < inside lie under g at every height up to top; the next layer spans
    // [0, outside] (g(outside) <= top) from height top, so the layers leave no gap.
    const auto [inside, outside] = side.Inverse(std::log(top));
    layers.push_back({x, inside * kBoundShrink, false, g_low, top, 0});
    x = outside;
    g_low = top;
  }
  return layers;
}

}  // namespace

absl::StatusOr<LogGammaTable> LogGammaTable::Create(double shape, int slot_bits) {
  if (!(shape >= kMinShape && shape <= kMaxShape)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "LogGammaTable::Create: shape must be in [1e-300, 1e6], got ", shape));
  }
  if (slot_bits < 2 || slot_bits > 11) {
    return absl::InvalidArgumentError(
        absl::StrCat("LogGammaTable::Create: slot_bits must be in [2, 11], got ", slot_bits));
  }
  const int num_slots = 1 << slot_bits;
  const Side right{shape, 1}, left{shape, -1};
  const auto layers_needed = [&](double v) {
    return BuildSide(right, v, num_slots).size() + BuildSide(left, v, num_slots).size();
  };
  // Nearly the smallest v whose layers fit the slots (layers_needed does not increase with
  // v), by bisection on log v from brackets around the area under g, Γ(a) e^a a^{−a}, per slot
  // (the hat exceeds it by a few %). Any v that fits gives an exact sampler; 20 steps leave
  // < 0.2% of v unused.
  double fits = std::exp(std::lgamma(shape) + shape - shape * std::log(shape)) / num_slots;
  while (layers_needed(fits) > static_cast<size_t>(num_slots)) fits *= 2;
  double too_small = fits;
  while (layers_needed(too_small) <= static_cast<size_t>(num_slots)) too_small /= 2;
  for (int iteration = 0; iteration < 20; ++iteration) {
    const double mid = std::sqrt(fits) * std::sqrt(too_small);  // no overflow near 1e308
    (layers_needed(mid) <= static_cast<size_t>(num_slots) ? fits : too_small) = mid;
  }

  const double log_mode = std::log(shape);
  std::vector<Slot> slots;
  std::vector<SlotTest> tests;
  for (const Side& side : {right, left}) {
    for (const Layer& layer : BuildSide(side, fits, num_slots)) {
      slots.push_back({side.sign * layer.width, layer.fast_bound});
      if (layer.base) {
        // The tangent of log f at y = y_m ± r: slope φ'(±r) = −a expm1(±r); e^{y} = a e^{±r}.
        const double d = side.sign * layer.corner;
        tests.push_back({Kind::kBase, 0, 0, layer.corner, log_mode + d,
                         -shape * std::expm1(d), shape * std::exp(d)});
      } else {
        tests.push_back({Kind::kLayer, layer.g_low, layer.g_high, 0, 0, 0, 0});
      }
    }
  }
  while (static_cast<int>(slots.size()) < num_slots) {
    slots.push_back({0, 0});
    tests.push_back({Kind::kEmpty, 0, 0, 0, 0, 0, 0});
  }
  return LogGammaTable(shape, slot_bits, std::move(slots), std::move(tests));
}

absl::StatusOr<std::shared_ptr<const LogGammaTable>> LogGammaTable::Shared(double shape) {
  static absl::Mutex mutex(absl::kConstInit);
  static auto* tables = new absl::flat_hash_map<double, std::shared_ptr<const LogGammaTable>>();
  absl::MutexLock lock(&mutex);
  std::shared_ptr<const LogGammaTable>& table = (*tables)[shape];
  if (table == nullptr) {
    absl::StatusOr<LogGammaTable> created = Create(shape);
    if (!created.ok()) {
      tables->erase(shape);
      return created.status();
    }
    table = std::make_shared<const LogGammaTable>(*std::move(created));
  }
  return table;
}

LogGammaTable::LogGammaTable(double shape, int slot_bits, std::vector<Slot> slots,
                             std::vector<SlotTest> tests)
    : shape_(shape),
      log_mode_(std::log(shape)),
      slot_shift_(64 - slot_bits),
      slots_(std::move(slots)),
      tests_(std::move(tests)) {}

double LogGammaTable::SampleSlow(Engine& engine, int slot, double t) const {
  for (;;) {
    const SlotTest& test = tests_[slot];
    const double x = std::abs(t);
    switch (test.kind) {
      case Kind::kLayer: {
        // A uniform height in the rectangle against g(x) (in logs: g may be tiny).
        const double height = test.g_low + UniformDouble(engine) * (test.g_high - test.g_low);
        if (std::log(height) <= Phi(t)) return log_mode_ + t;
        break;
      }
      case Kind::kBase: {
        // Under the rectangle [0, r] x [0, g(r)]: under g. Beyond r: the tangent hat's part
        // of the layer, where a point under the hat is drawn afresh (the hat is exponential,
        // so its abscissa is an exponential draw) and accepted when under f: density over
        // hat = exp(−e^{origin} (expm1(s) − s)), s = y − origin.
        if (x < test.corner) return log_mode_ + t;
        const double s = -ExponentialSample(engine) / test.tail_slope;
        const double y = std::max(test.tail_origin + s, std::numeric_limits<double>::lowest());
        if (ExponentialSample(engine) >= test.tail_scale * (std::expm1(s) - s)) return y;
        break;
      }
      case Kind::kEmpty:
        break;
    }
    const uint64_t word = engine();
    slot = static_cast<int>(word >> slot_shift_);
    const Slot& s = slots_[slot];
    t = Position(word) * s.signed_width;
    if (std::abs(t) < s.fast_bound) return log_mode_ + t;
  }
}

}  // namespace sgmcmc::rng
