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
    @Option(name: P.fps.long, parsing: P.fps.parsing, help: P.fps.argumentHelp) var fps: String?
    @Option(name: P.duration.long, parsing: P.duration.parsing, help: P.duration.argumentHelp) var duration: String?
    @Option(name: P.loops.long, parsing: P.loops.parsing, help: P.loops.argumentHelp) var loops: String?
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

    @Flag(help: "No progress bar (notes and errors still go to stderr).")
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

    /// The outputs the options name.
    var outputs: AnimationOutputs {
        AnimationOutputs(directory: outputDirectory, apng: apng, sheet: sheet, sheetColumns: columns, videos: videos.video,
                         videoQuality: videos.crf, videoWidth: videos.videoWidth, ffmpeg: videos.ffmpeg)
    }

    func run() throws {
        let request = try self.request
        let job = try AnimationJob(request, outputs: outputs, threads: threads.count, budget: memory.budget)
        for note in job.notes where !(quiet && note.kind == .clip) { writeToStandardError("kira animate: \(OptionSpelling.spell(note.text))\n") }
        var bar = ProgressBar(total: job.scenes.count, label: preset, quiet: quiet)
        try job.render(progress: { bar.update($0) }, finished: { bar.finish() })
        // Said once the outputs are written: a failed run says only why it failed.
        for note in job.closingNotes where !(quiet && note.kind == .crop) {
            writeToStandardError("kira animate: \(OptionSpelling.spell(note.text))\n")
        }
    }
}
