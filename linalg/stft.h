// Short-time Fourier transform and its inverse for the speech-denoising experiment of the
// HAMCMC paper (Simsekli et al. 2016, Sec. 4.2; I = 256 frequency bins as in Simsekli, Liutkus
// & Cemgil 2015), on Eigen's FFT module (unsupported/Eigen/FFT, the kissfft back end).
//
// Frames of length L = 2 (I - 1) (510 for I = 256) with hop L / 2, periodic square-root Hann
// analysis and synthesis windows w[n] = sin(pi n / L): w^2 sums to exactly 1 over the
// overlapping frames (constant overlap-add), so InverseStft(Stft(x)) = x up to rounding.
// The signal is padded with L / 2 zeros in front and up to a whole number of hops plus L / 2
// at the back, so every sample is covered by two frames; frame j starts at sample
// j L / 2 - L / 2 of the signal. Stft returns the I non-negative-frequency bins (0 ..
// L / 2) of each frame as an I x J complex matrix, J = ceil(n / hop) + 1.
//
// Cost: O(J L log L) for either direction.
//
// Example:
//   Eigen::MatrixXcd spectrum = sgmcmc::linalg::Stft(samples, /*num_bins=*/256);
//   std::vector<double> back = sgmcmc::linalg::InverseStft(spectrum, samples.size());
#ifndef SGMCMC_LINALG_STFT_H_
#define SGMCMC_LINALG_STFT_H_

#include <vector>

#include "Eigen/Dense"
#include "absl/types/span.h"

namespace sgmcmc::linalg {

// The I x J STFT of `signal`; num_bins I >= 2.
Eigen::MatrixXcd Stft(absl::Span<const double> signal, int num_bins);

// The signal of length `length` whose STFT (with I = spectrum.rows()) is `spectrum`, by
// weighted overlap-add; for a spectrum that is not an STFT, the least-squares signal.
std::vector<double> InverseStft(const Eigen::MatrixXcd& spectrum, int length);

}  // namespace sgmcmc::linalg

#endif  // SGMCMC_LINALG_STFT_H_
