#!/usr/bin/env python3
"""The minification filters Kira chose between, prototyped in NumPy on the frames of
Benchmarks/minification-psnr.sh (the sample card tilted by (6°, -9°) at scale S on a canvas of
800·S × 1000·S, against the same frame at 4·S downscaled with Pillow's Lanczos filter):

- bilinear: one bilinear sample at each pixel's centre (Kira before it filtered);
- trilinear: a mip pyramid of 2×2 box-filtered levels, sampled trilinearly at OpenGL's
  isotropic level of detail (log2 of the longer of the pixel's two steps on the face);
- area: Kira's footprint filter (FaceFootprint): past 1.5 texels a pixel along a canvas axis,
  the mean of bilinear taps spread over 1.5 × (length − 1.5) texels along it, a texel apart.

Edges are covered by 4×4 supersampling here (Kira computes exact areas), so the bilinear column
differs from kira's own by a few tenths of a dB. Usage, from the package's root, with Pillow,
NumPy and a release build:

    python3 Benchmarks/minification-filters.py
"""
import math
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Tests", "LLVMPipe"))
argv, sys.argv = sys.argv, ["homography.py"]
exec(open(sys.path[0] + "/homography.py").read().replace("\nmain()\n", "\n"))
sys.argv = argv

with tempfile.TemporaryDirectory() as work:
    subprocess.run([".build/release/kira", "shade", "--tilt-x", "6", "--tilt-y", "-9", "-o", f"{work}/face.png"], check=True)
    face = np.asarray(Image.open(f"{work}/face.png").convert("RGBA")).astype(np.float64) / 255
face = np.concatenate([face[..., :3] * face[..., 3:4], face[..., 3:4]], axis=2)  # premultiplied
H0, W0 = face.shape[:2]
background = np.array([0x20, 0x30, 0x40, 255]) / 255


def bilinear(texture, u, v):
    h, w = texture.shape[:2]
    u, v = np.clip(u - 0.5, 0, w - 1), np.clip(v - 0.5, 0, h - 1)
    x0, y0 = np.floor(u).astype(int), np.floor(v).astype(int)
    x1, y1 = np.minimum(x0 + 1, w - 1), np.minimum(y0 + 1, h - 1)
    wx, wy = (u - x0)[..., None], (v - y0)[..., None]
    top = texture[y0, x0] + (texture[y0, x1] - texture[y0, x0]) * wx
    bottom = texture[y1, x0] + (texture[y1, x1] - texture[y1, x0]) * wx
    return top + (bottom - top) * wy


def render(scale, width, height, sample):
    size = (float(W0), float(H0))
    m = np.array(rotation3d_effect(0, (0, 1, 0), 0.7, size))
    m = m @ np.array(rotation3d_effect(6, (1, 0, 0), 1, size)) @ np.array(rotation3d_effect(-9, (0, 1, 0), 1, size))
    offset = np.array([width, height]) / 2 - np.array([W0, H0]) / 2 * scale
    inverse = np.linalg.inv(m @ np.array([[scale, 0, 0], [0, scale, 0], [offset[0], offset[1], 1]]))
    y, x = np.mgrid[0:height, 0:width] + 0.5

    def back(x, y):
        h = [x * inverse[0, k] + y * inverse[1, k] + inverse[2, k] for k in range(3)]
        return h[0] / h[2], h[1] / h[2], h[2]

    u, v, z = back(x, y)
    along_x = ((inverse[0, 0] - u * inverse[0, 2]) / z, (inverse[0, 1] - v * inverse[0, 2]) / z)
    along_y = ((inverse[1, 0] - u * inverse[1, 2]) / z, (inverse[1, 1] - v * inverse[1, 2]) / z)
    color = sample(u, v, along_x, along_y)
    coverage = np.zeros_like(u)
    for i in range(4):
        for j in range(4):
            su, sv, _ = back(x - 0.5 + (i + 0.5) / 4, y - 0.5 + (j + 0.5) / 4)
            coverage += ((su >= 0) & (su <= W0) & (sv >= 0) & (sv <= H0)) / 16
    color = color * coverage[..., None]
    return (color + background * (1 - color[..., 3:4]))[..., :3]


def plain(u, v, along_x, along_y):
    return bilinear(face, u, v)


levels = [face]
while min(levels[-1].shape[:2]) >= 2:
    t = levels[-1]
    t = t[: t.shape[0] // 2 * 2, : t.shape[1] // 2 * 2]
    levels.append((t[0::2, 0::2] + t[1::2, 0::2] + t[0::2, 1::2] + t[1::2, 1::2]) / 4)


def trilinear(u, v, along_x, along_y):
    lod = np.clip(np.log2(np.maximum(np.hypot(*along_x), np.hypot(*along_y))), 0, len(levels) - 2)
    base = np.floor(lod).astype(int)
    blend = (lod - base)[..., None]
    out = np.zeros(u.shape + (4,))
    for level in range(len(levels) - 1):
        here = base == level
        if here.any():
            def at(k):
                t = levels[k]
                return bilinear(t, u * t.shape[1] / W0, v * t.shape[0] / H0)
            a, b = at(level), at(level + 1)
            out = np.where(here[..., None], a + (b - a) * blend, out)
    return out


def area(u, v, along_x, along_y):
    def taps(length):
        extent = 1.5 * (length - 1.5)
        count = np.where(extent > 0, np.minimum(1 + np.ceil(np.minimum(extent, 64)), 64), 1).astype(int)
        return count, np.where(count > 1, extent / length, 0)

    (columns, span_x), (rows, span_y) = taps(np.hypot(*along_x)), taps(np.hypot(*along_y))
    total = np.zeros(u.shape + (4,))
    for j in range(rows.max()):
        b = np.where(rows > 1, (j / np.maximum(rows - 1, 1) - 0.5) * span_y, 0)
        for i in range(columns.max()):
            a = np.where(columns > 1, (i / np.maximum(columns - 1, 1) - 0.5) * span_x, 0)
            tap = bilinear(face, u + (a * along_x[0] + b * along_y[0]), v + (a * along_x[1] + b * along_y[1]))
            total += np.where(((i < columns) & (j < rows))[..., None], tap, 0)
    return total / (columns * rows)[..., None]


def psnr(a, b):
    return 10 * math.log10(255 ** 2 / np.mean((np.round(a * 255) - np.round(b * 255)) ** 2))


print(f"{'scale':<6} {'canvas':<8} {'bilinear':>9} {'trilinear':>10} {'area':>6}   (PSNR in dB)")
for scale in [0.2, 0.35, 0.5]:
    width, height = int(800 * scale) // 2 * 2, int(1000 * scale) // 2 * 2
    large = render(4 * scale, 4 * width, 4 * height, plain)
    reference = np.asarray(Image.fromarray(np.round(large * 255).astype(np.uint8)).resize((width, height), Image.LANCZOS)) / 255
    scores = [psnr(render(scale, width, height, f), reference) for f in (plain, trilinear, area)]
    print(f"{scale:<6} {f'{width}x{height}':<8} {scores[0]:>9.1f} {scores[1]:>10.1f} {scores[2]:>6.1f}")
