import CKiraPNG
import KiraFiles
import KiraImage

/// Reads PNG files through libpng, and writes them through libpng, libdeflate or igzip.
///
/// Every PNG that libpng reads becomes RGBA: 1-, 2-, 4-, 8- and 16-bit files; gray, gray with
/// alpha, palette (with or without tRNS), RGB and RGBA; interlaced or not. Samples are the stored
/// values: no gamma or colour-profile conversion is applied.
public enum PNGCodec {
    /// Dimensions refused before any pixel memory is allocated.
    public typealias Limits = ImageLimits

    /// Row filters for encoding; `.all` lets libpng choose per row (smaller, slower).
    public enum Filters: Sendable {
        case all, none, sub, up, paeth

        var c: kira_png_filters {
            switch self {
            case .all: KIRA_PNG_FILTERS_ALL
            case .none: KIRA_PNG_FILTERS_NONE
            case .sub: KIRA_PNG_FILTERS_SUB
            case .up: KIRA_PNG_FILTERS_UP
            case .paeth: KIRA_PNG_FILTERS_PAETH
            }
        }
    }

    /// A deflate implementation and its level; each has its own range of levels.
    public enum Deflater: Sendable, Hashable {
        /// zlib, through libpng: levels 0–9.
        case zlib(level: Int)
        /// libdeflate: levels 0–12; smaller at the same level than zlib, and faster.
        case libdeflate(level: Int)
        /// igzip, Intel's ISA-L deflater: levels 0–3; several times faster than libdeflate's
        /// level 1, larger at the same filter (measurements: docs/performance.md).
        case igzip(level: Int)

        /// The level.
        public var level: Int {
            switch self {
            case .zlib(let level), .libdeflate(let level), .igzip(let level): level
            }
        }

        /// The levels this deflater has.
        public var levels: ClosedRange<Int> {
            switch self {
            case .zlib: 0...9
            case .libdeflate: 0...12
            case .igzip: 0...3
            }
        }
    }

    /// How to compress when encoding. The default is ``standard``.
    public struct EncodingOptions: Sendable, Equatable {
        public var filters: Filters
        /// The deflater for 8-bit images.
        public var deflater: Deflater
        /// The deflater for 16-bit images.
        public var sixteenBitDeflater: Deflater
        /// Whether the file says its colours are sRGB (an sRGB chunk, rendering intent perceptual):
        /// true for pictures, false for data whose values are not colours (holo masks).
        public var marksSRGB = true

        /// - Precondition: each deflater's level is one of its ``Deflater/levels``.
        public init(filters: Filters = .all, deflater: Deflater = .libdeflate(level: 6),
                    sixteenBitDeflater: Deflater = .zlib(level: 6)) {
            precondition(deflater.levels.contains(deflater.level) && sixteenBitDeflater.levels.contains(sixteenBitDeflater.level),
                         "a deflater's level must be one of its levels")
            self.filters = filters
            self.deflater = deflater
            self.sixteenBitDeflater = sixteenBitDeflater
        }

        /// The deflater for images of `bitDepth` bits a channel.
        func deflater(bitDepth: Int) -> Deflater {
            bitDepth == 16 ? sixteenBitDeflater : deflater
        }

        // The measurements behind `standard` and `fast` are in docs/performance.md, "PNG compression".

        /// Small files: libdeflate level 6 with adaptive filters for 8-bit images — no larger than
        /// zlib level 6 on every image measured (docs/performance.md), in about half the
        /// time or less. 16-bit images keep zlib level 6: libdeflate was 1.5–4% larger at every
        /// level up to 9 there.
        public static let standard = EncodingOptions(filters: .all, deflater: .libdeflate(level: 6), sixteenBitDeflater: .zlib(level: 6))
        /// igzip level 2 with the Paeth filter, as APNG frames: several times faster to write than
        /// `standard`, files 10–30% larger. For frame sequences and bulk output. Smaller and faster
        /// than libdeflate level 1 with Up at both depths (100 batch frames: 45.7 MB in 0.50–0.52 s
        /// against 48.2 MB in 0.80–0.81 s, 2 cores, AMD EPYC).
        public static let fast = EncodingOptions(filters: .paeth, deflater: .igzip(level: 2), sixteenBitDeflater: .igzip(level: 2))
    }

    /// The libpng version Kira was built against.
    public static var libpngVersion: String { String(cString: kira_png_version()) }

    // MARK: Reading

    /// Reads the PNG file at `path`.
    ///
    /// - Throws: ``/KiraFiles/ImageFileError`` naming the file: missing, unreadable, not a PNG, truncated,
    ///   corrupt (libpng's message), or larger than `limits`.
    public static func read(_ path: String, limits: Limits = .standard) throws(ImageFileError) -> AnyRGBAImage {
        let bytes = try FileIO.read(path)
        return try decode(bytes, name: FileIO.displayName(path), limits: limits)
    }

