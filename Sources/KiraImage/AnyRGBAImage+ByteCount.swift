extension AnyRGBAImage {
    /// The bytes its channels take.
    public var byteCount: Int {
        Self.byteCount(width: width, height: height, channelBytes: bitDepth / 8)
    }

    /// The bytes of a `width` × `height` RGBA image with `channelBytes` bytes a channel.
    public static func byteCount(width: Int, height: Int, channelBytes: Int) -> Int {
        width * height * 4 * channelBytes
    }
}
