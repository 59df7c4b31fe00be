#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import KiraImage

/// How two images of the same size differ.
///
/// Channels are compared as fractions of full scale (`v / 255` or `v / 65535`), so 8- and 16-bit
/// images compare on one scale and 16-bit images at their own precision. The error statistics
/// cover R, G, B, and A when ``comparesAlpha`` (straight alpha, as stored); SSIM is computed on
/// luma (see ``SSIM``).
public struct ImageComparison: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Whether alpha counts in the error statistics; a file without alpha decodes as opaque, and
    /// counting that constant channel would dilute the error (PSNR of RGB files as other tools
    /// report it needs three channels).
    public let comparesAlpha: Bool
    /// Peak signal-to-noise ratio in dB over R, G, B (and A when ``comparesAlpha``):
    /// `10 · log10(1 / MSE)`; infinite for identical images.
    public let psnr: Double
    /// Mean structural similarity of the luma (Wang et al. 2004), 1 for identical images; nil
    /// for images smaller than the 11 × 11 window, which scikit-image refuses too.
    public let ssim: Double?
    /// The largest channel difference, as a fraction of full scale.
    public let maxError: Double
    /// The mean absolute channel difference, as a fraction of full scale.
    public let meanAbsoluteError: Double
    /// The share of pixels (0...1) with some channel off by more than ``threshold``.
    public let shareOverThreshold: Double
    /// The threshold of ``shareOverThreshold``, as a fraction of full scale.
    public let threshold: Double

    /// Compares `a` with `b`; `threshold` (a fraction of full scale, default one 8-bit step)
    /// decides which pixels count as different; `comparesAlpha` whether alpha counts (pass false
    /// when neither file stores alpha, see `PNGFile.hasAlpha` in KiraPNG).
    ///
    /// - Precondition: the images have the same size (check ``sizesMatch(_:_:)`` first).
    public init(_ a: AnyRGBAImage, _ b: AnyRGBAImage, threshold: Double = 1.0 / 255, comparesAlpha: Bool = true) {
        precondition(Self.sizesMatch(a, b), "the images must have the same size")
        width = a.width
        height = a.height
        self.threshold = threshold
        self.comparesAlpha = comparesAlpha
        let channels = comparesAlpha ? 4 : 3
        // Mixed depths compare at 16 bits: the 8-bit image widened exactly (v · 257) normalises
        // to the same numbers as itself.
        let s = switch (a, b) {
        case (.rgba8(let x), .rgba8(let y)): Statistics(x.channels, y.channels, fullScale: 255, threshold: threshold, channels: channels)
        default: Statistics(a.rgba16.channels, b.rgba16.channels, fullScale: 65535, threshold: threshold, channels: channels)
        }
        let count = Double(max(1, width * height * channels))
        let mse = s.squared / count
        psnr = mse == 0 ? .infinity : 10 * log10(1 / mse)
        maxError = s.worst
        meanAbsoluteError = s.absolute / count
        shareOverThreshold = Double(s.over) / Double(max(1, width * height))
        ssim = SSIM.mean(s.lumaA, s.lumaB, width: width, height: height)
    }

    /// The memory a comparison of `a` and `b` needs beyond the images themselves: two luma
    /// planes and SSIM's products and blurred planes (44 bytes a pixel in all), and a 16-bit
    /// copy of an 8-bit image compared with a 16-bit one.
    public static func estimatedWorkingBytes(_ a: AnyRGBAImage, _ b: AnyRGBAImage) -> Int {
        estimatedWorkingBytes(width: a.width, height: a.height, mixedDepths: a.bitDepth != b.bitDepth)
    }

    /// ``estimatedWorkingBytes(_:_:)`` for images of `width` × `height` not yet decoded (from
    /// their headers), one 8-bit and one 16-bit when `mixedDepths`.
    public static func estimatedWorkingBytes(width: Int, height: Int, mixedDepths: Bool) -> Int {
        let pixels = width * height
        return 44 * pixels + (mixedDepths ? 8 * pixels : 0)
    }

    /// The peak memory of comparing two `width` × `height` images whose decoded pixels take
    /// `decodedBytes` together: the images, then the larger of the comparison's working planes and,
    /// when `heatMap` is asked for, the heat map with its PNG bytes.
    public static func estimatedPeakBytes(width: Int, height: Int, decodedBytes: Int, mixedDepths: Bool, heatMap: Bool) -> Int {
        let heatMapBytes = heatMap ? DiffMap.estimatedBytes(width: width, height: height) : 0
        return decodedBytes + max(estimatedWorkingBytes(width: width, height: height, mixedDepths: mixedDepths), heatMapBytes)
    }

    /// Whether two images can be compared.
    public static func sizesMatch(_ a: AnyRGBAImage, _ b: AnyRGBAImage) -> Bool {
        a.width == b.width && a.height == b.height
    }
}

/// The error sums and the luma of two images, in one pass over their channels in place.
///
/// A channel `v` counts as `Double(v) / fullScale`: correctly rounded, so `v / 255` and
/// `257 v / 65535` are the same number.
struct Statistics {
    var squared = 0.0, absolute = 0.0, worst = 0.0
    var over = 0
    /// Rec. 709 luma of the stored RGB (alpha ignored), in float32 for SSIM.
    var lumaA: [Float], lumaB: [Float]

    /// `channels` is 4 to count alpha in the errors, 3 to leave it out.
    init<T: FixedWidthInteger & UnsignedInteger>(_ a: [T], _ b: [T], fullScale: Double, threshold: Double, channels: Int = 4) {
        let pixels = a.count / 4
        lumaA = [Float](repeating: 0, count: pixels)
        lumaB = [Float](repeating: 0, count: pixels)
        var squared = 0.0, absolute = 0.0, worst = 0.0, over = 0
        // A pixel is over the threshold when a channel exceeds it by more than rounding.
        let limit = threshold * (1 + 1e-6)
        a.withUnsafeBufferPointer { xs in
            b.withUnsafeBufferPointer { ys in
                lumaA.withUnsafeMutableBufferPointer { la in
                    lumaB.withUnsafeMutableBufferPointer { lb in
                        for pixel in 0..<pixels {
                            var x = SIMD4<Double>(), y = SIMD4<Double>()
                            var pixelWorst = 0.0
                            for c in 0..<4 {
                                x[c] = Double(xs[pixel &* 4 &+ c]) / fullScale
                                y[c] = Double(ys[pixel &* 4 &+ c]) / fullScale
                                guard c < channels else { continue }
                                let d = Swift.abs(x[c] - y[c])
                                squared += d * d
                                absolute += d
                                pixelWorst = max(pixelWorst, d)
                            }
                            worst = max(worst, pixelWorst)
                            if pixelWorst > limit { over += 1 }
                            la[pixel] = Self.luma(x)
                            lb[pixel] = Self.luma(y)
                        }
                    }
                }
            }
        }
        self.squared = squared
        self.absolute = absolute
        self.worst = worst
        self.over = over
    }

    @inline(__always)
    static func luma(_ v: SIMD4<Double>) -> Float {
        0.2126 * Float(v.x) + 0.7152 * Float(v.y) + 0.0722 * Float(v.z)
    }
}
