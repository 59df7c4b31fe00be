/// The file formats Kira writes a still image in, chosen by the file's extension. Everything
/// the rest of Kira knows about a format is in ``properties``: the command line's and the
/// server's checks, routes and media types derive from it, so that a new format is a row there
/// and its codec (``StillEncoder``).
public enum StillFormat: String, Sendable, CaseIterable {
    /// PNG: lossless, 8 or 16 bits, alpha.
    case png
    /// WebP: lossy or lossless, 8 bits, alpha.
    case webp
    /// JPEG: lossy, 8 bits, no alpha.
    case jpeg

    /// What a format is and takes.
    public struct Properties: Sendable {
        /// The format's name, as its documentation spells it.
        public let name: String
        /// Its extensions, lower case, the first the usual one.
        public let extensions: [String]
        /// Its media type.
        public let mediaType: String
        /// Whether it stores alpha (without, a transparent background is flattened).
        public let hasAlpha: Bool
        /// Whether it stores 16 bits a channel.
        public let hasSixteenBits: Bool
        /// The qualities it takes (`quality`), nil for a lossless-only format.
        public let qualities: ClosedRange<Int>?
        /// Whether it has a lossless mode besides its lossy one (`lossless`).
        public let hasLosslessMode: Bool
        /// Whether it takes a compression effort (`compression`).
        public let hasCompressionLevels: Bool
    }

    /// The table.
    public var properties: Properties {
        switch self {
        case .png:
            Properties(name: "PNG", extensions: ["png"], mediaType: "image/png", hasAlpha: true, hasSixteenBits: true,
                       qualities: nil, hasLosslessMode: false, hasCompressionLevels: true)
        case .webp:
            Properties(name: "WebP", extensions: ["webp"], mediaType: "image/webp", hasAlpha: true, hasSixteenBits: false,
                       qualities: 0...100, hasLosslessMode: true, hasCompressionLevels: false)
        case .jpeg:
            Properties(name: "JPEG", extensions: ["jpg", "jpeg"], mediaType: "image/jpeg", hasAlpha: false, hasSixteenBits: false,
                       qualities: 1...100, hasLosslessMode: false, hasCompressionLevels: false)
        }
    }

    /// The format of the file name `name` by its extension (any case); nil for another extension.
    /// A name without one is a PNG, the format Kira wrote before it knew others.
    public init?(fileName name: String) {
        let base = name.split(separator: "/").last.map(String.init) ?? name
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else {
            self = .png
            return
        }
        let suffix = base[base.index(after: dot)...].lowercased()
        guard let format = Self.allCases.first(where: { $0.extensions.contains(suffix) }) else { return nil }
        self = format
    }

    /// ``Properties/extensions``.
    public var extensions: [String] { properties.extensions }
    /// ``Properties/hasAlpha``.
    public var hasAlpha: Bool { properties.hasAlpha }
    /// ``Properties/hasSixteenBits``.
    public var hasSixteenBits: Bool { properties.hasSixteenBits }
    /// ``Properties/name``.
    public var name: String { properties.name }
    /// ``Properties/mediaType``.
    public var mediaType: String { properties.mediaType }
}
