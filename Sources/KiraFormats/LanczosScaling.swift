import CKiraFormats
import KiraFiles
import KiraImage

extension RGBAImage {
    /// The image scaled to `width` × `height` with libswscale's Lanczos filter (3 lobes), the
    /// filter `kira animate`'s videos are scaled with (ffmpeg's `scale=…:flags=lanczos`).
    ///
    /// Colour is scaled in premultiplied form when the image has any transparency, so that
    /// transparent pixels (whatever colour they store) do not bleed into their neighbours: an
    /// 8-bit image is premultiplied into 16 bits for that, so no precision is lost; an opaque image
    /// is scaled as stored. The same size returns the image unchanged.
    /// Throws when the new size has no pixels or is over ``/KiraImage/ImageLimits/standard``.
    public func lanczosScaled(width newWidth: Int, height newHeight: Int) throws(ImageFileError) -> RGBAImage {
        guard newWidth > 0, newHeight > 0 else {
            throw ImageFileError(path: "<scaler>", .empty(width: newWidth, height: newHeight))
        }
        if newWidth == width && newHeight == height { return self }
        if isOpaque { return try Self.scale(self, width: newWidth, height: newHeight, bilinear: false) }
        let premultiplied = Premultiplied.of(self)
        let scaled = try RGBAImage<UInt16>.scale(premultiplied, width: newWidth, height: newHeight, bilinear: false)
        return Premultiplied.straight(scaled, as: Channel.self)
    }

    /// The image scaled to `width` × `height` with libswscale's bilinear filter, every channel as
    /// stored (alpha included, nothing premultiplied): for maps whose channels are values, not colour
    /// over a background — a holo mask or a foil map fitted to its art.
    package func bilinearScaled(width newWidth: Int, height newHeight: Int) throws(ImageFileError) -> RGBAImage {
        precondition(newWidth > 0 && newHeight > 0, "the new size must not be empty")
        if newWidth == width && newHeight == height { return self }
        return try Self.scale(self, width: newWidth, height: newHeight, bilinear: true)
    }

    private static func scale(_ image: RGBAImage, width: Int, height: Int, bilinear: Bool) throws(ImageFileError) -> RGBAImage {
        var output = try RGBAImage.zeroed(width: width, height: height, path: "<scaler>")
        let failure = image.channels.withUnsafeBytes { source in
            output.channels.withUnsafeMutableBytes { target in
                failureMessage {
                    kira_scale_rgba(source.baseAddress, UInt32(image.width), UInt32(image.height), image.width * 4 * MemoryLayout<Channel>.size,
                                    target.baseAddress, UInt32(width), UInt32(height), Int32(Channel.bitDepth), bilinear ? 1 : 0, $0)
                }
            }
        }
        if let failure { throw ImageFileError(path: "<scaler>", reason: failure) }
        return output
    }
}

/// Straight alpha to premultiplied 16-bit samples and back, around the scaler.
private enum Premultiplied {
    static func of<C: ImageChannel>(_ image: RGBAImage<C>) -> RGBAImage<UInt16> {
        let max = UInt64(C.max)
        var output = RGBAImage<UInt16>(sizeOf: image)
        image.channels.withUnsafeBufferPointer { s in
            output.channels.withUnsafeMutableBufferPointer { d in
                for i in stride(from: 0, to: s.count, by: 4) {
                    let a = UInt64(s[i + 3])
                    // c · a / max², in 16-bit units, rounded.
                    for c in 0..<3 { d[i + c] = UInt16((UInt64(s[i + c]) * a * 65535 + max * max / 2) / (max * max)) }
                    d[i + 3] = UInt16((a * 65535 + max / 2) / max)
                }
            }
        }
        return output
    }

    static func straight<C: ImageChannel>(_ image: RGBAImage<UInt16>, as: C.Type) -> RGBAImage<C> {
        let max = UInt64(C.max)
        var output = RGBAImage<C>(sizeOf: image)
        image.channels.withUnsafeBufferPointer { s in
            output.channels.withUnsafeMutableBufferPointer { d in
                for i in stride(from: 0, to: s.count, by: 4) {
                    let a = UInt64(s[i + 3])
                    d[i + 3] = C((a * max + 32767) / 65535)
                    guard a > 0 else { continue }  // transparent: colour 0
                    // Lanczos rings: a colour over its alpha is clamped to it.
                    for c in 0..<3 { d[i + c] = C((Swift.min(UInt64(s[i + c]), a) * max + a / 2) / a) }
                }
            }
        }
        return output
    }
}
