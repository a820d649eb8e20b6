// Saturating SIMD-in-register integer operations for the filter DP, for whatever instruction set
// the including translation unit is compiled for (AVX2, SSE2 or plain C++). The semantics are
// those of the x86 saturating instructions HMMER uses (paddusb, psubusb, pmaxub, paddsw, pmaxsw),
// so every saturation point of HMMER's filters is reproduced.
//
// A translation unit defines GPUSEQ_SIMD_NS (a namespace name) before including this header;
// each instruction set gets its own copy of the code, chosen at run time.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#ifndef GPUSEQ_SIMD_NS
#error "define GPUSEQ_SIMD_NS before including common/simd.hpp"
#endif

#if defined(__AVX2__) || defined(__SSE2__)
#include <immintrin.h>
#endif

namespace gpuseq::simd::GPUSEQ_SIMD_NS {

#if defined(__AVX2__)

using Vec = __m256i;
inline constexpr int kBytes = 32;
inline Vec load(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
inline void store(void* p, Vec v) { _mm256_storeu_si256(static_cast<__m256i*>(p), v); }
inline Vec set1_u8(uint8_t x) { return _mm256_set1_epi8(static_cast<char>(x)); }
inline Vec adds_u8(Vec a, Vec b) { return _mm256_adds_epu8(a, b); }
inline Vec subs_u8(Vec a, Vec b) { return _mm256_subs_epu8(a, b); }
inline Vec subs_s8(Vec a, Vec b) { return _mm256_subs_epi8(a, b); }
inline Vec max_u8(Vec a, Vec b) { return _mm256_max_epu8(a, b); }
inline Vec set1_s16(int16_t x) { return _mm256_set1_epi16(x); }
inline Vec adds_s16(Vec a, Vec b) { return _mm256_adds_epi16(a, b); }
inline Vec max_s16(Vec a, Vec b) { return _mm256_max_epi16(a, b); }
inline uint8_t hmax_u8(Vec v) {
  __m128i m = _mm_max_epu8(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  m = _mm_max_epu8(m, _mm_srli_si128(m, 8));
  m = _mm_max_epu8(m, _mm_srli_si128(m, 4));
  m = _mm_max_epu8(m, _mm_srli_si128(m, 2));
  m = _mm_max_epu8(m, _mm_srli_si128(m, 1));
  return static_cast<uint8_t>(_mm_cvtsi128_si32(m) & 0xff);
}
// Lanes moved up by one element; element 0 comes from the last element of `before`.
inline Vec shift_in_u8(Vec v, Vec before) {
  return _mm256_alignr_epi8(v, _mm256_permute2x128_si256(before, v, 0x21), 15);
}
inline Vec shift_in_s16(Vec v, Vec before) {
  return _mm256_alignr_epi8(v, _mm256_permute2x128_si256(before, v, 0x21), 14);
}
// Lanes moved up by S 16-bit elements; the first S come from the last S of `fill`.
template <int S>
inline Vec shift_words(Vec v, Vec fill) {
  const __m256i t = _mm256_permute2x128_si256(fill, v, 0x21);
  if constexpr (S == 8) {
    return t;
  } else {
    return _mm256_alignr_epi8(v, t, 16 - 2 * S);
  }
}
inline int16_t last_s16(Vec v) { return static_cast<int16_t>(_mm256_extract_epi16(v, 15)); }
inline int16_t hmax_s16(Vec v) {
  __m128i m = _mm_max_epi16(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  m = _mm_max_epi16(m, _mm_srli_si128(m, 8));
  m = _mm_max_epi16(m, _mm_srli_si128(m, 4));
  m = _mm_max_epi16(m, _mm_srli_si128(m, 2));
  return static_cast<int16_t>(_mm_cvtsi128_si32(m) & 0xffff);
}

#elif defined(__SSE2__)

using Vec = __m128i;
inline constexpr int kBytes = 16;
inline Vec load(const void* p) { return _mm_loadu_si128(static_cast<const __m128i*>(p)); }
inline void store(void* p, Vec v) { _mm_storeu_si128(static_cast<__m128i*>(p), v); }
inline Vec set1_u8(uint8_t x) { return _mm_set1_epi8(static_cast<char>(x)); }
inline Vec adds_u8(Vec a, Vec b) { return _mm_adds_epu8(a, b); }
inline Vec subs_u8(Vec a, Vec b) { return _mm_subs_epu8(a, b); }
inline Vec subs_s8(Vec a, Vec b) { return _mm_subs_epi8(a, b); }
inline Vec max_u8(Vec a, Vec b) { return _mm_max_epu8(a, b); }
inline Vec set1_s16(int16_t x) { return _mm_set1_epi16(x); }
inline Vec adds_s16(Vec a, Vec b) { return _mm_adds_epi16(a, b); }
inline Vec max_s16(Vec a, Vec b) { return _mm_max_epi16(a, b); }
inline uint8_t hmax_u8(Vec m) {
  m = _mm_max_epu8(m, _mm_srli_si128(m, 8));
  m = _mm_max_epu8(m, _mm_srli_si128(m, 4));
  m = _mm_max_epu8(m, _mm_srli_si128(m, 2));
  m = _mm_max_epu8(m, _mm_srli_si128(m, 1));
  return static_cast<uint8_t>(_mm_cvtsi128_si32(m) & 0xff);
}
inline int16_t hmax_s16(Vec m) {
  m = _mm_max_epi16(m, _mm_srli_si128(m, 8));
  m = _mm_max_epi16(m, _mm_srli_si128(m, 4));
  m = _mm_max_epi16(m, _mm_srli_si128(m, 2));
  return static_cast<int16_t>(_mm_cvtsi128_si32(m) & 0xffff);
}
inline Vec shift_in_u8(Vec v, Vec before) {
  return _mm_or_si128(_mm_slli_si128(v, 1), _mm_srli_si128(before, 15));
}
inline Vec shift_in_s16(Vec v, Vec before) {
  return _mm_or_si128(_mm_slli_si128(v, 2), _mm_srli_si128(before, 14));
}
template <int S>
inline Vec shift_words(Vec v, Vec fill) {
  return _mm_or_si128(_mm_slli_si128(v, 2 * S), _mm_srli_si128(fill, 16 - 2 * S));
}
inline int16_t last_s16(Vec v) { return static_cast<int16_t>(_mm_extract_epi16(v, 7)); }

#else  // portable fallback (non-x86): 16 bytes, element-wise loops the compiler may vectorize

struct Vec {
  alignas(16) uint8_t b[16];
};
inline constexpr int kBytes = 16;
inline Vec load(const void* p) {
  Vec v;
  std::memcpy(v.b, p, 16);
  return v;
}
inline void store(void* p, Vec v) { std::memcpy(p, v.b, 16); }
template <class F>
inline Vec map_u8(Vec a, Vec b, F f) {
  Vec r;
  for (int i = 0; i < 16; ++i) r.b[i] = static_cast<uint8_t>(f(a.b[i], b.b[i]));
  return r;
}
template <class F>
inline Vec map_s16(Vec a, Vec b, F f) {
  int16_t x[8], y[8], r[8];
  std::memcpy(x, a.b, 16);
  std::memcpy(y, b.b, 16);
  for (int i = 0; i < 8; ++i) r[i] = static_cast<int16_t>(f(x[i], y[i]));
  Vec v;
  std::memcpy(v.b, r, 16);
  return v;
}
inline Vec set1_u8(uint8_t x) {
  Vec v;
  std::memset(v.b, x, 16);
  return v;
}
inline Vec adds_u8(Vec a, Vec b) { return map_u8(a, b, [](int x, int y) { return std::min(255, x + y); }); }
inline Vec subs_u8(Vec a, Vec b) { return map_u8(a, b, [](int x, int y) { return std::max(0, x - y); }); }
inline Vec max_u8(Vec a, Vec b) { return map_u8(a, b, [](int x, int y) { return std::max(x, y); }); }
inline Vec subs_s8(Vec a, Vec b) {
  return map_u8(a, b, [](int x, int y) {
    return std::clamp(static_cast<int8_t>(x) - static_cast<int8_t>(y), -128, 127) & 0xff;
  });
}
inline Vec set1_s16(int16_t x) {
  int16_t r[8];
  std::fill(r, r + 8, x);
  Vec v;
  std::memcpy(v.b, r, 16);
  return v;
}
inline Vec adds_s16(Vec a, Vec b) {
  return map_s16(a, b, [](int x, int y) { return std::clamp(x + y, -32768, 32767); });
}
inline Vec max_s16(Vec a, Vec b) { return map_s16(a, b, [](int x, int y) { return std::max(x, y); }); }
inline uint8_t hmax_u8(Vec v) { return *std::max_element(v.b, v.b + 16); }
inline int16_t hmax_s16(Vec v) {
  int16_t r[8];
  std::memcpy(r, v.b, 16);
  return *std::max_element(r, r + 8);
}
inline Vec shift_in_u8(Vec v, Vec before) {
  Vec r;
  r.b[0] = before.b[15];
  std::memcpy(r.b + 1, v.b, 15);
  return r;
}
template <int S>
inline Vec shift_words(Vec v, Vec fill) {
  Vec r;
  std::memcpy(r.b, fill.b + 16 - 2 * S, 2 * S);
  std::memcpy(r.b + 2 * S, v.b, 16 - 2 * S);
  return r;
}
inline Vec shift_in_s16(Vec v, Vec before) { return shift_words<1>(v, before); }
inline int16_t last_s16(Vec v) {
  int16_t r;
  std::memcpy(&r, v.b + 14, 2);
  return r;
}

#endif

inline constexpr int kWords = kBytes / 2;

}  // namespace gpuseq::simd::GPUSEQ_SIMD_NS
