import CKiraLanes
import KiraImage
import KiraShader

/// An image channel type the renderer can read and write sixteen pixels at a time.
///
/// The conversions are the lane layer's (`kira_lanes.h`), shared with its C kernels: a stored
/// value `v` reads as `Float(v) * (1 / maxValue)`, and a float `f` is stored as
/// `round(clamp(f, 0, 1) * maxValue)`, ties to even; the scalar forms below round alike.
public protocol LaneChannel: ImageChannel {
    /// 255 or 65535.
    static var maxFloat: Float { get }
    /// Reads sixteen RGBA pixels at `p` (no alignment needed).
    static func loadLanes(_ p: UnsafeRawPointer) -> (rgb: RGBLanes, alpha: Lanes)
    /// Stores sixteen RGBA pixels at `p`.
    static func storeLanes(_ rgb: RGBLanes, alpha: Lanes, to p: UnsafeMutableRawPointer)
}

extension LaneChannel {
    /// The value of a stored channel, in 0...1.
    @inlinable
    public static func normalized(_ v: Self) -> Float { Float(v) * (1 / maxFloat) }

    /// The stored channel for `f` (clamped to 0...1).
    @inlinable
    public static func quantize(_ f: Float) -> Self { Self(f.quantized(maxValue: maxFloat)) }
}

extension UInt8: LaneChannel {
    public static var maxFloat: Float { 255 }

    @inlinable @inline(__always)
    public static func loadLanes(_ p: UnsafeRawPointer) -> (rgb: RGBLanes, alpha: Lanes) {
        let v = p.loadUnaligned(as: SIMD16<UInt32>.self)
        return (RGBLanes(kira_rgba8_channel(v, 0), kira_rgba8_channel(v, 8), kira_rgba8_channel(v, 16)),
                kira_rgba8_channel(v, 24))
    }

    @inlinable @inline(__always)
    public static func storeLanes(_ rgb: RGBLanes, alpha: Lanes, to p: UnsafeMutableRawPointer) {
        p.storeBytes(of: kira_rgba8_words(rgb.r, rgb.g, rgb.b, alpha), as: SIMD16<UInt32>.self)
    }
}

extension UInt16: LaneChannel {
    public static var maxFloat: Float { 65535 }

    @inlinable @inline(__always)
    public static func loadLanes(_ p: UnsafeRawPointer) -> (rgb: RGBLanes, alpha: Lanes) {
        // Each pixel is two 32-bit words: R | G << 16, then B | A << 16.
        let words = p.loadUnaligned(as: SIMD32<UInt32>.self)
        let rg = words.evenHalf, ba = words.oddHalf
        return (RGBLanes(kira_rgba16_channel(rg, 0), kira_rgba16_channel(rg, 16), kira_rgba16_channel(ba, 0)),
                kira_rgba16_channel(ba, 16))
    }

    @inlinable @inline(__always)
    public static func storeLanes(_ rgb: RGBLanes, alpha: Lanes, to p: UnsafeMutableRawPointer) {
        var words = SIMD32<UInt32>()
        words.evenHalf = kira_rgba16_words(rgb.r, rgb.g)
        words.oddHalf = kira_rgba16_words(rgb.b, alpha)
        p.storeBytes(of: words, as: SIMD32<UInt32>.self)
    }
}
