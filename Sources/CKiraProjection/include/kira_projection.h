#ifndef KIRA_PROJECTION_H
#define KIRA_PROJECTION_H

// The projection's inner step, sixteen canvas pixels of one row at a time: map the pixels back
// onto the face, fetch the four texels of each bilinear sample, interpolate, composite over what
// the row holds so far, and store. It is the arithmetic of the
// scalar reference (`ScalarProjectionJob.blend` and `store`) operation for operation, so that the
// bytes are the same; written in C because the Swift compiler splits these sixteen-lane
// expressions into scalar instructions once they are inlined into the projection loop.
//
// Nothing here may be fused into a multiply-add: the reference rounds every product.
#pragma STDC FP_CONTRACT OFF

#include "kira_lanes.h"

/// The bilinear fetch's four texel words from a window of `rows` rows (at most 5) of 32 words
/// at `p`, `stride` words apart: lane i reads columns `x0[i]`, `x1[i]` (0...31) of rows `y0[i]`,
/// `y1[i]` (0 ..< `rows`), stored as 64 words at `words` (t00, t01, t10, t11). Each row is loaded
/// once and permuted twice.
static inline __attribute__((always_inline)) void kira_window_texels(
    const uint32_t *p, intptr_t stride, int32_t rows, kira_i16 x0, kira_i16 x1, kira_i16 y0, kira_i16 y1,
    uint32_t *words) {
    kira_u16 a00 = 0, a01 = 0, a10 = 0, a11 = 0;
    for (int32_t k = 0; k < 5 && k < rows; k++) {
        kira_u16 low, high;
        __builtin_memcpy(&low, p + k * stride, 64);
        __builtin_memcpy(&high, p + k * stride + 16, 64);
        // The next runs read on along the same rows: ask for those lines early.
        __builtin_prefetch(p + k * stride + 96);
        kira_u16 left = kira_pick_u32(low, high, x0), right = kira_pick_u32(low, high, x1);
        kira_i16 top = y0 == k, bottom = y1 == k;
        a00 = top ? left : a00;
        a01 = top ? right : a01;
        a10 = bottom ? left : a10;
        a11 = bottom ? right : a11;
    }
    // The next canvas row reads on one face row further down: ask for it a row ahead.
    __builtin_prefetch(p + rows * stride);
    __builtin_prefetch(p + rows * stride + 16);
    __builtin_memcpy(words, &a00, 64);
    __builtin_memcpy(words + 16, &a01, 64);
    __builtin_memcpy(words + 32, &a10, 64);
    __builtin_memcpy(words + 48, &a11, 64);
}

/// `x` where `weight` is non-zero; elsewhere the largest such lane of `x` (INT32_MIN when there
/// is none), so that lanes that do not count stay near those that do.
static inline __attribute__((always_inline)) kira_i16 kira_spread_weighted_i32(kira_i16 x, kira_f16 weight) {
    kira_i16 counts = weight != 0.0f;
    int32_t some = __builtin_reduce_max(counts ? x : (kira_i16)(INT32_MIN));
    return counts ? x : (kira_i16)(some);
}

/// Sixteen premultiplied RGBA pixels as float lanes in 0...1. (Swift imports neither a struct of
/// vectors nor a pointer to one: Swift code passes the lanes as 64 floats, r then g, b, a.)
typedef struct {
    kira_f16 r, g, b, a;
} kira_rgba_lanes;

/// A face's inverse homography on one canvas row: canvas column `x` (its centre `cx = x + 0.5`)
/// maps to the homogeneous face point `(column * cx + row) + constant`, summed in that order.
/// `step` is the map's change from one canvas row to the next (the homography's second row), for
/// the footprint of a pixel (`kira_footprint_of`). The pixels' sample points take the same map
/// in single precision, `point_column * cx + point_origin` (Swift's `SamplePointMap`, which
/// computes the six floats).
typedef struct {
    double column_x, column_y, column_z;
    double row_x, row_y, row_z;
    double constant_x, constant_y, constant_z;
    double step_x, step_y, step_z;
    float point_column_x, point_column_y, point_column_z;
    float point_origin_x, point_origin_y, point_origin_z;
} kira_row_map;

/// A premultiplied RGBA8 face: `width` × `height` texels, one 32-bit word each (R in the low byte).
typedef struct {
    const uint32_t *texels;
    int32_t width, height;
} kira_face_rgba8;

/// RGBA8 words as channel lanes in 0...1.
static inline __attribute__((always_inline)) kira_rgba_lanes kira_unpack_rgba8(kira_u16 words) {
    kira_rgba_lanes c = {kira_rgba8_channel(words, 0), kira_rgba8_channel(words, 8), kira_rgba8_channel(words, 16),
                         kira_rgba8_channel(words, 24)};
    return c;
}

