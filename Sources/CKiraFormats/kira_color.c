#include "kira_formats.h"

#include <lcms2.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// MARK: - sRGB

int kira_srgb_profile(kira_bytes *output, char message[KIRA_FORMATS_MESSAGE_SIZE]) {
    cmsHPROFILE profile = cmsCreate_sRGBProfile();
    cmsUInt32Number size = 0;
    if (profile == NULL || !cmsSaveProfileToMem(profile, NULL, &size) || size < 128) {
        if (profile) cmsCloseProfile(profile);
        snprintf(message, KIRA_FORMATS_MESSAGE_SIZE, "LittleCMS could not build the sRGB profile");
        return 0;
    }
    uint8_t *bytes = malloc(size);
    if (bytes == NULL || !cmsSaveProfileToMem(profile, bytes, &size)) {
        free(bytes);
        cmsCloseProfile(profile);
        snprintf(message, KIRA_FORMATS_MESSAGE_SIZE, "LittleCMS could not build the sRGB profile");
        return 0;
    }
    cmsCloseProfile(profile);
    // The header's creation date (bytes 24...35) is the time of the call: cleared, equal frames
    // make equal files. No profile ID is stored (bytes 84...99 are zero), so nothing else changes.
    memset(bytes + 24, 0, 12);
    output->bytes = bytes;
    output->count = size;
    return 1;
}

// MARK: - Transforms

struct kira_color_transform {
    cmsHTRANSFORM transform;  // RGBA to RGBA, alpha copied; NULL for a grey image
    int depth;
    int gray;
    // A grey image's levels (256 or 65536) as sRGB RGB, 3 samples each, of the image's depth.
    void *gray_table;
};

// LittleCMS reports errors through a handler; Kira turns them into its own message.
static void ignore_errors(cmsContext context, cmsUInt32Number code, const char *text) {
    (void)context;
    (void)code;
    (void)text;
}

static cmsHPROFILE source_profile(kira_color_source source, int gray) {
    if (source.icc_size > 0) return cmsOpenProfileFromMem(source.icc, (cmsUInt32Number)source.icc_size);
    cmsCIExyY white = {0.3127, 0.3290, 1.0};
    cmsCIExyYTRIPLE primaries = {{0.64, 0.33, 1.0}, {0.30, 0.60, 1.0}, {0.15, 0.06, 1.0}};
    if (source.chromaticities != NULL) {
        const double *c = source.chromaticities;
        white = (cmsCIExyY){c[0], c[1], 1.0};
        primaries = (cmsCIExyYTRIPLE){{c[2], c[3], 1.0}, {c[4], c[5], 1.0}, {c[6], c[7], 1.0}};
    }
    cmsToneCurve *curve;
    if (source.gamma > 0) {
        curve = cmsBuildGamma(NULL, 1.0 / source.gamma);
    } else {
        // IEC 61966-2-1's curve, as lcms2 builds it for its own sRGB profile.
        const cmsFloat64Number parameters[5] = {2.4, 1.0 / 1.055, 0.055 / 1.055, 1.0 / 12.92, 0.04045};
        curve = cmsBuildParametricToneCurve(NULL, 4, parameters);
    }
    if (curve == NULL) return NULL;
    cmsToneCurve *curves[3] = {curve, curve, curve};
    // A grey image's gAMA describes its one channel: a grey profile with that curve and white.
    cmsHPROFILE profile = gray ? cmsCreateGrayProfile(&white, curve) : cmsCreateRGBProfile(&white, &primaries, curves);
    cmsFreeToneCurve(curve);
    return profile;
}

void kira_color_transform_destroy(kira_color_transform *transform) {
    if (transform == NULL) return;
    if (transform->transform) cmsDeleteTransform(transform->transform);
    free(transform->gray_table);
    free(transform);
}

/// How far the transform moves samples, at most, in 16-bit units: over a 17-step grid of the RGB
/// cube, or every 257th grey level.
static int largest_move(cmsHTRANSFORM probe, int gray) {
    int worst = 0;
    if (gray) {
        for (int level = 0; level <= 65535; level += 257) {
            uint16_t in = (uint16_t)level, out[3];
            cmsDoTransform(probe, &in, out, 1);
            for (int c = 0; c < 3; c++) worst = abs((int)out[c] - level) > worst ? abs((int)out[c] - level) : worst;
        }
        return worst;
    }
    for (int r = 0; r <= 16; r++)
        for (int g = 0; g <= 16; g++)
            for (int b = 0; b <= 16; b++) {
                uint16_t in[3] = {(uint16_t)(r * 4095 + r / 16 * 15), (uint16_t)(g * 4095 + g / 16 * 15),
                                  (uint16_t)(b * 4095 + b / 16 * 15)};
                uint16_t out[3];
                cmsDoTransform(probe, in, out, 1);
                for (int c = 0; c < 3; c++) {
                    int move = abs((int)out[c] - (int)in[c]);
                    if (move > worst) worst = move;
                }
            }
    return worst;
}

