#include "rng/internal/philox_batch.h"

#include "Random123/philox.h"
#include "base/check.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define SGMCMC_PHILOX_AVX2 1
#include <immintrin.h>
#else
#define SGMCMC_PHILOX_AVX2 0
#endif

namespace sgmcmc::rng_internal {

std::array<uint32_t, 4> PhiloxBlock(uint64_t seed, uint64_t stream, uint64_t block) {
  using Philox = r123::Philox4x32_R<10>;
  const Philox::ctr_type counter = {
      {static_cast<uint32_t>(block), static_cast<uint32_t>(block >> 32),
       static_cast<uint32_t>(stream), static_cast<uint32_t>(stream >> 32)}};
  const Philox::key_type key = {{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)}};
  const Philox::ctr_type x = Philox()(counter, key);
  return {x[0], x[1], x[2], x[3]};
}

void PhiloxBatchPortable(uint64_t seed, uint64_t stream, uint64_t first_block,
                         uint64_t out[kPhiloxBatchWords]) {
  for (int b = 0; b < kPhiloxBatchBlocks; ++b) {
    const std::array<uint32_t, 4> x = PhiloxBlock(seed, stream, first_block + b);
    out[2 * b] = x[0] | (uint64_t{x[1]} << 32);
    out[2 * b + 1] = x[2] | (uint64_t{x[3]} << 32);
  }
}

#if SGMCMC_PHILOX_AVX2

bool HasPhiloxBatchAvx2() { return __builtin_cpu_supports("avx2"); }

// One Philox round (Random123's _philox4x32round) on 4 blocks: with (hi, lo) the two halves of
// M0 x0 and M1 x2, the counter becomes (hi(M1 x2) ^ x1 ^ k0, lo(M1 x2), hi(M0 x0) ^ x3 ^ k1,
// lo(M0 x0)). Only the low 32 bits of each lane matter: vpmuludq reads only those, and the
// upper halves (left holding hi or xor garbage) are dropped when the words are written out.
// x1 ^ k0 and x3 ^ k1 are formed while the multiplications run, so the dependency chain of a
// round is multiply, shift, xor.
__attribute__((target("avx2"))) void PhiloxBatchAvx2(uint64_t seed, uint64_t stream,
                                                     uint64_t first_block,
                                                     uint64_t out[kPhiloxBatchWords]) {
  // Multipliers and Weyl key increments of Philox4x32 (Random123's philox.h).
  const __m256i multiplier0 = _mm256_set1_epi64x(0xD2511F53);
  const __m256i multiplier1 = _mm256_set1_epi64x(0xCD9E8D57);
  constexpr uint32_t kWeyl0 = 0x9E3779B9;
  constexpr uint32_t kWeyl1 = 0xBB67AE85;
  constexpr int kHalves = kPhiloxBatchBlocks / 4;
  __m256i x0[kHalves], x1[kHalves], x2[kHalves], x3[kHalves];
  for (int h = 0; h < kHalves; ++h) {
    const __m256i block =
        _mm256_add_epi64(_mm256_set1_epi64x(first_block),
                         _mm256_setr_epi64x(4 * h, 4 * h + 1, 4 * h + 2, 4 * h + 3));
    x0[h] = block;
    x1[h] = _mm256_srli_epi64(block, 32);
    x2[h] = _mm256_set1_epi64x(stream);
    x3[h] = _mm256_set1_epi64x(stream >> 32);
  }
  // The round keys, bumped by 32-bit adds (the high half of each lane is don't-care).
  __m256i k0 = _mm256_set1_epi64x(seed);
  __m256i k1 = _mm256_set1_epi64x(seed >> 32);
  const __m256i weyl0 = _mm256_set1_epi32(static_cast<int>(kWeyl0));
  const __m256i weyl1 = _mm256_set1_epi32(static_cast<int>(kWeyl1));
  for (int round = 0; round < 10; ++round) {
    for (int h = 0; h < kHalves; ++h) {
      const __m256i product0 = _mm256_mul_epu32(x0[h], multiplier0);
      const __m256i product1 = _mm256_mul_epu32(x2[h], multiplier1);
      __m256i keyed1 = _mm256_xor_si256(x1[h], k0);
      __m256i keyed3 = _mm256_xor_si256(x3[h], k1);
      // Opaque to the optimiser, so that it cannot reassociate the xors back into a longer
      // dependency chain (measured: 1.5 -> 1.3 ns per word).
      asm("" : "+x"(keyed1));
      asm("" : "+x"(keyed3));
      x0[h] = _mm256_xor_si256(_mm256_srli_epi64(product1, 32), keyed1);
      x1[h] = product1;
      x2[h] = _mm256_xor_si256(_mm256_srli_epi64(product0, 32), keyed3);
      x3[h] = product0;
    }
    k0 = _mm256_add_epi32(k0, weyl0);
    k1 = _mm256_add_epi32(k1, weyl1);
    // Keeps the key bump a single vpaddd: otherwise GCC moves the round keys to scalar
    // registers and re-broadcasts them every round (3 ops per key instead of 1; measured
    // 24.7 -> 22.5 ns per batch, median of 7 runs).
    asm("" : "+x"(k0));
    asm("" : "+x"(k1));
  }
  for (int h = 0; h < kHalves; ++h) {
    // Word 2b is x0 | x1 << 32 and word 2b + 1 is x2 | x3 << 32 of block b (the blends take
    // the odd 32-bit lanes, i.e. the high halves, from the shifted words).
    const __m256i even = _mm256_blend_epi32(x0[h], _mm256_slli_epi64(x1[h], 32), 0xAA);
    const __m256i odd = _mm256_blend_epi32(x2[h], _mm256_slli_epi64(x3[h], 32), 0xAA);
    const __m256i lo = _mm256_unpacklo_epi64(even, odd);  // blocks 0 and 2 of the half
    const __m256i hi = _mm256_unpackhi_epi64(even, odd);  // blocks 1 and 3
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 8 * h),
                        _mm256_permute2x128_si256(lo, hi, 0x20));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 8 * h + 4),
                        _mm256_permute2x128_si256(lo, hi, 0x31));
  }
}

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SGMCMC_PHILOX_NO_IFUNC 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define SGMCMC_PHILOX_NO_IFUNC 1
#endif

