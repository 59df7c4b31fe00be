import KiraAnimation
import KiraArguments
import KiraFiles
import KiraFormats
import KiraImage
import KiraPipeline
import KiraRender

/// An animation of the card: a preset played at a frame rate, on a canvas, with a shader; what
/// `kira animate` renders before its frames go to outputs.
public struct AnimationRequest: ParameterizedRequest, Equatable {
    /// Required: a request without one is refused by ``validate()``.
    public var preset: AnimationPreset?
    public var framesPerSecond = 30
    /// Seconds to render; nil is the preset's own length (a looping preset plays whole loops).
    public var duration: Double?
    /// Loops of a looping preset; nil is 1, or as many as fit ``duration``.
    public var loops: Int?
    /// A file holding the drag that the tilt presets follow; nil is a figure-eight.
    public var drag: String?
    public var card = CardTextures()
    public var canvas = CanvasSettings()
    public var shader = ShaderSettings()
    public var output = OutputSettings()
    /// The format of numbered frames.
    public var frameFormat = StillFormat.png

    public init(preset: AnimationPreset?) {
        self.preset = preset
    }

    /// A request without a preset yet (``validate()`` asks for one).
    public init() {}

    /// How long an animation may last, in seconds, whether a duration, a drag or loops set it.
    public static let lengths = 0.001...600.0

    public static let parameters: [RequestParameter<AnimationRequest>] = [
        .choice("preset", \.preset, words: AnimationPreset.names, aliases: AnimationPreset.aliases,
                help: "The animation, named for what it shows; the seed-numbered names (seed002-flip, …) still work."),
        .integer("fps", \.framesPerSecond, in: 1...240, default: 30, valueName: "n", help: "Frames per second, 1...240 (default: 30)."),
        .number("duration", \.duration, in: lengths, example: 4, valueName: "s",
                help: "Seconds to render, up to 600 (default: the preset's own length; a looping preset plays whole loops)."),
        .integer("loops", \.loops, in: 1...1000, example: 2, valueName: "n", help: "Loops of a looping preset in the file, 1...1000 (default: 1)."),
        .path("drag", \.drag, help: "A drag for the tilt presets: CSV lines `time,dx,dy` or a JSON array (default: a figure-eight)."),
    ]
        + CardTextures.parameters.map { $0.lifted(\.card) }
        + CanvasSettings.parameters.map { $0.lifted(\.canvas) }
        + ShaderSettings.parameters.map { $0.lifted(\.shader) }
        // Frames are compressed as the outputs need (numbered PNGs and APNGs compress fast): the
        // depth, the lossy formats' settings and the scale are chosen.
        + OutputSettings.parameters.filter { $0.name == "depth" }.map { $0.lifted(\.output) }
        + [.choice("frame_format", \.frameFormat, words: [("png", .png), ("webp", .webp), ("jpg", .jpeg)], default: .png,
                   help: "The format of numbered frames: png, webp or jpg (default: png).")]
        + OutputSettings.formatParameters.map { $0.lifted(\.output) }

    /// The checks between values.
    public func validate() throws(RequestError) {
        guard let preset else {
            throw RequestError(parameter: "preset", reason: "is needed: one of "
                               + ParameterValue.listing(AnimationPreset.allCases.map(\.name)))
        }
        if loops != nil {
            guard preset.loops else {
                throw RequestError(parameter: "loops", reason: "needs a looping preset ("
                                   + AnimationPreset.allCases.filter(\.loops).map(\.name).joined(separator: ", ") + ")")
            }
            guard duration == nil else { throw RequestError(parameter: nil, reason: "give {loops} or {duration}, not both") }
        }
        try output.validate()
        try output.check(for: frameFormat)
        if drag != nil, !preset.usesDrag {
            let users = AnimationPreset.allCases.filter(\.usesDrag).map(\.name).joined(separator: ", ")
            throw RequestError(parameter: "drag", reason: "\(preset.name) does not follow a drag; the presets that do: \(users)")
        }
        try canvas.validate()
    }

    /// The encoder of numbered frames.
    public var frameEncoder: StillEncoder {
        var settings = output
        settings.compression = .fast  // numbered frames are many: compressed as an APNG's are
        return settings.encoder(for: frameFormat)
    }

    /// What writing frames as ``frameFormat`` does that the user may not expect (a JPEG flattens a
    /// transparent background), with parameters written `{name}`; nil when nothing.
    public var frameNote: String? {
        OutputSettings.note(for: frameFormat, transparent: canvas.background == .transparent)
    }

    /// The files read: the card's and the drag.
    public var paths: [String] { card.paths + (drag.map { [$0] } ?? []) }

    /// The drag the tilt presets follow: the file's, read within `budget`
    /// (`DragPath.read(_:budget:)`), or a figure-eight.
    public func loadDrag(budget: MemoryBudget = .standard) throws -> DragPath {
        guard let drag else { return .figureEight }
        return try DragPath.read(drag, budget: budget)
    }

