#version 330 core
// A probe for diagnose.py: the steps of kira.frag's lattice hash as llvmpipe computes them.
// Pixel (4 i + step, j) holds, for the lattice point (i - 4, j - 4), the bits of the dot
// product (step 0), its sin (1), sin * 43758.5453123 (2) and the hash (3), one byte per channel,
// so that the RGBA8 framebuffer stores them exactly.
uniform sampler2D layerTexture;
uniform sampler2D monoTexture;
uniform vec3 normal;
uniform vec2 layerSize;
out vec4 fragColor;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    int step = p.x % 4;
    vec2 st = vec2(float(p.x / 4 - 4), float(p.y - 4));
    float d = dot(st.xy, vec2(12.9898, 78.233));
    float s = sin(d);
    float m = s * 43758.5453123;
    float h = fract(m);
    float v = step == 0 ? d : step == 1 ? s : step == 2 ? m : h;
    uint b = floatBitsToUint(v);
    fragColor = vec4(float(b & 255u), float((b >> 8) & 255u), float((b >> 16) & 255u), float(b >> 24)) / 255.0;
}
