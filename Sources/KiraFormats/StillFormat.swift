/// The file formats Kira writes a still image in, chosen by the file's extension.
public enum StillFormat: String, Sendable, CaseIterable {
    /// PNG: lossless, 8 or 16 bits, alpha.
    case png
    /// WebP: lossy or lossless, 8 bits, alpha.
    case webp
    /// JPEG: lossy, 8 bits, no alpha.
    case jpeg

    /// The extensions of each format, lower case, the first the usual one.
    public var extensions: [String] {
        switch self {
        case .png: ["png"]
        case .webp: ["webp"]
        case .jpeg: ["jpg", "jpeg"]
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

    /// Whether the format stores alpha.
    public var hasAlpha: Bool { self != .jpeg }

    /// Whether the format stores 16 bits a channel.
    public var hasSixteenBits: Bool { self == .png }

    /// The format's name, as its documentation spells it.
    public var name: String {
        switch self {
        case .png: "PNG"
        case .webp: "WebP"
        case .jpeg: "JPEG"
        }
    }
}
