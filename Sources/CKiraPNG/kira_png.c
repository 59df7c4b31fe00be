#include "kira_png.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// MARK: - Errors

// libpng calls this on a fatal error; it must not return. The message is kept in the
// structure libpng carries for us, then control jumps back to the setjmp of the C function
// that made the failing call.
typedef struct {
    char message[KIRA_PNG_MESSAGE_SIZE];
} error_state;

static void on_error(png_structp png, png_const_charp text) {
    error_state *state = (error_state *)png_get_error_ptr(png);
    if (state != NULL) {
        snprintf(state->message, sizeof state->message, "%s", text ? text : "libpng error");
    }
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
    // Warnings (e.g. an ancillary chunk with a bad CRC, which libpng then ignores) do not stop
    // decoding; Kira does not print them.
    (void)png;
    (void)text;
}

static void copy_message(char destination[KIRA_PNG_MESSAGE_SIZE], const char *source) {
    snprintf(destination, KIRA_PNG_MESSAGE_SIZE, "%s", source[0] ? source : "libpng error");
}

// MARK: - Decoding

struct kira_png_decoder {
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t size;
    size_t offset;
    png_bytep *rows;
    int header_read;
    error_state error;
};

static void read_from_memory(png_structp png, png_bytep out, size_t count) {
    kira_png_decoder *decoder = (kira_png_decoder *)png_get_io_ptr(png);
    if (count > decoder->size - decoder->offset) {
        png_error(png, "file ends early (truncated PNG)");
    }
    memcpy(out, decoder->data + decoder->offset, count);
    decoder->offset += count;
}

// Chunks Kira has no use for. Treating them as unknown chunks makes libpng skip them
// unchecked, so a broken colour profile or text chunk cannot fail an otherwise good image.
static const png_byte ignored_chunks[] =
    "bKGD\0cHRM\0eXIf\0gAMA\0hIST\0iCCP\0iTXt\0oFFs\0pCAL\0pHYs\0sBIT\0sCAL\0sPLT\0sRGB\0tEXt\0tIME\0zTXt";

kira_png_decoder *kira_png_decoder_create(const uint8_t *data, size_t size) {
    kira_png_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return NULL;
    decoder->data = data;
    decoder->size = size;
    decoder->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &decoder->error, on_error, on_warning);
    if (decoder->png == NULL) {
        free(decoder);
        return NULL;
    }
    decoder->info = png_create_info_struct(decoder->png);
    if (decoder->info == NULL) {
        png_destroy_read_struct(&decoder->png, NULL, NULL);
        free(decoder);
        return NULL;
    }
    return decoder;
}

void kira_png_decoder_destroy(kira_png_decoder *decoder) {
    if (decoder == NULL) return;
    png_destroy_read_struct(&decoder->png, &decoder->info, NULL);
    free(decoder->rows);
    free(decoder);
}

int kira_png_decoder_read_header(kira_png_decoder *decoder, uint32_t max_width, uint32_t max_height,
                                 kira_png_header *header, char message[KIRA_PNG_MESSAGE_SIZE]) {
    png_structp png = decoder->png;
    png_infop info = decoder->info;
    if (setjmp(png_jmpbuf(png))) {
        copy_message(message, decoder->error.message);
        return 0;
    }
    if (decoder->size < 8 || png_sig_cmp(decoder->data, 0, 8) != 0) {
        png_error(png, "not a PNG file (bad signature)");
    }
    png_set_read_fn(png, decoder, read_from_memory);
    png_set_user_limits(png, max_width, max_height);
    // libpng refuses any chunk over 8 MB by default ("chunk data is too large"), even a valid
    // file's EXIF or text chunk. Kira skips those chunks without storing them (below) and holds
    // the whole file in memory already (at most 1 GiB, FileIO.maxReadSize), so the file's own
    // size is the bound.
    png_set_chunk_malloc_max(png, (png_alloc_size_t)1 << 30);
    // An image whose data stream is short or too long is an error, not a partly blank picture.
    png_set_benign_errors(png, 0);
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, ignored_chunks,
                                (int)(sizeof ignored_chunks / 5));
    png_read_info(png, info);

    png_uint_32 width = 0, height = 0;
    int depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(png, info, &width, &height, &depth, &color_type, &interlace, NULL, NULL);

    // Everything becomes RGBA with 8- or 16-bit samples; no gamma or colour transform: the
    // samples are the stored values.
    png_set_expand(png);
    if (depth == 16) png_set_swap(png);  // PNG is big-endian; Kira's buffers are native.
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) {
        png_set_gray_to_rgb(png);
    }
    int has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) || png_get_valid(png, info, PNG_INFO_tRNS);
    if (!has_alpha) png_set_filler(png, 0xffff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);

    int output_depth = png_get_bit_depth(png, info);
    if ((output_depth != 8 && output_depth != 16) || png_get_channels(png, info) != 4) {
        png_error(png, "unsupported PNG layout");
    }
    header->width = width;
    header->height = height;
    header->output_depth = output_depth;
    header->file_depth = depth;
    header->file_color_type = color_type;
    header->interlaced = interlace != PNG_INTERLACE_NONE;
    header->has_alpha = has_alpha ? 1 : 0;
    decoder->header_read = 1;
    return 1;
}

