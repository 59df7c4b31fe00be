#ifndef KIRA_IGZIP_H
#define KIRA_IGZIP_H

// ISA-L's igzip deflater, in the shape of libdeflate's API (a compressor made once for a level
// and used for whole buffers), because Swift cannot import igzip's stream structure.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kira_igzip_compressor kira_igzip_compressor;

/// A compressor at igzip's `level` (0–3), or NULL when out of memory or the level is not one.
/// One compression at a time may use it.
kira_igzip_compressor *kira_igzip_alloc_compressor(int level);

/// Frees a compressor from `kira_igzip_alloc_compressor` (NULL is allowed).
void kira_igzip_free_compressor(kira_igzip_compressor *compressor);

/// For tests only: fills the compressor's working memory with 16-bit `word`s, as a recycled
/// heap block might be, for the test that its output does not depend on what that memory held.
void kira_igzip_fill_state(kira_igzip_compressor *compressor, uint16_t word);

/// The most bytes `kira_igzip_zlib_compress` may write for `size` bytes of input.
size_t kira_igzip_zlib_compress_bound(size_t size);

/// `size` bytes at `input` as one zlib stream (RFC 1950) at `output`, which has room for
/// `capacity` bytes: the stream's length, or 0 when it did not fit or igzip failed.
size_t kira_igzip_zlib_compress(kira_igzip_compressor *compressor, const uint8_t *input, size_t size,
                                uint8_t *output, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif
