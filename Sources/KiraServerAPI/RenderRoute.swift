import KiraFormats
import KiraRequest

/// The render routes, one per still format: `/v1/cards/ID/render.png`, `render.webp` and
/// `render.jpg`, each storing the frame as `kira render -o` does a file of that extension.
public enum RenderRoute {
    /// The formats served, in the order messages list them.
    public static let formats: [StillFormat] = [.png, .webp, .jpeg]

    /// The route's last path component: `render.png`.
    public static func fileName(_ format: StillFormat) -> String { "render." + format.extensions[0] }

    /// The path of card `id`'s frame in `format`.
    public static func path(id: String, format: StillFormat) -> String { "/v1/cards/\(id)/" + fileName(format) }

    /// The format a route's last path component names, if it is one of ``formats``' routes.
    public static func format(ofFileName name: String) -> StillFormat? { formats.first { fileName($0) == name } }

    /// The media type of a frame in `format`.
    public static func mediaType(_ format: StillFormat) -> String {
        switch format {
        case .png: "image/png"
        case .webp: "image/webp"
        case .jpeg: "image/jpeg"
        }
    }

    /// Where `request`'s output settings, refused by `format` (`quality` on a PNG), would be
    /// honoured: the other formats that take them. None when `format` takes them.
    public static func honouring(_ request: RenderRequest, insteadOf format: StillFormat) -> [StillFormat] {
        func takes(_ format: StillFormat) -> Bool {
            do { try request.output.check(for: format) } catch { return false }
            return true
        }
        guard !takes(format) else { return [] }
        return formats.filter { $0 != format && takes($0) }
    }
}
