import KiraImage
import KiraShader

/// An image channel type the renderer can read and write sixteen pixels at a time.
///
/// The conversions are the lane layer's (`RGBLanes.loadRGBA8` and its kin in KiraShader's
/// `Lanes.swift`), shared with the C kernels: a stored value `v` reads as
/// `Float(v) * (1 / maxValue)`, and a float `f` is stored as `round(clamp(f, 0, 1) * maxValue)`,
/// ties to even; the scalar forms below round alike.
public protocol LaneChannel: ImageChannel {
    /// 255 or 65535.
    static var maxFloat: Float { get }
    /// Reads sixteen RGBA pixels at `p` (no alignment needed).
    static func loadLanes(_ p: UnsafeRawPointer) -> (rgb: RGBLanes, alpha: Lanes)
    /// Stores sixteen RGBA pixels at `p`.
    static func storeLanes(_ rgb: RGBLanes, alpha: Lanes, to p: UnsafeMutableRawPointer)
    /// `image` as an image of either depth.
    static func erased(_ image: RGBAImage<Self>) -> AnyRGBAImage
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
    public static func loadLanes(_ p: UnsafeRawPointer) -> (rgb: RGBLanes, alpha: Lanes) { RGBLanes.loadRGBA8(p) }

    @inlinable @inline(__always)
    public static func storeLanes(_ rgb: RGBLanes, alpha: Lanes, to p: UnsafeMutableRawPointer) {
        RGBLanes.storeRGBA8(rgb, alpha: alpha, to: p)
    }

    public static func erased(_ image: RGBAImage<UInt8>) -> AnyRGBAImage { .rgba8(image) }
}

extension UInt16: LaneChannel {
    public static var maxFloat: Float { 65535 }

    @inlinable @inline(__always)
    public static func loadLanes(_ p: UnsafeRawPointer) -> (rgb: RGBLanes, alpha: Lanes) { RGBLanes.loadRGBA16(p) }

    @inlinable @inline(__always)
    public static func storeLanes(_ rgb: RGBLanes, alpha: Lanes, to p: UnsafeMutableRawPointer) {
        RGBLanes.storeRGBA16(rgb, alpha: alpha, to: p)
    }

    public static func erased(_ image: RGBAImage<UInt16>) -> AnyRGBAImage { .rgba16(image) }
}

// MARK: - Channel types chosen at run time

/// Generic code to run at a channel type chosen at run time: `callAsFunction` is called with
/// `UInt8` or `UInt16` (see ``ChannelDepth/with(bits:_:)``), and the compiler specialises it for
/// both.
package protocol ChannelTypeConsumer {
    associatedtype Result
    func callAsFunction<C: LaneChannel>(_ channel: C.Type) -> Result
}

/// The one place where a bit depth becomes a channel type: code that needs several channel
/// types nests consumers instead of switching over every combination.
package enum ChannelDepth {
    /// Calls `body` with the channel type of `bits` bits (16, otherwise 8).
    @inline(__always)
    package static func with<Body: ChannelTypeConsumer>(bits: Int, _ body: Body) -> Body.Result {
        bits == 16 ? body(UInt16.self) : body(UInt8.self)
    }
}
