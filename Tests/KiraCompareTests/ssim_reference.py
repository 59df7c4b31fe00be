# Independent SSIM values for KiraCompareTests, from scikit-image (pip install scikit-image).
# The image pairs are defined by the same formulas as in SSIMReferenceTests.swift; SSIM is taken
# on Rec. 709 luma computed in float32, as Kira does. Run: python3 ssim_reference.py
import numpy as np
from skimage.metrics import structural_similarity

def pair(w, h, k):
    y, x = np.mgrid[0:h, 0:w]
    r = (x * 7 + y * 13) % 256
    g = (x * x + 3 * y) % 256
    b = (5 * x * y + 17) % 256
    r2 = np.clip(r + (x * 31 + y * 17) % (2 * k + 1) - k, 0, 255)
    g2 = np.clip(g + (x * 11 + y * 5) % (2 * k + 1) - k, 0, 255)
    b2 = np.where(x < w // 2, b, 255 - b)
    return (r, g, b), (r2, g2, b2)

def pair16(w, h, k):
    """A 16-bit pair: ramps that wrap, noise of up to k steps, a checkerboard of inverted blue."""
    y, x = np.mgrid[0:h, 0:w]
    r = (x * 1500 + y * 700) % 65536
    g = (x * y * 40 + 3000) % 65536
    b = (y * 1800) % 65536
    r2 = np.clip(r + (x * 7919 + y * 104729) % (2 * k + 1) - k, 0, 65535)
    g2 = np.clip(g + (x * 31 + y * 17) % (2 * k + 1) - k, 0, 65535)
    b2 = np.where((x // 8 + y // 8) % 2 == 0, b, 65535 - b)
    return (r, g, b), (r2, g2, b2)

def luma16(rgb):
    r, g, b = ((c / 65535.0).astype(np.float32) for c in rgb)
    return (np.float32(0.2126) * r + np.float32(0.7152) * g + np.float32(0.0722) * b).astype(np.float64)

def luma(rgb):
    r, g, b = (np.float32(c) * np.float32(1 / 255) for c in rgb)
    return (np.float32(0.2126) * r + np.float32(0.7152) * g + np.float32(0.0722) * b).astype(np.float64)

for w, h, k in [(37, 29, 10), (64, 48, 10), (50, 40, 60)]:
    a, b = pair(w, h, k)
    value = structural_similarity(luma(a), luma(b), gaussian_weights=True, sigma=1.5,
                                  use_sample_covariance=False, data_range=1.0)
    print(f"({w}, {h}, {k}): {value:.6f}")

for w, h, k in [(40, 32, 3000), (33, 45, 12000)]:
    a, b = pair16(w, h, k)
    value = structural_similarity(luma16(a), luma16(b), gaussian_weights=True, sigma=1.5,
                                  use_sample_covariance=False, data_range=1.0)
    print(f"16-bit ({w}, {h}, {k}): {value:.6f}")
