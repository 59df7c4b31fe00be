import KiraFiles
import KiraFormats
import KiraImage
import KiraRender

/// A shaded face that has passed every check of its request: the face read, the format it is
/// stored in, and what was assumed for it. Made by ``ShadeRequest/prepare(writingTo:budget:)``,
/// the one sequence of checks `kira shade` and a library user run.
public struct PreparedShade: Sendable {
    public let request: ShadeRequest
    public let face: CardFace
    public let format: StillFormat
    /// What to say before the face is shaded, one line each, parameters written `{name}`: what
    /// was assumed for it (the art's alpha as its mask), what the format does (a JPEG flattens).
    public let notes: [String]

    /// Shades the face at the request's depth.
    public func shade(with renderer: ShadeRenderer) throws(RenderError) -> AnyRGBAImage {
        try request.shade(face, with: renderer)
    }

    /// Writes `image` to `path` atomically, in the format and with the request's output settings.
    public func write(_ image: AnyRGBAImage, to path: String) throws {
        try request.output.encoder(for: format).write(image, to: path)
    }
}

extension ShadeRequest {
    /// The shading for the file `path`: its format from its extension (checked against the
    /// output settings), the path distinct from every input, the files' headers against `budget`
    /// before any is decoded, the face read, the shading's memory, and a {width} or {height}
    /// against the art (scaling goes down only).
    public func prepare(writingTo path: String, budget: MemoryBudget = .standard) throws -> PreparedShade {
        let format = try format(ofFile: path)
        try FileIO.checkDistinct(inputs: paths, outputs: [path])
        try budget.checkDecoding(paths)
        let input = try face(budget: budget)
        try checkMemory(for: input.face, budget: budget)
        try output.checkScaling(width: input.face.art.width, height: input.face.art.height)
        let notes = [input.assumption, outputNote(for: format, face: input.face)].compactMap { $0 }
        return PreparedShade(request: self, face: input.face, format: format, notes: notes)
    }
}
