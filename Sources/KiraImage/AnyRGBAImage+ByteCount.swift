extension AnyRGBAImage {
    /// The bytes its channels take.
    public var byteCount: Int {
        Self.byteCount(width: width, height: height, channelBytes: bitDepth / 8)
    }

    /// The bytes of a `width` × `height` RGBA image with `channelBytes` bytes a channel: an
    /// estimate to check against a budget, so it saturates at `Int.max` (more than any budget)
    /// instead of overflowing, and a negative factor counts as 0.
    public static func byteCount(width: Int, height: Int, channelBytes: Int) -> Int {
        guard width > 0, height > 0, channelBytes > 0 else { return 0 }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        let (channels, overflow4) = pixels.multipliedReportingOverflow(by: 4)
        let (bytes, overflowBytes) = channels.multipliedReportingOverflow(by: channelBytes)
        return overflow || overflow4 || overflowBytes ? Int.max : bytes
    }
}