    /// The frames to render: a looping preset plays whole loops (``loops``, or as many as fit
    /// ``duration``), any other plays ``duration`` or its own length once. Refuses a clip longer
    /// than ``lengths`` allows.
    public func timing(drag: DragPath) throws(RequestError) -> FrameTiming {
        let preset = self.preset ?? .showcase
        let fps = framesPerSecond
        // The drag decides the length unless a duration does: the same limits apply to it, before
        // anything is sized by it.
        if duration == nil, !preset.loops, case let length = preset.duration(drag: drag), !Self.lengths.contains(length) {
            throw RequestError(parameter: "drag", reason: "the animation would last \(ParameterValue.format(length)) s; it must be between "
                               + "\(Self.lengths.lowerBound) and \(Int(Self.lengths.upperBound)) s (or give {duration})")
        }
        let length = duration ?? preset.duration(drag: drag)
        guard preset.loops else { return .once(length: length, framesPerSecond: fps) }
        let period = preset.duration(drag: drag)
        let count = loops ?? max(1, Int((length / period).rounded()))
        let timing = FrameTiming.loop(period: period, framesPerSecond: fps, loops: count)
        // Loops repeat a loop: the clip as a whole keeps the duration's limit on time and work.
        if let loops, case let clip = Double(timing.count) / Double(fps), clip > Self.lengths.upperBound {
            throw RequestError(parameter: "loops", reason: "\(loops): the clip would last \(ParameterValue.format(clip)) s; it must be at most "
                               + "\(Int(Self.lengths.upperBound)) s (fewer loops or a lower {fps})")
        }
        return timing
    }

    /// What the clip is, where it is not what was asked: a looping preset renders whole loops
    /// (so the clip loops seamlessly), which may differ from the duration given or stretch the
    /// period to whole frames. Parameters are written `{name}`.
    public func notes(for timing: FrameTiming) -> [String] {
        guard let preset, let period = timing.period, let loopLength = timing.loopLength else { return [] }
        var notes: [String] = []
        let fps = framesPerSecond
        if timing.isStretched {
            notes.append("\(preset.name): a \(ParameterValue.format(period)) s loop at \(fps) frames/s is not a whole number of frames; "
                         + "each loop is \(Int((loopLength * Double(fps)).rounded())) frames, \(formatted(loopLength)) s (period stretched)")
        }
        let loopCount = timing.count / max(1, Int((loopLength * Double(fps)).rounded()))
        let rendered = Double(timing.count) / Double(fps)
        if let duration, abs(rendered - duration) > 0.5 / Double(fps) {
            notes.append("\(preset.name) loops every \(formatted(loopLength)) s: {duration} \(ParameterValue.format(duration)) "
                         + "is rendered as \(loopCount) whole loop\(loopCount == 1 ? "" : "s"), \(formatted(rendered)) s, so that the clip "
                         + "loops seamlessly (give {loops} to choose the number)")
        }
        return notes
    }

    /// The request's frame at animation time `time` of the card `card`, not yet placed on the
    /// canvas (``CanvasSettings/place(_:)`` places all the frames at once).
    private func unplacedScene(at time: Double, card: LoadedCard, drag: DragPath) throws(RequestError) -> FrameScene {
        let state = (preset ?? .showcase).state(at: time, drag: drag)
        do {
            return try FrameScene(front: card.front.face, back: card.back.face, pose: state.pose, canvasSize: (1, 1),
                                  background: canvas.background, visibility: state.visibility,
                                  parameters: shader.parameters, rotationConvention: shader.rotation)
        } catch {
            throw RequestError(error)
        }
    }

    /// Every frame of `timing`, on one canvas: with {fit}, what the card draws over all of them
    /// fills it, so that no frame is cropped. Throws what the scenes' and the canvas's checks
    /// refuse (a drag path's pose that is not finite, a canvas set out of its range).
    public func scenes(for timing: FrameTiming, card: LoadedCard, drag: DragPath) throws(RequestError) -> [FrameScene] {
        var scenes: [FrameScene] = []
        scenes.reserveCapacity(timing.animationTimes.count)
        for time in timing.animationTimes { scenes.append(try unplacedScene(at: time, card: card, drag: drag)) }
        try canvas.place(&scenes)
        return scenes
    }

    /// The note for `scenes` when a given size crops the card in some of them (parameters
    /// written `{name}`).
    public func cropNote(for scenes: [FrameScene]) -> String? {
        canvas.cropNote(for: scenes)
    }

    /// The largest batch of frames up to `preferred` whose render fits `budget` (the card's
    /// textures, the drag's samples, the batch rendering, the batches encoding meanwhile, and
    /// `videos` bytes for the videos, ffmpeg's share included); refuses when even one frame does
    /// not fit.
    public func batchSize(for scene: FrameScene, preferred: Int = FramePipeline.defaultBatchSize,
                          budget: MemoryBudget, drag: DragPath? = nil, videos: Int = 0) throws(RequestError) -> Int {
        let inputs = scene.front.byteCount + scene.back.byteCount + DragPath.bytes(samples: drag?.samples.count ?? 0) + videos
        func peak(_ batch: Int) -> Int {
            inputs + FramePipeline.estimatedPeakBytes(for: scene, channelBytes: output.channelBytes, batchSize: batch)
        }
        guard let batch = budget.largestBatch(upTo: preferred, estimate: peak) else {
            throw budget.overBudget(peak(1), for: "a \(scene.canvasWidth)×\(scene.canvasHeight) animation"
                                        + (videos > 0 ? " with its videos (ffmpeg's share included)" : ""),
                                    hint: "give a smaller {size} or smaller art" + (videos > 0 ? ", a smaller {video_width} or fewer {threads}" : ""))
        }
        return batch
    }

    private func formatted(_ seconds: Double) -> String { ArgumentValues.decimal(seconds, digits: 4) }
}
