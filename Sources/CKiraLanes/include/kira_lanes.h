#ifndef KIRA_LANES_H
#define KIRA_LANES_H

// The lane layer: lane types and polyfills for the shader's fast path and the projection's
// kernels (`kira_projection.h`, module CKiraProjection). A clang `ext_vector_type(16)` of float imports into
// Swift as `SIMD16<Float>`, and these `static inline` helpers inline into Swift code. They exist
// because the Swift standard library's versions of these operations compile to per-lane loops
// (NaN handling in min/max, an errno branch in sqrt, generic float-to-int conversion) when no CPU
// feature flag is given. Each one is exact: it rounds like the scalar operation it replaces.

// No multiply-add fusing (FMA from -march=haswell on): the scalar paths round every product.
#pragma STDC FP_CONTRACT OFF

#include <stdint.h>

typedef float kira_f16 __attribute__((ext_vector_type(16)));
typedef int32_t kira_i16 __attribute__((ext_vector_type(16)));
typedef uint32_t kira_u16 __attribute__((ext_vector_type(16)));

/// Correctly rounded square root of each lane (IEEE sqrt, no errno).
static inline __attribute__((always_inline)) kira_f16 kira_sqrt(kira_f16 x) {
    return __builtin_elementwise_sqrt(x);
}

#if defined(__AVX2__) && !defined(__AVX512F__)
// AVX2 works on 8 of the 16 lanes at a time: the halves of a lane vector, and back.
typedef int32_t kira_v8si __attribute__((ext_vector_type(8)));
typedef float kira_v8sf __attribute__((__vector_size__(32)));

static inline __attribute__((always_inline)) kira_v8si kira_low8(kira_i16 x) {
    return (kira_v8si)__builtin_shufflevector(x, x, 0, 1, 2, 3, 4, 5, 6, 7);
}

static inline __attribute__((always_inline)) kira_v8si kira_high8(kira_i16 x) {
    return (kira_v8si)__builtin_shufflevector(x, x, 8, 9, 10, 11, 12, 13, 14, 15);
}