kira_color_transform *kira_color_transform_create(kira_color_source source, int depth, int gray, int *is_srgb,
                                                  char name[KIRA_FORMATS_MESSAGE_SIZE],
                                                  char message[KIRA_FORMATS_MESSAGE_SIZE]) {
    cmsSetLogErrorHandler(ignore_errors);
    name[0] = 0;
    *is_srgb = 0;
    cmsHPROFILE from = source_profile(source, gray);
    if (from == NULL) {
        snprintf(message, KIRA_FORMATS_MESSAGE_SIZE, "LittleCMS cannot read the colour profile");
        return NULL;
    }
    cmsGetProfileInfoASCII(from, cmsInfoDescription, "en", "US", name, KIRA_FORMATS_MESSAGE_SIZE);
    cmsColorSpaceSignature space = cmsGetColorSpace(from);
    if (space != (gray ? cmsSigGrayData : cmsSigRgbData)) {
        snprintf(message, KIRA_FORMATS_MESSAGE_SIZE, "the colour profile is for %s images, the image is %s",
                 space == cmsSigGrayData ? "grey" : space == cmsSigRgbData ? "RGB" : space == cmsSigCmykData ? "CMYK" : "other",
                 gray ? "grey" : "RGB");
        cmsCloseProfile(from);
        return NULL;
    }
    cmsHPROFILE srgb = cmsCreate_sRGBProfile();
    // Unoptimised 16-bit probe: is this profile sRGB by another name? sRGB profiles of other
    // makers differ from lcms2's by up to 1.4 8-bit steps (Debian's icc-profiles-free sRGB.icc, at
    // pure green), Adobe RGB (1998) by 143 steps: up to 2 steps (514 in 16-bit units) is sRGB.
    cmsHTRANSFORM probe = cmsCreateTransform(from, gray ? TYPE_GRAY_16 : TYPE_RGB_16, srgb, TYPE_RGB_16,
                                             INTENT_RELATIVE_COLORIMETRIC, cmsFLAGS_NOOPTIMIZE | cmsFLAGS_NOCACHE);
    if (probe == NULL) {
        cmsCloseProfile(from);
        cmsCloseProfile(srgb);
        snprintf(message, KIRA_FORMATS_MESSAGE_SIZE, "LittleCMS cannot convert from the colour profile to sRGB");
        return NULL;
    }
    *is_srgb = largest_move(probe, gray) <= 514;
    kira_color_transform *result = calloc(1, sizeof *result);
    if (result == NULL) {
        cmsDeleteTransform(probe);
        cmsCloseProfile(from);
        cmsCloseProfile(srgb);
        snprintf(message, KIRA_FORMATS_MESSAGE_SIZE, "out of memory");
        return NULL;
    }
    result->depth = depth;
    result->gray = gray;
    if (gray) {
        // Every grey level through the probe (exact, unoptimised) once: the image is a table lookup.
        size_t levels = depth == 16 ? 65536 : 256;
        result->gray_table = malloc(levels * 3 * (depth == 16 ? 2 : 1));
        if (result->gray_table == NULL) {
            kira_color_transform_destroy(result);
            result = NULL;
            snprintf(message, KIRA_FORMATS_MESSAGE_SIZE, "out of memory");
        } else {
            for (size_t level = 0; level < levels; level++) {
                uint16_t in = (uint16_t)(depth == 16 ? level : level * 257), out[3];
                cmsDoTransform(probe, &in, out, 1);
                for (int c = 0; c < 3; c++) {
                    if (depth == 16) {
                        ((uint16_t *)result->gray_table)[level * 3 + c] = out[c];
                    } else {
                        ((uint8_t *)result->gray_table)[level * 3 + c] = (uint8_t)((out[c] * 255u + 32767u) / 65535u);
                    }
                }
            }
        }
    } else {
        // COPY_ALPHA: the alpha channel passes through untouched; NOCACHE: threads share it.
        cmsUInt32Number format = depth == 16 ? TYPE_RGBA_16 : TYPE_RGBA_8;
        result->transform = cmsCreateTransform(from, format, srgb, format, INTENT_RELATIVE_COLORIMETRIC,
                                               cmsFLAGS_COPY_ALPHA | cmsFLAGS_NOCACHE);
        if (result->transform == NULL) {
            kira_color_transform_destroy(result);
            result = NULL;
            snprintf(message, KIRA_FORMATS_MESSAGE_SIZE, "LittleCMS cannot convert from the colour profile to sRGB");
        }
    }
    cmsDeleteTransform(probe);
    cmsCloseProfile(from);
    cmsCloseProfile(srgb);
    return result;
}

void kira_color_transform_apply(const kira_color_transform *transform, void *pixels, size_t count) {
    if (transform->gray) {
        if (transform->depth == 16) {
            uint16_t *p = pixels;
            const uint16_t *table = transform->gray_table;
            for (size_t i = 0; i < count; i++, p += 4) {
                const uint16_t *rgb = table + (size_t)p[0] * 3;
                p[0] = rgb[0], p[1] = rgb[1], p[2] = rgb[2];
            }
        } else {
            uint8_t *p = pixels;
            const uint8_t *table = transform->gray_table;
            for (size_t i = 0; i < count; i++, p += 4) {
                const uint8_t *rgb = table + (size_t)p[0] * 3;
                p[0] = rgb[0], p[1] = rgb[1], p[2] = rgb[2];
            }
        }
        return;
    }
    // In place: input and output have the same format, which lcms2 allows.
    cmsDoTransform(transform->transform, pixels, pixels, (cmsUInt32Number)count);
}