#if defined(SGMCMC_PHILOX_NO_IFUNC)

// ThreadSanitizer instruments the ifunc resolver of function multiversioning, which the
// dynamic loader runs before the sanitizer is initialised (a crash before main, with GCC and
// clang alike): TSan builds test the CPU once per process instead.
void PhiloxBatch(uint64_t seed, uint64_t stream, uint64_t first_block,
                 uint64_t out[kPhiloxBatchWords]) {
  static const bool avx2 = HasPhiloxBatchAvx2();
  if (avx2) {
    PhiloxBatchAvx2(seed, stream, first_block, out);
  } else {
    PhiloxBatchPortable(seed, stream, first_block, out);
  }
}

#else  // !SGMCMC_PHILOX_NO_IFUNC

namespace {

// GCC function multiversioning: the call in PhiloxBatch below goes through an ifunc resolved
// once at load time. (The versions are kept internal: a caller in another translation unit
// would bind to the default version directly.)
__attribute__((target("avx2"))) void DispatchPhiloxBatch(uint64_t seed, uint64_t stream,
                                                         uint64_t first_block, uint64_t* out) {
  PhiloxBatchAvx2(seed, stream, first_block, out);
}

__attribute__((target("default"))) void DispatchPhiloxBatch(uint64_t seed, uint64_t stream,
                                                            uint64_t first_block, uint64_t* out) {
  PhiloxBatchPortable(seed, stream, first_block, out);
}

}  // namespace

void PhiloxBatch(uint64_t seed, uint64_t stream, uint64_t first_block,
                 uint64_t out[kPhiloxBatchWords]) {
  DispatchPhiloxBatch(seed, stream, first_block, out);
}

#endif  // SGMCMC_PHILOX_NO_IFUNC

#else  // !SGMCMC_PHILOX_AVX2

bool HasPhiloxBatchAvx2() { return false; }

void PhiloxBatchAvx2(uint64_t, uint64_t, uint64_t, uint64_t*) {
  SGMCMC_CHECK(false) << "PhiloxBatchAvx2: not available on this platform";
}

void PhiloxBatch(uint64_t seed, uint64_t stream, uint64_t first_block,
                 uint64_t out[kPhiloxBatchWords]) {
  PhiloxBatchPortable(seed, stream, first_block, out);
}

#endif  // SGMCMC_PHILOX_AVX2

}  // namespace sgmcmc::rng_internal