/// The four texel words by four gathers, for runs whose texels do not fit the window of
/// `kira_window_texels` (a face drawn much smaller than it is). Kept out of line: inlined, the
/// compiler would hoist the gathers out of their branch and run them for every run.
static __attribute__((noinline)) void kira_gather_texels_rgba8(
    kira_face_rgba8 face, kira_i16 x0, kira_i16 x1, kira_i16 y0, kira_i16 y1, uint32_t *words) {
    kira_i16 top = y0 * face.width, bottom = y1 * face.width;
    kira_u16 t00 = kira_gather_u32(face.texels, top + x0), t01 = kira_gather_u32(face.texels, top + x1);
    kira_u16 t10 = kira_gather_u32(face.texels, bottom + x0), t11 = kira_gather_u32(face.texels, bottom + x1);
    __builtin_memcpy(words, &t00, 64);
    __builtin_memcpy(words + 16, &t01, 64);
    __builtin_memcpy(words + 32, &t10, 64);
    __builtin_memcpy(words + 48, &t11, 64);
}

#if defined(__AVX2__) && !defined(__AVX512F__)
/// Sixteen words as two tables of eight (`low`, `high`): word `index[i]` (0...15) for each lane.
static inline __attribute__((always_inline)) kira_v8si kira_pick16_u32(kira_v8si low, kira_v8si high, kira_v8si index) {
    kira_v8si in_low = __builtin_ia32_permvarsi256(low, index), in_high = __builtin_ia32_permvarsi256(high, index);
    // Bit 3 of the index as the sign, which a blend reads.
    return (index << 28) < 0 ? in_high : in_low;
}

/// The smallest lane of each half of `x` (lanes 0...7, 8...15), as lanes 0 and 4.
static inline __attribute__((always_inline)) kira_v8si kira_halves_min_i32(kira_i16 x) {
    kira_v8si a = __builtin_shufflevector(x, x, 0, 1, 2, 3, 8, 9, 10, 11), b = __builtin_shufflevector(x, x, 4, 5, 6, 7, 12, 13, 14, 15);
    kira_v8si m = a < b ? a : b;
    kira_v8si n = __builtin_shufflevector(m, m, 2, 3, 0, 1, 6, 7, 4, 5);
    m = m < n ? m : n;
    n = __builtin_shufflevector(m, m, 1, 0, 3, 2, 5, 4, 7, 6);
    return m < n ? m : n;
}

/// The largest lane of each half of `x`, as lanes 0 and 4.
static inline __attribute__((always_inline)) kira_v8si kira_halves_max_i32(kira_i16 x) {
    kira_v8si a = __builtin_shufflevector(x, x, 0, 1, 2, 3, 8, 9, 10, 11), b = __builtin_shufflevector(x, x, 4, 5, 6, 7, 12, 13, 14, 15);
    kira_v8si m = a > b ? a : b;
    kira_v8si n = __builtin_shufflevector(m, m, 2, 3, 0, 1, 6, 7, 4, 5);
    m = m > n ? m : n;
    n = __builtin_shufflevector(m, m, 1, 0, 3, 2, 5, 4, 7, 6);
    return m > n ? m : n;
}

