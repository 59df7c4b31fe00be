#!/usr/bin/env python3
"""How far the single-precision sample points (Kira's SamplePointMap) land from the same map in
double precision: for every pixel of a 2340x3170 canvas whose centre lands on a 1260x1760 card,
the largest distance along u or v, in texels, at several poses. The inverse homography is
NumPy's inverse of homography.py's, which is close enough to Kira's for an error of this size.

Usage: Tests/LLVMPipe/sample-point-error.py   (needs NumPy)"""
import os
import subprocess
import sys

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
card, canvas = (1260, 1760), (2340, 3170)
# Tilt x, tilt y, flip (degrees).
poses = [(6, 0, 25), (-8, 10, 0), (0, 0, 0), (10, -10, 50), (45, 0, 0), (0, 0, 80)]

print(f"{'tilt x, tilt y, flip':<22} {'largest error (texels)':>24}")
for pose in poses:
    numbers = subprocess.check_output([sys.executable, os.path.join(here, "homography.py"),
                                       *map(str, card + canvas + pose)]).split()
    inverse = np.linalg.inv(np.array([float(n) for n in numbers]).reshape(3, 3))
    cx = np.arange(canvas[0]) + 0.5
    column32 = inverse[0].astype(np.float32)
    cx32 = cx.astype(np.float32)
    worst = 0.0
    for y in range(canvas[1]):
        # Double precision: [cx cy 1] · inverse, then the division.
        h = np.outer(cx, inverse[0]) + (y + 0.5) * inverse[1] + inverse[2]
        u, v = h[:, 0] / h[:, 2], h[:, 1] / h[:, 2]
        on_card = (h[:, 2] > 0) & (u >= 0) & (u <= card[0]) & (v >= 0) & (v <= card[1])
        if not on_card.any():
            continue
        # Single precision as SamplePointMap: the row's terms summed in double, rounded once.
        origin32 = ((y + 0.5) * inverse[1] + inverse[2]).astype(np.float32)
        h32 = np.outer(cx32, column32) + origin32
        u32, v32 = h32[:, 0] / h32[:, 2], h32[:, 1] / h32[:, 2]
        worst = max(worst, float(np.maximum(np.abs(u32 - u), np.abs(v32 - v))[on_card].max()))
    print(f"{', '.join(map(str, pose)):<22} {worst:24.1e}")
