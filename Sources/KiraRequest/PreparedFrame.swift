import KiraFiles
import KiraFormats
import KiraImage
import KiraRender

/// A frame that has passed every check of its request: the scene the request makes of its card,
/// the format it is stored in, and what it does that was not asked for in so many words.
///
/// Made by ``RenderRequest/prepare(_:format:budget:)`` (a card already loaded: a catalogue's,
/// a server's) or ``RenderRequest/prepare(writingTo:budget:)`` (the card's files, then a file),
/// the one sequence of checks every front end runs; a front end only turns the notes and errors
/// into its medium (stderr lines, a batch row, problem+json, a WebSocket notice).
public struct PreparedFrame: Sendable {
    public let request: RenderRequest
    public let scene: FrameScene
    public let format: StillFormat
    /// What to say before the frame is made, one line each, parameters written `{name}`: what
    /// was assumed for the card (a plain back), what the format does (a JPEG flattens).
    public let notes: [String]
    /// What to say once the frame is stored (a given size that crops the card): a run that fails
    /// says only why it failed.
    public let closingNotes: [String]

    /// The memory its render takes at its peak (``RenderRequest/estimatedPeakBytes(for:)``).
    public var estimatedPeakBytes: Int { request.estimatedPeakBytes(for: scene) }

    /// Renders the frame at the request's depth.
    public func render(with renderer: FrameRenderer) throws(RenderError) -> AnyRGBAImage {
        try request.render(scene, with: renderer)
    }

    /// The file's bytes for `image`, as the format and the request's output settings store it.
    public func encode(_ image: AnyRGBAImage) throws(ImageFileError) -> [UInt8] {
        try request.output.encoder(for: format).encode(image)
    }

    /// Writes `image` to `path` atomically, as ``encode(_:)`` stores it.
    public func write(_ image: AnyRGBAImage, to path: String) throws {
        try request.output.encoder(for: format).write(image, to: path)
    }
}

extension RenderRequest {
    /// Every check of this request for `card` stored as `format`: the format against the output
    /// settings, the render's memory against `budget`, and a {width} or {height} against the
    /// canvas (scaling goes down only). A nil `budget` leaves memory to the caller, which counts
    /// it its own way (a server against what it has left for frames).
    public func prepare(_ card: LoadedCard, format: StillFormat, budget: MemoryBudget?) throws(RequestError) -> PreparedFrame {
        try output.check(for: format)
        let scene = try scene(for: card)
        if let budget { try checkMemory(for: scene, budget: budget) }
        try checkOutput(for: scene)
        let notes = [card.assumptions(showing: scene.visibleSides), outputNote(for: format)].compactMap { $0 }
        return PreparedFrame(request: self, scene: scene, format: format, notes: notes, closingNotes: self.notes(for: scene))
    }

    /// The frame for the file `path`: its format from its extension, the path distinct from
    /// every input file, the card's files read within `budget` (their headers checked before
    /// any is decoded), then ``prepare(_:format:budget:)``'s checks. What `kira render` and
    /// ``write(to:threads:budget:)`` do before they render.
    public func prepare(writingTo path: String, budget: MemoryBudget = .standard) throws -> PreparedFrame {
        let format = try format(ofFile: path)
        try FileIO.checkDistinct(inputs: card.paths, outputs: [path])
        return try prepare(try card.load(budget: budget), format: format, budget: budget)
    }
}
