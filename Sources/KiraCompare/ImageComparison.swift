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
/// cover all four channels as stored (straight alpha); SSIM is computed on luma (see ``SSIM``).
public struct ImageComparison: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Peak signal-to-noise ratio in dB over R, G, B and A: `10 · log10(1 / MSE)`; infinite for
    /// identical images.
    public let psnr: Double
    /// Mean structural similarity of the luma (Wang et al. 2004), 1 for identical images.
    public let ssim: Double
    /// The largest channel difference, as a fraction of full scale.
    public let maxError: Double
    /// The mean absolute channel difference, as a fraction of full scale.
    public let meanAbsoluteError: Double
    /// The share of pixels (0...1) with some channel off by more than ``threshold``.
    public let shareOverThreshold: Double
    /// The threshold of ``shareOverThreshold``, as a fraction of full scale.
    public let threshold: Double

    /// Compares `a` with `b`; `threshold` (a fraction of full scale, default one 8-bit step)
    /// decides which pixels count as different.
    ///
    /// - Precondition: the images have the same size (check ``sizesMatch(_:_:)`` first).
    public init(_ a: AnyRGBAImage, _ b: AnyRGBAImage, threshold: Double = 1.0 / 255) {
        precondition(Self.sizesMatch(a, b), "the images must have the same size")
        width = a.width
        height = a.height
        self.threshold = threshold
        let x = NormalizedImage(a), y = NormalizedImage(b)
        var squared = 0.0, absolute = 0.0, worst = 0.0
        var over = 0
        let pixels = a.width * a.height
        x.values.withUnsafeBufferPointer { xs in
            y.values.withUnsafeBufferPointer { ys in
                for pixel in 0..<pixels {
                    var pixelWorst = 0.0
                    for c in 0..<4 {
                        let d = abs(xs[pixel * 4 + c] - ys[pixel * 4 + c])
                        squared += d * d
                        absolute += d
                        pixelWorst = max(pixelWorst, d)
                    }
                    worst = max(worst, pixelWorst)
                    if pixelWorst > threshold * (1 + 1e-6) { over += 1 }
                }
            }
        }
        let count = Double(max(1, pixels * 4))
        let mse = squared / count
        psnr = mse == 0 ? .infinity : 10 * log10(1 / mse)
        maxError = worst
        meanAbsoluteError = absolute / count
        shareOverThreshold = Double(over) / Double(max(1, pixels))
        ssim = SSIM.mean(x.luma(), y.luma(), width: a.width, height: a.height)
    }

    /// Whether two images can be compared.
    public static func sizesMatch(_ a: AnyRGBAImage, _ b: AnyRGBAImage) -> Bool {
        a.width == b.width && a.height == b.height
    }
}

/// An image's channels as fractions of full scale, RGBA interleaved. Doubles: `v / 255` and
/// `257 v / 65535` are then the same number, so an 8-bit image equals its 16-bit widening.
struct NormalizedImage {
    let width: Int
    let height: Int
    let values: [Double]

    init(_ image: AnyRGBAImage) {
        width = image.width
        height = image.height
        switch image {
        case .rgba8(let i): values = i.channels.map { Double($0) / 255 }
        case .rgba16(let i): values = i.channels.map { Double($0) / 65535 }
        }
    }

    /// Rec. 709 luma of the stored RGB (alpha ignored), in float32 for SSIM.
    func luma() -> [Float] {
        (0..<(width * height)).map { p in
            let r = Float(values[p * 4]), g = Float(values[p * 4 + 1]), b = Float(values[p * 4 + 2])
            return 0.2126 * r + 0.7152 * g + 0.0722 * b
        }
    }
}