    /// Decodes PNG bytes held in memory; `name` is used in error messages.
    public static func decode(_ bytes: [UInt8], name: String = "<memory>", limits: Limits = .standard)
        throws(ImageFileError) -> AnyRGBAImage
    {
        try decodeFile(bytes, name: name, limits: limits).image
    }

    /// Reads the PNG file at `path`, and whether it stores alpha; see ``read(_:limits:)``.
    public static func readFile(_ path: String, limits: Limits = .standard) throws(ImageFileError) -> PNGFile {
        try decodeFile(try FileIO.read(path), name: FileIO.displayName(path), limits: limits)
    }

    /// Decodes PNG bytes and says whether they store alpha.
    public static func decodeFile(_ bytes: [UInt8], name: String = "<memory>", limits: Limits = .standard)
        throws(ImageFileError) -> PNGFile
    {
        if bytes.isEmpty { throw ImageFileError(path: name, reason: "empty file, not a PNG") }
        if let other = OtherImageFormat.recognise(bytes) { throw other.error(name: name) }
        try checkDeclaredSize(bytes, name: name, limits: limits)
        return try bytes.withUnsafeBufferPointer { (buffer) throws(ImageFileError) -> PNGFile in
            guard let decoder = kira_png_decoder_create(buffer.baseAddress, buffer.count) else {
                throw ImageFileError(path: name, reason: "out of memory")
            }
            defer { kira_png_decoder_destroy(decoder) }
            var message = MessageBuffer()

            var header = kira_png_header()
            let side = UInt32(clamping: limits.maxSide)
            guard message.call({ kira_png_decoder_read_header(decoder, side, side, &header, $0) }) else {
                throw ImageFileError(path: name, reason: message.text)
            }
            let width = Int(header.width), height = Int(header.height)
            guard width * height <= limits.maxPixels else {
                throw ImageFileError(
                    path: name,
                    reason: "image is \(width)×\(height), over the limit of \(limits.maxPixels) pixels")
            }
            // libpng refused sides over `limits.maxSide`; the image types refuse what is over the
            // library's own limits (a caller's `limits` may be larger) before allocating.
            func image<C: ImageChannel>(_: C.Type) throws(ImageFileError) -> RGBAImage<C> {
                do {
                    return try RGBAImage<C>(width: width, height: height)
                } catch {
                    throw ImageFileError(path: name, reason: "\(error)")
                }
            }
            if header.output_depth == 16 {
                var image = try image(UInt16.self)
                try read(decoder, into: &image, name: name)
                return PNGFile(image: .rgba16(image), hasAlpha: header.has_alpha != 0, isGray: header.file_color_type & 2 == 0 && header.file_color_type != 3,
                               colorChunks: PNGColorChunks.read(bytes))
            } else {
                var image = try image(UInt8.self)
                try read(decoder, into: &image, name: name)
                return PNGFile(image: .rgba8(image), hasAlpha: header.has_alpha != 0, isGray: header.file_color_type & 2 == 0 && header.file_color_type != 3,
                               colorChunks: PNGColorChunks.read(bytes))
            }
        }
    }

