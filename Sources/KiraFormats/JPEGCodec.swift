import CKiraFormats
import KiraFiles
import KiraImage

/// JPEG files through libjpeg-turbo: baseline, 4:2:0 chroma, Huffman tables optimised per image
/// (what `cjpeg -optimize` writes).
public enum JPEGCodec {
    /// The qualities of a JPEG: 1 (smallest) to 100.
    public static let qualities = 1...100

    /// The RGB of `image` as a JPEG file at `quality` (its alpha is ignored: flatten it first,
    /// `RGBAImage.flattened(onto:)`), with the ICC profile `profile` (none when empty).
    public static func encode(_ image: RGBAImage<UInt8>, quality: Int, profile: [UInt8] = ColorProfile.sRGB)
        throws(ImageFileError) -> [UInt8]
    {
        precondition(qualities.contains(quality), "a JPEG quality is 1...100")
        var output = kira_bytes()
        let failure = image.channels.withUnsafeBufferPointer { pixels in
            profile.withUnsafeBufferPointer { icc in
                failureMessage {
                    kira_jpeg_encode(pixels.baseAddress, UInt32(image.width), UInt32(image.height), image.width * 4,
                                     Int32(quality), icc.baseAddress, icc.count, &output, $0)
                }
            }
        }
        if let failure { throw ImageFileError(path: "<JPEG encoder>", reason: failure) }
        return output.take()
    }

    /// The size a JPEG file declares, from its header alone: what
    /// ``decodeFile(_:name:limits:)`` checks before it decodes.
    public static func header(_ bytes: [UInt8], name: String = "<memory>") throws(ImageFileError) -> (width: Int, height: Int) {
        var width: UInt32 = 0, height: UInt32 = 0
        let failure = bytes.withUnsafeBufferPointer { data in
            failureMessage { kira_jpeg_info(data.baseAddress, data.count, &width, &height, $0) }
        }
        if let failure { throw ImageFileError(path: name, reason: failure) }
        return (Int(width), Int(height))
    }

    /// Decodes a JPEG file into opaque RGBA, refusing one larger than `limits` from its header,
    /// before anything is decoded.
    public static func decodeFile(_ bytes: [UInt8], name: String = "<memory>", limits: ImageLimits = .standard)
        throws(ImageFileError) -> RGBAImage<UInt8>
    {
        let (width, height) = try header(bytes, name: name)
        try limits.checkDeclared(width: width, height: height, name: name)
        return try decode(bytes, name: name).image
    }

    /// Decodes a JPEG file into opaque RGBA, with its ICC profile (empty when it has none): for
    /// checks and tests.
    public static func decode(_ bytes: [UInt8], name: String = "<memory>") throws(ImageFileError)
        -> (image: RGBAImage<UInt8>, profile: [UInt8])
    {
        var width: UInt32 = 0, height: UInt32 = 0
        var pixels = kira_bytes(), icc = kira_bytes()
        let failure = bytes.withUnsafeBufferPointer { data in
            failureMessage { kira_jpeg_decode(data.baseAddress, data.count, &width, &height, &pixels, &icc, $0) }
        }
        if let failure { throw ImageFileError(path: name, reason: failure) }
        return (try .decoded(width: Int(width), height: Int(height), channels: pixels.take(), path: name), icc.take())
    }
}

extension RGBAImage<UInt8> {
    /// The image composited onto the opaque colour `matte` (straight alpha, rounded to nearest):
    /// what a format without alpha stores. Opaque pixels are unchanged.
    public func flattened(onto matte: SIMD3<UInt8>) -> RGBAImage<UInt8> {
        var output = self
        let m = [UInt32(matte.x), UInt32(matte.y), UInt32(matte.z)]
        output.channels.withUnsafeMutableBufferPointer { p in
            for i in stride(from: 0, to: p.count, by: 4) where p[i + 3] != 255 {
                let a = UInt32(p[i + 3])
                for c in 0..<3 { p[i + c] = UInt8((UInt32(p[i + c]) * a + m[c] * (255 - a) + 127) / 255) }
                p[i + 3] = 255
            }
        }
        return output
    }
}
