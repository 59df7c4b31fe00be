// The scalar reference's (SeedShader's) float helpers in C, operation for operation, for the
// exhaustive checks beside this file. Compile them with -ffp-contract=off: Swift contracts no
// multiply-add.
#ifndef KIRA_EXHAUSTIVE_SEED_SHADER_H
#define KIRA_EXHAUSTIVE_SEED_SHADER_H

#include <math.h>
#include <stdint.h>
#include <string.h>

static inline float minimum(float a, float b) { return b < a ? b : a; }  // Swift.min
static inline float maximum(float a, float b) { return b >= a ? b : a; }  // Swift.max
static inline float fract(float x) {
    const uint32_t below_one_bits = 0x3F7FFFFF;
    float below_one;
    memcpy(&below_one, &below_one_bits, sizeof below_one);
    return minimum(x - floorf(x), below_one);
}
static inline float mix(float x, float y, float a) { return x + (y - x) * a; }
static inline float step(float edge, float x) { return x < edge ? 0 : 1; }
static inline float clamp(float x, float lo, float hi) { return minimum(maximum(x, lo), hi); }

#endif
