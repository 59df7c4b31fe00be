import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Structural similarity (Wang, Bovik, Sheikh, Simoncelli 2004) of two single-channel images.
///
/// The local statistics use a Gaussian window of 11 × 11 (σ = 1.5, normalised), with K1 = 0.01,
/// K2 = 0.03 and a data range of 1; variances and covariance are population ones (divided by
/// the window weight, not by n − 1). As scikit-image's `structural_similarity` with
/// `gaussian_weights=True`, the image is extended by reflection at its edges and the mean leaves
/// out a border of 5 pixels; and, as there, images narrower or shorter than the 11-pixel window
/// have no SSIM (scikit-image raises "win_size exceeds image extent").
public enum SSIM {
    /// The window radius: `int(3.5 σ + 0.5)` with σ = 1.5, so 11 taps.
    public static let radius = 5
    public static let sigma = 1.5

    /// The normalised Gaussian taps, `-radius...radius`.
    static let taps: [Float] = {
        let raw = (-radius...radius).map { exp(-0.5 * Double($0 * $0) / (sigma * sigma)) }
        let sum = raw.reduce(0, +)
        return raw.map { Float($0 / sum) }
    }()

    /// The window's side, 11 pixels: the smallest image SSIM is defined for.
    public static var windowSide: Int { 2 * radius + 1 }

    /// The mean SSIM of `x` and `y`, both `width × height` values in 0...1, in −1...1; nil when
    /// the image is smaller than the window (``windowSide``) in either direction.
    public static func mean(_ x: [Float], _ y: [Float], width: Int, height: Int) -> Double? {
        precondition(x.count == width * height && y.count == width * height, "the images must have the given size")
        guard width >= windowSide, height >= windowSide else { return nil }
        let xx = zip(x, x).map { $0 * $1 }, yy = zip(y, y).map { $0 * $1 }, xy = zip(x, y).map { $0 * $1 }
        let mx = blur(x, width, height), my = blur(y, width, height)
        let mxx = blur(xx, width, height), myy = blur(yy, width, height), mxy = blur(xy, width, height)
        let c1 = 0.01 * 0.01, c2 = 0.03 * 0.03
        let border = radius
        var sum = 0.0
        for row in border..<(height - border) {
            for column in border..<(width - border) {
                let i = row * width + column
                let ux = Double(mx[i]), uy = Double(my[i])
                let vx = Double(mxx[i]) - ux * ux, vy = Double(myy[i]) - uy * uy, vxy = Double(mxy[i]) - ux * uy
                let local = ((2 * ux * uy + c1) * (2 * vxy + c2)) / ((ux * ux + uy * uy + c1) * (vx + vy + c2))
                // Exactly, each local value lies in −1...1; float32 blurs of nearly flat patches
                // can round a variance below the covariance and step past 1 by a hair.
                sum += min(1, max(-1, local))
            }
        }
        return sum / Double((width - 2 * border) * (height - 2 * border))
    }

    /// The Gaussian blur of an image, separable, edges extended by reflection
    /// (`d c b a | a b c d | d c b a`), rows in parallel.
    ///
    /// Each output row accumulates whole rows tap by tap, so the inner loops run over contiguous
    /// memory and vectorise; each pixel still sums its 11 products in tap order.
    static func blur(_ image: [Float], _ width: Int, _ height: Int) -> [Float] {
        var horizontal = [Float](repeating: 0, count: image.count)
        var result = [Float](repeating: 0, count: image.count)
        let r = radius
        // Columns whose whole window lies inside the row; the others reflect.
        let inner = width > 2 * r ? r..<(width - r) : 0..<0
        image.withUnsafeBufferPointer { source in
            horizontal.withUnsafeMutableBufferPointer { h in
                let out = UnsafeSendablePointer(h.baseAddress!)
                let input = UnsafeSendablePointer(UnsafeMutablePointer(mutating: source.baseAddress!))
                DispatchQueue.concurrentPerform(iterations: height) { row in
                    let line = input.pointer + row * width, o = out.pointer + row * width
                    Self.taps.withUnsafeBufferPointer { taps in
                        for column in 0..<width where !inner.contains(column) {
                            var total: Float = 0
                            for k in 0...(2 * r) { total += taps[k] * line[reflect(column + k - r, width)] }
                            o[column] = total
                        }
                        guard !inner.isEmpty else { return }
                        let t0 = taps[0]
                        for column in inner { o[column] = t0 * line[column - r] }
                        for k in 1...(2 * r) {
                            let t = taps[k], offset = k - r
                            for column in inner { o[column] += t * line[column &+ offset] }
                        }
                    }
                }
            }
        }
        horizontal.withUnsafeBufferPointer { source in
            result.withUnsafeMutableBufferPointer { v in
                let out = UnsafeSendablePointer(v.baseAddress!)
                let input = UnsafeSendablePointer(UnsafeMutablePointer(mutating: source.baseAddress!))
                DispatchQueue.concurrentPerform(iterations: height) { row in
                    let o = out.pointer + row * width
                    Self.taps.withUnsafeBufferPointer { taps in
                        let first = input.pointer + reflect(row - r, height) * width, t0 = taps[0]
                        for column in 0..<width { o[column] = t0 * first[column] }
                        for k in 1...(2 * r) {
                            let t = taps[k], line = input.pointer + reflect(row + k - r, height) * width
                            for column in 0..<width { o[column] += t * line[column] }
                        }
                    }
                }
            }
        }
        return result
    }
}

/// The index of `i` in `0..<n` after reflecting at the edges, repeatedly for windows wider than
/// the image.
@inline(__always)
func reflect(_ i: Int, _ n: Int) -> Int {
    var i = i
    while i < 0 || i >= n { i = i < 0 ? -i - 1 : 2 * n - i - 1 }
    return i
}

/// A pointer handed to worker threads that write disjoint parts of its buffer.
struct UnsafeSendablePointer<T>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<T>
    init(_ pointer: UnsafeMutablePointer<T>) { self.pointer = pointer }
}
