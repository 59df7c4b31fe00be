#ifndef KIRA_PNG_ROW_FILTERS_H
#define KIRA_PNG_ROW_FILTERS_H

// PNG's five row filters (PNG specification, section 9.2) for Kira's libdeflate writer
// (`PNGImageData`), and the cost its adaptive choice ranks them by. Each filtered byte depends
// only on unfiltered bytes (the byte, the one a pixel to its left, the two above), so a row is
// filtered 32 bytes at a time with no carried dependency. `kira_png_filter_byte` is the readable
// one-byte definition; the row functions are tested against it byte for byte.
//
// Header-only and `static inline`, like `kira_lanes.h`: the functions are compiled into the Swift
// module that calls them, with its CPU flags (AVX-512 under the NativeCPU trait).

#include <stdint.h>

typedef uint8_t kira_png_u8x32 __attribute__((ext_vector_type(32)));
typedef int8_t kira_png_i8x32 __attribute__((ext_vector_type(32)));
typedef int16_t kira_png_i16x32 __attribute__((ext_vector_type(32)));
typedef uint16_t kira_png_u16x32 __attribute__((ext_vector_type(32)));
typedef uint32_t kira_png_u32x32 __attribute__((ext_vector_type(32)));

/// PNG filter types.
enum {
    KIRA_PNG_FILTER_NONE = 0,
    KIRA_PNG_FILTER_SUB = 1,
    KIRA_PNG_FILTER_UP = 2,
    KIRA_PNG_FILTER_AVERAGE = 3,
    KIRA_PNG_FILTER_PAETH = 4,
};

/// Byte `x` filtered with filter `type` (0...4), given the byte a pixel to its left `a`, the one
/// above `b` and the one above that left `c` (0 where there is none). The definition, one byte.
static inline uint8_t kira_png_filter_byte(int type, uint8_t x, uint8_t a, uint8_t b, uint8_t c) {
    switch (type) {
    case KIRA_PNG_FILTER_NONE: return x;
    case KIRA_PNG_FILTER_SUB: return (uint8_t)(x - a);
    case KIRA_PNG_FILTER_UP: return (uint8_t)(x - b);
    case KIRA_PNG_FILTER_AVERAGE: return (uint8_t)(x - ((a + b) >> 1));
    default: {
        // Paeth: whichever of left, above, upper-left is nearest to left + above - upper-left,
        // ties in that order.
        int p = a + b - c;
        int pa = p > a ? p - a : a - p, pb = p > b ? p - b : b - p, pc = p > c ? p - c : c - p;
        uint8_t predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c);
        return (uint8_t)(x - predictor);
    }
    }
}

/// The 32 bytes from `x` of a row loaded as a vector.
static inline __attribute__((always_inline)) kira_png_u8x32 kira_png_load32(const uint8_t *x) {
    kira_png_u8x32 v;
    __builtin_memcpy(&v, x, 32);
    return v;
}

// The 32 filtered bytes from byte `i` of a row, `i` ≥ `bpp` (the bytes a pixel to the left
// exist), given `x = row + i` and `b = above + i`: one function per type, each the vector form of
// `kira_png_filter_byte`.

static inline __attribute__((always_inline)) kira_png_u8x32 kira_png_none32(const uint8_t *x, const uint8_t *b, intptr_t bpp) {
    (void)b;
    (void)bpp;
    return kira_png_load32(x);
}

static inline __attribute__((always_inline)) kira_png_u8x32 kira_png_sub32(const uint8_t *x, const uint8_t *b, intptr_t bpp) {
    (void)b;
    return kira_png_load32(x) - kira_png_load32(x - bpp);
}

static inline __attribute__((always_inline)) kira_png_u8x32 kira_png_up32(const uint8_t *x, const uint8_t *b, intptr_t bpp) {
    (void)bpp;
    return kira_png_load32(x) - kira_png_load32(b);
}

static inline __attribute__((always_inline)) kira_png_u8x32 kira_png_average32(const uint8_t *x, const uint8_t *b, intptr_t bpp) {
    kira_png_u8x32 left = kira_png_load32(x - bpp), above = kira_png_load32(b);
    // floor((left + above) / 2) without leaving eight bits.
    return kira_png_load32(x) - ((left & above) + ((left ^ above) >> 1));
}

static inline __attribute__((always_inline)) kira_png_u8x32 kira_png_paeth32(const uint8_t *x, const uint8_t *b, intptr_t bpp) {
    kira_png_i16x32 a = __builtin_convertvector(kira_png_load32(x - bpp), kira_png_i16x32);
    kira_png_i16x32 above = __builtin_convertvector(kira_png_load32(b), kira_png_i16x32);
    kira_png_i16x32 c = __builtin_convertvector(kira_png_load32(b - bpp), kira_png_i16x32);
    // |p - a| = |above - c|, |p - b| = |a - c|, |p - c| = |a + above - 2c| for p = a + above - c.
    kira_png_i16x32 pa = __builtin_elementwise_abs(above - c);
    kira_png_i16x32 pb = __builtin_elementwise_abs(a - c);
    kira_png_i16x32 pc = __builtin_elementwise_abs(a + above - c - c);
    kira_png_i16x32 predictor = (pa <= pb & pa <= pc) ? a : ((pb <= pc) ? above : c);
    return kira_png_load32(x) - __builtin_convertvector(predictor, kira_png_u8x32);
}

