import KiraImage

/// An image's rows in ꟻLIP's opponent space, composited over a background: Y (`116 Y/Yw − 16`),
/// Cx (`500 (X/Xw − Y/Yw)`) and Cz (`200 (Y/Yw − Z/Zw)`).
struct FLIPOpponent: Sendable {
    let image: AnyRGBAImage
    let background: Float
    /// Linear light of every stored value, for opaque pixels.
    let table: [Float]

    init(_ image: AnyRGBAImage, _ background: FLIPBackground) {
        self.image = image
        self.background = background.level
        let fullScale = image.bitDepth == 16 ? 65535 : 255
        table = (0...fullScale).map { FLIP.linear(Float(Double($0) / Double(fullScale))) }
    }

    /// Row `y` as three rows of `padded` floats (Y, Cx, Cz) at `target`, each with `radius` copies
    /// of its first pixel before it and copies of its last after it.
    func row(_ y: Int, into target: UnsafeMutablePointer<Float>, padded: Int, radius: Int) {
        switch image {
        case .rgba8(let x): x.channels.withUnsafeBufferPointer { row($0.baseAddress! + 4 * x.width * y, x.width, 255, target, padded, radius) }
        case .rgba16(let x): x.channels.withUnsafeBufferPointer { row($0.baseAddress! + 4 * x.width * y, x.width, 65535, target, padded, radius) }
        }
    }

    @inline(__always)
    private func row<T: FixedWidthInteger & UnsignedInteger>(_ s: UnsafePointer<T>, _ width: Int, _ fullScale: Int,
                                                              _ target: UnsafeMutablePointer<Float>, _ padded: Int, _ radius: Int) {
        let scale = 1 / Float(fullScale), bg = background
        let toXYZ = FLIP.toXYZ, white = FLIP.white
        table.withUnsafeBufferPointer { lut in
            let l = lut.baseAddress!
            let y = target + radius, cx = y + padded, cz = cx + padded
            for p in 0..<width {
                let s = s + 4 * p
                var rgb: SIMD3<Float>
                if Int(s[3]) == fullScale {
                    rgb = SIMD3(l[Int(s[0])], l[Int(s[1])], l[Int(s[2])])
                } else {
                    // The stored values blended over the background, then decoded.
                    let a = Float(s[3]) * scale
                    rgb = SIMD3(FLIP.linear(Float(s[0]) * scale * a + bg * (1 - a)),
                                FLIP.linear(Float(s[1]) * scale * a + bg * (1 - a)),
                                FLIP.linear(Float(s[2]) * scale * a + bg * (1 - a)))
                }
                let xyz = SIMD3((toXYZ.0 * rgb).sum(), (toXYZ.1 * rgb).sum(), (toXYZ.2 * rgb).sum()) / white
                y[p] = 116 * xyz.y - 16
                cx[p] = 500 * (xyz.x - xyz.y)
                cz[p] = 200 * (xyz.y - xyz.z)
            }
        }
        for plane in 0..<3 {
            let row = target + plane * padded
            (row).update(repeating: row[radius], count: radius)
            (row + radius + width).update(repeating: row[radius + width - 1], count: padded - radius - width)
        }
    }
}
