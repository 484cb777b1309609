#include "models/internal/exp_kernel.h"

#include <cmath>
#include <cstring>

#if defined(__x86_64__) && defined(__GNUC__)
#define SGMCMC_EXP_AVX2 1
#include <immintrin.h>
#else
#define SGMCMC_EXP_AVX2 0
#endif

namespace sgmcmc::models_internal {
namespace {

// Inputs are clamped to [kMinInput, kMaxInput] (results 0 and +inf beyond), which keeps
// n = round(x / ln 2) in [-1077, 1025] and both halves of n in [-539, 513].
constexpr double kMinInput = -746.0;
constexpr double kMaxInput = 710.0;
constexpr double kLog2E = 0x1.71547652b82fep+0;
constexpr double kLn2Hi = 0x1.62e42fefa39efp-1;  // ln 2 rounded to double
constexpr double kLn2Lo = 0x1.abc9e3b39803fp-56;  // ln 2 - kLn2Hi
// 1/k! for k = 13, 12, ..., 2 (Horner order), each rounded to double.
constexpr double kTaylor[12] = {
    0x1.6124613a86d09p-33, 0x1.1eed8eff8d898p-29, 0x1.ae64567f544e4p-26, 0x1.27e4fb7789f5cp-22,
    0x1.71de3a556c734p-19, 0x1.a01a01a01a01ap-16, 0x1.a01a01a01a01ap-13, 0x1.6c16c16c16c17p-10,
    0x1.1111111111111p-7,  0x1.5555555555555p-5,  0x1.5555555555555p-3,  0x1.0000000000000p-1};

// 2^e for an integer e in [-1022, 1023], built from its bits.
inline double PowerOfTwo(int64_t e) {
  const uint64_t bits = static_cast<uint64_t>(e + 1023) << 52;
  double out;
  std::memcpy(&out, &bits, sizeof(out));
  return out;
}

inline double ExpPortable(double x) {
  if (std::isnan(x)) return x;
  const double clamped = std::fmin(std::fmax(x, kMinInput), kMaxInput);
  const double n = std::nearbyint(clamped * kLog2E);  // ties to even, as _mm256_round_pd
  double r = std::fma(-n, kLn2Hi, clamped);
  r = std::fma(-n, kLn2Lo, r);
  double p = kTaylor[0];
  for (int i = 1; i < 12; ++i) p = std::fma(p, r, kTaylor[i]);
  p = std::fma(p, r, 1.0);
  p = std::fma(p, r, 1.0);
  const int64_t e = static_cast<int64_t>(n);
  const int64_t e1 = e >> 1;  // floor(e / 2)
  return (p * PowerOfTwo(e1)) * PowerOfTwo(e - e1);
}

#if SGMCMC_EXP_AVX2

bool HasAvx2Fma() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }

// 2^e for 4 integer-valued doubles e in [-1022, 1023]: e + 1.5 * 2^52 holds e in the low
// mantissa bits, from which the exponent field is formed.
__attribute__((target("avx2,fma"))) inline __m256d PowerOfTwo4(__m256d e) {
  const __m256d magic = _mm256_set1_pd(0x1.8p52);
  const __m256i bits = _mm256_sub_epi64(_mm256_castpd_si256(_mm256_add_pd(e, magic)),
                                        _mm256_castpd_si256(magic));
  return _mm256_castsi256_pd(
      _mm256_slli_epi64(_mm256_add_epi64(bits, _mm256_set1_epi64x(1023)), 52));
}

__attribute__((target("avx2,fma"))) inline __m256d Exp4(__m256d x) {
  const __m256d clamped = _mm256_min_pd(_mm256_max_pd(x, _mm256_set1_pd(kMinInput)),
                                        _mm256_set1_pd(kMaxInput));
  const __m256d n = _mm256_round_pd(_mm256_mul_pd(clamped, _mm256_set1_pd(kLog2E)),
                                    _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256d r = _mm256_fnmadd_pd(n, _mm256_set1_pd(kLn2Hi), clamped);
  r = _mm256_fnmadd_pd(n, _mm256_set1_pd(kLn2Lo), r);
  __m256d p = _mm256_set1_pd(kTaylor[0]);
  for (int i = 1; i < 12; ++i) p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(kTaylor[i]));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0));
  // floor(n / 2) and the rest; n / 2 is exact.
  const __m256d e1 = _mm256_floor_pd(_mm256_mul_pd(n, _mm256_set1_pd(0.5)));
  const __m256d e2 = _mm256_sub_pd(n, e1);
  const __m256d result = _mm256_mul_pd(_mm256_mul_pd(p, PowerOfTwo4(e1)), PowerOfTwo4(e2));
  // NaN inputs (clamped to a number by min/max above) pass through.
  return _mm256_blendv_pd(result, x, _mm256_cmp_pd(x, x, _CMP_UNORD_Q));
}

__attribute__((target("avx2,fma"))) void ExpArrayAvx2(const double* in, double* out, int64_t n) {
  int64_t i = 0;
  // Two independent vectors per step, so their dependency chains (14 FMAs) overlap.
  for (; i + 8 <= n; i += 8) {
    const __m256d a = Exp4(_mm256_loadu_pd(in + i));
    const __m256d b = Exp4(_mm256_loadu_pd(in + i + 4));
    _mm256_storeu_pd(out + i, a);
    _mm256_storeu_pd(out + i + 4, b);
  }
  for (; i + 4 <= n; i += 4) _mm256_storeu_pd(out + i, Exp4(_mm256_loadu_pd(in + i)));
  if (i < n) {
    double tail_in[4] = {0, 0, 0, 0}, tail_out[4];
    for (int64_t j = i; j < n; ++j) tail_in[j - i] = in[j];
    _mm256_storeu_pd(tail_out, Exp4(_mm256_loadu_pd(tail_in)));
    for (int64_t j = i; j < n; ++j) out[j] = tail_out[j - i];
  }
}

#endif  // SGMCMC_EXP_AVX2

}  // namespace

void ExpArrayPortable(const double* in, double* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = ExpPortable(in[i]);
}

void ExpArray(const double* in, double* out, int64_t n) {
#if SGMCMC_EXP_AVX2
  static const bool avx2 = HasAvx2Fma();
  if (avx2) {
    ExpArrayAvx2(in, out, n);
    return;
  }
#endif
  ExpArrayPortable(in, out, n);
}

}  // namespace sgmcmc::models_internal
