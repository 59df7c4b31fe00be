import KiraFiles
import KiraFormats
import KiraImage
import KiraPNG

/// An image file `kira compare` reads: a PNG, or a still WebP or JPEG (the formats Kira writes),
/// with the size its header declares, read before anything is decoded so that a memory budget
/// can refuse it first.
public struct ComparedFile: Sendable {
    /// The formats read.
    public enum Format: String, Sendable {
        case png = "PNG", webp = "WebP", jpeg = "JPEG"
    }

    /// The name errors use (the path given).
    public let name: String
    public let format: Format
    public let width: Int
    public let height: Int
    /// 8 or 16 (16 for a 16-bit PNG only).
    public let bitDepth: Int
    /// The file's bytes.
    public let bytes: [UInt8]

    /// Reads the file at `path` (a stream too, up to `limit` bytes: a memory budget) and its
    /// header: its format by its first bytes, its size; nothing decoded. A file in another format
    /// is refused as a PNG would be (what it is, and how to convert it).
    public static func open(_ path: String, limit: Int = FileIO.maxReadSize) throws(ImageFileError) -> ComparedFile {
        let bytes = try FileIO.read(path, limit: limit)
        let name = FileIO.displayName(path)
        switch OtherImageFormat.recognise(bytes) {
        case .jpeg:
            let (width, height) = try JPEGCodec.header(bytes, name: name)
            return ComparedFile(name: name, format: .jpeg, width: width, height: height, bitDepth: 8, bytes: bytes)
        case .webp:
            let (width, height, _) = try WebPCodec.header(bytes, name: name)
            return ComparedFile(name: name, format: .webp, width: width, height: height, bitDepth: 8, bytes: bytes)
        default:
            break
        }
        // Anything else is read as a PNG, whose decoder says what a file that is not one is.
        guard let header = PNGHeader(bytes: bytes) else {
            _ = try PNGCodec.decodeFile(bytes, name: name)
            throw ImageFileError(path: name, reason: "not a PNG file (bad signature)")
        }
        // A header may claim 2³²−1 pixels a side: refused as decoding would, before any estimate.
        if max(header.width, header.height) > ImageLimits.standard.maxSide {
            throw ImageFileError(path: name, reason: "image is \(header.width)×\(header.height), over the limit of \(ImageLimits.standard.maxSide) pixels a side")
        }
        return ComparedFile(name: name, format: .png, width: header.width, height: header.height, bitDepth: header.bitDepth, bytes: bytes)
    }

    /// The decoded image's bytes.
    public var decodedBytes: Int {
        MemoryBudget.imageBytes(width: width, height: height, channelBytes: bitDepth == 16 ? 2 : 1)
    }

    /// The pixels, and whether the file stores alpha (a PNG's alpha channel or tRNS, a WebP's
    /// alpha; never a JPEG): without it, alpha is opaque everywhere and is not compared.
    public func decode() throws(ImageFileError) -> (image: AnyRGBAImage, hasAlpha: Bool) {
        switch format {
        case .png:
            let file = try PNGCodec.decodeFile(bytes, name: name)
            return (file.image, file.hasAlpha)
        case .webp:
            let (image, hasAlpha) = try WebPCodec.decodeFile(bytes, name: name)
            return (.rgba8(image), hasAlpha)
        case .jpeg:
            return (.rgba8(try JPEGCodec.decodeFile(bytes, name: name)), false)
        }
    }
}