/// `kira_window_texels` for AVX2, when each half of the lanes (0...7, 8...15) reads at most 16
/// texels on at most three face rows: a row's 16 words are two tables of eight, so a pick is two
/// permutes and a blend, against eight permutes and six blends for 32 words. The four texel
/// words of each lane go to `texels` (t00, t01, t10, t11); false (nothing written) when the
/// lanes do not fit.
// Against the 32-word window alone: the frame's projection 106 -> 98 M instructions (callgrind, KIRA_CPU=v3, EPYC Zen 4).
static inline __attribute__((always_inline)) int kira_window_halves_texels(kira_face_rgba8 face, kira_i16 x0, kira_i16 x1,
                                                                         kira_i16 y0, kira_i16 y1, kira_u16 *texels) {
    kira_v8si starts = kira_halves_min_i32(x0), ends = kira_halves_max_i32(x1);
    kira_v8si tops = kira_halves_min_i32(y0), bottoms = kira_halves_max_i32(y1);
    kira_v8si limit = (kira_v8si)(face.width - 16);
    starts = starts > limit ? limit : starts;
    // Both halves fit when, in lanes 0 and 4: start >= 0, end - start < 16, bottom - top < 3.
    kira_v8si misfit = (starts < 0) | (ends - starts > 15) | (bottoms - tops > 2);
    if (misfit[0] | misfit[4]) return 0;
    kira_v8si halves[2][4];
    for (int h = 0; h < 2; h++) {
        int32_t start = starts[4 * h], top = tops[4 * h], bottom = bottoms[4 * h];
        kira_v8si lx0 = h ? kira_high8(x0) : kira_low8(x0), lx1 = h ? kira_high8(x1) : kira_low8(x1);
        kira_v8si ly0 = h ? kira_high8(y0) : kira_low8(y0), ly1 = h ? kira_high8(y1) : kira_low8(y1);
        const uint32_t *p = face.texels + start;
        kira_v8si left_index = lx0 - start, right_index = lx1 - start;
        kira_v8si *t = halves[h];
        // Three rows always, with no branch on their count (it changes every other run): a row
        // past the window's last reads the last again, and no lane selects it.
        for (int32_t k = 0; k < 3; k++) {
            int32_t row = top + k < bottom ? top + k : bottom;
            kira_v8si low, high;
            __builtin_memcpy(&low, p + (intptr_t)row * face.width, 32);
            __builtin_memcpy(&high, p + (intptr_t)row * face.width + 8, 32);
            kira_v8si left = kira_pick16_u32(low, high, left_index), right = kira_pick16_u32(low, high, right_index);
            if (k == 0) {
                t[0] = t[2] = left;
                t[1] = t[3] = right;
            } else {
                kira_v8si in_top = ly0 == top + k, in_bottom = ly1 == top + k;
                t[0] = in_top ? left : t[0];
                t[1] = in_top ? right : t[1];
                t[2] = in_bottom ? left : t[2];
                t[3] = in_bottom ? right : t[3];
            }
        }
    }
    for (int i = 0; i < 4; i++) texels[i] = (kira_u16)kira_join8(halves[0][i], halves[1][i]);
    // The next runs read on along the same rows, and the next canvas row one face row further
    // down: ask for those lines early.
    const uint32_t *p = face.texels + starts[0];
    __builtin_prefetch(p + (intptr_t)tops[0] * face.width + 96);
    __builtin_prefetch(p + (intptr_t)bottoms[0] * face.width + 96);
    int32_t next = bottoms[4] + 1 < face.height ? bottoms[4] + 1 : face.height - 1;
    __builtin_prefetch(p + (intptr_t)next * face.width);
    __builtin_prefetch(p + (intptr_t)next * face.width + 16);
    return 1;
}
#endif

/// Where sixteen canvas pixels of a row sample a face of `width` × `height` texels: the four
/// texels of each bilinear sample (columns `x0`, `x1`, rows `y0`, `y1`) and the weights between
/// them.
typedef struct {
    kira_i16 x0, x1, y0, y1;
    kira_f16 wx, wy;
} kira_bilinear_taps;

/// The taps of canvas columns `columns` of a row, mapped back onto the face by `map` and clamped
/// to its edge texels. Lanes outside the quad (no `weight`) may map anywhere, NaN included: they
/// are clamped into the face too, and read next to the lanes that count, so that a run's texels
/// stay in one small window.
static inline __attribute__((always_inline)) kira_bilinear_taps kira_bilinear_taps_of(
    int32_t width, int32_t height, kira_row_map map, kira_i16 columns, kira_f16 weight) {
    // Columns and the texel indices below are in 0 ..< 2^23.
    kira_f16 cx = kira_small_u32_to_float((kira_u16)columns) + 0.5f;
    kira_f16 hx = map.point_column_x * cx + map.point_origin_x;
    kira_f16 hy = map.point_column_y * cx + map.point_origin_y;
    kira_f16 hz = map.point_column_z * cx + map.point_origin_z;
    kira_f16 u = kira_clamp_f16(hx / hz - 0.5f, (float)(width - 1));
    kira_f16 v = kira_clamp_f16(hy / hz - 0.5f, (float)(height - 1));
    kira_i16 u0 = __builtin_convertvector(u, kira_i16), v0 = __builtin_convertvector(v, kira_i16);
    kira_bilinear_taps taps;
    taps.wx = u - kira_small_u32_to_float((kira_u16)u0);
    taps.wy = v - kira_small_u32_to_float((kira_u16)v0);
    taps.x0 = u0;
    taps.y0 = v0;
    if (__builtin_reduce_or(weight == 0.0f)) {
        taps.x0 = kira_spread_weighted_i32(u0, weight);
        taps.y0 = kira_spread_weighted_i32(v0, weight);
    }
    taps.x1 = kira_min_i32(taps.x0 + 1, width - 1);
    taps.y1 = kira_min_i32(taps.y0 + 1, height - 1);
    return taps;
}

