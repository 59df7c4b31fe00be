#if hasFeature(Embedded)
/// An unsigned integer type that can hold one channel of an RGBA sample.
public protocol ImageChannel: FixedWidthInteger, UnsignedInteger, SIMDScalar, Sendable {
    /// Bits per channel: 8 or 16.
    static var bitDepth: Int { get }
}
#else
/// An unsigned integer type that can hold one channel of an RGBA sample. (Codable because the
/// SIMD storage of a `SIMDScalar` is; Embedded Swift, for WebAssembly, has no Codable.)
public protocol ImageChannel: FixedWidthInteger, UnsignedInteger, SIMDScalar, Codable, Sendable {
    /// Bits per channel: 8 or 16.
    static var bitDepth: Int { get }
}
#endif

extension UInt8: ImageChannel {
    public static var bitDepth: Int { 8 }
}

extension UInt16: ImageChannel {
    public static var bitDepth: Int { 16 }
}

/// A straight (not premultiplied) RGBA image, rows top to bottom, channels interleaved R, G, B, A.
///
/// `Channel` is `UInt8` for 8-bit images and `UInt16` (native-endian) for 16-bit ones.
public struct RGBAImage<Channel: ImageChannel>: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 4` channel values. Renderers refuse an image whose channels were
    /// changed to another count (``checkChannels()``).
    public var channels: [Channel]

    /// A `width` × `height` image with every channel zero (transparent black).
    ///
    /// Throws, before anything is allocated, when a side is negative or the size is over
    /// ``ImageLimits/standard``.
    @inlinable
    public init(width: Int, height: Int) throws(ImageError) {
        try ImageLimits.standard.check(width: width, height: height)
        self.init(checkedWidth: width, height: height)
    }

    /// An image over existing channel values; `channels.count` must be `width * height * 4`.
    ///
    /// Throws when a side is negative, the size is over ``ImageLimits/standard``, or the count
    /// does not match.
    @inlinable
    public init(width: Int, height: Int, channels: [Channel]) throws(ImageError) {
        try ImageLimits.standard.check(width: width, height: height)
        guard channels.count == width * height * 4 else {
            throw .channelCount(width: width, height: height, count: channels.count)
        }
        self.init(checkedWidth: width, height: height, channels: channels)
    }

    /// The empty image, 0 × 0: what a renderer is given to size as it needs.
    @inlinable
    public init() {
        self.init(checkedWidth: 0, height: 0, channels: [])
    }

    /// An image of the size of `other` with every channel zero: a size another image has is
    /// within the limits, so this cannot fail.
    @inlinable
    public init<Other: ImageChannel>(sizeOf other: RGBAImage<Other>) {
        self.init(checkedWidth: other.width, height: other.height)
    }

    /// A zeroed image whose size the caller has checked against ``ImageLimits/standard`` (or
    /// taken from an image, which was).
    @inlinable
    package init(checkedWidth width: Int, height: Int) {
        self.init(checkedWidth: width, height: height, channels: Channel.zeroed(count: width * height * 4))
    }

    /// An image over channel values whose count the caller has checked against its size.
    @inlinable
    package init(checkedWidth width: Int, height: Int, channels: [Channel]) {
        self.width = width
        self.height = height
        self.channels = channels
    }

    /// Throws when ``channels`` no longer holds `width × height × 4` values: it is a public
    /// variable, and the renderers read the channels by the size. What every renderer checks
    /// before it reads an image.
    @inlinable
    public func checkChannels() throws(ImageError) {
        guard channels.count == width * height * 4 else {
            throw .channelCount(width: width, height: height, count: channels.count)
        }
    }

    /// Bits per channel.
    public var bitDepth: Int { Channel.bitDepth }

    /// The RGBA sample at (`x`, `y`).
    @inlinable
    public subscript(x: Int, y: Int) -> SIMD4<Channel> {
        get {
            let i = (y * width + x) * 4
            return SIMD4(channels[i], channels[i + 1], channels[i + 2], channels[i + 3])
        }
        set {
            let i = (y * width + x) * 4
            channels[i] = newValue.x
            channels[i + 1] = newValue.y
            channels[i + 2] = newValue.z
            channels[i + 3] = newValue.w
        }
    }
}

/// An image of either bit depth, as a PNG file may hold.
public enum AnyRGBAImage: Sendable, Equatable {
    case rgba8(RGBAImage<UInt8>)
    case rgba16(RGBAImage<UInt16>)

    public var width: Int {
        switch self {
        case .rgba8(let image): image.width
        case .rgba16(let image): image.width
        }
    }

    public var height: Int {
        switch self {
        case .rgba8(let image): image.height
        case .rgba16(let image): image.height
        }
    }

    public var bitDepth: Int {
        switch self {
        case .rgba8: 8
        case .rgba16: 16
        }
    }

    /// The image at 8 bits per channel; 16-bit channels are rounded (`v * 255 / 65535`).
    public var rgba8: RGBAImage<UInt8> {
        switch self {
        case .rgba8(let image):
            return image
        case .rgba16(let image):
            return RGBAImage<UInt8>(
                checkedWidth: image.width, height: image.height,
                channels: image.channels.map { UInt8((UInt32($0) * 255 + 32767) / 65535) })
        }
    }

    /// The image at 16 bits per channel; 8-bit channels are widened exactly (`v * 257`).
    public var rgba16: RGBAImage<UInt16> {
        switch self {
        case .rgba8(let image):
            return RGBAImage<UInt16>(
                checkedWidth: image.width, height: image.height,
                channels: image.channels.map { UInt16($0) &* 257 })
        case .rgba16(let image):
            return image
        }
    }
}

extension ImageChannel {
    /// `count` zero channels. The bytes are cleared in one call: a generic
    /// `Array(repeating:count:)` that the compiler does not specialise copies element by element.
    @inlinable
    public static func zeroed(count: Int) -> [Self] {
        // An empty array must not come from `unsafeUninitializedCapacity`: with capacity 0 it
        // writes the count into the shared empty-array storage, a data race between threads.
        guard count > 0 else { return [] }
        return [Self](unsafeUninitializedCapacity: count) { buffer, initialized in
            UnsafeMutableRawPointer(buffer.baseAddress!)
                .initializeMemory(as: UInt8.self, repeating: 0, count: count * MemoryLayout<Self>.stride)
            initialized = count
        }
    }
}

extension RGBAImage {
    /// The image at 8 bits per channel (16-bit channels rounded, as ``AnyRGBAImage/rgba8`` does).
    package var eightBit: RGBAImage<UInt8> {
        if let image = self as? RGBAImage<UInt8> { return image }
        return AnyRGBAImage.rgba16(self as! RGBAImage<UInt16>).rgba8
    }

    /// Whether every pixel is fully opaque.
    public var isOpaque: Bool {
        channels.withUnsafeBufferPointer { c in stride(from: 3, to: c.count, by: 4).allSatisfy { c[$0] == Channel.max } }
    }
}

extension AnyRGBAImage {
    /// Whether every pixel is fully opaque.
    public var isOpaque: Bool {
        switch self {
        case .rgba8(let image): image.isOpaque
        case .rgba16(let image): image.isOpaque
        }
    }
}
