#include "kira_formats.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>  // after stdio.h, which it needs

// libjpeg calls error_exit on a fatal error; it must not return. The message is kept and control
// jumps back to the setjmp of the function that made the failing call.
typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char message[KIRA_FORMATS_MESSAGE_SIZE];
} error_state;

static void on_error(j_common_ptr info) {
    error_state *state = (error_state *)info->err;
    char text[JMSG_LENGTH_MAX];
    (*info->err->format_message)(info, text);
    snprintf(state->message, sizeof state->message, "%s", text);
    longjmp(state->jump, 1);
}

static void on_message(j_common_ptr info) { (void)info; }  // warnings are not printed

/// `state`'s manager, set to jump back on an error and to print nothing.
static struct jpeg_error_mgr *error_manager(error_state *state) {
    struct jpeg_error_mgr *manager = jpeg_std_error(&state->manager);
    manager->error_exit = on_error;
    manager->output_message = on_message;
    state->message[0] = 0;
    return manager;
}

void kira_bytes_free(kira_bytes *bytes) {
    if (bytes == NULL) return;
    free(bytes->bytes);
    bytes->bytes = NULL;
    bytes->count = 0;
}

int kira_jpeg_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t row_bytes, int quality,
                     const uint8_t *icc, size_t icc_size, kira_bytes *output, char message[KIRA_FORMATS_MESSAGE_SIZE]) {
    struct jpeg_compress_struct info;
    error_state error;
    // `volatile`: changed after setjmp and read after a longjmp.
    unsigned char *volatile buffer = NULL;
    unsigned long size = 0;
    memset(&info, 0, sizeof info);
    info.err = error_manager(&error);
    if (setjmp(error.jump)) {
        snprintf(message, KIRA_FORMATS_MESSAGE_SIZE, "%s", error.message[0] ? error.message : "libjpeg error");
        jpeg_destroy_compress(&info);
        free(buffer);
        return 0;
    }
    if (width > JPEG_MAX_DIMENSION || height > JPEG_MAX_DIMENSION) {
        snprintf(message, KIRA_FORMATS_MESSAGE_SIZE, "%ux%u is over JPEG's limit of %d pixels a side", width, height,
                 (int)JPEG_MAX_DIMENSION);
        return 0;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, (unsigned char **)&buffer, &size);
    info.image_width = width;
    info.image_height = height;
    info.input_components = 4;
    info.in_color_space = JCS_EXT_RGBA;  // libjpeg-turbo reads RGBA rows and skips the alpha
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    info.optimize_coding = TRUE;  // Huffman tables made for the image: a few % smaller, same pixels
    jpeg_start_compress(&info, TRUE);
    if (icc_size > 0) jpeg_write_icc_profile(&info, icc, (unsigned int)icc_size);
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = (JSAMPROW)(rgba + (size_t)info.next_scanline * row_bytes);
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    output->bytes = buffer;
    output->count = size;
    return 1;
}

int kira_jpeg_info(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height,
                   char message[KIRA_FORMATS_MESSAGE_SIZE]) {
    struct jpeg_decompress_struct info;
    error_state error;
    memset(&info, 0, sizeof info);
    info.err = error_manager(&error);
    if (setjmp(error.jump)) {
        snprintf(message, KIRA_FORMATS_MESSAGE_SIZE, "%s", error.message[0] ? error.message : "libjpeg error");
        jpeg_destroy_decompress(&info);
        return 0;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, (unsigned long)size);
    jpeg_read_header(&info, TRUE);
    *width = info.image_width;
    *height = info.image_height;
    jpeg_destroy_decompress(&info);
    return 1;
}

int kira_jpeg_decode(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height, kira_bytes *pixels,
                     kira_bytes *icc, char message[KIRA_FORMATS_MESSAGE_SIZE]) {
    struct jpeg_decompress_struct info;
    error_state error;
    uint8_t *volatile rows = NULL;
    JOCTET *volatile profile = NULL;
    memset(&info, 0, sizeof info);
    info.err = error_manager(&error);
    if (setjmp(error.jump)) {
        snprintf(message, KIRA_FORMATS_MESSAGE_SIZE, "%s", error.message[0] ? error.message : "libjpeg error");
        jpeg_destroy_decompress(&info);
        free(rows);
        free(profile);
        return 0;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, (unsigned long)size);
    jpeg_save_markers(&info, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(&info, TRUE);
    JOCTET *icc_data = NULL;
    unsigned int icc_length = 0;
    if (jpeg_read_icc_profile(&info, &icc_data, &icc_length)) profile = icc_data;
    info.out_color_space = JCS_EXT_RGBA;
    jpeg_start_decompress(&info);
    size_t row_bytes = (size_t)info.output_width * 4;
    rows = malloc(row_bytes * (info.output_height ? info.output_height : 1));
    if (rows == NULL) {
        snprintf(error.message, sizeof error.message, "out of memory");
        longjmp(error.jump, 1);
    }
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = (JSAMPROW)(rows + (size_t)info.output_scanline * row_bytes);
        jpeg_read_scanlines(&info, &row, 1);
    }
    jpeg_finish_decompress(&info);
    *width = info.output_width;
    *height = info.output_height;
    jpeg_destroy_decompress(&info);
    pixels->bytes = rows;
    pixels->count = row_bytes * *height;
    icc->bytes = profile;
    icc->count = profile ? icc_length : 0;
    return 1;
}
