#!/usr/bin/env python3
"""Kira's card-to-canvas homography for a pose (KiraGeometry's CardPose.cardHomography, then the
card centred on the canvas as FrameScene places it), printed as nine numbers, row by row, in
Kira's row-vector convention: [x y 1] M = [X Y W].

Usage: homography.py CARD_W CARD_H CANVAS_W CANVAS_H TILT_X TILT_Y FLIP
(flip about y with perspective 0.7, tilts with perspective 1: CardPose's defaults)."""
import math
import sys


def multiply(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))] for i in range(len(a))]


def rotation3d_effect(degrees, axis, perspective, size):
    """SwiftUI's rotation3DEffect as Homography.rotation3DEffect computes it (rotation3DEffect's 4 × 4 transform, z dropped)."""
    length = math.sqrt(sum(c * c for c in axis))
    x, y, z = (c / length for c in axis)
    r = math.radians(degrees)
    c, s = math.cos(r), math.sin(r)
    t = 1 - c
    rotation = [[t * x * x + c, t * x * y + s * z, t * x * z - s * y, 0],
                [t * x * y - s * z, t * y * y + c, t * y * z + s * x, 0],
                [t * x * z + s * y, t * y * z - s * x, t * z * z + c, 0],
                [0, 0, 0, 1]]
    identity = [[1.0 if i == j else 0.0 for j in range(4)] for i in range(4)]
    project = [row[:] for row in identity]
    if perspective != 0:
        project[2][3] = -1 / (max(size) / perspective)
    a = (0.5 * size[0], 0.5 * size[1], 0.0)
    to_anchor = [row[:] for row in identity]
    from_anchor = [row[:] for row in identity]
    to_anchor[3] = [-a[0], -a[1], -a[2], 1]
    from_anchor[3] = [a[0], a[1], a[2], 1]
    m = multiply(multiply(multiply(to_anchor, rotation), project), from_anchor)
    keep = lambda row: [m[row][0], m[row][1], m[row][3]]
    return [keep(0), keep(1), keep(3)]


def main():
    cw, ch, W, H = (int(v) for v in sys.argv[1:5])
    tilt_x, tilt_y, flip = (float(v) for v in sys.argv[5:8])
    size = (float(cw), float(ch))
    m = rotation3d_effect(flip, (0, 1, 0), 0.7, size)
    m = multiply(m, rotation3d_effect(tilt_x, (1, 0, 0), 1, size))
    m = multiply(m, rotation3d_effect(tilt_y, (0, 1, 0), 1, size))
    origin = ((W - cw) // 2, (H - ch) // 2)
    m = multiply(m, [[1, 0, 0], [0, 1, 0], [origin[0], origin[1], 1]])
    print(" ".join(f"{v:.10g}" for row in m for v in row))


main()