/// The four texel words of each lane of `taps` (t00, t01, t10, t11 at `texels`): from a window
/// of face rows where the lanes' texels fit one, else by gathers.
static inline __attribute__((always_inline)) void kira_fetch_texels_rgba8(kira_face_rgba8 face, kira_bilinear_taps taps,
                                                                        kira_u16 *texels) {
#if defined(__AVX2__) && !defined(__AVX512F__)
    if (kira_window_halves_texels(face, taps.x0, taps.x1, taps.y0, taps.y1, texels)) return;
#endif
    uint32_t words[64];
#if defined(__wasm_simd128__)
    // SIMD128 has no permute across more than 16 bytes: picking from a window's rows would take
    // a lane at a time, ten times, where four gathers take each texel once.
    kira_gather_texels_rgba8(face, taps.x0, taps.x1, taps.y0, taps.y1, words);
    for (int i = 0; i < 4; i++) __builtin_memcpy(texels + i, words + 16 * i, 64);
    return;
#endif
    // Sixteen neighbouring canvas pixels usually read from a window of at most 32 texels on at
    // most five face rows (a canvas row maps to a straight line on the face): those rows are
    // loaded whole and the texels picked by permutes, far cheaper than four gathers.
    int32_t y_min = kira_reduce_min_i32(taps.y0), y_max = kira_reduce_max_i32(taps.y1);
    int32_t start = kira_reduce_min_i32(taps.x0);
    if (start > face.width - 32) start = face.width - 32;
    if (start >= 0 && kira_reduce_max_i32(taps.x1) - start < 32 && y_max - y_min < 5) {
        kira_window_texels(face.texels + (intptr_t)y_min * face.width + start, face.width, y_max - y_min + 1,
                           taps.x0 - start, taps.x1 - start, taps.y0 - y_min, taps.y1 - y_min, words);
    } else {
        kira_gather_texels_rgba8(face, taps.x0, taps.x1, taps.y0, taps.y1, words);
    }
    for (int i = 0; i < 4; i++) __builtin_memcpy(texels + i, words + 16 * i, 64);
}

/// The four texels of `taps` interpolated.
static inline __attribute__((always_inline)) kira_rgba_lanes kira_bilinear(
    kira_rgba_lanes t00, kira_rgba_lanes t01, kira_rgba_lanes t10, kira_rgba_lanes t11, kira_bilinear_taps taps) {
#define KIRA_BILINEAR(c) ({ \
        kira_f16 top = t00.c + (t01.c - t00.c) * taps.wx; \
        kira_f16 bottom = t10.c + (t11.c - t10.c) * taps.wx; \
        top + (bottom - top) * taps.wy; })
    kira_rgba_lanes color = {KIRA_BILINEAR(r), KIRA_BILINEAR(g), KIRA_BILINEAR(b), KIRA_BILINEAR(a)};
#undef KIRA_BILINEAR
    return color;
}

/// `color` scaled by `weight` and composited source-over onto `under`:
/// `color * weight + under * (1 - color alpha * weight)`. Lanes of weight 0 keep `under`.
static inline __attribute__((always_inline)) kira_rgba_lanes kira_over(kira_rgba_lanes color, kira_f16 weight,
                                                                        kira_rgba_lanes under) {
    kira_f16 sr = color.r * weight, sg = color.g * weight, sb = color.b * weight, sa = color.a * weight;
    kira_f16 keep = 1.0f - sa;
    kira_rgba_lanes over = {sr + under.r * keep, sg + under.g * keep, sb + under.b * keep, sa + under.a * keep};
    return over;
}

/// The four texels of `taps` interpolated and composited with `weight` over `under` (`kira_over`).
static inline __attribute__((always_inline)) kira_rgba_lanes kira_bilinear_over(
    kira_rgba_lanes t00, kira_rgba_lanes t01, kira_rgba_lanes t10, kira_rgba_lanes t11, kira_bilinear_taps taps,
    kira_f16 weight, kira_rgba_lanes under) {
    return kira_over(kira_bilinear(t00, t01, t10, t11, taps), weight, under);
}

/// The RGBA8 face sampled bilinearly where canvas columns `columns` of a row map back to
/// (`map`), composited with `weight` over `under` (`kira_bilinear_over`).
static inline __attribute__((always_inline)) kira_rgba_lanes kira_sample_over(
    kira_face_rgba8 face, kira_row_map map, kira_i16 columns, kira_f16 weight, kira_rgba_lanes under) {
    kira_bilinear_taps taps = kira_bilinear_taps_of(face.width, face.height, map, columns, weight);
    kira_u16 t[4];
    kira_fetch_texels_rgba8(face, taps, t);
    return kira_bilinear_over(kira_unpack_rgba8(t[0]), kira_unpack_rgba8(t[1]), kira_unpack_rgba8(t[2]),
                              kira_unpack_rgba8(t[3]), taps, weight, under);
}

