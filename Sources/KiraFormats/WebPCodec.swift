import CKiraFormats
import KiraFiles
import KiraImage

/// WebP files through libwebp: lossy (VP8, alpha stored losslessly beside it) or lossless (VP8L,
/// every sample kept, the colour of transparent pixels too).
public enum WebPCodec {
    /// The qualities of a lossy WebP: 0 (smallest) to 100.
    public static let qualities = 0...100

    /// `image` as a WebP file: lossy at `quality`, or lossless; with the ICC profile `profile`
    /// (none when empty). An opaque image is stored without an alpha channel.
    public static func encode(_ image: RGBAImage<UInt8>, quality: Int, lossless: Bool, profile: [UInt8] = ColorProfile.sRGB)
        throws(ImageFileError) -> [UInt8]
    {
        precondition(qualities.contains(quality), "a WebP quality is 0...100")
        var output = kira_bytes()
        let failure = image.channels.withUnsafeBufferPointer { pixels in
            profile.withUnsafeBufferPointer { icc in
                failureMessage {
                    kira_webp_encode(pixels.baseAddress, UInt32(image.width), UInt32(image.height), image.width * 4,
                                     Int32(quality), lossless ? 1 : 0, icc.baseAddress, icc.count, &output, $0)
                }
            }
        }
        if let failure { throw ImageFileError(path: "<WebP encoder>", reason: failure) }
        return output.take()
    }

    /// The size a still WebP file declares and whether it stores alpha, from its header alone:
    /// what ``decodeFile(_:name:limits:)`` checks before it decodes.
    public static func header(_ bytes: [UInt8], name: String = "<memory>") throws(ImageFileError) -> (width: Int, height: Int, hasAlpha: Bool) {
        var width: UInt32 = 0, height: UInt32 = 0
        var alpha: Int32 = 0, animated: Int32 = 0
        guard kira_webp_info(bytes, bytes.count, &width, &height, &alpha, &animated) != 0 else {
            throw ImageFileError(path: name, reason: "not a WebP file libwebp can read")
        }
        if animated != 0 { throw ImageFileError(path: name, reason: "an animated WebP; only a still WebP is read") }
        return (Int(width), Int(height), alpha != 0)
    }

    /// Decodes a still WebP file into RGBA, and whether it stores alpha, refusing one larger than
    /// `limits` from its header, before anything is decoded.
    public static func decodeFile(_ bytes: [UInt8], name: String = "<memory>", limits: ImageLimits = .standard)
        throws(ImageFileError) -> (image: RGBAImage<UInt8>, hasAlpha: Bool)
    {
        let (width, height, hasAlpha) = try header(bytes, name: name)
        try limits.checkDeclared(width: width, height: height, name: name)
        return (try decode(bytes, name: name), hasAlpha)
    }

    /// Decodes a WebP file into RGBA (for checks and tests; Kira reads art as PNG).
    public static func decode(_ bytes: [UInt8], name: String = "<memory>") throws(ImageFileError) -> RGBAImage<UInt8> {
        var width: UInt32 = 0, height: UInt32 = 0
        var pixels = kira_bytes()
        let failure = bytes.withUnsafeBufferPointer { data in
            failureMessage { kira_webp_decode(data.baseAddress, data.count, &width, &height, &pixels, $0) }
        }
        if let failure { throw ImageFileError(path: name, reason: failure) }
        return try .decoded(width: Int(width), height: Int(height), channels: pixels.take(), path: name)
    }
}
