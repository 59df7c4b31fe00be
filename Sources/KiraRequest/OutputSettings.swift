import KiraFiles
import KiraFormats
import KiraImage
import KiraPNG
import KiraRender

/// How a frame is stored: its format's settings (the format itself comes from the file's
/// extension, ``format(ofFile:parameter:)-type.method``) and the size it is scaled down to.
public struct OutputSettings: Sendable, Equatable {
    /// How hard a PNG is compressed.
    public enum Compression: String, Sendable, CaseIterable {
        /// libdeflate level 6 with adaptive filters (zlib level 6 at 16 bits): the smaller file.
        case standard
        /// igzip level 2 with the Paeth filter: several times faster to write, a little larger.
        case fast

        public var options: PNGCodec.EncodingOptions { self == .standard ? .standard : .fast }
    }

    /// 8 or 16.
    public var depth = 8
    public var compression = Compression.standard
    /// The quality of a lossy WebP (0...100) or a JPEG (1...100); nil is ``defaultQuality``.
    public var quality: Int?
    /// Store a WebP losslessly.
    public var lossless = false
    /// The width and height to scale the image down to (``/KiraFormats/StillEncoder/width``); nil keeps it.
    public var width: Int?
    public var height: Int?

    public init(depth: Int = 8, compression: Compression = .standard, quality: Int? = nil, lossless: Bool = false,
                width: Int? = nil, height: Int? = nil) {
        self.depth = depth
        self.compression = compression
        self.quality = quality
        self.lossless = lossless
        self.width = width
        self.height = height
    }

    /// The quality when none is given: where a card's text and edges stay clean at about a
    /// tenth of the PNG's size (WebP and JPEG alike; docs/formats.md has the sizes).
    public static let defaultQuality = 85

    /// The colour a JPEG's transparent pixels are flattened onto: white, the page of a shop's
    /// listing. (A background colour given for the canvas leaves nothing to flatten.)
    public static let jpegMatte = SIMD3<UInt8>(255, 255, 255)

    static let parameters: [RequestParameter<OutputSettings>] = [
        .choice("depth", \.depth, words: [("8", 8), ("16", 16)], default: 8, help: "Bits per channel of the output PNG: 8 or 16 (default: 8)."),
        .choice("compression", \.compression, default: .standard,
                help: "PNG compression: standard (libdeflate level 6, adaptive filters; zlib level 6 at 16 bits) or fast (igzip level 2, Paeth filter: several times faster to write, larger files) (default: standard)."),
    ] + formatParameters

    /// The entries of the lossy formats and of scaling, which animations take too.
    static let formatParameters: [RequestParameter<OutputSettings>] = [
        .integer("quality", \.quality, in: 0...100, example: 85, valueName: "q",
                 help: "Quality of a .webp (0...100) or .jpg (1...100) output; higher is larger and closer (default: \(defaultQuality))."),
        .flag("lossless", \.lossless, help: "Store a .webp output losslessly."),
        .integer("width", \.width, in: 1...CanvasSettings.maxSide, example: 400, valueName: "px",
                 help: "Scale the image down to this width (Lanczos, aspect kept; with {height}, to fit both) (default: as rendered)."),
        .integer("height", \.height, in: 1...CanvasSettings.maxSide, example: 500, valueName: "px",
                 help: "Scale the image down to this height (Lanczos, aspect kept; with {width}, to fit both) (default: as rendered)."),
    ]

    /// Bytes per channel.
    public var channelBytes: Int { depth / 8 }

    /// The checks between values.
    func validate() throws(RequestError) {
        if quality != nil, lossless { throw RequestError(parameter: nil, reason: "give {quality} or {lossless}, not both") }
    }

    /// Refuses settings that `format` cannot store or does not use.
    public func check(for format: StillFormat) throws(RequestError) {
        if depth == 16, !format.hasSixteenBits {
            throw RequestError(parameter: "depth", reason: "16 needs a .png output: \(format.name) stores 8 bits a channel")
        }
        let formats = StillFormat.allCases
        func outputs(_ takes: (StillFormat.Properties) -> Bool) -> String {
            formats.filter { takes($0.properties) }.map { "." + $0.extensions[0] }.joined(separator: " and ")
        }
        if lossless, !format.properties.hasLosslessMode {
            throw RequestError(parameter: "lossless", reason: "applies to \(outputs(\.hasLosslessMode)) outputs, not \(format.name)")
        }
        if let quality {
            guard let qualities = format.properties.qualities else {
                throw RequestError(parameter: "quality", reason: "applies to \(outputs { $0.qualities != nil }) outputs (a \(format.name) is lossless)")
            }
            if !qualities.contains(quality) {
                throw RequestError(parameter: "quality", reason: "must be between \(qualities.lowerBound) and \(qualities.upperBound) for a \(format.name), e.g. 85, not \(quality)")
            }
        }
        if compression != .standard, !format.properties.hasCompressionLevels {
            throw RequestError(parameter: "compression", reason: "applies to \(outputs(\.hasCompressionLevels)) outputs, not \(format.name)")
        }
    }

