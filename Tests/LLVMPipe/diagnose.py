#!/usr/bin/env python3
"""Why llvmpipe and Kira differ: removes llvmpipe's own float32 built-ins one at a time.

Run after Tests/LLVMPipe/run.sh (it needs output/llvmpipe/render and a release `kira`):

    Tests/LLVMPipe/diagnose.py [TILT_X TILT_Y]      # KIRA=path/to/kira to pick the binary

1. The lattice hash, probed step by step (hash-probe.frag writes the bits of each float32):
   llvmpipe's dot products against float32 with two roundings, its `sin` against libm's `sinf`
   (Kira's), and the hashes that follow.
2. kira.frag rendered again with `sin` in the hash evaluated in float64 and rounded once (the
   correctly rounded float32 sine; glibc's `sinf` is within 0.56 ulp and equals it at every
   lattice point the sample card uses, step 1 counts where not), then also with the view angle
   taken from libm's `acosf` instead of llvmpipe's `acos`, then also with Metal's `mix` and
   `fract`; each compared with Kira's render.

Only the standard library: float32 arithmetic is emulated with struct (a product or sum of two
float32 values is exact in float64, so rounding it once gives the float32 result) and libm is
called through ctypes.
"""
import ctypes
import math
import os
import re
import struct
import subprocess
import sys
import zlib

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
HERE = os.path.join(ROOT, "Tests", "LLVMPipe")
OUT = os.path.join(ROOT, "output", "llvmpipe")
RENDER = os.path.join(OUT, "render")
KIRA = os.environ.get("KIRA", os.path.join(ROOT, ".build", "release", "kira"))
ENV = dict(os.environ, GALLIUM_DRIVER="llvmpipe")

libm = ctypes.CDLL("libm.so.6")
for name in ("sinf", "acosf", "sqrtf"):
    getattr(libm, name).restype = ctypes.c_float
    getattr(libm, name).argtypes = [ctypes.c_float]


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def bits(x):
    return struct.unpack("<i", struct.pack("<f", x))[0]


def read_png_rgba8(path):
    """Rows of an 8-bit RGBA, non-interlaced PNG (what render.c writes)."""
    data = open(path, "rb").read()
    pos, idat = 8, b""
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, color = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and color == 6, "expected 8-bit RGBA"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, rows, prev = zlib.decompress(idat), w * 4 + 1, [], bytearray(w * 4)
    for y in range(h):
        kind, line = raw[y * stride], bytearray(raw[y * stride + 1:(y + 1) * stride])
        for i in range(len(line)):
            a = line[i - 4] if i >= 4 else 0
            b = prev[i]
            c = prev[i - 4] if i >= 4 else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, rows


def write_gray_png(path, w, h):
    row = b"\x00" + bytes([128, 128, 128, 255]) * w

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(row * h)) + chunk(b"IEND", b""))


def probe_hash():
    """Step 1: the hash at lattice points x in -4..7, y in -4..11 (a portrait card uses about 8 × 8)."""
    art, mask, out = (os.path.join(OUT, n) for n in ("probe-art.png", "probe-mask.png", "probe.png"))
    write_gray_png(art, 48, 16)
    write_gray_png(mask, 1, 1)
    subprocess.run([RENDER, art, mask, "0", "0", "1", out, "1", os.path.join(HERE, "hash-probe.frag")],
                   env=ENV, check=True, stderr=subprocess.DEVNULL)
    w, h, rows = read_png_rgba8(out)

    def gl(x, y, step):  # render.c writes framebuffer row h-1-y as PNG row y
        i = (x * 4 + step) * 4
        return struct.unpack("<f", rows[h - 1 - y][i:i + 4])[0]

    points = dot_differs = sin_differs = hash_differs = libm_not_rounded = 0
    worst = 0.0
    for y in range(16):
        for x in range(12):
            ix, iy = f32(x - 4), f32(y - 4)
            d = f32(f32(ix * f32(12.9898)) + f32(iy * f32(78.233)))
            s = libm.sinf(d)
            libm_not_rounded += s != f32(math.sin(d))
            m = f32(s * f32(43758.5453123))
            hash_ = f32(m - math.floor(m))
            points += 1
            dot_differs += gl(x, y, 0) != d
            if gl(x, y, 1) != s:
                sin_differs += 1
                worst = max(worst, abs(bits(gl(x, y, 1)) - bits(s)))
            hash_differs += gl(x, y, 3) != hash_
    print(f"lattice hash at {points} points: dot differs at {dot_differs}, sin at {sin_differs} "
          f"(by at most {worst} ulp), the hash at {hash_differs}; libm's sinf is not the correctly "
          f"rounded sine at {libm_not_rounded}")


