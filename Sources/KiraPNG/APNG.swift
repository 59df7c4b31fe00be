import KiraFiles
import KiraImage

/// One frame of an animated PNG, compressed: the rectangle of the canvas it paints and that
/// rectangle's pixels as PNG image data (filtered rows, zlib-compressed: what `IDAT` chunks
/// carry).
///
/// Frames replace the pixels of their rectangle and leave the rest of the canvas as the frame
/// before left it (APNG's dispose op "none", blend op "source"): a frame that stores only what
/// changed since the one before plays exactly like the whole frame.
public struct APNGFrame: Sendable {
    /// Where on the canvas the frame's pixels go.
    public let region: ImageRegion
    /// The rectangle's pixels as a zlib stream of filtered PNG rows.
    public let imageData: [UInt8]
    /// The IHDR chunk's data of the same pixels as a PNG: size, bit depth, colour type.
    let header: [UInt8]

    /// The whole of `image`, or `region` of it, compressed as `options` say (zlib, which
    /// writes only through libpng, is replaced by libdeflate at the same level). The measurements
    /// behind the default, ``PNGCodec/EncodingOptions/fast``, are in `PNGImageData.swift`.
    public static func encode<C>(_ image: RGBAImage<C>, region: ImageRegion? = nil,
                                 options: PNGCodec.EncodingOptions = .fast)
        throws(ImageFileError) -> APNGFrame
    {
        let region = region ?? ImageRegion(x: 0, y: 0, width: image.width, height: image.height)
        precondition(region.x >= 0 && region.y >= 0 && region.width > 0 && region.height > 0
                         && region.x + region.width <= image.width && region.y + region.height <= image.height,
                     "the region must lie inside the image")
        let header = PNGChunks.header(width: region.width, height: region.height, bitDepth: C.bitDepth)
        return APNGFrame(region: region, imageData: try PNGImageData.compress(image, region: region, options: options),
                         header: header)
    }

    /// `image` as the frame after `previous`: only the rectangle that differs from it (a single
    /// pixel when nothing does); the whole image when there is no previous frame. When given,
    /// `candidates` is a rectangle outside which the two frames are known to be equal
    /// (``/KiraImage/RGBAImage/changedRegion(since:candidates:)``).
    public static func encode<C>(_ image: RGBAImage<C>, after previous: RGBAImage<C>?, candidates: ImageRegion? = nil,
                                 options: PNGCodec.EncodingOptions = .fast) throws(ImageFileError) -> APNGFrame
    {
        guard let previous else { return try encode(image, options: options) }
        let changed = image.changedRegion(since: previous, candidates: candidates)
            ?? ImageRegion(x: 0, y: 0, width: 1, height: 1)
        return try encode(image, region: changed, options: options)
    }
}

/// Writes an animated PNG (APNG) to a file frame by frame, as the frames are encoded: memory
/// holds one frame's compressed data at a time, never the animation. The file appears at its
/// path whole, or not at all (through an atomic output file): only ``finish()`` puts it in place.
///
/// The first frame is the whole canvas and is stored as `IDAT` (the image viewers without APNG
/// support show); later frames are `fcTL` + `fdAT` chunks and may cover any rectangle. The file
/// says its colours are sRGB (an sRGB chunk).
public final class APNGFileWriter {
    /// Canvas size.
    public let width: Int
    public let height: Int
    /// The number of frames the file declares (its `acTL`); ``finish()`` checks it.
    public let frameCount: Int
    private let delay: (numerator: UInt16, denominator: UInt16)
    private let plays: UInt32
    private let file: AtomicOutputFile
    private var header: [UInt8]?
    private var framesWritten = 0
    private var sequence: UInt32 = 0
    /// Image data is split into chunks of at most this many bytes. Any size is valid; fewer
    /// chunks are 12–16 bytes apiece smaller.
    private static let chunkSize = 1 << 20