    /// Refuses an IHDR that declares a size over `limits` with a message that says so; libpng
    /// would refuse it too, but only as "Invalid IHDR data".
    private static func checkDeclaredSize(_ bytes: [UInt8], name: String, limits: Limits) throws(ImageFileError) {
        guard bytes.count >= 24, bytes[12..<16].elementsEqual("IHDR".utf8) else { return }
        func word(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        let width = word(16), height = word(20)
        if width > limits.maxSide || height > limits.maxSide {
            throw ImageFileError(
                path: name,
                reason: "image is \(width)×\(height), over the limit of \(limits.maxSide) pixels a side")
        }
        if width * height > limits.maxPixels {
            throw ImageFileError(
                path: name, reason: "image is \(width)×\(height), over the limit of \(limits.maxPixels) pixels")
        }
    }

    private static func read<C>(_ decoder: OpaquePointer, into image: inout RGBAImage<C>, name: String)
        throws(ImageFileError)
    {
        var message = MessageBuffer()
        let rowBytes = image.width * 4 * MemoryLayout<C>.size
        let ok = image.channels.withUnsafeMutableBytes { pixels in
            message.call { kira_png_decoder_read_rgba(decoder, pixels.baseAddress, rowBytes, $0) }
        }
        guard ok else { throw ImageFileError(path: name, reason: message.text) }
    }

    // MARK: Writing

    /// Encodes `image` as an RGBA PNG at its own bit depth; with `region`, only that rectangle
    /// of it (which must lie inside the image).
    public static func encode<C>(_ image: RGBAImage<C>, region: ImageRegion? = nil, options: EncodingOptions = .standard)
        throws(ImageFileError) -> [UInt8]
    {
        let region = region ?? ImageRegion(x: 0, y: 0, width: image.width, height: image.height)
        precondition(region.x >= 0 && region.y >= 0 && region.x + region.width <= image.width
                         && region.y + region.height <= image.height, "the region must lie inside the image")
        let deflater = options.deflater(bitDepth: C.bitDepth)
        guard case .zlib(let zlibLevel) = deflater else {
            return try encodeImageData(image, region: region, deflater: deflater, filter: PNGImageData.RowFilter(options.filters),
                                       marksSRGB: options.marksSRGB)
        }
        var output = kira_png_buffer()
        defer { kira_png_buffer_free(&output) }
        var message = MessageBuffer()
        let level = Int32(zlibLevel)
        let rowBytes = image.width * 4 * MemoryLayout<C>.size
        let ok = image.channels.withUnsafeBytes { pixels in
            message.call {
                kira_png_encode_rgba(
                    pixels.baseAddress.map { $0 + region.y * rowBytes + region.x * 4 * MemoryLayout<C>.size },
                    UInt32(region.width), UInt32(region.height), rowBytes, Int32(C.bitDepth), level,
                    options.filters.c, options.marksSRGB ? 1 : 0, &output, $0)
            }
        }
        guard ok else { throw ImageFileError(path: "<encoder>", reason: message.text) }
        return Array(UnsafeBufferPointer(start: output.bytes, count: output.count))
    }

    /// A whole PNG — signature, IHDR, sRGB when `marksSRGB`, one IDAT, IEND — around
    /// ``PNGImageData``'s filtered rows, compressed by `deflater` (libdeflate or igzip) with rows
    /// filtered by `filter` (the APNG writer's image data).
    static func encodeImageData<C>(_ image: RGBAImage<C>, region: ImageRegion, deflater: Deflater,
                                   filter: PNGImageData.RowFilter, marksSRGB: Bool = true) throws(ImageFileError) -> [UInt8]
    {
        let data = try PNGImageData.compress(image, region: region, deflater: deflater, filter: filter)
        var png = PNGChunks.signature
        png.reserveCapacity(8 + 25 + 13 + 12 + data.count + 12)
        PNGChunks.append("IHDR", PNGChunks.header(width: region.width, height: region.height, bitDepth: C.bitDepth), to: &png)
        if marksSRGB { PNGChunks.append("sRGB", PNGChunks.sRGBIntent, to: &png) }
        PNGChunks.append("IDAT", data, to: &png)
        PNGChunks.append("IEND", [], to: &png)
        return png
    }

    /// ``encode(_:region:options:)`` for an image of either depth.
    public static func encode(_ image: AnyRGBAImage, options: EncodingOptions = .standard) throws(ImageFileError) -> [UInt8] {
        switch image {
        case .rgba8(let image): try encode(image, options: options)
        case .rgba16(let image): try encode(image, options: options)
        }
    }

    /// ``write(_:to:options:)`` for an image of either depth.
    public static func write(_ image: AnyRGBAImage, to path: String, options: EncodingOptions = .standard) throws(ImageFileError) {
        switch image {
        case .rgba8(let image): try write(image, to: path, options: options)
        case .rgba16(let image): try write(image, to: path, options: options)
        }
    }

    /// Writes `image` to `path` as a PNG, atomically: the file appears whole or not at all.
    public static func write<C>(_ image: RGBAImage<C>, to path: String, options: EncodingOptions = .standard)
        throws(ImageFileError)
    {
        let bytes: [UInt8]
        do throws(ImageFileError) {
            bytes = try encode(image, options: options)
        } catch {
            throw ImageFileError(path: path, reason: error.reason)
        }
        try FileIO.writeAtomically(bytes, to: path)
    }
}

/// The message buffer the C layer fills on failure.
private struct MessageBuffer {
    private var storage = [CChar](repeating: 0, count: Int(KIRA_PNG_MESSAGE_SIZE))

    mutating func call(_ body: (UnsafeMutablePointer<CChar>) -> Int32) -> Bool {
        storage.withUnsafeMutableBufferPointer { body($0.baseAddress!) } == 1
    }

    var text: String {
        storage.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}

/// A decoded PNG, whether the file stores alpha, and what it says about its colours.
public struct PNGFile: Sendable, Equatable {
    /// The pixels as RGBA, as stored; without stored alpha, the alpha channel is opaque everywhere.
    public var image: AnyRGBAImage
    /// Whether the file has an alpha channel (gray+alpha, RGBA) or a tRNS chunk.
    public var hasAlpha: Bool
    /// Whether the file stores grey levels (gray, gray+alpha): its RGB are one level repeated.
    public var isGray: Bool
    /// The file's colour chunks (sRGB, gAMA, cHRM, iCCP).
    public var colorChunks: PNGColorChunks

    public init(image: AnyRGBAImage, hasAlpha: Bool, isGray: Bool = false, colorChunks: PNGColorChunks = PNGColorChunks()) {
        self.image = image
        self.hasAlpha = hasAlpha
        self.isGray = isGray
        self.colorChunks = colorChunks
    }
}
