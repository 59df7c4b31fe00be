#ifndef KIRA_LANES_H
#define KIRA_LANES_H

// Lane polyfills for the shader's fast path. A clang `ext_vector_type(16)` of float imports into
// Swift as `SIMD16<Float>`, and these `static inline` helpers inline into Swift code. They exist
// because the Swift standard library's versions of these operations compile to per-lane loops
// (NaN handling in min/max, an errno branch in sqrt, generic float-to-int conversion) when no CPU
// feature flag is given. Each one is exact: it rounds like the scalar operation it replaces.

#include <stdint.h>

typedef float kira_f16 __attribute__((ext_vector_type(16)));
typedef int32_t kira_i16 __attribute__((ext_vector_type(16)));
typedef uint32_t kira_u16 __attribute__((ext_vector_type(16)));

/// Correctly rounded square root of each lane (IEEE sqrt, no errno).
static inline __attribute__((always_inline)) kira_f16 kira_sqrt(kira_f16 x) {
    return __builtin_elementwise_sqrt(x);
}

/// Lane-wise minimum; lanes are never NaN where Kira uses it.
static inline __attribute__((always_inline)) kira_f16 kira_min(kira_f16 a, kira_f16 b) {
    return a < b ? a : b;
}

/// Lane-wise maximum; lanes are never NaN where Kira uses it.
static inline __attribute__((always_inline)) kira_f16 kira_max(kira_f16 a, kira_f16 b) {
    return a > b ? a : b;
}

/// `floor` of each lane, exact for every float. With SSE4.1 (and so AVX, AVX-512) this is one
/// rounding instruction. Baseline x86-64 has none (the builtin would become sixteen `floorf`
/// calls), so there it truncates through int32 and corrects lanes that were rounded up; lanes of
/// magnitude 2^23 or more are integers already and pass through.
static inline __attribute__((always_inline)) kira_f16 kira_floor(kira_f16 x) {
#if defined(__SSE4_1__) || defined(__aarch64__)
    return __builtin_elementwise_floor(x);
#else
    kira_f16 big = (kira_f16)(8388608.0f);
    kira_i16 is_big = __builtin_elementwise_abs(x) >= big;
    kira_f16 safe = is_big ? (kira_f16)(0.0f) : x;
    kira_f16 t = __builtin_convertvector(__builtin_convertvector(safe, kira_i16), kira_f16);
    kira_f16 floored = t > safe ? t - 1.0f : t;
    return is_big ? x : floored;
#endif
}

/// Round each lane to the nearest integer, ties to even, for lanes in [0, 2^22]; returns the
/// integers. Adding 1.5 * 2^23 leaves the rounded integer in the low mantissa bits.
static inline __attribute__((always_inline)) kira_u16 kira_round_to_u32(kira_f16 x) {
    kira_f16 magic = (kira_f16)(12582912.0f);
    kira_f16 shifted = x + magic;
    kira_u16 bits = (kira_u16)shifted;  // bit reinterpretation, not conversion
    return bits - (kira_u16)(0x4B400000u);
}

/// Converts unsigned integer lanes (< 2^24) to float, exactly.
static inline __attribute__((always_inline)) kira_f16 kira_u32_to_float(kira_u16 x) {
    return __builtin_convertvector((kira_i16)x, kira_f16);
}

// Two RGBA8 texels side by side, for bilinear sampling.
typedef float kira_f8 __attribute__((ext_vector_type(8)));
typedef uint8_t kira_u8x8 __attribute__((ext_vector_type(8)));

/// The two RGBA8 texels at `p` (8 bytes), premultiplied, channels in 0...1: each colour channel
/// is `(v * (1/255)) * (a * (1/255))`, as the scalar path computes it, and alpha stays as it is.
static inline __attribute__((always_inline)) kira_f8 kira_premultiplied_texel_pair(const uint8_t *p) {
    kira_u8x8 raw;
    __builtin_memcpy(&raw, p, 8);
    kira_f8 v = __builtin_convertvector(raw, kira_f8) * (1.0f / 255.0f);
    kira_f8 alpha = __builtin_shufflevector(v, v, 3, 3, 3, 3, 7, 7, 7, 7);
    kira_f8 factor = __builtin_shufflevector(alpha, (kira_f8)(1.0f), 0, 1, 2, 11, 4, 5, 6, 15);
    return v * factor;
}

#endif
