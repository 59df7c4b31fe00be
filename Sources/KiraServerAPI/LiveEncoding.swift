import KiraFormats
import KiraRequest

/// How the live preview's frames are encoded on their way to the page.
///
/// Each encoded one is the library's own encoder for that format
/// (``/KiraRequest/OutputSettings``); the choice trades the server's encoding time against the
/// bytes on the wire and the browser's decoding time. docs/live-preview.md has the measurements
/// behind ``automatic(forPeer:)``.
public enum LiveEncoding: String, Sendable, CaseIterable {
    /// The pixels as they are: 8-bit RGBA, not premultiplied, rows top to bottom. Nothing to
    /// encode or decode, and the most bytes on the wire (4 a pixel): for a page on the same
    /// machine.
    case raw
    /// PNG through igzip (`compression=fast`): lossless.
    case png
    /// JPEG through libjpeg-turbo at quality 85: transparent pixels flattened onto white.
    case jpeg
    /// Lossy WebP through libwebp at quality 85, with alpha.
    case webp

    /// The encoding for a page at the IP address `peer` unless the server was told one: raw
    /// pixels over loopback, where bytes cost next to nothing, and a fast PNG to any other
    /// address (or an unknown one). On loopback, raw frames beat PNG in frames a second and
    /// latency alike (docs/live-preview.md).
    public static func automatic(forPeer peer: String?) -> LiveEncoding {
        guard let peer else { return .png }
        return peer == "::1" || peer.hasPrefix("127.") || peer.hasPrefix("::ffff:127.") ? .raw : .png
    }

    /// The word that leaves the choice to ``automatic(forPeer:)``.
    public static let automaticName = "auto"

    /// The encoding `word` names (`raw`, `png`, `jpeg`, `webp`), or nil for ``automaticName``.
    public static func named(_ word: String) throws(ServerSetupError) -> LiveEncoding? {
        if word == automaticName { return nil }
        guard let encoding = LiveEncoding(rawValue: word) else {
            throw ServerSetupError("--live-encoding must be " + ([automaticName] + allCases.map(\.rawValue)).joined(separator: ", ")
                                   + ", not \"\(word)\"")
        }
        return encoding
    }

    /// The still format encoded, nil for raw pixels.
    package var format: StillFormat? {
        switch self {
        case .raw: nil
        case .png: .png
        case .jpeg: .jpeg
        case .webp: .webp
        }
    }

    /// The media type the page builds its image from.
    package var mediaType: String { format?.mediaType ?? "application/x-kira-rgba" }

    /// The output settings of a live frame.
    package var output: OutputSettings {
        self == .png ? OutputSettings(compression: .fast) : OutputSettings()
    }
}
