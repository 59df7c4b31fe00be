import KiraFiles
import KiraImage
import KiraPNG

/// How a still image is stored: its format with that format's settings, after an optional
/// downscale (Lanczos, `RGBAImage.lanczosScaled(width:height:)`). Every file says it is sRGB:
/// PNGs with an sRGB chunk, WebP and JPEG files with an ICC profile (``ColorProfile/sRGB``).
public struct StillEncoder: Sendable, Equatable {
    /// The format and its settings.
    public enum Encoding: Sendable, Equatable {
        case png(PNGCodec.EncodingOptions)
        /// Lossy at `quality` (0...100), or lossless.
        case webp(quality: Int, lossless: Bool)
        /// At `quality` (1...100); pixels that are not opaque are composited onto `matte` first.
        case jpeg(quality: Int, matte: SIMD3<UInt8>)
    }

    public var encoding: Encoding
    /// The width to scale down to (the height follows the aspect); with ``height`` too, the
    /// image fits inside both, its aspect kept. Nil: the image's own size.
    public var width: Int?
    public var height: Int?

    public init(_ encoding: Encoding, width: Int? = nil, height: Int? = nil) {
        self.encoding = encoding
        self.width = width
        self.height = height
    }

    /// The size an image of `width` × `height` is stored at: scaled to ``width``, to ``height``,
    /// or to fit both, aspect kept, each side rounded and at least 1; nil when that is not smaller
    /// (Kira scales down only: a larger canvas draws more detail than an upscale).
    public func scaledSize(width: Int, height: Int) -> (width: Int, height: Int)? {
        guard self.width != nil || self.height != nil else { return nil }
        let sx = self.width.map { Double($0) / Double(width) } ?? .infinity
        let sy = self.height.map { Double($0) / Double(height) } ?? .infinity
        let scale = min(sx, sy)
        let size = scale == sx
            ? (self.width!, max(1, Int((Double(height) * scale).rounded())))
            : (max(1, Int((Double(width) * scale).rounded())), self.height!)
        return size.0 <= width && size.1 <= height && size != (width, height) ? size : nil
    }

    /// Whether the file's width or height asked for is larger than `width` × `height` allows.
    public func enlarges(width: Int, height: Int) -> Bool {
        (self.width ?? 0) > width || (self.height ?? 0) > height
    }

    /// The file's bytes for `image`.
    ///
    /// - Throws: ``/KiraFiles/ImageFileError`` when the width or height asked for is larger than the image's,
    ///   or the format cannot store it (over WebP's or JPEG's 16383 pixels a side).
    public func encode<C: ImageChannel>(_ image: RGBAImage<C>) throws(ImageFileError) -> [UInt8] {
        if enlarges(width: image.width, height: image.height) {
            throw ImageFileError(path: "<encoder>", reason: "the \(self.width.map { "width \($0)" } ?? "height \(self.height!)") asked for is larger than "
                                 + "the \(image.width)×\(image.height) image; Kira scales down only")
        }
        var image = image
        if let size = scaledSize(width: image.width, height: image.height) {
            image = try image.lanczosScaled(width: size.width, height: size.height)
        }
        switch encoding {
        case .png(let options):
            return try PNGCodec.encode(image, options: options)
        case .webp(let quality, let lossless):
            return try WebPCodec.encode(image.eightBit, quality: quality, lossless: lossless)
        case .jpeg(let quality, let matte):
            return try JPEGCodec.encode(image.eightBit.flattened(onto: matte), quality: quality)
        }
    }

    /// The file's bytes for `image`.
    public func encode(_ image: AnyRGBAImage) throws(ImageFileError) -> [UInt8] {
        switch image {
        case .rgba8(let image): try encode(image)
        case .rgba16(let image): try encode(image)
        }
    }

    /// Encodes `image` and writes it to `path` atomically (``/KiraFiles/FileIO/writeAtomically(_:to:rule:inputs:)``).
    public func write<C: ImageChannel>(_ image: RGBAImage<C>, to path: String) throws(ImageFileError) {
        let bytes: [UInt8]
        do throws(ImageFileError) {
            bytes = try encode(image)
        } catch {
            throw ImageFileError(path: path, reason: error.reason)
        }
        try FileIO.writeAtomically(bytes, to: path)
    }

    /// ``write(_:to:)`` for an image of either depth.
    public func write(_ image: AnyRGBAImage, to path: String) throws(ImageFileError) {
        switch image {
        case .rgba8(let image): try write(image, to: path)
        case .rgba16(let image): try write(image, to: path)
        }
    }
}
