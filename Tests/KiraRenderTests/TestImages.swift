import KiraImage

/// Small deterministic images for render tests (the pixel work runs in debug builds here).
enum TestImages {
    /// Art with smooth gradients, some transparency and a hard edge.
    static func art<C: ImageChannel>(width: Int, height: Int, as: C.Type = UInt8.self) -> RGBAImage<C> {
        var image = try! RGBAImage<C>(width: width, height: height)
        let maxValue = Int(C.max)
        for y in 0..<height {
            for x in 0..<width {
                let r = maxValue * x / max(1, width - 1)
                let g = maxValue * y / max(1, height - 1)
                let b = (x * 37 + y * 11) % (maxValue + 1)
                let a = x < width / 8 ? maxValue / 2 : maxValue
                image[x, y] = SIMD4(C(r), C(g / 2), C(b), C(a))
            }
        }
        return image
    }

    /// A gray mask with soft steps, optionally of another size than the art.
    static func mask<C: ImageChannel>(width: Int, height: Int, as: C.Type = UInt8.self) -> RGBAImage<C> {
        var image = try! RGBAImage<C>(width: width, height: height)
        let maxValue = Int(C.max)
        for y in 0..<height {
            for x in 0..<width {
                let v = ((x / 3 + y / 2) % 5) * maxValue / 4
                image[x, y] = SIMD4(C(v), C(v), C(v), C(maxValue))
            }
        }
        return image
    }
}
