#include "kira_igzip.h"

#include <isa-l/igzip_lib.h>
#include <stdlib.h>
#include <string.h>

struct kira_igzip_compressor {
    struct isal_zstream stream;
    int level;
    uint32_t level_buffer_size;
    uint8_t level_buffer[];
};

static uint32_t level_buffer_size(int level) {
    switch (level) {
    case 0: return ISAL_DEF_LVL0_DEFAULT;
    case 1: return ISAL_DEF_LVL1_DEFAULT;
    case 2: return ISAL_DEF_LVL2_DEFAULT;
    case 3: return ISAL_DEF_LVL3_DEFAULT;
    default: return 0;
    }
}

kira_igzip_compressor *kira_igzip_alloc_compressor(int level) {
    if (level < 0 || level > ISAL_DEF_MAX_LEVEL) return NULL;
    uint32_t size = level_buffer_size(level);
    kira_igzip_compressor *compressor = malloc(sizeof *compressor + size);
    if (compressor == NULL) return NULL;
    compressor->level = level;
    compressor->level_buffer_size = size;
    return compressor;
}

void kira_igzip_free_compressor(kira_igzip_compressor *compressor) { free(compressor); }

void kira_igzip_fill_state(kira_igzip_compressor *compressor, uint16_t word) {
    uint16_t *stream = (uint16_t *)&compressor->stream;
    for (size_t i = 0; i < sizeof compressor->stream / 2; i++) stream[i] = word;
    uint16_t *level = (uint16_t *)compressor->level_buffer;
    for (size_t i = 0; i < compressor->level_buffer_size / 2; i++) level[i] = word;
}

size_t kira_igzip_zlib_compress_bound(size_t size) {
    // igzip's stateless compression expands data by at most a stored block's header (its
    // documentation): allowed here are stored blocks of at most 65 535 bytes (5 header bytes
    // each), zlib's 2-byte header and 4-byte Adler-32, one Huffman header (ISAL_DEF_MAX_HDR_SIZE)
    // and a margin. Should it ever need more, compressing fails cleanly (0), never overruns.
    return size + 5 * (size / 65535 + 1) + 6 + ISAL_DEF_MAX_HDR_SIZE + 64;
}

size_t kira_igzip_zlib_compress(kira_igzip_compressor *compressor, const uint8_t *input, size_t size,
                                uint8_t *output, size_t capacity) {
    // igzip counts in 32 bits: more input fails cleanly, as a failed compression (only a library
    // caller can get there; the CLI's largest image, 16384² at 16 bits, is about 2 GiB). More
    // room than 4 GiB is capped: a stream that needs it fails cleanly too.
    if (size > UINT32_MAX) return 0;
    if (capacity > UINT32_MAX) capacity = UINT32_MAX;
    // isal_deflate_stateless_init does not set every field the compression reads: a stale
    // `hist_bits` (seen with 1 or 2 in it; it narrows the match window) made a different, also
    // valid, stream of the same input, as when the compressor's heap block had been another
    // row's — seen as kira batch and kira render writing different bytes (PNGRoundTripTests
    // reproduces it). The whole stream and level buffer are zeroed (a few microseconds), and
    // `hist_bits` is set explicitly so that trimming the memset cannot bring the fault back.
    struct isal_zstream *stream = &compressor->stream;
    memset(stream, 0, sizeof *stream);
    memset(compressor->level_buffer, 0, compressor->level_buffer_size);
    isal_deflate_stateless_init(stream);
    stream->hist_bits = 0;  // the whole 32 KiB window, igzip's default
    stream->level = (uint32_t)compressor->level;
    stream->level_buf = compressor->level_buffer;
    stream->level_buf_size = compressor->level_buffer_size;
    stream->gzip_flag = IGZIP_ZLIB;
    stream->end_of_stream = 1;
    stream->flush = NO_FLUSH;
    stream->next_in = (uint8_t *)input;
    stream->avail_in = (uint32_t)size;
    stream->next_out = output;
    stream->avail_out = (uint32_t)capacity;
    if (isal_deflate_stateless(stream) != COMP_OK || stream->avail_in != 0) return 0;
    return stream->total_out;
}
