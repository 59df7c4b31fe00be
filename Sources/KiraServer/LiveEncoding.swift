import KiraFormats
import KiraRequest

/// How the live preview's frames are encoded on their way to the page.
///
/// Each is the library's own encoder for that format (``/KiraRequest/OutputSettings``); the
/// choice trades the server's encoding time against the bytes on the wire and the browser's
/// decoding time. docs/live-preview.md has the measurements behind ``standard``.
public enum LiveEncoding: String, Sendable, CaseIterable {
    /// PNG through igzip (`compression=fast`): lossless, the largest.
    case png
    /// JPEG through libjpeg-turbo at quality 85: transparent pixels flattened onto white.
    case jpeg
    /// Lossy WebP through libwebp at quality 85, with alpha.
    case webp

    /// The encoding `kira serve` uses unless told otherwise: on loopback a fast PNG (27 ms to
    /// render and encode a 630-wide frame) beat JPEG (48 ms) and WebP (473 ms) in frames/s,
    /// 16.3 against 12.3 and 2.8 (2 cores under load 8–10; docs/live-preview.md).
    public static let standard = LiveEncoding.png

    var format: StillFormat {
        switch self {
        case .png: .png
        case .jpeg: .jpeg
        case .webp: .webp
        }
    }

    /// The media type the page builds its image from.
    var mediaType: String {
        switch self {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case .webp: "image/webp"
        }
    }

    /// The output settings of a live frame.
    var output: OutputSettings {
        self == .png ? OutputSettings(compression: .fast) : OutputSettings()
    }
}