def variants(nx, ny, nz):
    """Step 2: kira.frag with llvmpipe's sin, then its acos, replaced."""
    source = open(os.path.join(HERE, "kira.frag")).read()
    exact_sin = source.replace("#version 330 core\n", "#version 330 core\n#extension GL_ARB_gpu_shader_fp64 : require\n", 1)
    helper = """
// sin in float64, rounded once: the correctly rounded float32 sine but for near-ties. |x| < 1000 here, so the reduction by 2 pi in float64 loses nothing that matters.
float sinExact(float x) {
    double twoPi = 6.283185307179586476925286766559LF;
    double r = double(x) - twoPi * floor(double(x) / twoPi + 0.5LF);
    double r2 = r * r, term = r, sum = r;
    for (int k = 1; k < 14; k++) { term *= -r2 / double((2 * k) * (2 * k + 1)); sum += term; }
    return float(sum);
}

"""
    exact_sin = exact_sin.replace("float generateRandomFloat", helper + "float generateRandomFloat", 1)
    exact_sin = exact_sin.replace("fract(sin(dot(", "fract(sinExact(dot(", 1)
    # The view angle as Kira's reference computes it: normalize and dot in float32, libm's acosf.
    n = [f32(float(nx)), f32(float(ny)), f32(float(nz))]
    length = libm.sqrtf(f32(f32(f32(n[0] * n[0]) + f32(n[1] * n[1])) + f32(n[2] * n[2])))
    face = [f32(c / length) for c in n]
    light = f32(-1 / libm.sqrtf(2.0))
    angle = libm.acosf(f32(f32(f32(face[0] * 0.0) + f32(face[1] * light)) + f32(face[2] * light)))
    exact_angle = re.sub(r"return acos\(dot\(faceNormal, lightDir\)\);", f"return {angle:.9g};", exact_sin)
    assert exact_angle != exact_sin
    kira_png = os.path.join(OUT, "diagnose-kira.png")
    subprocess.run([KIRA, "shade", "--art", os.path.join(ROOT, "textures", "front.png"), "--mask",
                    os.path.join(ROOT, "textures", "mask.png"), "--normal", f"{nx},{ny},{nz}", "-o", kira_png], check=True)
    # Metal's mix and fract (kira.frag keeps GLSL's, see its header), on top of both.
    metal = exact_angle.replace("float modSeed", """float mixM(float x, float y, float a) { return x + (y - x) * a; }
vec3 mixM(vec3 x, vec3 y, float a) { return x + (y - x) * a; }
vec4 mixM(vec4 x, vec4 y, float a) { return x + (y - x) * a; }
float fractM(float x) { return min(x - floor(x), 0.99999994); }
vec2 fractM(vec2 x) { return min(x - floor(x), vec2(0.99999994)); }
vec3 fractM(vec3 x) { return min(x - floor(x), vec3(0.99999994)); }
float modSeed""", 1)
    metal = re.sub(r"\bfract\(", "fractM(", re.sub(r"\bmix\(", "mixM(", metal))
    for name, text, what in [("as-is", source, "kira.frag as is"),
                             ("exact-sin", exact_sin, "hash sin correctly rounded"),
                             ("exact-sin-acos", exact_angle, "… and the view angle from libm acosf"),
                             ("metal-mix-fract", metal, "… and Metal's mix and fract")]:
        shader, image = os.path.join(OUT, f"diagnose-{name}.frag"), os.path.join(OUT, f"diagnose-{name}.png")
        open(shader, "w").write(text)
        subprocess.run([RENDER, os.path.join(ROOT, "textures", "front.png"), os.path.join(ROOT, "textures", "mask.png"),
                        nx, ny, nz, image, "1", shader], env=ENV, check=True, stderr=subprocess.DEVNULL)
        result = subprocess.run([KIRA, "compare", image, kira_png, "--threshold", "0", "--json",
                                 "--diff", os.path.join(OUT, f"diagnose-{name}-diff.png")],
                                check=True, capture_output=True, text=True).stdout
        psnr = re.search(r'"psnr":([^,]+)', result).group(1)
        worst = float(re.search(r'"max_error":([^,]+)', result).group(1))
        share = float(re.search(r'"share_over_threshold":([^,]+)', result).group(1))
        psnr_text = "∞" if psnr == "null" else f"{float(psnr):.1f} dB"
        print(f"{what:40s} PSNR {psnr_text:>9s}, max error {worst:.0f}/255, pixels that differ {share * 100:.3f} %")


def main():
    tx, ty = (float(a) for a in (sys.argv[1:3] if len(sys.argv) >= 3 else ("-8", "10")))
    if not os.path.exists(RENDER):
        sys.exit("diagnose: run Tests/LLVMPipe/run.sh first (it builds output/llvmpipe/render)")
    x, y = math.radians(tx), math.radians(ty)
    normal = (f"{-math.sin(y) * math.cos(x):.7f}", f"{math.sin(x):.7f}", f"{math.cos(y) * math.cos(x):.7f}")
    probe_hash()
    variants(*normal)


if __name__ == "__main__":
    main()
