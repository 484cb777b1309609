// Vectorised elementwise exp and log over double arrays, using AVX2 + FMA when the CPU has
// them (chosen at run time; the build itself targets baseline x86-64), with a portable path
// that gives the same bits, so a seeded computation reproduces on every x86-64 CPU. Used by
// the LDA word tables (π_kw = exp(log θ_kw − log Σ_w θ_kw), models/lda/lda.cc) and by SCIR's log
// space state (samplers/scir.cc: the θ = exp(log θ) cache and log((Z + √(2λ))²/2); Baker,
// Fearnhead, Fox & Nemeth 2018, §3).
//
// exp (Cody & Waite range reduction, Taylor polynomial): n = round(x / ln 2), r = x − n ln 2
// with ln 2 split in two parts and FMAs (|r| <= ln 2 / 2), exp(r) by its degree-13 Taylor
// polynomial in Horner form with FMAs (truncation error < 1e-17 relative), and 2^n applied as
// two exact power-of-two factors 2^floor(n/2) 2^ceil(n/2), so subnormal results are rounded
// once and n = 1024 does not overflow early. Within 1 ulp of std::exp (tested).
// exp(NaN) = NaN, exp(−inf) = 0, exp(+inf) = +inf; x > 709.79 gives +inf, x < −745.14 gives
// 0, as std::exp.
//
// log (fdlibm's __ieee754_log): x = 2^k m, m in [√2/2, √2) (subnormal x scaled by 2^54
// first), f = m − 1, s = f/(2 + f), log(1 + f) = f − f²/2 + s (f²/2 + R(s²)) with fdlibm's
// degree-7 R in Horner form with FMAs, plus k ln 2 in two parts. Within 1 ulp of std::log for
// every finite x > 0, subnormals included (tested). log(±0) = −inf, log(x < 0) = NaN,
// log(+inf) = +inf, log(NaN) = NaN.
//
// Bit-identity: both paths perform the same IEEE operations in the same order (std::fma
// where the AVX2 path uses an FMA; the target is compiled with -ffp-contract=off so the
// compiler fuses nothing else); vector_math_test compares them bit for bit.
//
// Cost: O(n) for n elements, four per AVX2 instruction; the portable paths are several times
// slower (std::fma is a library call on CPUs without hardware FMA). Measured:
// linalg/vector_math_benchmark.cc.
//
// Example:
//   std::vector<double> x = ..., y(x.size());
//   linalg::ExpArray(x.data(), y.data(), x.size());  // y[i] = exp(x[i]); in-place OK
//   linalg::LogArray(y.data(), y.data(), y.size());  // y[i] = log(y[i]) (≈ x[i])
#ifndef SGMCMC_LINALG_VECTOR_MATH_H_
#define SGMCMC_LINALG_VECTOR_MATH_H_

#include <cstdint>

namespace sgmcmc::linalg {

// out[i] = exp(in[i]) for i in [0, n); out may equal in (in place), but the ranges must not
// otherwise overlap. Dispatches to the AVX2 + FMA path when available.
void ExpArray(const double* in, double* out, int64_t n);

// The portable path alone (for tests: must equal ExpArray bit for bit).
void ExpArrayPortable(const double* in, double* out, int64_t n);

// out[i] = log(in[i]) for i in [0, n), aliasing as ExpArray. Within 1 ulp of the correctly
// rounded log for every finite x > 0, subnormals included (tested against std::log).
// log(0) = log(-0) = -inf, log(x < 0) = NaN, log(+inf) = +inf, log(NaN) = NaN.
void LogArray(const double* in, double* out, int64_t n);

// The portable path alone (for tests: must equal LogArray bit for bit).
void LogArrayPortable(const double* in, double* out, int64_t n);

}  // namespace sgmcmc::linalg

#endif  // SGMCMC_LINALG_VECTOR_MATH_H_
