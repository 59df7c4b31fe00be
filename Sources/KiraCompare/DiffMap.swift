import KiraFiles
import KiraImage

/// A heat map of where two images differ, for looking at.
public enum DiffMap {
    /// The memory of a heat map of `width` × `height` images with its legend
    /// (``DiffMapLegend``): the map's 8-bit pixels, the map with the legend, and, at most, as many
    /// again for its PNG bytes.
    public static func estimatedBytes(width: Int, height: Int) -> Int {
        let legended = MemoryBudget.imageBytes(width: max(width, DiffMapLegend.minimumWidth), height: height + DiffMapLegend.height,
                                               channelBytes: 1)
        return MemoryBudget.imageBytes(width: width, height: height, channelBytes: 1) + 2 * legended
    }

    /// One pixel per pixel: black where the images agree, then dark blue, red, orange and white
    /// as the largest channel difference grows to `fullScale` (a fraction of full scale; default
    /// 16 8-bit steps, so that a difference of one step is already visible).
    public static func heatMap(_ a: AnyRGBAImage, _ b: AnyRGBAImage, fullScale: Double = 16.0 / 255) -> RGBAImage<UInt8> {
        precondition(ImageComparison.sizesMatch(a, b), "the images must have the same size")
        // The channels are read in place: a copy as doubles would take 8 bytes a channel.
        return switch (a, b) {
        case (.rgba8(let x), .rgba8(let y)): heatMap(x.channels, 255, y.channels, 255, a.width, a.height, fullScale)
        case (.rgba8(let x), .rgba16(let y)): heatMap(x.channels, 255, y.channels, 65535, a.width, a.height, fullScale)
        case (.rgba16(let x), .rgba8(let y)): heatMap(x.channels, 65535, y.channels, 255, a.width, a.height, fullScale)
        case (.rgba16(let x), .rgba16(let y)): heatMap(x.channels, 65535, y.channels, 65535, a.width, a.height, fullScale)
        }
    }

    /// Channels count as `v / scale` (correctly rounded: an 8-bit `v / 255` equals its 16-bit
    /// widening `257 v / 65535`).
    private static func heatMap<X: FixedWidthInteger & UnsignedInteger, Y: FixedWidthInteger & UnsignedInteger>(
        _ xs: [X], _ xScale: Double, _ ys: [Y], _ yScale: Double, _ width: Int, _ height: Int, _ fullScale: Double
    ) -> RGBAImage<UInt8> {
        // The size of the images compared, which are within the limits.
        var map = RGBAImage<UInt8>(checkedWidth: width, height: height)
        for p in 0..<(width * height) {
            var worst = 0.0
            for c in 0..<4 { worst = max(worst, abs(Double(xs[p * 4 + c]) / xScale - Double(ys[p * 4 + c]) / yScale)) }
            map.set(p, color(for: worst, fullScale: fullScale))
        }
        return map
    }

    /// The map's colour for a difference of `error` (a fraction of full scale): black for none,
    /// then dark blue, red, orange and white as it grows to `fullScale`.
    package static func color(for error: Double, fullScale: Double) -> SIMD3<UInt8> {
        let stops: [SIMD3<Float>] = [SIMD3(0, 0, 0), SIMD3(0.1, 0.1, 0.6), SIMD3(0.85, 0.1, 0.1), SIMD3(1, 0.6, 0), SIMD3(1, 1, 1)]
        var color = SIMD3<Float>(0, 0, 0)
        if error > 0 {
            // Any difference gets at least the first colour step.
            let t = Float(min(1, max(0.25, error / fullScale))) * Float(stops.count - 1)
            let i = min(Int(t), stops.count - 2)
            color = stops[i] + (stops[i + 1] - stops[i]) * (t - Float(i))
        }
        return SIMD3<UInt8>((color * 255).rounded(.toNearestOrEven))
    }
}

extension RGBAImage<UInt8> {
    /// Sets pixel `index` (row-major) to the opaque colour `rgb`.
    mutating func set(_ index: Int, _ rgb: SIMD3<UInt8>) {
        channels[index * 4] = rgb.x
        channels[index * 4 + 1] = rgb.y
        channels[index * 4 + 2] = rgb.z
        channels[index * 4 + 3] = 255
    }
}