/// A premultiplied RGBA16 face: `width` × `height` texels of four 16-bit channels.
typedef struct {
    const uint16_t *texels;
    int32_t width, height;
} kira_face_rgba16;

/// The RGBA16 texels at columns `x`, rows `y` of `face`, one lane each (16-bit output is the
/// exception, so a load per lane, gathers with AVX2, no window).
static inline __attribute__((always_inline)) kira_rgba_lanes kira_texels_rgba16(kira_face_rgba16 face, kira_i16 x, kira_i16 y) {
    kira_u16 rg, ba;
#if defined(__AVX2__) && !defined(__AVX512F__)
    // The same words (little-endian: R | G << 16, then B | A << 16) by four gathers of 8 lanes
    // with an 8-byte stride, so that the texel index alone need fit in int32 (`canProject`).
    // A 16-bit render's projection: 311 M -> 103 M instructions (callgrind, AVX2 build, EPYC Zen 4).
    kira_i16 texel = y * face.width + x;
    kira_v8si zero = {0}, all = {-1, -1, -1, -1, -1, -1, -1, -1};
    const int *words = (const int *)face.texels;
    rg = (kira_u16)kira_join8(__builtin_ia32_gatherd_d256(zero, words, kira_low8(texel), all, 8),
                              __builtin_ia32_gatherd_d256(zero, words, kira_high8(texel), all, 8));
    ba = (kira_u16)kira_join8(__builtin_ia32_gatherd_d256(zero, words + 1, kira_low8(texel), all, 8),
                              __builtin_ia32_gatherd_d256(zero, words + 1, kira_high8(texel), all, 8));
#else
    for (int i = 0; i < 16; i++) {
        const uint16_t *p = face.texels + ((intptr_t)y[i] * face.width + x[i]) * 4;
        rg[i] = (uint32_t)p[0] | ((uint32_t)p[1] << 16);
        ba[i] = (uint32_t)p[2] | ((uint32_t)p[3] << 16);
    }
#endif
    kira_rgba_lanes c = {kira_rgba16_channel(rg, 0), kira_rgba16_channel(rg, 16), kira_rgba16_channel(ba, 0),
                         kira_rgba16_channel(ba, 16)};
    return c;
}

/// `kira_sample_over` for an RGBA16 face.
static inline __attribute__((always_inline)) kira_rgba_lanes kira_sample_over16(
    kira_face_rgba16 face, kira_row_map map, kira_i16 columns, kira_f16 weight, kira_rgba_lanes under) {
    kira_bilinear_taps taps = kira_bilinear_taps_of(face.width, face.height, map, columns, weight);
    return kira_bilinear_over(kira_texels_rgba16(face, taps.x0, taps.y0), kira_texels_rgba16(face, taps.x1, taps.y0),
                              kira_texels_rgba16(face, taps.x0, taps.y1), kira_texels_rgba16(face, taps.x1, taps.y1),
                              taps, weight, under);
}

// Minification. A canvas pixel that sees a face drawn smaller than its texels spans more than
// one texel: sampled at its centre alone, the face aliases. Kira filters each pixel over a
// footprint 1.5 pixels wide (±0.75 px). Bilinear interpolation reads ±1 texel around the centre,
// ±0.67 px or more while a pixel spans at most 1.5 texels along each canvas axis: such a pixel
// takes the one bilinear sample it always took. Beyond, it averages a grid of bilinear taps
// spread over 1.5 × (length − 1.5) texels along each canvas axis mapped onto the face (the
// Jacobian of the inverse map at its centre: a parallelogram on the face), so that the taps and
// their own ±1 texel span the footprint; taps at most one texel apart, at most
// KIRA_FOOTPRINT_TAPS a side. The spread grows from nothing at the onset, so the filter has no
// seam where it starts.

/// The footprint's width in canvas pixels.
#define KIRA_FOOTPRINT_WIDTH 1.5
/// Texels a pixel spans along an axis beyond which it is filtered (bilinear alone below).
#define KIRA_FOOTPRINT_ONSET 1.5
/// The most taps along one axis (a pixel spanning over 43.5 texels gets them further apart).
#define KIRA_FOOTPRINT_TAPS 64

