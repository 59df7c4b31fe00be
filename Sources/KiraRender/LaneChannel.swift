import KiraImage
import KiraShader

/// An image channel type the renderer can read and write sixteen pixels at a time.
///
/// Conversions are defined once here for both paths: a stored value `v` reads as
/// `Float(v) * (1 / maxValue)` (within an ulp of `v / maxValue`, exactly 1 at the maximum, and a
/// multiply instead of a divide in the inner loop), and a float `f` is stored as `round(clamp(f, 0, 1) * maxValue)`, ties to
/// even (``SIMD16/quantized(_:maxValue:)``).
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
        @inline(__always) func channel(_ shift: UInt32) -> Lanes { Lanes(exactly: (v &>> shift) & 0xFF) * (1 / Float(255)) }
        return (RGBLanes(channel(0), channel(8), channel(16)), channel(24))
    }

    @inlinable @inline(__always)
    public static func storeLanes(_ rgb: RGBLanes, alpha: Lanes, to p: UnsafeMutableRawPointer) {
        let r = Lanes.quantized(rgb.r, maxValue: 255)
        let g = Lanes.quantized(rgb.g, maxValue: 255)
        let b = Lanes.quantized(rgb.b, maxValue: 255)
        let a = Lanes.quantized(alpha, maxValue: 255)
        p.storeBytes(of: r | (g &<< 8) | (b &<< 16) | (a &<< 24), as: SIMD16<UInt32>.self)
    }
}

extension UInt16: LaneChannel {
    public static var maxFloat: Float { 65535 }

    @inlinable @inline(__always)
    public static func loadLanes(_ p: UnsafeRawPointer) -> (rgb: RGBLanes, alpha: Lanes) {
        // Each pixel is two 32-bit words: R | G << 16, then B | A << 16.
        let words = p.loadUnaligned(as: SIMD32<UInt32>.self)
        let rg = words.evenHalf, ba = words.oddHalf
        @inline(__always) func low(_ w: SIMD16<UInt32>) -> Lanes { Lanes(exactly: w & 0xFFFF) * (1 / Float(65535)) }
        @inline(__always) func high(_ w: SIMD16<UInt32>) -> Lanes { Lanes(exactly: w &>> 16) * (1 / Float(65535)) }
        return (RGBLanes(low(rg), high(rg), low(ba)), high(ba))
    }

    @inlinable @inline(__always)
    public static func storeLanes(_ rgb: RGBLanes, alpha: Lanes, to p: UnsafeMutableRawPointer) {
        let rg = Lanes.quantized(rgb.r, maxValue: 65535) | (Lanes.quantized(rgb.g, maxValue: 65535) &<< 16)
        let ba = Lanes.quantized(rgb.b, maxValue: 65535) | (Lanes.quantized(alpha, maxValue: 65535) &<< 16)
        var words = SIMD32<UInt32>()
        words.evenHalf = rg
        words.oddHalf = ba
        p.storeBytes(of: words, as: SIMD32<UInt32>.self)
    }
}
