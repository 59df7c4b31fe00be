#version 330 core
// The original Metal kiraEffect as GLSL (docs/fidelity.md), for an independent render by Mesa's llvmpipe. Names and
// expressions follow the original. Differences from Metal, kept on purpose so that a real GLSL
// compiler decides them: GLSL's fract is x - floor(x) (Metal clamps it below 1) and GLSL's mix
// is defined as x * (1 - a) + y * a (Metal: x + (y - x) * a); the compiler may fuse a * b + c.
uniform sampler2D layerTexture;   // the card art, RGBA8, one texel per pixel
uniform sampler2D monoTexture;    // the holo mask, any size
uniform vec3 normal;
uniform vec2 layerSize;           // the original's bounds.zw
out vec4 fragColor;

#define ANGLE_STRENGTH 10.0
#define NOISE_SCALE 6.0

float modSeed(float x, float y) { return x - y * floor(x / y); }

float generateRandomFloat(vec2 st) {
    return fract(sin(dot(st.xy, vec2(12.9898, 78.233))) * 43758.5453123);
}

float generateValueNoise(vec2 st) {
    vec2 i = floor(st);
    vec2 f = fract(st);
    float a = generateRandomFloat(i);
    float b = generateRandomFloat(i + vec2(1.0, 0.0));
    float c = generateRandomFloat(i + vec2(0.0, 1.0));
    float d = generateRandomFloat(i + vec2(1.0, 1.0));
    vec2 u = f * f * (3.0 - 2.0 * f);
    return mix(a, b, u.x) + (c - a) * u.y * (1.0 - u.x) + (d - b) * u.x * u.y;
}

vec3 hsv2rgb(vec3 hsv) {
    vec4 K = vec4(1.0, 2.0 / 3.0, 1.0 / 3.0, 3.0);
    vec3 p = abs(fract(hsv.xxx + K.xyz) * 6.0 - K.www);
    return hsv.z * mix(K.xxx, clamp(p - K.xxx, 0.0, 1.0), hsv.y);
}

vec3 rgb2hsv(vec3 rgb) {
    vec4 K = vec4(0.0, -1.0 / 3.0, 2.0 / 3.0, -1.0);
    vec4 p = mix(vec4(rgb.bg, K.wz), vec4(rgb.gb, K.xy), step(rgb.b, rgb.g));
    vec4 q = mix(vec4(p.xyw, rgb.r), vec4(rgb.r, p.yzx), step(p.x, rgb.r));
    float d = q.x - min(q.w, q.y);
    float e = 1.0e-10;
    return vec3(abs(q.z + (q.w - q.y) / (6.0 * d + e)), d / (q.x + e), q.x);
}

float getViewAngle(vec3 n) {
    vec3 faceNormal = normalize(n);
    vec3 lightDir = normalize(vec3(0.0, -1.0, -1.0));
    return acos(dot(faceNormal, lightDir));
}

vec3 generateAngleRGB(float strength, vec3 n) {
    float pi = 3.14159265358979;
    float angle = modSeed(getViewAngle(n) * strength, pi) / pi;
    return hsv2rgb(vec3(angle, 1.0, 1.0));
}

vec3 generateKiraRGB(vec3 colorNoiseRGB, vec3 n) {
    vec3 angleColorRGB = generateAngleRGB(ANGLE_STRENGTH, n);
    float colorDiff = distance(colorNoiseRGB, angleColorRGB);
    vec3 kiraNoiseHSV = rgb2hsv(colorNoiseRGB);
    kiraNoiseHSV.z = max(1.0 - colorDiff, 0.0);
    return hsv2rgb(kiraNoiseHSV);
}

void main() {
    // Metal's position has its origin at the top left; GL's fragment coordinates at the bottom.
    vec2 position = vec2(gl_FragCoord.x, layerSize.y - gl_FragCoord.y);
    vec2 fragCoord = vec2(position.x, layerSize.x - position.y);   // the original's width flip
    vec2 uv = fragCoord / layerSize;
    vec2 UV = position / layerSize;
    float valueNoise = generateValueNoise(uv * NOISE_SCALE);
    vec3 colorNoiseRGB = hsv2rgb(vec3(valueNoise, 1.0, 1.0));
    ivec2 maskSize = textureSize(monoTexture, 0);
    ivec2 texel = clamp(ivec2(floor(UV * vec2(maskSize))), ivec2(0), maskSize - 1);
    vec3 mono = texelFetch(monoTexture, texel, 0).rgb;
    vec4 layer = texelFetch(layerTexture, ivec2(position), 0);
    fragColor = vec4(generateKiraRGB(colorNoiseRGB, normal) * mono + layer.rgb, layer.a);
}
