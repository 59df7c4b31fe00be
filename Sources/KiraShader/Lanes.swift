import CKiraLanes

// The lane layer in Swift: the lane types, Metal's built-ins on them, stored pixels to lanes and
// back, and the one quantiser. The operations come from `kira_lanes.h` (module CKiraLanes), which
// the projection's C kernels (CKiraProjection) share, so that both round alike.

/// Sixteen pixels' worth of one float channel: the unit of work of the fast path.
///
/// Sixteen lanes fill one AVX-512 register, two AVX2 registers or four SSE registers; the code
/// is the same for all three and the compiler splits it as the target allows.
public typealias Lanes = SIMD16<Float>

/// Three channels of ``Lanes``.
public struct RGBLanes: Sendable {
    public var r: Lanes
    public var g: Lanes
    public var b: Lanes

    @inlinable @inline(__always)
    public init(_ r: Lanes, _ g: Lanes, _ b: Lanes) {
        self.r = r
        self.g = g
        self.b = b
    }
}

// Metal's built-ins on lanes, defined exactly as the scalar versions in `SeedShader` so that the
// fast path rounds the same way. The C helpers avoid the per-lane loops Swift's generic SIMD
// versions compile to.
extension Lanes {
    @inlinable @inline(__always)
    package static func floor(_ x: Lanes) -> Lanes { kira_floor(x) }

    @inlinable @inline(__always)
    public static func fract(_ x: Lanes) -> Lanes {
        kira_min(x - kira_floor(x), Lanes(repeating: Float(bitPattern: 0x3F7F_FFFF)))
    }

    @inlinable @inline(__always)
    public static func mix(_ x: Lanes, _ y: Lanes, _ a: Lanes) -> Lanes { x + (y - x) * a }

    /// `step(edge, x)`: 0 where `x < edge`, else 1.
    @inlinable @inline(__always)
    public static func step(_ edge: Lanes, _ x: Lanes) -> Lanes {
        Lanes(repeating: 1).replacing(with: 0, where: x .< edge)
    }

    @inlinable @inline(__always)
    public static func clamp(_ x: Lanes, _ lo: Lanes, _ hi: Lanes) -> Lanes { kira_min(kira_max(x, lo), hi) }

    @inlinable @inline(__always)
    package static func min(_ a: Lanes, _ b: Lanes) -> Lanes { kira_min(a, b) }

    @inlinable @inline(__always)
    package static func max(_ a: Lanes, _ b: Lanes) -> Lanes { kira_max(a, b) }

    @inlinable @inline(__always)
    public static func abs(_ x: Lanes) -> Lanes {
        Lanes(bitPattern: SIMD16<UInt32>(bitPattern: x) & 0x7FFF_FFFF)
    }

    @inlinable @inline(__always)
    package static func sqrt(_ x: Lanes) -> Lanes { kira_sqrt(x) }
}

extension SIMD16<Float> {
    /// Reinterprets the bits of unsigned integer lanes as floats.
    @inlinable @inline(__always)
    init(bitPattern bits: SIMD16<UInt32>) {
        self = unsafeBitCast(bits, to: SIMD16<Float>.self)
    }
}

extension SIMD16<UInt32> {
    /// Reinterprets the bits of float lanes as unsigned integers.
    @inlinable @inline(__always)
    init(bitPattern floats: SIMD16<Float>) {
        self = unsafeBitCast(floats, to: SIMD16<UInt32>.self)
    }
}

// Output quantisation, shared by the scalar and the lane paths so that both round alike.
extension Lanes {
    /// `round(clamp(x, 0, 1) * maxValue)`, ties to even, as integers; `maxValue` ≤ 65535.
    @inlinable @inline(__always)
    package static func quantized(_ x: Lanes, maxValue: Float) -> SIMD16<UInt32> {
        kira_quantize(x, maxValue)
    }
}

extension Float {
    /// `round(clamp(self, 0, 1) * maxValue)`, ties to even: the scalar twin of
    /// ``SIMD16/quantized(_:maxValue:)``.
    @inlinable
    package func quantized(maxValue: Float) -> UInt32 {
        let clamped = Swift.min(Swift.max(self, 0), 1)
        return UInt32((clamped * maxValue).rounded(.toNearestOrEven))
    }
}

// Stored pixels to lanes and back, for both channel depths: a stored value `v` reads as
// `Float(v) * (1 / max)`, and a lane `f` is stored as `round(clamp(f, 0, 1) * max)`, ties to even.
extension RGBLanes {
    /// Sixteen RGBA8 pixels at `p` (no alignment needed), channels in 0...1.
    @inlinable @inline(__always)
    public static func loadRGBA8(_ p: UnsafeRawPointer) -> (rgb: RGBLanes, alpha: Lanes) {
        let v = p.loadUnaligned(as: SIMD16<UInt32>.self)
        return (RGBLanes(kira_rgba8_channel(v, 0), kira_rgba8_channel(v, 8), kira_rgba8_channel(v, 16)),
                kira_rgba8_channel(v, 24))
    }

    /// Stores sixteen RGBA8 pixels at `p`.
    @inlinable @inline(__always)
    public static func storeRGBA8(_ rgb: RGBLanes, alpha: Lanes, to p: UnsafeMutableRawPointer) {
        p.storeBytes(of: kira_rgba8_words(rgb.r, rgb.g, rgb.b, alpha), as: SIMD16<UInt32>.self)
    }

    /// Stores sixteen RGBA8 pixels at `p` whose alpha is that of the RGBA8 pixels `pixels` (as
    /// ``loadRGBA8(_:)`` reads it): the same bytes as ``storeRGBA8(_:alpha:to:)``, the alpha bytes
    /// copied instead of converted twice.
    @inlinable @inline(__always)
    package static func storeRGBA8(_ rgb: RGBLanes, alphaOf pixels: SIMD16<UInt32>, to p: UnsafeMutableRawPointer) {
        p.storeBytes(of: kira_rgba8_words_keeping_alpha(rgb.r, rgb.g, rgb.b, pixels), as: SIMD16<UInt32>.self)
    }

    /// Sixteen RGBA16 pixels at `p` (no alignment needed), channels in 0...1.
    @inlinable @inline(__always)
    public static func loadRGBA16(_ p: UnsafeRawPointer) -> (rgb: RGBLanes, alpha: Lanes) {
        // Each pixel is two 32-bit words: R | G << 16, then B | A << 16.
        let words = p.loadUnaligned(as: SIMD32<UInt32>.self)
        let rg = words.evenHalf, ba = words.oddHalf
        return (RGBLanes(kira_rgba16_channel(rg, 0), kira_rgba16_channel(rg, 16), kira_rgba16_channel(ba, 0)),
                kira_rgba16_channel(ba, 16))
    }

    /// Stores sixteen RGBA16 pixels at `p`.
    @inlinable @inline(__always)
    public static func storeRGBA16(_ rgb: RGBLanes, alpha: Lanes, to p: UnsafeMutableRawPointer) {
        var words = SIMD32<UInt32>()
        words.evenHalf = kira_rgba16_words(rgb.r, rgb.g)
        words.oddHalf = kira_rgba16_words(rgb.b, alpha)
        p.storeBytes(of: words, as: SIMD32<UInt32>.self)
    }
}
