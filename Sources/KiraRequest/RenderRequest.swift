import KiraFiles
import KiraFormats
import KiraGeometry
import KiraImage
import KiraPNG
import KiraRender

/// Everything one frame of the card on screen depends on: the card, its pose, the canvas, the
/// shader and how the frame is stored, with the defaults `kira render` applies.
///
/// Every front end makes its frames through this value: the command line (`kira render`), a
/// catalogue row (`kira batch`) and an HTTP request give it named values (`tilt_x=8`) that
/// ``parameters`` parses and checks, so equal values make byte-identical frames wherever they
/// come from.
///
/// ```swift
/// let request = try RenderRequest(values: [("tilt_x", "8"), ("tilt_y", "-14"), ("size", "1000x1300")])
/// try request.write(to: "card.png")   // the file `kira render --tilt-x 8 --tilt-y -14 --size 1000x1300 -o card.png` writes
/// ```
public struct RenderRequest: ParameterizedRequest, Equatable {
    /// The card's files; none is the built-in sample card.
    public var card = CardTextures()
    public var pose = CardPose()
    /// Show the faces by an opacity crossfade over the flip, as `seed002-flip` and `seed003-tilt-flip` do, instead
    /// of the face towards the viewer.
    public var crossfade = false
    public var canvas = CanvasSettings()
    public var shader = ShaderSettings()
    public var output = OutputSettings()

    /// The request with every default: the sample card, at rest, on its default canvas.
    public init() {}

    /// The tilts, −90…90° wherever they appear: beyond a quarter turn the face looks away.
    public static let tiltRange: ClosedRange<Double> = -90...90
    /// The flip, two turns either way.
    static let flipRange: ClosedRange<Double> = -720...720
    /// Both perspectives: 0 is none.
    static let perspectiveRange: ClosedRange<Double> = 0...10

    /// The help of `tilt_x` and `tilt_y` (also ``ShadeRequest``'s).
    static func tiltHelp(_ axis: String) -> String { "Tilt about the \(axis) axis in degrees, -90...90 (default: 0)." }

    /// The pose's entries.
    static let poseParameters: [RequestParameter<CardPose>] = [
        .number("tilt_x", \.tiltX, in: tiltRange, default: 0, example: 8, valueName: "deg", help: tiltHelp("x")),
        .number("tilt_y", \.tiltY, in: tiltRange, default: 0, example: -6, valueName: "deg", help: tiltHelp("y")),
        .number("flip", \.flip, in: flipRange, default: 0, example: 180, valueName: "deg", help: "Flip angle in degrees: 0 front, 180 back, -720...720 (default: 0)."),
        .choice("axis", \.flipAxis, words: [("y", .y), ("x", .x), ("xy", .diagonal)], default: .y,
                help: "Flip axis: y (as the seed's card), x, or xy (the diagonal 1,1,0) (default: y)."),
        .number("perspective", \.flipPerspective, in: perspectiveRange, default: 0.7, valueName: "p",
                help: "Perspective of the flip, 0...10 (default: 0.7, as the seed's card; 0 for none)."),
        .number("tilt_perspective", \.tiltPerspective, in: perspectiveRange, default: 1, valueName: "p",
                help: "Perspective of the tilts, 0...10 (default: 1, SwiftUI's)."),
    ]

    /// Every value a request takes, by name, in the order help lists them.
    public static let parameters: [RequestParameter<RenderRequest>] =
        CardTextures.parameters.map { $0.lifted(\.card) }
        + poseParameters.map { $0.lifted(\.pose) }
        + [.flag("crossfade", \.crossfade,
                 help: "Show the faces as the seeds' animations do: an opacity crossfade by flip angle, instead of the face towards the viewer.")]
        + CanvasSettings.parameters.map { $0.lifted(\.canvas) }
        + ShaderSettings.parameters.map { $0.lifted(\.shader) }
        + OutputSettings.parameters.map { $0.lifted(\.output) }

    /// The checks between values (each value was checked when it was set by name), and of the
    /// pose and canvas against their parameters' ranges: a program may set those properties
    /// directly.
    public func validate() throws(RequestError) {
        try Self.check(pose)
        try canvas.validate()
        try output.validate()
    }

    /// Refuses a pose whose numbers are outside their parameters' ranges (or not finite), with
    /// the message setting it by name gives.
    static func check(_ pose: CardPose) throws(RequestError) {
        _ = try ParameterValue.checked(pose.tiltX, in: tiltRange, name: "tilt_x", example: 8)
        _ = try ParameterValue.checked(pose.tiltY, in: tiltRange, name: "tilt_y", example: -6)
        _ = try ParameterValue.checked(pose.flip, in: flipRange, name: "flip", example: 180)
        _ = try ParameterValue.checked(pose.flipPerspective, in: perspectiveRange, name: "perspective", example: 0.7)
        _ = try ParameterValue.checked(pose.tiltPerspective, in: perspectiveRange, name: "tilt_perspective", example: 1)
    }

    /// Which face shows.
    public var visibility: FaceVisibility { crossfade ? .crossfade : .orientation }

    /// The frame of `card` this request describes.
    public func scene(for card: LoadedCard) throws(RequestError) -> FrameScene {
        try scene(front: card.front.face, back: card.back.face)
    }