static inline __attribute__((always_inline)) kira_i16 kira_join8(kira_v8si low, kira_v8si high) {
    return __builtin_shufflevector(low, high, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}

// The same for float lanes, as the bits of int lanes.
static inline __attribute__((always_inline)) kira_v8sf kira_low8f(kira_f16 x) { return (kira_v8sf)kira_low8((kira_i16)x); }
static inline __attribute__((always_inline)) kira_v8sf kira_high8f(kira_f16 x) { return (kira_v8sf)kira_high8((kira_i16)x); }
static inline __attribute__((always_inline)) kira_f16 kira_join8f(kira_v8sf low, kira_v8sf high) {
    return (kira_f16)kira_join8((kira_v8si)low, (kira_v8si)high);
}
#endif

/// Lane-wise minimum: `a < b ? a : b`, which is also what `minps(a, b)` computes, NaN and
/// signed zeros included.
static inline __attribute__((always_inline)) kira_f16 kira_min(kira_f16 a, kira_f16 b) {
#if defined(__AVX2__) && !defined(__AVX512F__)
    return kira_join8f(__builtin_ia32_minps256(kira_low8f(a), kira_low8f(b)),
                       __builtin_ia32_minps256(kira_high8f(a), kira_high8f(b)));
#else
    return a < b ? a : b;
#endif
}

/// Lane-wise maximum: `a > b ? a : b`, which is also what `maxps(a, b)` computes, NaN and
/// signed zeros included. Written as the instruction for AVX2, where the conditional against 0
/// compiled to a compare and a mask (`x > 0 ? x : 0` as `x & (0 < x)`) instead (this and the
/// 8-bit store's packs: cold shade at v3 1.22x, Zen 4).
static inline __attribute__((always_inline)) kira_f16 kira_max(kira_f16 a, kira_f16 b) {
#if defined(__AVX2__) && !defined(__AVX512F__)
    return kira_join8f(__builtin_ia32_maxps256(kira_low8f(a), kira_low8f(b)),
                       __builtin_ia32_maxps256(kira_high8f(a), kira_high8f(b)));
#else
    return a > b ? a : b;
#endif
}

/// `floor` of each lane, exact for every float. With SSE4.1 (and so AVX, AVX-512), NEON and
/// WebAssembly SIMD128 (`f32x4.floor`) this is one rounding instruction. Baseline x86-64 has none
/// (the builtin would become sixteen `floorf` calls), so there it truncates through int32 and
/// corrects lanes that were rounded up; lanes of magnitude 2^23 or more are integers already and
/// pass through.
static inline __attribute__((always_inline)) kira_f16 kira_floor(kira_f16 x) {
#if defined(__SSE4_1__) || defined(__aarch64__) || defined(__wasm_simd128__)
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

/// `round(clamp(x, 0, 1) * max_value)`, ties to even, as integers; `max_value` ≤ 65535. The
/// quantiser of every stored channel, scalar paths included (through `Lanes.quantized`).
static inline __attribute__((always_inline)) kira_u16 kira_quantize(kira_f16 x, float max_value) {
    kira_f16 clamped = kira_min(kira_max(x, (kira_f16)(0.0f)), (kira_f16)(1.0f));
#if defined(__AVX2__) && !defined(__AVX512F__)
    // cvtps2dq rounds to nearest, ties to even (the default mode, which the magic number's add
    // relies on too): one instruction instead of an add and a subtract.
    kira_f16 scaled = clamped * max_value;
    return (kira_u16)kira_join8((kira_v8si)__builtin_ia32_cvtps2dq256(kira_low8f(scaled)),
                                (kira_v8si)__builtin_ia32_cvtps2dq256(kira_high8f(scaled)));
#else
    return kira_round_to_u32(clamped * max_value);
#endif
}

#if defined(__wasm_simd128__)
/// Converts unsigned integer lanes (< 2^23) to float, exactly: the lane's bits under the exponent
/// of 2^23 read as 2^23 + x, less 2^23. On WebAssembly LLVM turns a signed conversion of lanes it
/// knows are not negative into `f32x4.convert_i32x4_u`, which V8 emulates in several
/// instructions on x86-64: this is two.
static inline __attribute__((always_inline)) kira_f16 kira_small_u32_to_float(kira_u16 x) {
    return (kira_f16)(x | 0x4B000000u) - 8388608.0f;
}

/// Converts unsigned integer lanes (< 2^24) to float, exactly: the high and low 12 bits apart.
static inline __attribute__((always_inline)) kira_f16 kira_u32_to_float(kira_u16 x) {
    return kira_small_u32_to_float(x >> 12) * 4096.0f + kira_small_u32_to_float(x & 0xFFFu);
}
#else
/// Converts unsigned integer lanes (< 2^24) to float, exactly.
static inline __attribute__((always_inline)) kira_f16 kira_u32_to_float(kira_u16 x) {
    return __builtin_convertvector((kira_i16)x, kira_f16);
}

/// The same for lanes below 2^23.
static inline __attribute__((always_inline)) kira_f16 kira_small_u32_to_float(kira_u16 x) {
    return kira_u32_to_float(x);
}
#endif

// Stored pixels to lanes and back, for both channel depths: a stored value `v` reads as
// `float(v) * (1 / max)` (within an ulp of `v / max`, exactly 1 at the maximum, and a multiply
// instead of a divide in the inner loops), and a lane `f` is stored as `kira_quantize(f, max)`.

/// Channel `shift / 8` of sixteen RGBA8 pixels (one 32-bit word each, R in the low byte).
static inline __attribute__((always_inline)) kira_f16 kira_rgba8_channel(kira_u16 words, uint32_t shift) {
    return kira_small_u32_to_float((words >> shift) & 0xFF) * (1.0f / 255.0f);
}

#if defined(__AVX2__) && !defined(__AVX512F__)
typedef int kira_v8si_x __attribute__((__vector_size__(32)));
typedef short kira_v16hi_x __attribute__((__vector_size__(32)));
typedef char kira_v32qi_x __attribute__((__vector_size__(32)));

/// `kira_quantize(x, 255)` of eight lanes as int32, except that lanes below 0 (NaN and -inf
/// included) may come out negative: `round(min(1, x) * 255)`, for a pack that saturates them to 0.
static inline __attribute__((always_inline)) kira_v8si_x kira_quantize8_unsaturated(kira_v8sf x) {
    kira_v8sf one = {1, 1, 1, 1, 1, 1, 1, 1};
    return __builtin_ia32_cvtps2dq256(__builtin_ia32_minps256(one, x) * 255.0f);
}

/// Eight RGBA8 pixels as words from the colour channels' `kira_quantize8_unsaturated` and the
/// alpha's bytes (as int32), packed with signed then unsigned saturation (the clamp at 0), then
/// each 128-bit half's bytes from RRRRGGGGBBBBAAAA to RGBA order.
static inline __attribute__((always_inline)) kira_v8si_x kira_rgba8_pack8(kira_v8sf r, kira_v8sf g, kira_v8sf b,
                                                                          kira_v8si_x a) {
    kira_v16hi_x rg = __builtin_ia32_packssdw256(kira_quantize8_unsaturated(r), kira_quantize8_unsaturated(g));
    kira_v16hi_x ba = __builtin_ia32_packssdw256(kira_quantize8_unsaturated(b), a);
    kira_v32qi_x bytes = __builtin_ia32_packuswb256(rg, ba);
    kira_v32qi_x order = {0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15,
                          0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15};
    return (kira_v8si_x)__builtin_ia32_pshufb256(bytes, order);
}

/// Sixteen RGBA8 pixels as words from colour lanes and alpha bytes: the packs clamp at 0 and
/// place the bytes, where the shifts and ors took twice the instructions.
static inline __attribute__((always_inline)) kira_u16 kira_rgba8_pack(kira_f16 r, kira_f16 g, kira_f16 b, kira_i16 alpha) {
    kira_v8si_x low = kira_rgba8_pack8(kira_low8f(r), kira_low8f(g), kira_low8f(b), (kira_v8si_x)kira_low8(alpha));
    kira_v8si_x high = kira_rgba8_pack8(kira_high8f(r), kira_high8f(g), kira_high8f(b), (kira_v8si_x)kira_high8(alpha));
    return (kira_u16)kira_join8((kira_v8si)low, (kira_v8si)high);
}
#else
/// The colour channels of sixteen RGBA8 pixels as words, each quantised; alpha 0.
static inline __attribute__((always_inline)) kira_u16 kira_rgb8_words(kira_f16 r, kira_f16 g, kira_f16 b) {
    return kira_quantize(r, 255.0f) | (kira_quantize(g, 255.0f) << 8) | (kira_quantize(b, 255.0f) << 16);
}
#endif

/// Sixteen RGBA8 pixels as words, each channel quantised.
static inline __attribute__((always_inline)) kira_u16 kira_rgba8_words(kira_f16 r, kira_f16 g, kira_f16 b, kira_f16 a) {
#if defined(__AVX2__) && !defined(__AVX512F__)
    kira_i16 alpha = kira_join8((kira_v8si)kira_quantize8_unsaturated(kira_low8f(a)),
                                (kira_v8si)kira_quantize8_unsaturated(kira_high8f(a)));
    return kira_rgba8_pack(r, g, b, alpha);
#else
    return kira_rgb8_words(r, g, b) | (kira_quantize(a, 255.0f) << 24);
#endif
}

/// `kira_rgba8_words(r, g, b, a)` for an alpha `a` read from the RGBA8 pixels `pixels`
/// (`kira_rgba8_channel(pixels, 24)`), whose alpha bytes it keeps: such an alpha quantises back to
/// its byte (all 256 checked), so the store need not convert it twice.
static inline __attribute__((always_inline)) kira_u16 kira_rgba8_words_keeping_alpha(kira_f16 r, kira_f16 g, kira_f16 b,
                                                                                      kira_u16 pixels) {
#if defined(__AVX2__) && !defined(__AVX512F__)
    return kira_rgba8_pack(r, g, b, (kira_i16)(pixels >> 24));
#else
    return kira_rgb8_words(r, g, b) | (pixels & 0xFF000000u);
#endif
}

/// The low (`shift` 0) or high (`shift` 16) 16-bit channel of sixteen 32-bit words (RGBA16
/// pixels are two words: R | G << 16, then B | A << 16).
static inline __attribute__((always_inline)) kira_f16 kira_rgba16_channel(kira_u16 words, uint32_t shift) {
    return kira_small_u32_to_float((words >> shift) & 0xFFFF) * (1.0f / 65535.0f);
}

/// Two lanes quantised to 16 bits and packed as `low | high << 16`.
static inline __attribute__((always_inline)) kira_u16 kira_rgba16_words(kira_f16 low, kira_f16 high) {
    return kira_quantize(low, 65535.0f) | (kira_quantize(high, 65535.0f) << 16);
}

// Integer hashing for the foils' procedural patterns (glitter, stars, lattice noise): the same
// unsigned 32-bit operations as their scalar twins in `FoilMath`, so both give the same bits.

/// A 32-bit integer mixer (xorshift-multiply, two rounds) of each lane.
static inline __attribute__((always_inline)) kira_u16 kira_hash_u32(kira_u16 x) {
    x ^= x >> 16;
    x *= 0x7FEB352Du;
    x ^= x >> 15;
    x *= 0x846CA68Bu;
    x ^= x >> 16;
    return x;
}

/// The hash of lattice cell (`column`, `row`) for pattern `seed`.
static inline __attribute__((always_inline)) kira_u16 kira_hash_cell(kira_u16 column, uint32_t row, uint32_t seed) {
    return kira_hash_u32((column * 0x9E3779B1u) ^ (row * 0x85EBCA77u + seed));
}

/// `bits` bits of `h` from bit `shift` as a float in [0, 1): `field * 2^-bits`, exact.
static inline __attribute__((always_inline)) kira_f16 kira_hash_unit(kira_u16 h, uint32_t shift, uint32_t bits) {
    return kira_u32_to_float((h >> shift) & ((1u << bits) - 1u)) * (1.0f / (float)(1u << bits));
}

/// 1 in the lanes whose low byte of `h` is below `threshold`, else 0.
static inline __attribute__((always_inline)) kira_f16 kira_hash_below(kira_u16 h, uint32_t threshold) {
    return (h & 255u) < threshold ? (kira_f16)(1.0f) : (kira_f16)(0.0f);
}

// Sixteen lanes of doubles, for the footprints of minified pixels (the projection's sample
// points are in single precision).
typedef double kira_d16 __attribute__((ext_vector_type(16)));

/// Truncates each lane towards zero; lanes are in int32's range where Kira uses it.
static inline __attribute__((always_inline)) kira_i16 kira_d16_truncate(kira_d16 x) {
    return __builtin_convertvector(x, kira_i16);
}

/// Converts int32 lanes to double, exactly.
static inline __attribute__((always_inline)) kira_d16 kira_i16_to_d16(kira_i16 x) {
    return __builtin_convertvector(x, kira_d16);
}

/// Rounds double lanes to float (to nearest, as `Float(_: Double)`).
static inline __attribute__((always_inline)) kira_f16 kira_d16_to_f16(kira_d16 x) {
    return __builtin_convertvector(x, kira_f16);
}

/// The 32-bit words `base[index[i]]`: one gather instruction with AVX-512, two with AVX2, a loop
/// without. Every index must be in bounds.
static inline __attribute__((always_inline)) kira_u16 kira_gather_u32(const uint32_t *base, kira_i16 index) {
#if defined(__AVX512F__)
    typedef int kira_v16si __attribute__((__vector_size__(64)));
    kira_v16si zero = {0};
    return (kira_u16)__builtin_ia32_gathersiv16si(zero, base, (kira_v16si)index, (unsigned short)0xFFFF, 4);
#elif defined(__AVX2__)
    kira_v8si zero = {0}, all = {-1, -1, -1, -1, -1, -1, -1, -1};
    const int *words = (const int *)base;
    return (kira_u16)kira_join8(__builtin_ia32_gatherd_d256(zero, words, kira_low8(index), all, 4),
                                __builtin_ia32_gatherd_d256(zero, words, kira_high8(index), all, 4));
#elif defined(__wasm_simd128__)
    // No gather in SIMD128: sixteen loads, written out, where the loop stayed a loop over a
    // buffer on the stack.
    kira_u16 words = {base[index[0]], base[index[1]], base[index[2]], base[index[3]], base[index[4]], base[index[5]],
                      base[index[6]], base[index[7]], base[index[8]], base[index[9]], base[index[10]], base[index[11]],
                      base[index[12]], base[index[13]], base[index[14]], base[index[15]]};
    return words;
#else
    kira_u16 words;
    for (int i = 0; i < 16; i++) words[i] = base[index[i]];
    return words;
#endif
}

/// The smallest and the largest lane.
static inline __attribute__((always_inline)) int32_t kira_reduce_min_i32(kira_i16 x) {
    return __builtin_reduce_min(x);
}

static inline __attribute__((always_inline)) int32_t kira_reduce_max_i32(kira_i16 x) {
    return __builtin_reduce_max(x);
}

/// Word `index[i]` (0...31) of the 32 words `low` (0...15) then `high` (16...31), for each lane:
/// one two-table permute with AVX-512, eight one-table permutes and six blends with AVX2, a loop
/// without.
static inline __attribute__((always_inline)) kira_u16 kira_pick_u32(kira_u16 low, kira_u16 high, kira_i16 index) {
#if defined(__AVX512F__)
    typedef int kira_v16si __attribute__((__vector_size__(64)));
    return (kira_u16)__builtin_ia32_vpermi2vard512((kira_v16si)low, (kira_v16si)index, (kira_v16si)high);
#elif defined(__AVX2__)
    // The 32 words are four tables of 8: in each, the index's low three bits pick a word
    // (vpermd); bit 3 then chooses the table within `low` or `high`, and bit 4 between those.
    // With the gathers: frame 14 -> 70/s, 405 M -> 175 M instructions (AVX2 build, 1 thread, EPYC Zen 4).
    kira_v8si tables[4] = {kira_low8((kira_i16)low), kira_high8((kira_i16)low), kira_low8((kira_i16)high),
                           kira_high8((kira_i16)high)};
    kira_v8si halves[2] = {kira_low8(index), kira_high8(index)};
    for (int h = 0; h < 2; h++) {
        kira_v8si i = halves[h];
        kira_v8si bit3 = (i & 8) != 0, bit4 = (i & 16) != 0;
        kira_v8si in_low = bit3 ? __builtin_ia32_permvarsi256(tables[1], i) : __builtin_ia32_permvarsi256(tables[0], i);
        kira_v8si in_high = bit3 ? __builtin_ia32_permvarsi256(tables[3], i) : __builtin_ia32_permvarsi256(tables[2], i);
        halves[h] = bit4 ? in_high : in_low;
    }
    return (kira_u16)kira_join8(halves[0], halves[1]);
#else
    kira_u16 words;
    for (int i = 0; i < 16; i++) words[i] = index[i] < 16 ? low[index[i]] : high[index[i] - 16];
    return words;
#endif
}

// Selections written as vector conditionals: Swift's `replace(with:where:)` on these lane types
// compiles to a loop over the lanes.

/// `mix(x, y, step(edge, v))` with the step as a selection: `x` where `v < edge`, else
/// `x + (y - x)`. The same bits as the multiply by the step's 0 or 1 when `x` and `y` are finite
/// and `x` is not -0 (`x + (y - x) * 0` is then `x`, and a multiply by 1 is exact), in one
/// operation fewer (two with AVX-512's masked add) and without the step's lanes.
static inline __attribute__((always_inline)) kira_f16 kira_mix_step(kira_f16 x, kira_f16 y, kira_f16 edge, kira_f16 v) {
    return v < edge ? x : x + (y - x);
}

/// `a` where `v < edge`, else `b`: a choice by `step(edge, v)`.
static inline __attribute__((always_inline)) kira_f16 kira_select_step(kira_f16 a, kira_f16 b, kira_f16 edge, kira_f16 v) {
    return v < edge ? a : b;
}

/// `x` clamped to `0...high`; NaN lanes become 0.
static inline __attribute__((always_inline)) kira_d16 kira_clamp_d16(kira_d16 x, double high) {
    kira_d16 t = x > 0.0 ? x : (kira_d16)(0.0);
    return t < high ? t : (kira_d16)(high);
}

/// `x` clamped to `0...high`; NaN lanes become 0.
static inline __attribute__((always_inline)) kira_f16 kira_clamp_f16(kira_f16 x, float high) {
    kira_f16 t = x > 0.0f ? x : (kira_f16)(0.0f);
    return t < high ? t : (kira_f16)(high);
}

/// Lane-wise `min(x, high)` on integers.
static inline __attribute__((always_inline)) kira_i16 kira_min_i32(kira_i16 x, int32_t high) {
    return x < high ? x : (kira_i16)(high);
}

/// `value` in the lanes where `low <= x < high`, 0 elsewhere.
static inline __attribute__((always_inline)) kira_f16 kira_where_in_range(kira_i16 x, int32_t low, int32_t high, float value) {
    return (x >= low & x < high) ? (kira_f16)(value) : (kira_f16)(0.0f);
}

/// For un-premultiplying: 1 where `alpha` is 1 (the common case, no rounding), `1 / alpha` where
/// it is positive, 0 where it is 0.
static inline __attribute__((always_inline)) kira_f16 kira_unpremultiply_scale(kira_f16 alpha) {
    kira_f16 inverse = alpha > 0.0f ? 1.0f / alpha : (kira_f16)(0.0f);
    return alpha == 1.0f ? (kira_f16)(1.0f) : inverse;
}

// Stores that bypass the caches: a frame's canvas (30 MB) is written once and not read back by
// the renderer, so streaming it avoids reading every line into the cache before writing it.

/// Stores the 64 bytes `words` at `p`, which must be 64-byte aligned, bypassing the caches.
static inline __attribute__((always_inline)) void kira_stream_64(void *p, kira_u16 words) {
    __builtin_nontemporal_store(words, (kira_u16 *)p);
}

/// Sets `count` 32-bit words from `p` on to `value`: whole aligned 64-byte lines streamed, the
/// partial lines at either end stored normally.
static inline __attribute__((always_inline)) void kira_fill_stream_u32(uint32_t *p, intptr_t count, uint32_t value) {
    intptr_t i = 0;
    while (i < count && ((uintptr_t)(p + i) & 63) != 0) p[i++] = value;
    kira_u16 line = (kira_u16)(value);
    for (; i + 16 <= count; i += 16) __builtin_nontemporal_store(line, (kira_u16 *)(p + i));
    for (; i < count; i++) p[i] = value;
}

/// Orders streamed stores before the stores that follow (call before other threads read them).
static inline __attribute__((always_inline)) void kira_store_fence(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_sfence();
#else
    __atomic_thread_fence(__ATOMIC_RELEASE);
#endif
}

#endif
