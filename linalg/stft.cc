#include "linalg/stft.h"

#include <cmath>
#include <complex>

#include "base/check.h"
#include "unsupported/Eigen/FFT"

namespace sgmcmc::linalg {
namespace {

std::vector<double> SqrtHann(int length) {
  std::vector<double> w(length);
  for (int n = 0; n < length; ++n) w[n] = std::sin(M_PI * n / length);
  return w;
}

int NumFrames(int length, int hop) { return (length + hop - 1) / hop + 1; }

}  // namespace

Eigen::MatrixXcd Stft(absl::Span<const double> signal, int num_bins) {
  SGMCMC_CHECK_GE(num_bins, 2) << "Stft: num_bins";
  const int frame = 2 * (num_bins - 1), hop = num_bins - 1;
  const int length = static_cast<int>(signal.size());
  const int frames = NumFrames(length, hop);
  const std::vector<double> window = SqrtHann(frame);
  Eigen::FFT<double> fft;
  std::vector<double> buffer(frame);
  std::vector<std::complex<double>> spectrum;
  Eigen::MatrixXcd out(num_bins, frames);
  for (int j = 0; j < frames; ++j) {
    const int start = j * hop - hop;
    for (int n = 0; n < frame; ++n) {
      const int t = start + n;
      buffer[n] = t >= 0 && t < length ? window[n] * signal[t] : 0.0;
    }
    fft.fwd(spectrum, buffer);
    for (int i = 0; i < num_bins; ++i) out(i, j) = spectrum[i];
  }
  return out;
}

std::vector<double> InverseStft(const Eigen::MatrixXcd& spectrum, int length) {
  const int num_bins = static_cast<int>(spectrum.rows());
  SGMCMC_CHECK_GE(num_bins, 2) << "InverseStft: num_bins";
  const int frame = 2 * (num_bins - 1), hop = num_bins - 1;
  const int frames = static_cast<int>(spectrum.cols());
  const std::vector<double> window = SqrtHann(frame);
  Eigen::FFT<double> fft;
  std::vector<std::complex<double>> full(frame);
  std::vector<double> buffer;
  std::vector<double> out(length, 0.0);
  for (int j = 0; j < frames; ++j) {
    for (int i = 0; i < num_bins; ++i) full[i] = spectrum(i, j);
    // Hermitian symmetry; the DC and Nyquist bins of a real frame are real.
    full[0] = full[0].real();
    full[num_bins - 1] = full[num_bins - 1].real();
    for (int i = 1; i < num_bins - 1; ++i) full[frame - i] = std::conj(full[i]);
    fft.inv(buffer, full);
    const int start = j * hop - hop;
    for (int n = 0; n < frame; ++n) {
      const int t = start + n;
      if (t >= 0 && t < length) out[t] += window[n] * buffer[n];
    }
  }
  return out;
}

}  // namespace sgmcmc::linalg
