import KiraImage
import Testing
@testable import KiraCompare

/// SSIM against scikit-image's `structural_similarity` (Gaussian window, σ 1.5, population
/// covariance, data range 1) on luma, with the values `ssim_reference.py` printed.
@Suite struct SSIMReferenceTests {
    /// The image pair of `ssim_reference.py`.
    static func pair(_ w: Int, _ h: Int, _ k: Int) -> (AnyRGBAImage, AnyRGBAImage) {
        var a = try! RGBAImage<UInt8>(width: w, height: h), b = try! RGBAImage<UInt8>(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w {
                let r = (x * 7 + y * 13) % 256, g = (x * x + 3 * y) % 256, bl = (5 * x * y + 17) % 256
                let r2 = min(255, max(0, r + (x * 31 + y * 17) % (2 * k + 1) - k))
                let g2 = min(255, max(0, g + (x * 11 + y * 5) % (2 * k + 1) - k))
                let b2 = x < w / 2 ? bl : 255 - bl
                a[x, y] = SIMD4(UInt8(r), UInt8(g), UInt8(bl), 255)
                b[x, y] = SIMD4(UInt8(r2), UInt8(g2), UInt8(b2), 255)
            }
        }
        return (.rgba8(a), .rgba8(b))
    }

    @Test(arguments: [(37, 29, 10, 0.980459), (64, 48, 10, 0.984780), (50, 40, 60, 0.845489)])
    func matchesScikitImage(w: Int, h: Int, k: Int, expected: Double) {
        let (a, b) = Self.pair(w, h, k)
        let observed = ImageComparison(a, b).ssim ?? .nan
        #expect(abs(observed - expected) < 0.001, "SSIM \(w)×\(h) k=\(k): expected \(expected), observed \(observed)")
    }

    /// The 16-bit pair of `ssim_reference.py`.
    static func pair16(_ w: Int, _ h: Int, _ k: Int) -> (AnyRGBAImage, AnyRGBAImage) {
        var a = try! RGBAImage<UInt16>(width: w, height: h), b = try! RGBAImage<UInt16>(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w {
                let r = (x * 1500 + y * 700) % 65536, g = (x * y * 40 + 3000) % 65536, bl = (y * 1800) % 65536
                let r2 = min(65535, max(0, r + (x * 7919 + y * 104729) % (2 * k + 1) - k))
                let g2 = min(65535, max(0, g + (x * 31 + y * 17) % (2 * k + 1) - k))
                let b2 = (x / 8 + y / 8) % 2 == 0 ? bl : 65535 - bl
                a[x, y] = SIMD4(UInt16(r), UInt16(g), UInt16(bl), 65535)
                b[x, y] = SIMD4(UInt16(r2), UInt16(g2), UInt16(b2), 65535)
            }
        }
        return (.rgba16(a), .rgba16(b))
    }

    // Without the 5-pixel crop these would be 0.900595 and 0.635347; with a uniform 7 × 7 window
    // 0.921032 and 0.664109 (scikit-image's defaults): the tolerance tells them apart.
    @Test(arguments: [(40, 32, 3000, 0.919973), (33, 45, 12000, 0.639689)])
    func matchesScikitImageAtSixteenBits(w: Int, h: Int, k: Int, expected: Double) {
        let (a, b) = Self.pair16(w, h, k)
        let observed = ImageComparison(a, b).ssim ?? .nan
        #expect(abs(observed - expected) < 0.001, "SSIM 16-bit \(w)×\(h) k=\(k): expected \(expected), observed \(observed)")
    }
}
