import KiraAnimation
import KiraFiles
import KiraGeometry
import KiraImage
import KiraPNG
import KiraPipeline
import KiraRender
import KiraRequest
import KiraVideo

/// An animation that has passed every check, ready to render once into all its outputs: what
/// `kira animate` runs, and any program that animates a card.
///
/// ``init(_:outputs:threads:budget:)`` is the one sequence of checks: files distinct (inputs
/// against every output, the frames of an earlier run that this one removes included), the
/// drag, the clip's length, the card, the scale against the canvas, the ffmpeg program, and the
/// batch size the memory budget allows beside the videos. ``render(progress:finished:)`` builds
/// the sinks (numbered frames, APNG, contact sheet, videos) and streams the frames through them.
public final class AnimationJob {
    /// A line to say, with parameters written `{name}`, and what it is about, so a front end can
    /// leave some out (a quiet run, the clip's arithmetic).
    public struct Note: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// How the clip was cut to whole loops (``/KiraRequest/AnimationRequest/notes(for:)``).
            case clip
            /// What was assumed for the card (a plain back).
            case card
            /// What the frames' format does (a JPEG flattens).
            case frames
            /// A given size crops the card in some frames.
            case crop
            /// What a video's format does with the clip.
            case video
            /// Where the frames went when no output was named.
            case defaultOutput
        }

        public let kind: Kind
        public let text: String
    }

    public let request: AnimationRequest
    public let outputs: AnimationOutputs
    public let scenes: [FrameScene]
    /// Each frame's time in the clip, in seconds.
    public let times: [Double]
    /// The folder of numbered frames, the default one when no output is named; nil when none.
    public let frameDirectory: String?
    /// Frames rendered together, as many as the memory budget allows beside the videos.
    public let batchSize: Int
    /// What to say before rendering.
    public let notes: [Note]
    /// What to say once every output is written: a run that fails says only why it failed.
    public let closingNotes: [Note]

    private let threads: Int
    private let inputs: [String]
    private let videoSettings: VideoSettings
    private let ffmpeg: String?

    /// The folder numbered frames go to when no output is named: `output/<preset>`.
    public static func defaultDirectory(for preset: AnimationPreset) -> String { "output/\(preset.name)" }

    public init(_ request: AnimationRequest, outputs: AnimationOutputs, threads: Int = TileScheduler.processorCount,
                budget: MemoryBudget = .standard) throws {
        let preset = request.preset ?? .showcase
        let drag = try request.loadDrag(budget: budget)
        let timing = try request.timing(drag: drag)
        let directory = outputs.directory ?? (outputs.isEmpty ? Self.defaultDirectory(for: preset) : nil)
        let folder = directory.map { FrameDirectory(path: $0, fileExtension: request.frameFormat.extensions[0]) }
        let framePaths = folder.map { folder in
            (0..<timing.count).map { "\(folder.path)/\(folder.name($0))" } + ["\(folder.path)/\(FrameDirectory.indexName)"]
        } ?? []
        // Every input against every output, by device and inode, before any work.
        let inputs = request.paths
        try FileIO.checkDistinct(inputs: inputs, outputs: [outputs.apng, outputs.sheet].compactMap { $0 } + outputs.videos + framePaths)
        // The numbered frames of an earlier, longer run are removed after this one: none may be an input.
        if let folder, let directory {
            try folder.checkReplaceable()
            let earlier = try folder.frames(from: timing.count)
            do throws(ImageFileError) {
                try FileIO.checkDistinct(inputs: inputs, outputs: earlier)
            } catch {
                throw ImageFileError(path: error.path, reason: "an input named as a frame of an earlier run, which this run would remove "
                                     + "from \(directory); move or rename it")
            }
        }
        ffmpeg = outputs.videos.isEmpty ? nil : try FFmpegProgram.locate(explicit: outputs.ffmpeg)
        let card = try request.card.load(budget: budget)
        let scenes = try request.scenes(for: timing, card: card, drag: drag)
        var notes = request.notes(for: timing).map { Note(kind: .clip, text: $0) }
        if let text = card.assumptions(showing: scenes.reduce(into: Set<CardSide>()) { $0.formUnion($1.visibleSides) }) {
            notes.append(Note(kind: .card, text: text))
        }
        if directory != nil || outputs.apng != nil {
            try request.output.checkScaling(width: scenes[0].canvasWidth, height: scenes[0].canvasHeight)
        }
        if directory != nil, let text = request.frameNote { notes.append(Note(kind: .frames, text: "frames: " + text)) }

        let background = request.canvas.background
        let videoSettings = VideoSettings(width: scenes[0].canvasWidth, height: scenes[0].canvasHeight, framesPerSecond: request.framesPerSecond,
                                      quality: outputs.videoQuality, transparent: background == .transparent,
                                      matte: background.color8 ?? .zero, outputWidth: outputs.videoWidth, threads: threads)
        // Batches as large as the memory budget allows, up to the renderer's default, beside the
        // drag and the videos (ffmpeg's share too).
        let videoBytes = outputs.videos.compactMap(VideoFormat.init(path:)).reduce(0) {
            $0 + VideoEncoder.estimatedPeakBytes($1, settings: videoSettings, frames: scenes.count)
        }
        batchSize = try request.batchSize(for: scenes[0], budget: budget, drag: drag, videos: videoBytes)

        var closing: [Note] = []
        if let text = request.cropNote(for: scenes) { closing.append(Note(kind: .crop, text: text)) }
        for path in outputs.videos {
            if let text = VideoFormat(path: path)?.note(framesPerSecond: request.framesPerSecond, transparent: background == .transparent) {
                closing.append(Note(kind: .video, text: "\(QuotedValue.shown(path)): \(text)"))
            }
        }
        if outputs.directory == nil, let directory {
            closing.append(Note(kind: .defaultOutput, text: "wrote \(scenes.count) frames to \(directory)/ "
                                + "(the default: no {output_dir}, {apng}, {sheet} or {video} given)"))
        }
        self.request = request
        self.outputs = outputs
        self.videoSettings = videoSettings
        self.scenes = scenes
        self.times = (0..<timing.count).map(timing.clipTime)
        self.frameDirectory = directory
        self.notes = notes
        self.closingNotes = closing
        self.threads = threads
        self.inputs = inputs
    }

    /// Renders the frames once into every output: each is a sink that receives every frame in
    /// order (the APNG streams into its file as it goes). `progress` is told how many frames are
    /// done after each, and `finished` once all are; the videos' ffmpeg processes are stopped and
    /// their files left out on any failure.
    public func render(progress: @escaping (_ framesDone: Int) -> Void = { _ in }, finished: @escaping () -> Void = {}) throws {
        if let directory = frameDirectory {
            // A folder the user named must have its parent; the default one is made with its parents.
            if outputs.directory != nil { try FileIO.makeDirectory(directory) } else { try FileIO.makeDirectories(directory) }
        }
        var encoders: [VideoEncoder] = []
        // Any failure below stops every ffmpeg and leaves no video behind.
        defer { for encoder in encoders { encoder.cancel() } }
        if let ffmpeg {
            for path in outputs.videos {
                encoders.append(try VideoEncoder(path: path, settings: videoSettings, ffmpeg: ffmpeg, inputs: inputs))
            }
        }
        if request.output.depth == 16 {
            try render(UInt16.self, encoders: encoders, progress: progress, finished: finished)
        } else {
            try render(UInt8.self, encoders: encoders, progress: progress, finished: finished)
        }
    }

    private func render<Channel: LaneChannel>(_: Channel.Type, encoders: [VideoEncoder], progress: @escaping (Int) -> Void,
                                              finished: @escaping () -> Void) throws {
        var sinks: [any FrameSink<Channel>] = [ProgressSink<Channel>(progress: progress, finished: finished)]
        if !encoders.isEmpty { sinks.append(VideoSink<Channel>(encoders)) }
        if let directory = frameDirectory {
            sinks.append(FrameFilesSink<Channel>(directory: directory, times: times, encoder: request.frameEncoder,
                                                 fileExtension: request.frameFormat.extensions[0]))
        }
        if let apng = outputs.apng {
            let (width, height) = (scenes[0].canvasWidth, scenes[0].canvasHeight)
            sinks.append(try APNGSink<Channel>(path: apng, width: width, height: height, frameCount: scenes.count,
                                               framesPerSecond: request.framesPerSecond,
                                               scaledSize: request.frameEncoder.scaledSize(width: width, height: height)))
        }
        if let sheet = outputs.sheet { sinks.append(ContactSheetSink<Channel>(path: sheet, columns: outputs.sheetColumns, times: times)) }
        try FramePipeline(threads: threads, batchSize: batchSize).render(scenes, to: sinks)
    }
}

/// Tells a front end how many frames are done, after each, and when the last is.
final class ProgressSink<Channel: LaneChannel>: FrameSink {
    private let progress: (Int) -> Void
    private let finished: () -> Void

    init(progress: @escaping (Int) -> Void, finished: @escaping () -> Void) {
        self.progress = progress
        self.finished = finished
    }

    func makeEncoder() -> FrameEncoder<Channel, Void> { { _, _, _ in } }

    func consume(_ frame: RGBAImage<Channel>, index: Int, encoded: Void) throws { progress(index + 1) }

    func finish() throws { finished() }
}
