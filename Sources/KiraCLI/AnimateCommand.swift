import ArgumentParser
import Kira
import KiraFiles

private typealias P = AnimateCommand.Parameters

/// `kira animate`: one of the preset animations as numbered PNG frames, an APNG, a contact sheet.
struct AnimateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "animate",
        abstract: "Render a flip, tilt or spin animation of the card, or a showcase loop, as PNG frames, an animated PNG, a contact sheet, videos.",
        discussion: """
            Presets, named for what they show: \(AnimationPreset.allCases.map(\.name).joined(separator: ", ")) \
            (docs/cli.md describes each; the older names of the card views they reproduce, seed000-flip to seed004-flip, \
            still work). Without --output-dir, \
            --apng, --sheet or --video the frames go to output/<preset>/ (created). Without --art the built-in sample card is drawn. All outputs are written \
            from one render. Frames are rendered in batches that share their shading work and are encoded on every core (or by ffmpeg) while the next batch renders; an APNG \
            stores only the rectangle that changed from frame to frame.
            Looping presets (spin, showcase) render round(period × fps) frames per loop at t = k / fps, so that the last \
            frame steps to the first like any other; when period × fps is not a whole number the period is stretched to fit (kira says so).
            """
    )

    /// The entries of ``AnimationRequest/parameters`` this command declares (the card, canvas
    /// and shader ones are the option groups').
    enum Parameters {
        static func entry(_ name: String) -> RequestParameter<AnimationRequest> {
            guard let entry = AnimationRequest.parameter(named: name) else { fatalError("no animation parameter \(name)") }
            return entry
        }

        static let preset = entry("preset"), fps = entry("fps"), duration = entry("duration"), loops = entry("loops")
        static let drag = entry("drag"), frameFormat = entry("frame_format")
    }

    @Option(name: P.preset.long, help: P.preset.argumentHelp, completion: P.preset.completion) var preset: String
    @Option(name: P.fps.long, help: P.fps.argumentHelp) var fps: String?
    @Option(name: P.duration.long, help: P.duration.argumentHelp) var duration: String?
    @Option(name: P.loops.long, help: P.loops.argumentHelp) var loops: String?
    @Option(name: P.drag.long, help: P.drag.argumentHelp, completion: P.drag.completion) var drag: String?

    @OptionGroup var card: CardOptions
    @OptionGroup var canvas: CanvasOptions

    @Option(name: .customLong("output-dir"), help: ArgumentHelp(
        "Write numbered frames (frame-0000.png…) and their times (frames.csv) into this directory; numbered frames of an earlier run are removed.",
        valueName: "dir"))
    var outputDirectory: String?

    @Option(name: P.frameFormat.long, help: P.frameFormat.argumentHelp, completion: P.frameFormat.completion)
    var frameFormat: String?

    @Option(help: ArgumentHelp("Write an animated PNG.", valueName: "path"))
    var apng: String?

    @Option(help: ArgumentHelp("Write a contact sheet: a grid of frames with their times.", valueName: "path"))
    var sheet: String?

    @Option(help: ArgumentHelp("Columns of the contact sheet.", valueName: "n"))
    var columns = 6

    @OptionGroup var videos: VideoOptions
    @Option(name: RenderParameters.depth.long, help: RenderParameters.depth.argumentHelp, completion: RenderParameters.depth.completion)
    var depth: String?
    @OptionGroup var lossy: LossyOptions
    @OptionGroup var scaling: ScalingOptions
    @OptionGroup var shader: ShaderOptions
    @OptionGroup var threads: ThreadOptions
    @OptionGroup var memory: MemoryOptions

    @Flag(help: "No progress bar.")
    var quiet = false

    /// The animation the options describe.
    var request: AnimationRequest {
        get throws {
            let values = given([(P.preset, preset), (P.fps, fps), (P.duration, duration), (P.loops, loops), (P.drag, drag),
                                (AnimationRequest.parameter(named: "depth")!, depth), (P.frameFormat, frameFormat)])
            do {
                return try AnimationRequest(values: values + card.values + canvas.values + shader.values + lossy.values + scaling.values)
            } catch {
                throw ValidationError(error.commandLine)
            }
        }
    }

    func validate() throws {
        // The frames' settings need frames: numbered ones (asked for, or the default when no
        // other output is) or, for the scale, an animated PNG.
        let numbered = outputDirectory != nil || (apng == nil && sheet == nil && videos.video.isEmpty)
        if !numbered, frameFormat != nil || !lossy.values.isEmpty {
            throw ValidationError("\(frameFormat != nil ? "--frame-format" : lossy.quality != nil ? "--quality" : "--lossless") applies to numbered frames (--output-dir)")
        }
        if !numbered, apng == nil, !scaling.values.isEmpty {
            throw ValidationError("\(scaling.width != nil ? "--width" : "--height") applies to numbered frames (--output-dir) and --apng; videos take --video-width")
        }
        try videos.check(framesPerSecond: try request.framesPerSecond)
        try Check.integer(columns, "--columns", in: 1...100, example: 8)
        for path in [outputDirectory, apng, sheet].compactMap({ $0 }) where path.isEmpty {
            throw ValidationError("output paths must not be empty")
        }
        if let apng { try OutputPath.checkPNG(apng, option: "--apng", extensions: ["png", "apng"]) }
        if let sheet { try OutputPath.checkPNG(sheet, option: "--sheet") }
    }

    func run() throws {
        let request = try self.request
        let preset = request.preset!
        let dragPath = try request.loadDrag(budget: memory.budget)
        let timing = try request.timing(drag: dragPath)
        let directory = outputDirectory ?? ((apng == nil && sheet == nil && videos.video.isEmpty) ? "output/\(preset.name)" : nil)
        let folder = directory.map { FrameDirectory(path: $0, fileExtension: request.frameFormat.extensions[0]) }
        let framePaths = folder.map { folder in
            (0..<timing.count).map { "\(folder.path)/\(folder.name($0))" } + ["\(folder.path)/\(FrameDirectory.indexName)"]
        } ?? []
        // Every input against every output, by device and inode, before any work.
        let inputs = request.paths
        try FileIO.checkDistinct(inputs: inputs, outputs: [apng, sheet].compactMap { $0 } + videos.video + framePaths)
        // The numbered frames of an earlier, longer run are removed after this one: none may be an input.
        if let folder, let directory {
            try folder.checkReplaceable()
            let earlier = try folder.frames(from: timing.count)
            do throws(ImageFileError) {
                try FileIO.checkDistinct(inputs: inputs, outputs: earlier)
            } catch {
                throw InputError("\(error.path): an input named as a frame of an earlier run, which this run would remove from \(directory); move or rename it")
            }
        }
        let ffmpeg = try videos.program()
        let card = try request.card.load(budget: memory.budget)

        if !quiet {
            for note in request.notes(for: timing) { writeToStandardError("kira animate: \(OptionSpelling.spell(note))\n") }
        }
        let times = (0..<timing.count).map(timing.clipTime)
        let scenes = request.scenes(for: timing, card: card, drag: dragPath)
        if let notes = card.assumptions(showing: scenes.reduce(into: Set<CardSide>()) { $0.formUnion($1.visibleSides) }) {
            writeToStandardError("kira animate: \(OptionSpelling.spell(notes))\n")
        }
        if directory != nil || apng != nil {
            try request.output.checkScaling(width: scenes[0].canvasWidth, height: scenes[0].canvasHeight)
        }
        if directory != nil, let note = request.frameNote { writeToStandardError("kira animate: frames: \(OptionSpelling.spell(note))\n") }

        if let outputDirectory {
            try FileIO.makeDirectory(outputDirectory)
        } else if let directory {
            try FileIO.makeDirectories(directory)  // the default folder, created with its parents
        }
        let videoSettings = videos.settings(width: scenes[0].canvasWidth, height: scenes[0].canvasHeight,
                                            framesPerSecond: request.framesPerSecond, background: request.canvas.background,
                                            threads: threads.count)
        // Batches as large as the memory budget allows, up to the renderer's default, beside the
        // drag and the videos (ffmpeg's share too).
        let batch = try request.batchSize(for: scenes[0], budget: memory.budget, drag: dragPath,
                                          videos: videos.estimatedBytes(videoSettings, frames: scenes.count))
        let videoEncoders = try ffmpeg.map { try videos.encoders(program: $0, settings: videoSettings, inputs: inputs) } ?? []
        // Any failure below stops every ffmpeg and leaves no video behind.
        defer { for encoder in videoEncoders { encoder.cancel() } }
        if request.output.depth == 16 {
            try render(request, scenes, times: times, directory: directory, videoEncoders: videoEncoders, batch: batch, fps: request.framesPerSecond, as: UInt16.self)
        } else {
            try render(request, scenes, times: times, directory: directory, videoEncoders: videoEncoders, batch: batch, fps: request.framesPerSecond, as: UInt8.self)
        }
        // Said once the outputs are written: a failed run says only why it failed.
        if !quiet, let note = request.cropNote(for: scenes) { writeToStandardError("kira animate: \(OptionSpelling.spell(note))\n") }
        for path in videos.video {
            if let note = VideoFormat(path: path)?.note(framesPerSecond: request.framesPerSecond,
                                                        transparent: request.canvas.background == .transparent) {
                writeToStandardError("kira animate: \(path): \(OptionSpelling.spell(note))\n")
            }
        }
        if outputDirectory == nil, let directory {
            writeToStandardError("kira animate: wrote \(scenes.count) frames to \(directory)/ (the default: no --output-dir, --apng, --sheet or --video given)\n")
        }
    }

    /// Renders the frames once into every output asked for: each is a sink that receives every
    /// frame in order; the APNG streams into its file as it goes.
    private func render<Channel: LaneChannel>(_ request: AnimationRequest, _ scenes: [FrameScene], times: [Double], directory: String?,
                                              videoEncoders: [VideoEncoder], batch: Int, fps: Int, as: Channel.Type) throws {
        let progress = ProgressSink<Channel>(ProgressBar(total: scenes.count, label: preset, quiet: quiet))
        var sinks: [any FrameSink<Channel>] = [progress]
        if !videoEncoders.isEmpty { sinks.append(VideoSink<Channel>(videoEncoders)) }
        if let directory {
            sinks.append(FrameFilesSink<Channel>(directory: directory, times: times, encoder: request.frameEncoder,
                                                 fileExtension: request.frameFormat.extensions[0]))
        }
        if let apng {
            let (width, height) = (scenes[0].canvasWidth, scenes[0].canvasHeight)
            sinks.append(try APNGSink<Channel>(path: apng, width: width, height: height, frameCount: scenes.count, framesPerSecond: fps,
                                               scaledSize: request.frameEncoder.scaledSize(width: width, height: height)))
        }
        if let sheet { sinks.append(ContactSheetSink<Channel>(path: sheet, columns: columns, times: times)) }
        try FramePipeline(threads: threads.count, batchSize: batch).render(scenes, to: sinks)
    }
}
