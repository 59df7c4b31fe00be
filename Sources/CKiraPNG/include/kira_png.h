#ifndef KIRA_PNG_H
#define KIRA_PNG_H

// A small C layer over libpng's classic API. libpng reports errors with longjmp; every
// function here catches them with its own setjmp, in C, and returns 0 with a message, so no
// longjmp ever crosses a Swift frame. No function here aborts or exits.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Size of the message buffers the functions below fill.
#define KIRA_PNG_MESSAGE_SIZE 256

typedef struct kira_png_decoder kira_png_decoder;

/// Header facts of a PNG, as stored and after Kira's transform to RGBA.
typedef struct {
    uint32_t width;
    uint32_t height;
    /// Bit depth of the RGBA samples `kira_png_decoder_read_rgba` writes: 8 or 16.
    int32_t output_depth;
    /// Bit depth and colour type as stored in the file (IHDR).
    int32_t file_depth;
    int32_t file_color_type;
    int32_t interlaced;
    /// 1 when the file stores transparency (an alpha channel or a tRNS chunk); otherwise the
    /// decoded alpha is a filler, opaque everywhere.
    int32_t has_alpha;
} kira_png_header;

/// Starts decoding `size` bytes at `data` (which must outlive the decoder). Never NULL unless out
/// of memory.
kira_png_decoder *kira_png_decoder_create(const uint8_t *data, size_t size);
void kira_png_decoder_destroy(kira_png_decoder *decoder);

/// Reads the signature and every chunk up to the image data. Images wider than `max_width` or
/// taller than `max_height` are refused here, before any pixel memory is allocated.
/// Returns 1, or 0 with `message` filled.
int kira_png_decoder_read_header(kira_png_decoder *decoder, uint32_t max_width, uint32_t max_height,
                                 kira_png_header *header, char message[KIRA_PNG_MESSAGE_SIZE]);

/// Decodes the whole image as RGBA (8- or 16-bit native-endian samples, as the header said) into
/// `pixels`, `row_bytes` apart. Palette, gray, low bit depths, tRNS and interlacing are expanded.
/// Returns 1, or 0 with `message` filled.
int kira_png_decoder_read_rgba(kira_png_decoder *decoder, void *pixels, size_t row_bytes,
                               char message[KIRA_PNG_MESSAGE_SIZE]);

/// A growable byte buffer the encoder fills; release it with `kira_png_buffer_free`.
typedef struct {
    uint8_t *bytes;
    size_t count;
    size_t capacity;
} kira_png_buffer;

void kira_png_buffer_free(kira_png_buffer *buffer);

/// Filter choices for the encoder (libpng's PNG_FILTER_* bits).
typedef enum {
    KIRA_PNG_FILTERS_ALL = 0,
    KIRA_PNG_FILTERS_NONE = 1,
    KIRA_PNG_FILTERS_SUB = 2,
    KIRA_PNG_FILTERS_UP = 3,
    KIRA_PNG_FILTERS_PAETH = 4,
} kira_png_filters;

/// Encodes RGBA samples (`depth` 8 or 16, native-endian) as a non-interlaced RGBA PNG into
/// `output`, with an sRGB chunk (intent perceptual) when `srgb` is 1. `compression_level` is
/// zlib's 0...9. Returns 1, or 0 with `message` filled.
int kira_png_encode_rgba(const void *pixels, uint32_t width, uint32_t height, size_t row_bytes,
                         int depth, int compression_level, kira_png_filters filters, int srgb,
                         kira_png_buffer *output, char message[KIRA_PNG_MESSAGE_SIZE]);

/// The libpng version this was built against, e.g. "1.6.39".
const char *kira_png_version(void);

#ifdef __cplusplus
}
#endif
#endif
