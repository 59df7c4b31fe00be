// Checks, for every finite float h, that the reference's hsv2rgb(h, 1, 1) (SeedShader, operation
// for operation: each channel is `1 * mix(1, clamp(abs(fract(h + k) * 6 - 3) - 1, 0, 1), 1)`,
// fract capped at the largest float below 1) has the same bits as
// `clamp(abs((x - floor(x)) * 6 - 3) - 1, 0, 1)` for x = h + k: what KiraLanes.saturatedColor
// relies on. In float, with no contraction into fused multiply-adds (Swift contracts none).
// About a minute on one core:
//
//   cc -O2 -ffp-contract=off -o /tmp/saturated-color Tests/Exhaustive/saturated-color.c -lm && /tmp/saturated-color
#include <stdio.h>

#include "seed-shader.h"

static uint32_t bits(float x) {
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

// Whether the two forms of each channel of hsv2rgb(h, 1, 1) have the same bits.
static int same(float h) {
    const float k[3] = {1, 2.0f / 3.0f, 1.0f / 3.0f};
    for (int i = 0; i < 3; i++) {
        float reference = 1 * mix(1, clamp(fabsf(fract(h + k[i]) * 6 - 3) - 1, 0, 1), 1);
        float x = h + k[i];
        float lanes = clamp(fabsf((x - floorf(x)) * 6 - 3) - 1, 0, 1);
        if (bits(reference) != bits(lanes)) return 0;
    }
    return 1;
}

int main(void) {
    long checked = 0, failed = 0;
    for (uint64_t b = 0; b <= UINT32_MAX; b++) {
        float h;
        uint32_t word = (uint32_t)b;
        memcpy(&h, &word, sizeof h);
        if (!isfinite(h)) continue;
        checked++;
        if (!same(h) && failed++ < 5) printf("differs at %.9g\n", h);
    }
    printf("%ld finite floats: %ld differ\n", checked, failed);
    return failed != 0;
}
