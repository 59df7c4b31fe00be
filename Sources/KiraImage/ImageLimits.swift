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
    /// is decoded, not a pixel count.
    public static let standard = ImageLimits(maxSide: 16384, maxPixels: 16384 * 16384)
}
