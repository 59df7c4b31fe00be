import KiraImage

/// How a frame is stored: bits per channel and PNG compression.
public struct OutputSettings: Sendable, Equatable {
    /// How hard the PNG is compressed.
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

    public init(depth: Int = 8, compression: Compression = .standard) {
        self.depth = depth
        self.compression = compression
    }

    static let parameters: [RequestParameter<OutputSettings>] = [
        .choice("depth", \.depth, words: [("8", 8), ("16", 16)], default: 8, help: "Bits per channel of the output PNG: 8 or 16 (default: 8)."),
        .choice("compression", \.compression, default: .standard,
                help: "PNG compression: standard (libdeflate level 6, adaptive filters; zlib level 6 at 16 bits) or fast (igzip level 2, Paeth filter: several times faster to write, larger files) (default: standard)."),
    ]

    /// Bytes per channel.
    public var channelBytes: Int { depth / 8 }
}

extension OutputSettings {
    /// Refuses a file name that Kira cannot write as `parameter`: empty, ending in a slash, or with
    /// an extension other than `extensions` (a file named `.jpg` holding PNG bytes would lie).
    public static func checkFileName(_ path: String, parameter: String, extensions: [String] = ["png"]) throws(RequestError) {
        guard !path.isEmpty, !path.hasSuffix("/") else { throw RequestError(parameter: parameter, reason: "must name a file") }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return }
        let suffix = name[name.index(after: dot)...].lowercased()
        guard extensions.contains(suffix) else {
            throw RequestError(parameter: parameter,
                               reason: "\(path): Kira writes PNG files only; name it .\(extensions[0]) (convert afterwards for .\(suffix))")
        }
    }
}
