import KiraFormats
import KiraRequest

/// The render routes, one per still format: `/v1/cards/ID/render.png`, `render.webp` and
/// `render.jpg`, each storing the frame as `kira render -o` does a file of that extension.
package enum RenderRoute {
    /// The formats served, in the order messages list them: every still format.
    package static let formats = StillFormat.allCases

    /// The route's last path component: `render.png`.
    package static func fileName(_ format: StillFormat) -> String { "render." + format.extensions[0] }

    /// The path of card `id`'s frame in `format`.
    package static func path(id: String, format: StillFormat) -> String { "/v1/cards/\(id)/" + fileName(format) }

    /// The format a route's last path component names, if it is one of ``formats``' routes.
    package static func format(ofFileName name: String) -> StillFormat? { formats.first { fileName($0) == name } }

    /// The media type of a frame in `format`.
    package static func mediaType(_ format: StillFormat) -> String { format.mediaType }

    /// Where `request`'s output settings, refused by `format` (`quality` on a PNG), would be
    /// honoured: the other formats that take them. None when `format` takes them.
    package static func honouring(_ request: RenderRequest, insteadOf format: StillFormat) -> [StillFormat] {
        func takes(_ format: StillFormat) -> Bool {
            do { try request.output.check(for: format) } catch { return false }
            return true
        }
        guard !takes(format) else { return [] }
        return formats.filter { $0 != format && takes($0) }
    }
}