/// The cost the adaptive choice ranks filtered bytes by: each read as a signed byte, absolute.
static inline __attribute__((always_inline)) kira_png_u16x32 kira_png_magnitudes32(kira_png_u8x32 filtered) {
    // |-128| = 128 still fits the unsigned byte.
    kira_png_u8x32 magnitude = (kira_png_u8x32)__builtin_elementwise_abs((kira_png_i8x32)filtered);
    return __builtin_convertvector(magnitude, kira_png_u16x32);
}

// `loop(type, chunk)` for filter `type`, with its 32-byte function `chunk`: each row function is
// one loop per type, so that the type is not tested per chunk.
#define KIRA_PNG_FOR_TYPE(loop)                                                        \
    switch (type) {                                                                    \
    case KIRA_PNG_FILTER_NONE: loop(KIRA_PNG_FILTER_NONE, kira_png_none32)             \
    case KIRA_PNG_FILTER_SUB: loop(KIRA_PNG_FILTER_SUB, kira_png_sub32)                \
    case KIRA_PNG_FILTER_UP: loop(KIRA_PNG_FILTER_UP, kira_png_up32)                   \
    case KIRA_PNG_FILTER_AVERAGE: loop(KIRA_PNG_FILTER_AVERAGE, kira_png_average32)    \
    default: loop(KIRA_PNG_FILTER_PAETH, kira_png_paeth32)                             \
    }

// The row loops: the first `bpp` bytes one at a time (no left neighbour), then 32 at a time, then
// the tail one at a time.
#define KIRA_PNG_FILTER_ROW(type, chunk)                                                              \
    {                                                                                                 \
        intptr_t i = 0;                                                                               \
        for (; i < count && i < bpp; i++) out[i] = kira_png_filter_byte(type, row[i], 0, above[i], 0); \
        for (; i + 32 <= count; i += 32) {                                                            \
            kira_png_u8x32 filtered = chunk(row + i, above + i, bpp);                                 \
            __builtin_memcpy(out + i, &filtered, 32);                                                 \
        }                                                                                             \
        for (; i < count; i++)                                                                        \
            out[i] = kira_png_filter_byte(type, row[i], row[i - bpp], above[i], above[i - bpp]);      \
        return;                                                                                       \
    }

/// Filters the `count` bytes of `row` with filter `type` (0...4) into `out`: `above` is the
/// unfiltered row before it (zeros for the first row), `bpp` the bytes per pixel (4 or 8).
static inline void kira_png_filter_row(int type, const uint8_t *row, const uint8_t *above, intptr_t count, intptr_t bpp,
                                       uint8_t *out) {
    KIRA_PNG_FOR_TYPE(KIRA_PNG_FILTER_ROW)
}
#undef KIRA_PNG_FILTER_ROW

/// The magnitude of a filtered byte read as a signed byte.
static inline uint64_t kira_png_magnitude(uint8_t filtered) {
    int8_t value = (int8_t)filtered;
    return (uint64_t)(value < 0 ? -(int)value : value);
}

// The cost loops: as the row loops, summing magnitudes instead of storing. Sixteen-bit lane sums
// take at most 128 per chunk, so they are added into the total every 256 chunks (32,768 at most).
#define KIRA_PNG_FILTER_COST(type, chunk)                                                               \
    {                                                                                                   \
        uint64_t sum = 0;                                                                               \
        intptr_t i = 0;                                                                                 \
        for (; i < count && i < bpp; i++)                                                               \
            sum += kira_png_magnitude(kira_png_filter_byte(type, row[i], 0, above[i], 0));              \
        while (i + 32 <= count) {                                                                       \
            kira_png_u16x32 lanes = 0;                                                                  \
            for (int k = 0; k < 256 && i + 32 <= count; k++, i += 32)                                   \
                lanes += kira_png_magnitudes32(chunk(row + i, above + i, bpp));                         \
            sum += __builtin_reduce_add(__builtin_convertvector(lanes, kira_png_u32x32));                 \
        }                                                                                               \
        for (; i < count; i++)                                                                          \
            sum += kira_png_magnitude(kira_png_filter_byte(type, row[i], row[i - bpp], above[i], above[i - bpp])); \
        return sum;                                                                                     \
    }

/// The adaptive choice's cost of filtering the `count` bytes of `row` with filter `type` (as
/// `kira_png_filter_row`, nothing stored): the sum of the filtered bytes read as signed bytes,
/// absolute. Small when the filter left mostly values near zero, which deflate compresses best.
static inline uint64_t kira_png_filter_cost(int type, const uint8_t *row, const uint8_t *above, intptr_t count,
                                            intptr_t bpp) {
    KIRA_PNG_FOR_TYPE(KIRA_PNG_FILTER_COST)
}
#undef KIRA_PNG_FILTER_COST
#undef KIRA_PNG_FOR_TYPE

#endif