    /// The encoder of `format` with these settings.
    public func encoder(for format: StillFormat) -> StillEncoder {
        let encoding: StillEncoder.Encoding = switch format {
        case .png: .png(compression.options)
        case .webp: .webp(quality: quality ?? Self.defaultQuality, lossless: lossless)
        case .jpeg: .jpeg(quality: max(1, quality ?? Self.defaultQuality), matte: Self.jpegMatte)
        }
        return StillEncoder(encoding, width: width, height: height)
    }

    /// The memory scaling a `width` × `height` image down takes beside it: a 16-bit copy (a
    /// transparent image is scaled premultiplied at 16 bits), and the smaller image. None when
    /// nothing is scaled.
    public func scalingBytes(width: Int, height: Int) -> Int {
        guard self.width != nil || self.height != nil else { return 0 }
        return 2 * MemoryBudget.imageBytes(width: width, height: height, channelBytes: 2)
    }

    /// Refuses a {width} or {height} larger than a `width` × `height` image: Kira scales down only.
    public func checkScaling(width: Int, height: Int) throws(RequestError) {
        if let w = self.width, w > width {
            throw RequestError(parameter: "width", reason: "\(w) is wider than the \(width)×\(height) image; it scales down only (a larger {size} draws more detail)")
        }
        if let h = self.height, h > height {
            throw RequestError(parameter: "height", reason: "\(h) is taller than the \(width)×\(height) image; it scales down only (a larger {size} draws more detail)")
        }
    }

    /// What storing an image in `format` does that the user may not expect, with parameters
    /// written `{name}`: a JPEG flattens transparency onto white. Nil when nothing.
    public static func note(for format: StillFormat, transparent: Bool) -> String? {
        guard format == .jpeg, transparent else { return nil }
        return "JPEG has no transparency: transparent pixels are flattened onto white (give {background} to choose, or write .png or .webp)"
    }
}

extension OutputSettings {
    /// The format of the file `path` by its extension (.png, .webp, .jpg or .jpeg, any case; none
    /// is PNG); refuses a path that names no file, or another extension.
    public static func format(ofFile path: String, parameter: String) throws(RequestError) -> StillFormat {
        guard !path.isEmpty, !path.hasSuffix("/") else { throw RequestError(parameter: parameter, reason: "must name a file") }
        guard let format = StillFormat(fileName: path) else {
            throw RequestError(parameter: parameter, reason: "\(QuotedValue.shown(path)): Kira writes \(writtenExtensions) files; name it one of those")
        }
        return format
    }

    /// The format of the file `path` (``format(ofFile:parameter:)``), refused when it cannot store
    /// these settings (``check(for:)``): the one check of an output a front end makes.
    public func format(ofFile path: String, parameter: String) throws(RequestError) -> StillFormat {
        let format = try Self.format(ofFile: path, parameter: parameter)
        try check(for: format)
        return format
    }

    /// ".png, .webp and .jpg (or .jpeg)": every still format's extensions, from the table.
    static var writtenExtensions: String {
        let names = StillFormat.allCases.map { format in
            "." + format.extensions[0] + (format.extensions.count > 1 ? " (or " + format.extensions.dropFirst().map { "." + $0 }.joined(separator: ", ") + ")" : "")
        }
        return names.dropLast().joined(separator: ", ") + " and " + names.last!
    }

    /// Refuses a file name that Kira cannot write as `parameter`: empty, ending in a slash, or with
    /// an extension other than `extensions` (a file named `.jpg` holding PNG bytes would lie).
    /// For the outputs that are PNG only (an animated PNG, a contact sheet).
    public static func checkFileName(_ path: String, parameter: String, extensions: [String] = ["png"]) throws(RequestError) {
        guard !path.isEmpty, !path.hasSuffix("/") else { throw RequestError(parameter: parameter, reason: "must name a file") }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return }
        let suffix = name[name.index(after: dot)...].lowercased()
        guard extensions.contains(suffix) else {
            throw RequestError(parameter: parameter,
                               reason: "\(QuotedValue.shown(path)): this output is a PNG; name it .\(extensions[0]) (convert afterwards for .\(suffix))")
        }
    }
}