    /// The frame of the faces `front` and `back` this request describes. Throws what
    /// ``validate()`` and ``/KiraRender/FrameScene/placed(front:back:pose:size:scale:fit:background:visibility:parameters:rotationConvention:)``
    /// refuse (the request's properties and the faces may have been set to anything).
    public func scene(front: CardFace, back: CardFace) throws(RequestError) -> FrameScene {
        try validate()
        do {
            return try FrameScene.placed(front: front, back: back, pose: pose, size: canvas.size.map { ($0.width, $0.height) },
                                         scale: canvas.scale, fit: canvas.fit, background: canvas.background, visibility: visibility,
                                         parameters: shader.parameters, rotationConvention: shader.rotation)
        } catch {
            throw RequestError(error)
        }
    }

    /// What `scene` does that was not asked for in so many words (a given size that crops the
    /// card), one line each. Parameters are written `{name}`.
    public func notes(for scene: FrameScene) -> [String] {
        canvas.cropNote(for: [scene]).map { [$0] } ?? []
    }

    /// The memory a render of `scene` takes at its peak: the textures, the renderer's canvas and
    /// shaded faces, the encoded file (at most about the raw canvas), and the scaler's copy.
    public func estimatedPeakBytes(for scene: FrameScene) -> Int {
        let inputs = scene.front.byteCount + scene.back.byteCount
        return inputs + FrameRenderer.estimatedPeakBytes(for: scene, channelBytes: output.channelBytes)
            + scene.canvasBytes(channelBytes: output.channelBytes) + output.scalingBytes(width: scene.canvasWidth, height: scene.canvasHeight)
    }

    /// Refuses `scene` when its render would not fit `budget`.
    public func checkMemory(for scene: FrameScene, budget: MemoryBudget) throws(RequestError) {
        try budget.check(estimatedPeakBytes(for: scene), for: "a \(scene.canvasWidth)×\(scene.canvasHeight) frame",
                         hint: "give a smaller {size} or smaller art")
    }

    /// Renders `scene` at the request's depth.
    public func render(_ scene: FrameScene, with renderer: FrameRenderer) throws(RenderError) -> AnyRGBAImage {
        if output.depth == 16 {
            var image = RGBAImage<UInt16>()
            try renderer.render(scene, into: &image)
            return .rgba16(image)
        }
        var image = RGBAImage<UInt8>()
        try renderer.render(scene, into: &image)
        return .rgba8(image)
    }

    /// The format of the file `path` (by its extension), checked against the request's output
    /// settings; `parameter` names the path in errors.
    public func format(ofFile path: String, parameter: String = "output") throws(RequestError) -> StillFormat {
        try output.format(ofFile: path, parameter: parameter)
    }

    /// Refuses to store `scene`'s frame as asked: a {width} or {height} larger than its canvas.
    public func checkOutput(for scene: FrameScene) throws(RequestError) {
        try output.checkScaling(width: scene.canvasWidth, height: scene.canvasHeight)
    }

    /// What storing the frame as `format` does that the user may not expect (a JPEG flattens a
    /// transparent background), with parameters written `{name}`; nil when nothing.
    public func outputNote(for format: StillFormat) -> String? {
        OutputSettings.note(for: format, transparent: canvas.background == .transparent)
    }

    /// The file's bytes for `image` as `format` (a PNG by default).
    public func encode(_ image: AnyRGBAImage, as format: StillFormat = .png) throws(ImageFileError) -> [UInt8] {
        try output.encoder(for: format).encode(image)
    }

    /// Writes `image` to `path` as the request stores frames, in the format of the path's
    /// extension, atomically.
    public func write(_ image: AnyRGBAImage, to path: String) throws {
        try output.encoder(for: try format(ofFile: path)).write(image, to: path)
    }

    /// Reads the card, renders its frame and writes it to `path`: what `kira render` does.
    public func write(to path: String, threads: Int = TileScheduler.processorCount, budget: MemoryBudget = .standard) throws {
        let frame = try prepare(writingTo: path, budget: budget)
        try frame.write(try frame.render(with: FrameRenderer(threads: threads)), to: path)
    }
}

extension MemoryBudget {
    /// Refuses `estimate` bytes for `what` when over the budget; `hint` says how to need less
    /// (parameters written `{name}`).
    public func check(_ estimate: Int, for what: String, hint: String) throws(RequestError) {
        guard fits(estimate) else { throw overBudget(estimate, for: what, hint: hint) }
    }

    /// Refuses, from their headers and before any is decoded, input PNGs whose bytes and decoded
    /// images do not fit together (``/KiraPNG/PNGHeader/decodingBytes(_:)``).
    public func checkDecoding(_ paths: [String]) throws {
        // Nothing to read needs nothing.
        guard !paths.isEmpty else { return }
        try check(PNGHeader.decodingBytes(paths), for: "reading \(paths.map { QuotedValue.shown($0) }.joined(separator: ", "))",
                  hint: "give smaller images")
    }

    /// The error for `estimate` bytes over the budget. A budget below zero, which nothing fits,
    /// is named as the fault.
    public func overBudget(_ estimate: Int, for what: String, hint: String) -> RequestError {
        guard bytes >= 0 else {
            return RequestError(parameter: nil, reason: "\(what) cannot fit a memory budget of \(described), which is below zero: "
                                + "give a budget of 0 bytes or more (at least \(Self.minimumBytes >> 20)M for {max_memory})")
        }
        return RequestError(parameter: nil, reason: "\(what) needs about \(Self.describe(estimate)) of memory, over the budget of "
                            + "\(described): \(hint), or raise {max_memory}")
    }
}
