// Checks, for every float h greater than -2.5 and less than 2, that the colour hsv2rgb(h, 1, 1)
// has its largest channel exactly 1 and its smallest exactly 0, so that rgb2hsv's d is 1, its
// 6 * d + e is 6 and its saturation d / (q.x + e) is 1: what KiraLanes.saturatedHue relies on.
// The functions are the scalar reference's (SeedShader) operation for operation, in float, with
// no contraction into fused multiply-adds (Swift contracts none). Also prints the first float
// outside the range, on either side, where the property fails. About a minute on one core:
//
//   cc -O2 -ffp-contract=off -o /tmp/saturated-hue Tests/Exhaustive/saturated-hue.c -lm && /tmp/saturated-hue
#include <stdio.h>

#include "seed-shader.h"

// Whether hsv2rgb(h, 1, 1) gives rgb2hsv a d of 1 and a q.x of 1.
static int saturated(float h) {
    const float k[3] = {1, 2.0f / 3.0f, 1.0f / 3.0f};
    float c[3];
    for (int i = 0; i < 3; i++) c[i] = 1 * mix(1, clamp(fabsf(fract(h + k[i]) * 6 - 3) - 1, 0, 1), 1);
    float s1 = step(c[2], c[1]);
    float px = mix(c[2], c[1], s1), py = mix(c[1], c[2], s1);
    float s2 = step(px, c[0]);
    float qx = mix(px, c[0], s2), qy = mix(py, py, s2), qw = mix(c[0], px, s2);
    float d = qx - minimum(qw, qy);
    return qx == 1 && d == 1 && 6 * d + 1.0e-10f == 6 && d / (qx + 1.0e-10f) == 1;
}

int main(void) {
    long checked = 0, failed = 0;
    for (float h = nextafterf(-2.5f, 0); h < 2; h = nextafterf(h, 2)) {
        checked++;
        if (!saturated(h)) {
            if (failed++ < 5) printf("fails at %.9g\n", h);
        }
    }
    printf("%ld floats from just above -2.5 to just below 2: %ld fail\n", checked, failed);
    printf("at -2.5: %s; at 2: %s\n", saturated(-2.5f) ? "holds" : "fails", saturated(2) ? "holds" : "fails");
    return failed != 0;
}