/// Where sixteen canvas pixels of a row land on a face and what they span there: the centre
/// (`u`, `v`, in face pixels), the face's change along a canvas column step (`dux`, `dvx`) and a
/// row step (`duy`, `dvy`), the taps along each canvas axis (`nx`, `ny`: 1 where the pixel is not
/// minified along it) and the canvas pixels they spread over (`span_x`, `span_y`).
typedef struct {
    kira_d16 u, v, dux, dvx, duy, dvy, span_x, span_y;
    kira_i16 nx, ny;
} kira_footprint;

/// Masks of double lanes (a comparison of `kira_d16` lanes gives one).
typedef int64_t kira_l16 __attribute__((ext_vector_type(16)));

/// Taps along one axis for a pixel whose step spans `length` texels (NaN or infinite: 1), and the
/// canvas pixels they spread over; lanes not `counts` take 1.
static inline __attribute__((always_inline)) kira_i16 kira_footprint_taps(kira_d16 length, kira_i16 counts,
                                                                          kira_d16 *span) {
    kira_d16 extent = KIRA_FOOTPRINT_WIDTH * (length - KIRA_FOOTPRINT_ONSET);
    kira_l16 spread = __builtin_convertvector(counts, kira_l16) & (extent > 0.0) & (extent < __builtin_inf());
    // ceil(min(extent, TAPS)) for the positive lanes, without a rounding instruction.
    kira_d16 capped = extent < (double)KIRA_FOOTPRINT_TAPS ? extent : (kira_d16)((double)KIRA_FOOTPRINT_TAPS);
    capped = spread ? capped : (kira_d16)(0.0);
    kira_i16 whole = kira_d16_truncate(capped);
    kira_i16 up = whole - __builtin_convertvector(capped > kira_i16_to_d16(whole), kira_i16);  // true is -1
    kira_i16 taps = kira_min_i32(up + 1, KIRA_FOOTPRINT_TAPS);
    taps = __builtin_convertvector(spread, kira_i16) ? taps : (kira_i16)(1);
    *span = __builtin_convertvector(taps > 1, kira_l16) ? extent / length : (kira_d16)(0.0);
    return taps;
}

/// The footprints of canvas columns `columns` of a row (`map`); lanes of no `weight` take 1 tap.
static inline __attribute__((always_inline)) kira_footprint kira_footprint_of(kira_row_map map, kira_i16 columns,
                                                                              kira_f16 weight) {
    kira_d16 cx = kira_i16_to_d16(columns) + 0.5;
    kira_d16 hx = (map.column_x * cx + map.row_x) + map.constant_x;
    kira_d16 hy = (map.column_y * cx + map.row_y) + map.constant_y;
    kira_d16 hz = (map.column_z * cx + map.row_z) + map.constant_z;
    kira_footprint f;
    f.u = hx / hz;
    f.v = hy / hz;
    // The derivatives of (hx / hz, hy / hz) along the canvas axes.
    f.dux = (map.column_x - f.u * map.column_z) / hz;
    f.dvx = (map.column_y - f.v * map.column_z) / hz;
    f.duy = (map.step_x - f.u * map.step_z) / hz;
    f.dvy = (map.step_y - f.v * map.step_z) / hz;
    kira_i16 counts = weight != 0.0f;
    f.nx = kira_footprint_taps(__builtin_elementwise_sqrt(f.dux * f.dux + f.dvx * f.dvx), counts, &f.span_x);
    f.ny = kira_footprint_taps(__builtin_elementwise_sqrt(f.duy * f.duy + f.dvy * f.dvy), counts, &f.span_y);
    return f;
}

/// The canvas offset of tap `k` of `taps` spread over `span` pixels: from -span/2 to span/2.
static inline __attribute__((always_inline)) kira_d16 kira_footprint_offset(int32_t k, kira_i16 taps, kira_d16 span) {
    kira_d16 last = kira_i16_to_d16(taps > 1 ? taps - 1 : (kira_i16)(1));
    return __builtin_convertvector(taps > 1, kira_l16) ? ((double)k / last - 0.5) * span : (kira_d16)(0.0);
}

