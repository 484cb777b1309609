#include "eval/autocovariance.h"

#include <cmath>
#include <complex>
#include <utility>

namespace sgmcmc::eval {
namespace {

// In-place iterative radix-2 Cooley-Tukey FFT; data.size() is a power of two. inverse
// applies the conjugate transform without the 1/n factor.
void Fft(std::vector<std::complex<double>>& data, bool inverse) {
  const size_t n = data.size();
  for (size_t i = 1, j = 0; i < n; ++i) {  // bit-reversal permutation
    size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(data[i], data[j]);
  }
  // Twiddles exp(-+2 pi i k / n), computed directly (not by repeated multiplication) to keep
  // rounding small; level `len` uses every (n / len)-th one.
  const double pi = std::acos(-1.0);
  std::vector<std::complex<double>> twiddles(n / 2);
  for (size_t k = 0; k < n / 2; ++k) {
    const double angle = (inverse ? 2 : -2) * pi * static_cast<double>(k) / static_cast<double>(n);
    twiddles[k] = std::complex<double>(std::cos(angle), std::sin(angle));
  }
  for (size_t len = 2; len <= n; len <<= 1) {
    const size_t half = len / 2;
    const size_t stride = n / len;
    for (size_t start = 0; start < n; start += len) {
      std::complex<double>* lo = data.data() + start;
      std::complex<double>* hi = lo + half;
      for (size_t k = 0; k < half; ++k) {
        // Written out: std::complex's operator* checks for NaN/inf (C99 Annex G) and is
        // several times slower.
        const std::complex<double> w = twiddles[k * stride];
        const double re = hi[k].real() * w.real() - hi[k].imag() * w.imag();
        const double im = hi[k].real() * w.imag() + hi[k].imag() * w.real();
        hi[k] = std::complex<double>(lo[k].real() - re, lo[k].imag() - im);
        lo[k] = std::complex<double>(lo[k].real() + re, lo[k].imag() + im);
      }
    }
  }
}

}  // namespace

std::vector<double> Autocovariance(absl::Span<const double> series) {
  const size_t n = series.size();
  if (n == 0) return {};
  double mean = 0;
  for (double x : series) mean += x;
  mean /= static_cast<double>(n);
  size_t size = 1;
  while (size < 2 * n) size <<= 1;
  std::vector<std::complex<double>> data(size);
  for (size_t t = 0; t < n; ++t) data[t] = series[t] - mean;
  Fft(data, /*inverse=*/false);
  for (std::complex<double>& z : data) z = std::norm(z);
  Fft(data, /*inverse=*/true);
  std::vector<double> acov(n);
  const double scale = 1.0 / (static_cast<double>(size) * static_cast<double>(n));
  for (size_t k = 0; k < n; ++k) acov[k] = data[k].real() * scale;
  return acov;
}

}  // namespace sgmcmc::eval