    /// Starts the file at `path` (nothing appears there before ``finish()``) for `frameCount`
    /// frames of `width` × `height`, each shown `1 / framesPerSecond` seconds, played `plays`
    /// times (0: forever).
    public init(path: String, width: Int, height: Int, frameCount: Int, framesPerSecond: Int, plays: UInt32 = 0)
        throws(ImageFileError)
    {
        precondition((1...1000).contains(framesPerSecond), "frames per second must be in 1...1000")
        precondition(width > 0 && height > 0 && frameCount > 0, "an animation needs a canvas and frames")
        self.width = width
        self.height = height
        self.frameCount = frameCount
        delay = (1, UInt16(framesPerSecond))
        file = try AtomicOutputFile(path: path)
        self.plays = plays
    }

    /// Appends the next frame.
    ///
    /// - Throws: ``/KiraFiles/ImageFileError`` when the frame does not fit the canvas, differs in layout
    ///   from the first, is not whole as the first frame, is one too many, or cannot be written.
    public func append(_ frame: APNGFrame) throws(ImageFileError) {
        let r = frame.region
        guard framesWritten < frameCount else { throw ImageFileError(path: file.path, reason: "more frames than the \(frameCount) declared") }
        guard r.x >= 0, r.y >= 0, r.width > 0, r.height > 0, r.x + r.width <= width, r.y + r.height <= height else {
            throw ImageFileError(path: file.path, reason: "frame \(framesWritten) (\(r)) is outside the \(width)×\(height) canvas")
        }
        var out: [UInt8] = []
        if let header {
            // Same bit depth and colour type as the first frame (IHDR bytes 8...12).
            guard frame.header[8...] == header[8...] else {
                throw ImageFileError(path: file.path, reason: "frame \(framesWritten) differs in layout from the first")
            }
        } else {
            guard r == ImageRegion(x: 0, y: 0, width: width, height: height) else {
                throw ImageFileError(path: file.path, reason: "the first frame must be the whole canvas")
            }
            header = frame.header
            out += PNGChunks.signature
            PNGChunks.append("IHDR", frame.header, to: &out)
            PNGChunks.append("sRGB", PNGChunks.sRGBIntent, to: &out)
            PNGChunks.append("acTL", PNGChunks.bigEndian(UInt32(frameCount)) + PNGChunks.bigEndian(plays), to: &out)
        }
        var control = PNGChunks.bigEndian(sequence)
        control += PNGChunks.bigEndian(UInt32(r.width)) + PNGChunks.bigEndian(UInt32(r.height))
        control += PNGChunks.bigEndian(UInt32(r.x)) + PNGChunks.bigEndian(UInt32(r.y))
        control += [UInt8(delay.numerator >> 8), UInt8(delay.numerator & 0xFF)]
        control += [UInt8(delay.denominator >> 8), UInt8(delay.denominator & 0xFF)]
        control += [0, 0]  // dispose op none: the next frame starts from this one; blend op source
        PNGChunks.append("fcTL", control, to: &out)
        sequence += 1
        try file.write(out)
        var failure: ImageFileError?
        frame.imageData.withUnsafeBytes { data in
            do throws(ImageFileError) {
                for start in stride(from: 0, to: max(data.count, 1), by: Self.chunkSize) {
                    let piece = UnsafeRawBufferPointer(rebasing: data[start..<min(start + Self.chunkSize, data.count)])
                    if framesWritten == 0 {
                        try writeChunk("IDAT", prefix: [], piece)
                    } else {
                        try writeChunk("fdAT", prefix: PNGChunks.bigEndian(sequence), piece)
                        sequence += 1
                    }
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        framesWritten += 1
    }

    /// Writes one chunk straight from `data` (no copy).
    private func writeChunk(_ type: String, prefix: [UInt8], _ data: UnsafeRawBufferPointer) throws(ImageFileError) {
        let file = self.file
        try PNGChunks.emit(type, prefix: prefix, data) { (bytes: UnsafeRawBufferPointer) throws(ImageFileError) in try file.write(bytes) }
    }

    /// Ends the file and puts it in place.
    ///
    /// - Throws: ``/KiraFiles/ImageFileError`` when fewer frames were added than declared, or the file
    ///   cannot be written.
    public func finish() throws(ImageFileError) {
        guard framesWritten == frameCount else {
            throw ImageFileError(path: file.path, reason: "\(framesWritten) frames written, \(frameCount) declared")
        }
        var out: [UInt8] = []
        PNGChunks.append("IEND", [], to: &out)
        try file.write(out)
        try file.commit()
    }
}