/// The mean of the footprint's taps on a face of `width` × `height` texels, RGBA8 (`texels8`) or
/// RGBA16 (`texels16`), each tap a bilinear sample clamped to the edge texels. Rows of taps
/// outer, columns inner, summed in that order. Out of line: it runs only on minified faces.
static __attribute__((noinline)) kira_rgba_lanes kira_footprint_mean(
    const uint32_t *texels8, const uint16_t *texels16, int32_t width, int32_t height, kira_footprint f) {
    kira_rgba_lanes sum = {0.0f, 0.0f, 0.0f, 0.0f};
    int32_t rows = kira_reduce_max_i32(f.ny), columns = kira_reduce_max_i32(f.nx);
    // The columns' offsets once, not once per row of taps (a division each).
    kira_d16 offsets[KIRA_FOOTPRINT_TAPS];
    for (int32_t i = 0; i < columns; i++) offsets[i] = kira_footprint_offset(i, f.nx, f.span_x);
    for (int32_t j = 0; j < rows; j++) {
        kira_d16 b = kira_footprint_offset(j, f.ny, f.span_y);
        for (int32_t i = 0; i < columns; i++) {
            kira_d16 a = offsets[i];
            kira_d16 u = kira_clamp_d16((f.u + (a * f.dux + b * f.duy)) - 0.5, (double)(width - 1));
            kira_d16 v = kira_clamp_d16((f.v + (a * f.dvx + b * f.dvy)) - 0.5, (double)(height - 1));
            kira_bilinear_taps taps;
            taps.x0 = kira_d16_truncate(u);
            taps.y0 = kira_d16_truncate(v);
            taps.wx = kira_d16_to_f16(u - kira_i16_to_d16(taps.x0));
            taps.wy = kira_d16_to_f16(v - kira_i16_to_d16(taps.y0));
            taps.x1 = kira_min_i32(taps.x0 + 1, width - 1);
            taps.y1 = kira_min_i32(taps.y0 + 1, height - 1);
            kira_rgba_lanes color;
            if (texels16) {
                kira_face_rgba16 face = {texels16, width, height};
                color = kira_bilinear(kira_texels_rgba16(face, taps.x0, taps.y0), kira_texels_rgba16(face, taps.x1, taps.y0),
                                      kira_texels_rgba16(face, taps.x0, taps.y1), kira_texels_rgba16(face, taps.x1, taps.y1),
                                      taps);
            } else {
                kira_i16 top = taps.y0 * width, bottom = taps.y1 * width;
                color = kira_bilinear(kira_unpack_rgba8(kira_gather_u32(texels8, top + taps.x0)),
                                      kira_unpack_rgba8(kira_gather_u32(texels8, top + taps.x1)),
                                      kira_unpack_rgba8(kira_gather_u32(texels8, bottom + taps.x0)),
                                      kira_unpack_rgba8(kira_gather_u32(texels8, bottom + taps.x1)), taps);
            }
            kira_i16 in = (i < f.nx) & (j < f.ny);
            sum.r = in ? sum.r + color.r : sum.r;
            sum.g = in ? sum.g + color.g : sum.g;
            sum.b = in ? sum.b + color.b : sum.b;
            sum.a = in ? sum.a + color.a : sum.a;
        }
    }
    kira_f16 count = __builtin_convertvector(f.nx * f.ny, kira_f16);
    kira_rgba_lanes mean = {sum.r / count, sum.g / count, sum.b / count, sum.a / count};
    return mean;
}

/// `plain` (the face sampled at the pixels' centres and composited over `under`) where the face
/// is not minified; where it is, the footprint's mean composited with `weight` over `under`.
static inline __attribute__((always_inline)) kira_rgba_lanes kira_filter_minified(
    const uint32_t *texels8, const uint16_t *texels16, int32_t width, int32_t height, kira_row_map map,
    kira_i16 columns, kira_f16 weight, kira_rgba_lanes under, kira_rgba_lanes plain) {
    kira_footprint f = kira_footprint_of(map, columns, weight);
    kira_i16 minified = (f.nx > 1) | (f.ny > 1);
    if (!__builtin_reduce_or(minified)) return plain;
    kira_rgba_lanes over = kira_over(kira_footprint_mean(texels8, texels16, width, height, f), weight, under);
    kira_rgba_lanes result = {minified ? over.r : plain.r, minified ? over.g : plain.g, minified ? over.b : plain.b,
                              minified ? over.a : plain.a};
    return result;
}

/// The 64 floats `rgba` (lanes r, g, b, a) as lanes.
static inline __attribute__((always_inline)) kira_rgba_lanes kira_load_rgba_lanes(const float *rgba) {
    kira_rgba_lanes pixels;
    __builtin_memcpy(&pixels, rgba, sizeof pixels);
    return pixels;
}

/// `kira_sample_over` on the 64 floats `rgba` (lanes r, g, b, a), in place.
static inline __attribute__((always_inline)) void kira_sample_over_rgba8(
    kira_face_rgba8 face, kira_row_map map, kira_i16 columns, kira_f16 weight, float *rgba) {
    kira_rgba_lanes over = kira_sample_over(face, map, columns, weight, kira_load_rgba_lanes(rgba));
    __builtin_memcpy(rgba, &over, sizeof over);
}

