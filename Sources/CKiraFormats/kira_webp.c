#include "kira_formats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>  // after stdio.h, which it needs
#include <lcms2.h>
#include <libswscale/swscale.h>
#include <libswscale/version.h>
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/mux.h>

static const char *webp_error(WebPEncodingError code) {
    switch (code) {
    case VP8_ENC_ERROR_OUT_OF_MEMORY:
    case VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: return "out of memory";
    case VP8_ENC_ERROR_BAD_DIMENSION: return "the image is over WebP's limit of 16383 pixels a side";
    case VP8_ENC_ERROR_PARTITION0_OVERFLOW:
    case VP8_ENC_ERROR_PARTITION_OVERFLOW: return "the image is too large for a lossy WebP (partition overflow)";
    case VP8_ENC_ERROR_FILE_TOO_BIG: return "the file would be over WebP's 4 GiB limit";
    default: return "libwebp could not encode the image";
    }
}

int kira_webp_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t row_bytes, int quality,
                     int lossless, const uint8_t *icc, size_t icc_size, kira_bytes *output,
                     char message[KIRA_FORMATS_MESSAGE_SIZE]) {
    WebPConfig config;
    if (!WebPConfigPreset(&config, WEBP_PRESET_DEFAULT, (float)quality)) {
        snprintf(message, KIRA_FORMATS_MESSAGE_SIZE, "libwebp version mismatch");
        return 0;
    }
    if (lossless) {
        // cwebp -lossless's defaults: effort 75 (quality), method 4.
        config.lossless = 1;
        config.quality = 75;
        config.exact = 1;  // keep the colour of transparent pixels too: every sample as given
    }
    if (width > WEBP_MAX_DIMENSION || height > WEBP_MAX_DIMENSION) {
        snprintf(message, KIRA_FORMATS_MESSAGE_SIZE, "%ux%u is over WebP's limit of %d pixels a side", width, height,
                 WEBP_MAX_DIMENSION);
        return 0;
    }
    WebPPicture picture;
    if (!WebPPictureInit(&picture)) {
        snprintf(message, KIRA_FORMATS_MESSAGE_SIZE, "libwebp version mismatch");
        return 0;
    }
    picture.use_argb = lossless ? 1 : 0;
    picture.width = (int)width;
    picture.height = (int)height;
    if (!WebPPictureImportRGBA(&picture, rgba, (int)row_bytes)) {
        WebPPictureFree(&picture);
        snprintf(message, KIRA_FORMATS_MESSAGE_SIZE, "out of memory");
        return 0;
    }
    WebPMemoryWriter writer;
    WebPMemoryWriterInit(&writer);
    picture.writer = WebPMemoryWrite;
    picture.custom_ptr = &writer;
    int ok = WebPEncode(&config, &picture);
    WebPEncodingError code = picture.error_code;
    WebPPictureFree(&picture);
    if (!ok) {
        WebPMemoryWriterClear(&writer);
        snprintf(message, KIRA_FORMATS_MESSAGE_SIZE, "%s", webp_error(code));
        return 0;
    }
    if (icc_size == 0) {
        output->bytes = writer.mem;
        output->count = writer.size;
        return 1;
    }
    // The ICC profile needs the extended format (VP8X + ICCP), which the muxer assembles.
    WebPMux *mux = WebPMuxNew();
    WebPData image = {writer.mem, writer.size}, profile = {icc, icc_size}, assembled = {NULL, 0};
    int muxed = mux != NULL && WebPMuxSetImage(mux, &image, 0) == WEBP_MUX_OK
        && WebPMuxSetChunk(mux, "ICCP", &profile, 0) == WEBP_MUX_OK && WebPMuxAssemble(mux, &assembled) == WEBP_MUX_OK;
    WebPMuxDelete(mux);
    WebPMemoryWriterClear(&writer);
    if (!muxed) {
        WebPDataClear(&assembled);
        snprintf(message, KIRA_FORMATS_MESSAGE_SIZE, "libwebp could not add the colour profile");
        return 0;
    }
    // WebPData's bytes come from WebPMalloc, which is malloc: kira_bytes_free frees them.
    output->bytes = (uint8_t *)assembled.bytes;
    output->count = assembled.size;
    return 1;
}

int kira_webp_info(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height, int *has_alpha, int *animated) {
    WebPBitstreamFeatures features;
    if (WebPGetFeatures(data, size, &features) != VP8_STATUS_OK) return 0;
    *width = (uint32_t)features.width;
    *height = (uint32_t)features.height;
    *has_alpha = features.has_alpha;
    *animated = features.has_animation;
    return 1;
}

int kira_webp_decode(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height, kira_bytes *pixels,
                     char message[KIRA_FORMATS_MESSAGE_SIZE]) {
    int w = 0, h = 0;
    uint8_t *decoded = WebPDecodeRGBA(data, size, &w, &h);
    if (decoded == NULL) {
        snprintf(message, KIRA_FORMATS_MESSAGE_SIZE, "not a WebP file libwebp can decode");
        return 0;
    }
    size_t count = (size_t)w * (size_t)h * 4;
    pixels->bytes = malloc(count ? count : 1);
    if (pixels->bytes == NULL) {
        WebPFree(decoded);
        snprintf(message, KIRA_FORMATS_MESSAGE_SIZE, "out of memory");
        return 0;
    }
    memcpy(pixels->bytes, decoded, count);
    pixels->count = count;
    WebPFree(decoded);
    *width = (uint32_t)w;
    *height = (uint32_t)h;
    return 1;
}

const char *kira_formats_versions(void) {
    static char text[128];
    int webp = WebPGetEncoderVersion();
    unsigned swscale = swscale_version();
    snprintf(text, sizeof text, "libwebp %d.%d.%d, libjpeg %d, lcms2 %d.%d, libswscale %u.%u.%u", webp >> 16,
             (webp >> 8) & 0xFF, webp & 0xFF, JPEG_LIB_VERSION, LCMS_VERSION / 1000, (LCMS_VERSION / 10) % 100,
             swscale >> 16, (swscale >> 8) & 0xFF, swscale & 0xFF);
    return text;
}
