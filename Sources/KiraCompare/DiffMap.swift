import KiraImage

/// A heat map of where two images differ, for looking at.
public enum DiffMap {
    /// The memory of a heat map of `width` × `height` images: its 8-bit pixels and, at most, as
    /// many again for its PNG bytes.
    public static func estimatedBytes(width: Int, height: Int) -> Int {
        2 * MemoryBudget.imageBytes(width: width, height: height, channelBytes: 1)
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
        var map = RGBAImage<UInt8>(width: width, height: height)
        let stops: [SIMD3<Float>] = [SIMD3(0, 0, 0), SIMD3(0.1, 0.1, 0.6), SIMD3(0.85, 0.1, 0.1), SIMD3(1, 0.6, 0), SIMD3(1, 1, 1)]
        for p in 0..<(width * height) {
            var worst = 0.0
            for c in 0..<4 { worst = max(worst, abs(Double(xs[p * 4 + c]) / xScale - Double(ys[p * 4 + c]) / yScale)) }
            var color = SIMD3<Float>(0, 0, 0)
            if worst > 0 {
                // Any difference gets at least the first colour step.
                let t = Float(min(1, max(0.25, worst / fullScale))) * Float(stops.count - 1)
                let i = min(Int(t), stops.count - 2)
                color = stops[i] + (stops[i + 1] - stops[i]) * (t - Float(i))
            }
            let rgb = (color * 255).rounded(.toNearestOrEven)
            map.channels[p * 4] = UInt8(rgb.x)
            map.channels[p * 4 + 1] = UInt8(rgb.y)
            map.channels[p * 4 + 2] = UInt8(rgb.z)
            map.channels[p * 4 + 3] = 255
        }
        return map
    }
}
