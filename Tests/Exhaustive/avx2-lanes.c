// Checks, for every 32-bit pattern (NaNs and infinities included), that the AVX2 forms of the
// lane helpers in kira_lanes.h have the bits of their portable forms: kira_min and kira_max (as
// minps and maxps, against a spread of other operands, both ways round), kira_quantize at 8 and
// 16 bits (cvtps2dq) and kira_rgba8_words (the saturating packs), the value in every channel,
// and kira_rgba8_words_keeping_alpha (every alpha byte kept as the quantiser would store it).
// Built for x86-64-v3, so the header takes its AVX2 branches; the portable forms are written out
// here as the header's other branch has them. Needs clang (ext_vector_type); seconds on one core:
//
//   clang -O2 -march=x86-64-v3 -ffp-contract=off -Wno-psabi -I Sources/CKiraLanes/include \
//       -o /tmp/avx2-lanes Tests/Exhaustive/avx2-lanes.c && /tmp/avx2-lanes
#include <stdio.h>
#include <string.h>

#include "kira_lanes.h"

#if !defined(__AVX2__) || defined(__AVX512F__)
#error "build with -march=x86-64-v3: the AVX2 branches are the ones under test"
#endif

static kira_f16 portable_min(kira_f16 a, kira_f16 b) { return a < b ? a : b; }
static kira_f16 portable_max(kira_f16 a, kira_f16 b) { return a > b ? a : b; }

static kira_u16 portable_quantize(kira_f16 x, float max_value) {
    kira_f16 clamped = portable_min(portable_max(x, (kira_f16)(0.0f)), (kira_f16)(1.0f));
    return kira_round_to_u32(clamped * max_value);
}

static kira_u16 portable_rgba8_words(kira_f16 r, kira_f16 g, kira_f16 b, kira_f16 a) {
    return portable_quantize(r, 255.0f) | (portable_quantize(g, 255.0f) << 8) | (portable_quantize(b, 255.0f) << 16)
        | (portable_quantize(a, 255.0f) << 24);
}

static kira_i16 differ(kira_f16 x, kira_f16 y) {
    kira_u16 a, b;
    memcpy(&a, &x, sizeof a);
    memcpy(&b, &y, sizeof b);
    return a != b;
}

int main(void) {
    const kira_u16 lane = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    // The other operands: the clamps' bounds, signed zeros, a value inside, an infinity, a NaN.
    const float others[] = {0.0f, -0.0f, 1.0f, 0.5f, -2.0f, __builtin_inff(), __builtin_nanf("")};
    const int count = sizeof others / sizeof others[0];
    long failed = 0;
    for (uint64_t base = 0; base <= UINT32_MAX; base += 16) {
        kira_u16 bits = lane + (uint32_t)base;
        kira_f16 x;
        memcpy(&x, &bits, sizeof x);
        kira_f16 y = (kira_f16)(others[(base >> 4) % count]);
        kira_i16 bad = differ(kira_min(x, y), portable_min(x, y)) | differ(kira_min(y, x), portable_min(y, x))
            | differ(kira_max(x, y), portable_max(x, y)) | differ(kira_max(y, x), portable_max(y, x));
        bad |= kira_quantize(x, 255.0f) != portable_quantize(x, 255.0f);
        bad |= kira_quantize(x, 65535.0f) != portable_quantize(x, 65535.0f);
        bad |= kira_rgba8_words(x, y, y, y) != portable_rgba8_words(x, y, y, y);
        bad |= kira_rgba8_words(y, x, y, y) != portable_rgba8_words(y, x, y, y);
        bad |= kira_rgba8_words(y, y, x, y) != portable_rgba8_words(y, y, x, y);
        bad |= kira_rgba8_words(y, y, y, x) != portable_rgba8_words(y, y, y, x);
        // Every alpha byte, read as the shader reads it, beside every pattern in a colour channel.
        kira_u16 pixels = bits << 24;
        kira_f16 alpha = kira_rgba8_channel(pixels, 24);
        bad |= kira_rgba8_words_keeping_alpha(x, y, y, pixels) != portable_rgba8_words(x, y, y, alpha);
        bad |= kira_rgba8_words_keeping_alpha(y, y, x, pixels) != portable_rgba8_words(y, y, x, alpha);
        for (int i = 0; i < 16; i++) {
            if (bad[i] && failed++ < 5) printf("differs at bits %08x\n", (uint32_t)base + i);
        }
    }
    printf("2^32 patterns: %ld differ\n", failed);
    return failed != 0;
}
