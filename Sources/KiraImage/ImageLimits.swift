/// The largest images Kira makes and reads, refused before any pixel memory is allocated.
public struct ImageLimits: Sendable, Equatable {
    /// The largest width or height accepted.
    public var maxSide: Int
    /// The largest `width * height` accepted.
    public var maxPixels: Int

    public init(maxSide: Int, maxPixels: Int) {
        self.maxSide = maxSide
        self.maxPixels = maxPixels
    }

    /// 16384 pixels a side, what `--size` allows: Kira reads every image it writes. What keeps
    /// memory bounded is the budget, against which a file's declared size is checked before it
    /// is decoded, not a pixel count. Every ``RGBAImage`` is made within these limits.
    public static let standard = ImageLimits(maxSide: 16384, maxPixels: 16384 * 16384)

    /// Refuses a `width` × `height` image that has a negative side or is over these limits
    /// (zero sides are allowed: an empty image). No product is formed, so no size traps.
    @inlinable
    public func check(width: Int, height: Int) throws(ImageError) {
        guard width >= 0, height >= 0 else { throw .negativeSize(width: width, height: height) }
        // `width * height <= maxPixels` without the product, which could overflow.
        guard width <= maxSide, height <= maxSide, height == 0 || width <= maxPixels / height else {
            throw .tooLarge(width: width, height: height, limits: self)
        }
    }

    /// `width × height × 4`, the channel values of an RGBA image, or nil when a side is negative
    /// or the count does not fit in an `Int`.
    @inlinable
    public static func channelCount(width: Int, height: Int) -> Int? {
        guard width >= 0, height >= 0 else { return nil }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        let (count, overflow4) = pixels.multipliedReportingOverflow(by: 4)
        return overflow || overflow4 ? nil : count
    }
}
