#ifndef KIRA_FORMATS_H
#define KIRA_FORMATS_H

// A small C layer over libjpeg-turbo, libwebp, LittleCMS and libswscale for KiraFormats. Every
// function returns 1, or 0 with `message` filled; none aborts, exits, or lets a longjmp reach
// its caller.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Size of the message buffers the functions below fill.
#define KIRA_FORMATS_MESSAGE_SIZE 256

/// Bytes the library allocated; release them with `kira_bytes_free`.
typedef struct {
    uint8_t *bytes;
    size_t count;
} kira_bytes;

void kira_bytes_free(kira_bytes *bytes);

// MARK: - Encoders (8-bit RGBA in, rows `row_bytes` apart)

/// A baseline JPEG (4:2:0, Huffman tables optimised) of the RGB of `rgba` (alpha ignored) at
/// `quality` 1...100, with the ICC profile `icc` (APP2 markers) when `icc_size` > 0.
int kira_jpeg_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t row_bytes, int quality,
                     const uint8_t *icc, size_t icc_size, kira_bytes *output, char message[KIRA_FORMATS_MESSAGE_SIZE]);

/// A WebP of `rgba`: lossy at `quality` 0...100 (alpha kept losslessly), or lossless; with the ICC
/// profile `icc` (an ICCP chunk in the extended format) when `icc_size` > 0.
int kira_webp_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t row_bytes, int quality,
                     int lossless, const uint8_t *icc, size_t icc_size, kira_bytes *output,
                     char message[KIRA_FORMATS_MESSAGE_SIZE]);

/// Decodes a WebP into 8-bit RGBA (`pixels` holds `width * height * 4` bytes; free with
/// `kira_bytes_free`): for tests and checks.
int kira_webp_decode(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height, kira_bytes *pixels,
                     char message[KIRA_FORMATS_MESSAGE_SIZE]);

/// The size a WebP file declares, whether it has alpha and whether it is animated, from its
/// header alone (nothing decoded); 0 when libwebp cannot read it.
int kira_webp_info(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height, int *has_alpha, int *animated);

/// The size a JPEG file declares, from its header alone (nothing decoded); 0 and `message` when
/// libjpeg cannot read it.
int kira_jpeg_info(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height,
                   char message[KIRA_FORMATS_MESSAGE_SIZE]);

/// Decodes a JPEG into 8-bit RGBA (opaque), and its ICC profile if any: for tests and checks.
int kira_jpeg_decode(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height, kira_bytes *pixels,
                     kira_bytes *icc, char message[KIRA_FORMATS_MESSAGE_SIZE]);

/// The libraries' versions, e.g. "webp 1.2.4, libjpeg-turbo 62, lcms2 2.14, swscale 6.7.100".
const char *kira_formats_versions(void);

// MARK: - Colour (LittleCMS)

/// The sRGB profile LittleCMS builds (v4, parametric curves, 588 bytes with lcms2 2.14), its
/// creation date cleared so that equal images make equal files.
int kira_srgb_profile(kira_bytes *output, char message[KIRA_FORMATS_MESSAGE_SIZE]);

typedef struct kira_color_transform kira_color_transform;

/// The description of a profile's source: an ICC profile's own bytes, or PNG's gAMA and cHRM
/// (gamma 0 when absent: the sRGB curve; chromaticities NULL when absent: sRGB's primaries and
/// D65 white).
typedef struct {
    const uint8_t *icc;
    size_t icc_size;
    double gamma;                  // gAMA's value (e.g. 0.45455), the encoding exponent
    const double *chromaticities;  // cHRM: white x, y, red x, y, green x, y, blue x, y
} kira_color_source;

/// A transform from `source` to sRGB, relative colorimetric, for RGBA samples of `depth` (8 or
/// 16, native-endian) whose RGB are either colour (`gray` 0) or a grey level repeated (`gray` 1,
/// a grey PNG: only a Gray ICC profile fits it). `is_srgb` is set to 1 when the transform moves no
/// sample by more than two 8-bit steps (sRGB profiles of different makers differ by up to 1.4):
/// then the image is sRGB already and is left alone. `name` receives the profile's description (may be empty).
kira_color_transform *kira_color_transform_create(kira_color_source source, int depth, int gray, int *is_srgb,
                                                  char name[KIRA_FORMATS_MESSAGE_SIZE],
                                                  char message[KIRA_FORMATS_MESSAGE_SIZE]);
void kira_color_transform_destroy(kira_color_transform *transform);

/// Converts `count` RGBA pixels at `pixels` in place (alpha kept). Several threads may call it
/// at once on different pixels.
void kira_color_transform_apply(const kira_color_transform *transform, void *pixels, size_t count);

// MARK: - Scaling (libswscale)

/// Scales RGBA samples of `depth` (8 or 16, native-endian) from `source` (`width` × `height`,
/// `source_row_bytes` apart) to `output` (`out_width` × `out_height`, tightly packed) with
/// libswscale's Lanczos filter (3 lobes), or its bilinear one when `bilinear` is non-zero; full
/// chroma, accurate rounding, bit-exact.
int kira_scale_rgba(const void *source, uint32_t width, uint32_t height, size_t source_row_bytes, void *output,
                    uint32_t out_width, uint32_t out_height, int depth, int bilinear,
                    char message[KIRA_FORMATS_MESSAGE_SIZE]);

#ifdef __cplusplus
}
#endif
#endif
