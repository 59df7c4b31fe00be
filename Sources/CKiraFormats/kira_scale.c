#include "kira_formats.h"

#include <stdio.h>
#include <libswscale/swscale.h>

int kira_scale_rgba(const void *source, uint32_t width, uint32_t height, size_t source_row_bytes, void *output,
                    uint32_t out_width, uint32_t out_height, int depth, int bilinear,
                    char message[KIRA_FORMATS_MESSAGE_SIZE]) {
    enum AVPixelFormat format = depth == 16 ? AV_PIX_FMT_RGBA64 : AV_PIX_FMT_RGBA;
    // Full chroma in and out with accurate rounding: without them swscale's RGB path subsamples
    // colour internally and a flat channel came out ±7 levels off (800×1000 → 400×500, measured).
    int flags = (bilinear ? SWS_BILINEAR : SWS_LANCZOS) | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT | SWS_FULL_CHR_H_INP | SWS_BITEXACT;
    struct SwsContext *context = sws_getContext((int)width, (int)height, format, (int)out_width, (int)out_height,
                                                format, flags, NULL, NULL, NULL);
    if (context == NULL) {
        snprintf(message, KIRA_FORMATS_MESSAGE_SIZE, "libswscale cannot scale %ux%u to %ux%u", width, height, out_width,
                 out_height);
        return 0;
    }
    const uint8_t *planes[4] = {source, NULL, NULL, NULL};
    int strides[4] = {(int)source_row_bytes, 0, 0, 0};
    uint8_t *out_planes[4] = {output, NULL, NULL, NULL};
    int out_strides[4] = {(int)(out_width * 4 * (depth == 16 ? 2 : 1)), 0, 0, 0};
    int rows = sws_scale(context, planes, strides, 0, (int)height, out_planes, out_strides);
    sws_freeContext(context);
    if (rows != (int)out_height) {
        snprintf(message, KIRA_FORMATS_MESSAGE_SIZE, "libswscale scaled %d rows of %u", rows, out_height);
        return 0;
    }
    return 1;
}
