import KiraFormats
import KiraImage

extension AnyRGBAImage {
    /// The image composited onto the opaque colour `matte` (straight alpha, rounded to nearest),
    /// at its own depth: what comparing over a background sees. An 8-bit image becomes exactly what
    /// Kira stores in a JPEG flattened onto the same colour.
    public func flattened(onto matte: SIMD3<UInt8>) -> AnyRGBAImage {
        switch self {
        case .rgba8(let image):
            return .rgba8(image.flattened(onto: matte))
        case .rgba16(var image):
            let m = [UInt32(matte.x) * 257, UInt32(matte.y) * 257, UInt32(matte.z) * 257]
            image.channels.withUnsafeMutableBufferPointer { p in
                for i in stride(from: 0, to: p.count, by: 4) where p[i + 3] != 65535 {
                    let a = UInt64(p[i + 3])
                    for c in 0..<3 { p[i + c] = UInt16((UInt64(p[i + c]) * a + UInt64(m[c]) * (65535 - a) + 32767) / 65535) }
                    p[i + 3] = 65535
                }
            }
            return .rgba16(image)
        }
    }
}