int kira_png_decoder_read_rgba(kira_png_decoder *decoder, void *pixels, size_t row_bytes,
                               char message[KIRA_PNG_MESSAGE_SIZE]) {
    png_structp png = decoder->png;
    png_infop info = decoder->info;
    if (setjmp(png_jmpbuf(png))) {
        copy_message(message, decoder->error.message);
        return 0;
    }
    if (!decoder->header_read) png_error(png, "header not read");
    png_uint_32 height = png_get_image_height(png, info);
    if (png_get_rowbytes(png, info) > row_bytes) png_error(png, "row buffer too small");
    decoder->rows = malloc(sizeof(png_bytep) * (height ? height : 1));
    if (decoder->rows == NULL) png_error(png, "out of memory");
    for (png_uint_32 y = 0; y < height; y++) {
        decoder->rows[y] = (png_bytep)pixels + (size_t)y * row_bytes;
    }
    png_read_image(png, decoder->rows);
    png_read_end(png, NULL);
    return 1;
}

// MARK: - Encoding

typedef struct {
    kira_png_buffer *buffer;
    error_state error;
} write_state;

static void write_to_memory(png_structp png, png_bytep bytes, size_t count) {
    write_state *state = (write_state *)png_get_io_ptr(png);
    kira_png_buffer *buffer = state->buffer;
    if (count > buffer->capacity - buffer->count) {
        size_t capacity = buffer->capacity ? buffer->capacity : 65536;
        while (capacity - buffer->count < count) {
            if (capacity > SIZE_MAX / 2) png_error(png, "out of memory");
            capacity *= 2;
        }
        uint8_t *grown = realloc(buffer->bytes, capacity);
        if (grown == NULL) png_error(png, "out of memory");
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->count, bytes, count);
    buffer->count += count;
}

static void flush_memory(png_structp png) { (void)png; }

void kira_png_buffer_free(kira_png_buffer *buffer) {
    if (buffer == NULL) return;
    free(buffer->bytes);
    buffer->bytes = NULL;
    buffer->count = 0;
    buffer->capacity = 0;
}

static int filter_bits(kira_png_filters filters) {
    switch (filters) {
    case KIRA_PNG_FILTERS_NONE: return PNG_FILTER_NONE;
    case KIRA_PNG_FILTERS_SUB: return PNG_FILTER_SUB;
    case KIRA_PNG_FILTERS_UP: return PNG_FILTER_UP;
    case KIRA_PNG_FILTERS_PAETH: return PNG_FILTER_PAETH;
    case KIRA_PNG_FILTERS_ALL:
    default: return PNG_ALL_FILTERS;
    }
}

int kira_png_encode_rgba(const void *pixels, uint32_t width, uint32_t height, size_t row_bytes,
                         int depth, int compression_level, kira_png_filters filters, int srgb,
                         kira_png_buffer *output, char message[KIRA_PNG_MESSAGE_SIZE]) {
    // `volatile`: these are changed after setjmp and read after a longjmp.
    write_state state = {.buffer = output};
    png_structp volatile png = NULL;
    png_infop volatile info = NULL;
    png_bytep *volatile rows = NULL;

    if (depth != 8 && depth != 16) {
        copy_message(message, "bit depth must be 8 or 16");
        return 0;
    }
    png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state.error, on_error, on_warning);
    if (png == NULL) {
        copy_message(message, "out of memory");
        return 0;
    }
    info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_write_struct((png_structpp)&png, NULL);
        copy_message(message, "out of memory");
        return 0;
    }
    if (setjmp(png_jmpbuf(png))) {
        copy_message(message, state.error.message);
        png_destroy_write_struct((png_structpp)&png, (png_infopp)&info);
        free(rows);
        return 0;
    }
    png_set_write_fn(png, &state, write_to_memory, flush_memory);
    png_set_compression_level(png, compression_level);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, filter_bits(filters));
    png_set_IHDR(png, info, width, height, depth, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    if (srgb) png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    png_write_info(png, info);
    if (depth == 16) png_set_swap(png);

    rows = malloc(sizeof(png_bytep) * (height ? height : 1));
    if (rows == NULL) png_error(png, "out of memory");
    for (uint32_t y = 0; y < height; y++) {
        rows[y] = (png_bytep)pixels + (size_t)y * row_bytes;
    }
    png_write_image(png, rows);
    png_write_end(png, info);
    png_destroy_write_struct((png_structpp)&png, (png_infopp)&info);
    free(rows);
    return 1;
}

const char *kira_png_version(void) { return PNG_LIBPNG_VER_STRING; }
