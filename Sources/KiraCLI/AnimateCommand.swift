import ArgumentParser
import Kira

/// `kira animate`: one of the seeds' animations as numbered PNG frames, an APNG, a contact sheet.
struct AnimateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "animate",
        abstract: "Render one of the seeds' flip, tilt and spin animations, or a showcase loop, as PNG frames, an animated PNG, a contact sheet, videos.",
        discussion: """
            Presets: seed000-flip, seed001-flip, seed002-flip, seed002-spin, seed002-tilt, seed003-tilt, seed003-tilt-flip, seed004-flip, showcase. Without --output-dir, \
            --apng, --sheet or --video the frames go to output/<preset>/ (created). Without --art the built-in sample card is drawn. All outputs are written \
            from one render. Frames are rendered in batches that share their shading work and are encoded on every core (or by ffmpeg) while the next batch renders; an APNG \
            stores only the rectangle that changed from frame to frame.
            Looping presets (seed002-spin, showcase) render round(period × fps) frames per loop at t = k / fps, so that the last \
            frame steps to the first like any other; when period × fps is not a whole number the period is stretched to fit (kira says so).
            """
    )

    @Option(help: ArgumentHelp("The animation.", valueName: "name"))
    var preset: PresetArgument

    @Option(help: ArgumentHelp("Frames per second (1...240).", valueName: "n"))
    var fps = 30

    @Option(help: ArgumentHelp("Seconds to render (default: the preset's own length; a looping preset plays whole loops).", valueName: "s"))
    var duration: Double?

    @Option(help: ArgumentHelp("Loops of a looping preset in the file (default 1).", valueName: "n"))
    var loops: Int?

    @Option(help: ArgumentHelp("A drag for the tilt presets: CSV lines `time,dx,dy` or a JSON array (default: a figure-eight).", valueName: "path"))
    var drag: String?

    @OptionGroup var card: CardOptions
    @OptionGroup var canvas: CanvasOptions

    @Option(name: .customLong("output-dir"), help: ArgumentHelp(
        "Write numbered frames (frame-0000.png…) and their times (frames.csv) into this directory; numbered frames of an earlier run are removed.",
        valueName: "dir"))
    var outputDirectory: String?

    @Option(help: ArgumentHelp("Write an animated PNG.", valueName: "path"))
    var apng: String?

    @Option(help: ArgumentHelp("Write a contact sheet: a grid of frames with their times.", valueName: "path"))
    var sheet: String?

    @Option(help: ArgumentHelp("Columns of the contact sheet.", valueName: "n"))
    var columns = 6

    @OptionGroup var videos: VideoOptions
    @OptionGroup var depth: DepthOptions
    @OptionGroup var shader: ShaderOptions
    @OptionGroup var threads: ThreadOptions
    @OptionGroup var memory: MemoryOptions

    @Flag(help: "No progress bar.")
    var quiet = false

    struct PresetArgument: ExpressibleByArgument {
        let preset: AnimationPreset
        init?(argument: String) {
            guard let preset = AnimationPreset(rawValue: argument) else { return nil }
            self.preset = preset
        }
        static var allValueStrings: [String] { AnimationPreset.allCases.map(\.rawValue) }
    }

    func validate() throws {
        try Check.integer(fps, "--fps", in: 1...240)
        try videos.check(framesPerSecond: fps)
        try Check.integer(columns, "--columns", in: 1...100)
        if let duration { try Check.number(duration, "--duration", in: Self.lengths) }
        if let loops {
            try Check.integer(loops, "--loops", in: 1...1000)
            guard preset.preset.loops else {
                throw ValidationError("--loops needs a looping preset (\(AnimationPreset.allCases.filter(\.loops).map(\.rawValue).joined(separator: ", ")))")
            }
            guard duration == nil else { throw ValidationError("give --loops or --duration, not both") }
        }
        for path in [outputDirectory, apng, sheet].compactMap({ $0 }) where path.isEmpty {
            throw ValidationError("output paths must not be empty")
        }
        if let apng { try OutputPath.checkPNG(apng, option: "--apng", extensions: ["png", "apng"]) }
        if let sheet { try OutputPath.checkPNG(sheet, option: "--sheet") }
        if drag != nil, !preset.preset.usesDrag {
            let users = AnimationPreset.allCases.filter(\.usesDrag).map(\.rawValue).joined(separator: ", ")
            throw ValidationError("--drag: \(preset.preset.rawValue) does not follow a drag; the presets that do: \(users)")
        }
    }

    /// How long an animation may be, in seconds, whether --duration or a drag sets it.
    static let lengths = 0.001...600.0

    func run() throws {
        let dragPath = try drag.map { try DragPath.read($0, budget: memory.budget) } ?? .figureEight
        let preset = self.preset.preset
        // The drag decides the length unless --duration does: the same limits apply to it,
        // before anything is sized by it.
        if duration == nil, !preset.loops, case let length = preset.duration(drag: dragPath), !Self.lengths.contains(length) {
            throw InputError("--drag: the animation would last \(Check.format(length)) s; it must be between "
                             + "\(Self.lengths.lowerBound) and \(Int(Self.lengths.upperBound)) s (or give --duration)")
        }
        let timing = frameTiming(preset, drag: dragPath)
        // --loops repeats a loop: the clip as a whole keeps --duration's limit on time and work.
        if let loops, case let length = Double(timing.count) / Double(fps), length > Self.lengths.upperBound {
            throw InputError("--loops \(loops): the clip would last \(Check.format(length)) s; it must be at most "
                             + "\(Int(Self.lengths.upperBound)) s (fewer loops or a lower --fps)")
        }
        let directory = outputDirectory ?? ((apng == nil && sheet == nil && videos.video.isEmpty) ? "output/\(preset.rawValue)" : nil)
        let framePaths = directory.map { directory in
            (0..<timing.count).map { "\(directory)/\(FrameDirectory.name($0))" } + ["\(directory)/\(FrameDirectory.indexName)"]
        } ?? []
        // Every input against every output, by device and inode, before any work.
        let inputs = card.paths + (drag.map { [$0] } ?? [])
        try FileIO.checkDistinct(inputs: inputs, outputs: [apng, sheet].compactMap { $0 } + videos.video + framePaths)
        // The numbered frames of an earlier, longer run are removed after this one: none may be an input.
        if let directory {
            try FrameDirectory(path: directory).checkReplaceable()
            do {
                try FileIO.checkDistinct(inputs: inputs, outputs: try FrameDirectory(path: directory).frames(from: timing.count))
            } catch let error as ImageFileError {
                throw InputError("\(error.path): an input named as a frame of an earlier run, which this run would remove from \(directory); move or rename it")
            }
        }
        let ffmpeg = try videos.program()
        try memory.checkInputs(card.paths)
        let faces = try card.load()

        if timing.isStretched, !quiet, let period = timing.period, let loopLength = timing.loopLength {
            writeToStandardError("kira animate: \(preset.rawValue): a \(period) s loop at \(fps) frames/s is not a whole number of frames; "
                                 + "each loop is \(Int((loopLength * Double(fps)).rounded())) frames, \(formatted(loopLength, digits: 4)) s (period stretched)\n")
        }
        let count = timing.count
        let times = (0..<count).map(timing.clipTime)
        let scenes = timing.animationTimes.map { time -> FrameScene in
            let state = preset.state(at: time, drag: dragPath)
            return canvas.scene(faces, pose: state.pose, visibility: state.visibility, shader: shader)
        }
        faces.reportAssumptions(showing: scenes.reduce(into: Set<CardSide>()) { $0.formUnion($1.visibleSides) }, command: "animate")

        if let outputDirectory {
            try FileIO.makeDirectory(outputDirectory)
        } else if let directory {
            try FileIO.makeDirectories(directory)  // the default folder, created with its parents
        }
        let videoSettings = videos.settings(width: scenes[0].canvasWidth, height: scenes[0].canvasHeight, framesPerSecond: fps,
                                            background: canvas.background.value, threads: threads.count)
        // Batches as large as the memory budget allows, up to the renderer's default, beside the
        // videos (ffmpeg's share too) and the drag.
        let channelBytes = depth.depth / 8
        let inputBytes = [scenes[0].front.art, scenes[0].front.mask, scenes[0].back.art, scenes[0].back.mask].reduce(0) { $0 + $1.byteCount }
        let otherBytes = DragPath.bytes(samples: dragPath.samples.count) + videos.estimatedBytes(videoSettings, frames: scenes.count)
        func peak(_ batch: Int) -> Int {
            inputBytes + otherBytes + FrameSequenceRenderer.estimatedPeakBytes(for: scenes[0], channelBytes: channelBytes, batchSize: batch)
        }
        guard let batch = memory.budget.largestBatch(upTo: FrameSequenceRenderer.defaultBatchSize, estimate: peak) else {
            throw memory.overBudget(peak(1), for: "a \(scenes[0].canvasWidth)×\(scenes[0].canvasHeight) animation"
                                        + (videos.video.isEmpty ? "" : " with its videos (ffmpeg's share included)"),
                                    hint: "give a smaller --size or smaller art" + (videos.video.isEmpty ? "" : ", a smaller --video-width or fewer --threads"))
        }
        let videoEncoders = try ffmpeg.map { try videos.encoders(program: $0, settings: videoSettings, inputs: inputs) } ?? []
        // Any failure below stops every ffmpeg and leaves no video behind.
        defer { for encoder in videoEncoders { encoder.cancel() } }
        if depth.depth == 16 {
            try render(scenes, times: times, directory: directory, videoEncoders: videoEncoders, batch: batch, as: UInt16.self)
        } else {
            try render(scenes, times: times, directory: directory, videoEncoders: videoEncoders, batch: batch, as: UInt8.self)
        }
    }

    /// Renders the frames once into every output asked for: each is a sink that receives every
    /// frame in order; the APNG streams into its file as it goes.
    private func render<Channel: LaneChannel>(_ scenes: [FrameScene], times: [Double], directory: String?,
                                              videoEncoders: [VideoEncoder], batch: Int, as: Channel.Type) throws {
        let progress = ProgressSink<Channel>(ProgressBar(total: scenes.count, label: preset.preset.rawValue, quiet: quiet))
        var sinks: [any FrameSink<Channel>] = [progress]
        if !videoEncoders.isEmpty { sinks.append(VideoSink<Channel>(videoEncoders)) }
        if let directory { sinks.append(PNGFramesSink<Channel>(directory: directory, times: times)) }
        if let apng {
            sinks.append(try APNGSink<Channel>(path: apng, width: scenes[0].canvasWidth, height: scenes[0].canvasHeight,
                                               frameCount: scenes.count, framesPerSecond: fps))
        }
        if let sheet { sinks.append(ContactSheetSink<Channel>(path: sheet, columns: columns, times: times)) }
        try FrameSequenceRenderer(threads: threads.count, batchSize: batch).render(scenes, to: sinks)
    }

    /// The frames to render: a looping preset plays whole loops (`--loops`, or as many as fit
    /// `--duration`), any other plays `--duration` or its own length once.
    private func frameTiming(_ preset: AnimationPreset, drag: DragPath) -> FrameTiming {
        let length = duration ?? preset.duration(drag: drag)
        guard preset.loops else { return .once(length: length, framesPerSecond: fps) }
        let period = preset.duration(drag: drag)
        let count = loops ?? max(1, Int((length / period).rounded()))
        return .loop(period: period, framesPerSecond: fps, loops: count)
    }
}