/// `kira_sample_over16` on the 64 floats `rgba` (lanes r, g, b, a), in place.
static inline __attribute__((always_inline)) void kira_sample_over_rgba16(
    kira_face_rgba16 face, kira_row_map map, kira_i16 columns, kira_f16 weight, float *rgba) {
    kira_rgba_lanes over = kira_sample_over16(face, map, columns, weight, kira_load_rgba_lanes(rgba));
    __builtin_memcpy(rgba, &over, sizeof over);
}

/// `kira_sample_over_rgba8`, the face filtered where it is minified (`kira_filter_minified`).
static inline __attribute__((always_inline)) void kira_sample_filtered_rgba8(
    kira_face_rgba8 face, kira_row_map map, kira_i16 columns, kira_f16 weight, float *rgba) {
    kira_rgba_lanes under = kira_load_rgba_lanes(rgba);
    kira_rgba_lanes plain = kira_sample_over(face, map, columns, weight, under);
    kira_rgba_lanes over = kira_filter_minified(face.texels, 0, face.width, face.height, map, columns, weight, under, plain);
    __builtin_memcpy(rgba, &over, sizeof over);
}

/// `kira_sample_over_rgba16`, the face filtered where it is minified (`kira_filter_minified`).
static inline __attribute__((always_inline)) void kira_sample_filtered_rgba16(
    kira_face_rgba16 face, kira_row_map map, kira_i16 columns, kira_f16 weight, float *rgba) {
    kira_rgba_lanes under = kira_load_rgba_lanes(rgba);
    kira_rgba_lanes plain = kira_sample_over16(face, map, columns, weight, under);
    kira_rgba_lanes over = kira_filter_minified(0, face.texels, face.width, face.height, map, columns, weight, under, plain);
    __builtin_memcpy(rgba, &over, sizeof over);
}

/// Premultiplied pixels un-premultiplied (opaque ones as they are, transparent ones black) and
/// quantised to RGBA8 words.
static inline __attribute__((always_inline)) kira_u16 kira_pack_lanes_rgba8(kira_rgba_lanes pixels) {
    // Opaque pixels (most of them) are stored as they are, with no division.
    if (__builtin_reduce_or(pixels.a != 1.0f)) {
        kira_f16 scale = kira_unpremultiply_scale(pixels.a);
        pixels.r *= scale;
        pixels.g *= scale;
        pixels.b *= scale;
    }
    return kira_rgba8_words(pixels.r, pixels.g, pixels.b, pixels.a);
}

/// `kira_pack_lanes_rgba8` of the 64 floats `rgba` (lanes r, g, b, a).
static inline __attribute__((always_inline)) kira_u16 kira_pack_rgba8(const float *rgba) {
    return kira_pack_lanes_rgba8(kira_load_rgba_lanes(rgba));
}

/// Four floats: a premultiplied RGBA colour (Swift's `SIMD4<Float>`).
typedef float kira_f4 __attribute__((ext_vector_type(4)));

/// The common case in one loop: `runs` runs of sixteen canvas pixels from column `x` that lie
/// wholly inside one face's quad and touch no other face, so each is the face sampled with
/// `opacity` over the plain premultiplied `background`. Stored as RGBA8 words at
/// `out`, 64-byte aligned, streamed past the caches. Two runs a step: their work is independent,
/// and the processor overlaps one run's long chain (divisions, loads, permutes) with the other's.
static inline __attribute__((always_inline)) void kira_project_inside_rgba8(
    kira_face_rgba8 face, kira_row_map map, int32_t x, intptr_t runs, float opacity, kira_f4 background,
    uint32_t *out) {
    kira_rgba_lanes under = {(kira_f16)(background.x), (kira_f16)(background.y), (kira_f16)(background.z),
                             (kira_f16)(background.w)};
    kira_f16 weight = (kira_f16)(opacity);
    kira_i16 columns = (kira_i16){0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15} + x;
    intptr_t i = 0;
    for (; i + 2 <= runs; i += 2) {
        kira_rgba_lanes first = kira_sample_over(face, map, columns, weight, under);
        kira_rgba_lanes second = kira_sample_over(face, map, columns + 16, weight, under);
        kira_stream_64(out + 16 * i, kira_pack_lanes_rgba8(first));
        kira_stream_64(out + 16 * (i + 1), kira_pack_lanes_rgba8(second));
        columns += 32;
    }
    if (i < runs) kira_stream_64(out + 16 * i, kira_pack_lanes_rgba8(kira_sample_over(face, map, columns, weight, under)));
}

#endif
