import ArgumentParser
import Dispatch
import Kira

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `kira bench`: measures the shader paths on this machine.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure shader throughput: scalar reference, SIMD cold frames at 1…N threads, tilt sweeps, PNG coding.",
        discussion: """
            Every figure is a measurement on this machine: each path runs its frames several times \
            and the best run is reported. Without --art the built-in sample card is resized to --size.
            """
    )

    @Option(help: ArgumentHelp("Frame size.", valueName: "WxH"))
    var size = SizeArgument(width: 1260, height: 1760)

    @Option(help: ArgumentHelp("Frames per measured run of the SIMD paths (the sweep renders them in one pass).", valueName: "n"))
    var frames = 16

    @Option(help: ArgumentHelp("Most threads to measure (default: one per processor).", valueName: "n"))
    var threads: Int?

    @Option(help: ArgumentHelp("Card art (PNG), used at its own size.", valueName: "path"))
    var art: String?

    @Option(help: ArgumentHelp("Holo mask (PNG).", valueName: "path"))
    var mask: String?

    @Option(help: ArgumentHelp("Timed runs per path; the best is reported.", valueName: "n"))
    var repeats = 3

    @Option(name: .customLong("path"),
            help: ArgumentHelp("Measure only this path (repeatable; default: all of them).", valueName: "name"))
    var paths: [String] = []

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    @Flag(help: "No progress lines (they show only when stderr is a terminal).")
    var quiet = false

    @OptionGroup var memory: MemoryOptions

    func validate() throws {
        try Check.integer(frames, "--frames", in: 1...1000)
        try Check.integer(repeats, "--repeats", in: 1...100)
        if let threads { try Check.integer(threads, "--threads", in: 1...1024) }
        if (art == nil) != (mask == nil) { throw ValidationError("give --art and --mask together") }
        for path in paths where !Bench.pathNames.contains(path) {
            throw ValidationError("unknown path '\(path)' (one of \(Bench.pathNames.joined(separator: ", ")))")
        }
    }

    func run() throws {
        if art == nil { _ = try Bench.batches(width: size.width, height: size.height, frames: frames, memory: memory) }
        let (artImage, maskImage) = try loadCard()
        let maxThreads = threads ?? TileScheduler.processorCount
        var bench = Bench(art: artImage, mask: maskImage, frames: frames, repeats: repeats, only: Set(paths))
        // Half a minute at the default size: on a terminal, say what is being measured.
        if !quiet, isatty(2) != 0 {
            bench.onStart = { name, threads in
                writeToStandardError("kira bench: \(name), \(threads) thread\(threads == 1 ? "" : "s")…\n")
            }
        }
        try bench.fit(in: memory)
        try bench.measureAll(maxThreads: maxThreads)
        try writeToStandardOutput((json ? bench.report.json : bench.report.table) + "\n")
    }

    private func loadCard() throws -> (RGBAImage<UInt8>, RGBAImage<UInt8>) {
        if let art, let mask {
            try memory.checkInputs([art, mask])
            return (try PNGCodec.read(art).rgba8, try PNGCodec.read(mask).rgba8)
        }
        let front = BuiltInCard.front.art.rgba8
        let holo = BuiltInCard.front.mask.rgba8
        return (front.resized(width: size.width, height: size.height), holo.resized(width: size.width, height: size.height))
    }
}

/// Runs the measurements and collects the results.
struct Bench {
    let art: RGBAImage<UInt8>
    let mask: RGBAImage<UInt8>
    let frames: Int
    let repeats: Int
    /// The paths to measure; empty for all.
    let only: Set<String>
    /// Frames held at once by the paths that render many (sweeps, frames for zlib): more are
    /// rendered batch after batch, so memory stays bounded however many `frames` are asked for.
    private(set) var batch: Int
    /// Frames per batch of the animate-png path's sequence renderer.
    private(set) var sequenceBatch = 4
    private(set) var report = BenchReport()
    /// Called as each path starts: its name and thread count.
    var onStart: (_ name: String, _ threads: Int) -> Void = { _, _ in }

    /// Every path, in the order measured.
    static let pathNames = ["scalar", "simd", "sweep", "frame", "frame-scalar", "animate-png", "animate-apng", "zlib-frames", "png-encode",
                            "png-encode-fast", "png-decode"]

    init(art: RGBAImage<UInt8>, mask: RGBAImage<UInt8>, frames: Int, repeats: Int, only: Set<String> = []) {
        self.art = art
        self.mask = mask
        self.frames = frames
        self.repeats = repeats
        self.only = only
        batch = frames
        report.width = art.width
        report.height = art.height
    }

    /// Sizes the batches to the memory budget, or refuses when even one frame does not fit.
    mutating func fit(in memory: MemoryOptions) throws {
        (batch, sequenceBatch) = try Self.batches(width: art.width, height: art.height, frames: frames, memory: memory)
    }

    /// The batch sizes for `width` × `height` frames within the budget: all `frames` at once if
    /// they fit, and up to 4 (the sequence renderer's default) for the animate-png path. Known from the size alone, so the sample
    /// card's resize can be skipped when the work is refused.
    static func batches(width: Int, height: Int, frames: Int, memory: MemoryOptions) throws -> (Int, Int) {
        let face = MemoryBudget.imageBytes(width: width, height: height, channelBytes: 1)
        let canvasSize = FrameScene.defaultCanvasSize(cardWidth: width, cardHeight: height)
        let canvas = MemoryBudget.imageBytes(width: canvasSize.width, height: canvasSize.height, channelBytes: 1)
        let inputs = 4 * face  // the art and mask, and the sample card before resizing (at most their size)
        // A frame: its canvas and both faces shaded (as FrameRenderer.estimatedPeakBytes); the
        // sequence also holds the batch being encoded and its PNG bytes (FrameSequenceRenderer's).
        let perFrame = max(face, canvas + 2 * face)
        guard let batch = memory.budget.largestBatch(upTo: frames, estimate: { inputs + $0 * perFrame }),
              let sequenceBatch = memory.budget.largestBatch(upTo: 4, estimate: { inputs + $0 * (perFrame + 2 * canvas) }) else {
            throw memory.overBudget(inputs + perFrame + 2 * canvas, for: "benchmarking \(width)×\(height) frames",
                                    hint: "give a smaller --size")
        }
        return (batch, sequenceBatch)
    }

    /// `normals` in batches of at most ``batch``.
    var normalBatches: [ArraySlice<SIMD3<Float>>] {
        let all = normals
        return stride(from: 0, to: all.count, by: batch).map { all[$0..<min($0 + batch, all.count)] }
    }

    /// Normals of a tilt sweep: tiltY from -10° to 10°, as a drag across seed 003's card.
    var normals: [SIMD3<Float>] {
        (0..<frames).map { k in
            let t = frames == 1 ? 0 : Float(k) / Float(frames - 1)
            return Rotation.normalFromTilt(tiltXDegrees: 4, tiltYDegrees: -10 + 20 * t)
        }
    }

    mutating func measureAll(maxThreads: Int) throws {
        let normals = self.normals
        let art = self.art, mask = self.mask

        func wants(_ path: String) -> Bool { only.isEmpty || only.contains(path) }

        // The scalar reference: one frame, one thread.
        if wants("scalar") {
            try measure("scalar", threads: 1, frames: 1, repeats: 1) {
                _ = try ReferenceRenderer.shade(art: art, mask: mask, normal: normals[0], as: UInt8.self)
            }
        }

        // Cold frames: every frame runs the whole shader, noise tables included.
        var threadCounts = [1]
        while threadCounts.last! * 2 <= maxThreads { threadCounts.append(threadCounts.last! * 2) }
        if threadCounts.last! != maxThreads { threadCounts.append(maxThreads) }
        for threads in threadCounts where wants("simd") {
            let renderer = ShadeRenderer(threads: threads)
            renderer.recomputesNoiseTables = true
            var output = RGBAImage<UInt8>(width: art.width, height: art.height)
            try renderer.shade(art: art, mask: mask, normal: normals[0], into: &output)  // first touch
            try measure("simd", threads: threads, frames: normals.count) {
                for normal in normals { try renderer.shade(art: art, mask: mask, normal: normal, into: &output) }
            }
        }

        // Sweeps: all the tilts in one pass over the card.
        let normalBatches = self.normalBatches
        for threads in Set([1, maxThreads]).sorted() where wants("sweep") {
            let renderer = ShadeRenderer(threads: threads)
            var stack = FrameStack<UInt8>(width: art.width, height: art.height, count: normalBatches[0].count)
            try renderer.shade(art: art, mask: mask, normals: Array(normalBatches[0]), into: &stack)
            try measure("sweep", threads: threads, frames: normals.count) {
                for batch in normalBatches { try renderer.shade(art: art, mask: mask, normals: Array(batch), into: &stack) }
            }
        }

        // On-screen frames: the card tilted by (6°, 0°) and flipped by 25°, shaded and projected with
        // perspective onto its default canvas (2340×3170 for a 1260×1760 card; Mpx/s counts card
        // pixels): the frame of SPEC §5's llvmpipe anchor. Every frame shades the face again.
        let face = CardFace(art: .rgba8(art), mask: .rgba8(mask))
        // `frame-scalar` is the same with the readable one-pixel-at-a-time projection, measured
        // only when asked for (`--path frame-scalar`).
        let scene = FrameScene(front: face, back: face, pose: CardPose(tiltX: 6, tiltY: 0, flip: 25))
        for (name, path) in [("frame", FrameRenderer.ProjectionPath.lanes), ("frame-scalar", .scalar)]
        where wants(name) && (name == "frame" || only.contains(name)) {
            for threads in Set([1, maxThreads]).sorted() {
                let renderer = FrameRenderer(threads: threads)
                renderer.projectionPath = path
                var canvas = RGBAImage<UInt8>(width: 0, height: 0)
                try renderer.render(scene, into: &canvas)
                try measure(name, threads: threads, frames: normals.count) {
                    for _ in 0..<normals.count { try renderer.render(scene, into: &canvas) }
                }
            }
        }

        // An animation to PNG files' bytes: frames rendered in batches (one shading sweep each)
        // while the previous batch is encoded (`--compression fast`: igzip level 2, Paeth
        // filter) on other threads; against the same frames encoded one after the other on one
        // thread, the encoder alone (the path keeps its old name, zlib-frames).
        let scenes = (0..<normals.count).map { k in
            FrameScene(front: face, back: face, pose: CardPose(
                tiltX: 4, tiltY: -10 + 20 * Double(k) / Double(max(1, normals.count - 1)), flip: 15))
        }
        let sequence = FrameSequenceRenderer(threads: maxThreads, batchSize: sequenceBatch)
        if wants("animate-png") {
            let counter = EncodedBytesSink()
            try measure("animate-png", threads: maxThreads, frames: scenes.count) {
                try sequence.render(scenes, to: [counter])
            }
            precondition(counter.bytes > 0)
        }
        // The same frames as `kira animate --apng` encodes them: the changed rectangle of each,
        // igzip, on every core while the next batch renders (the file write left out).
        if wants("animate-apng") {
            let counter = APNGBytesSink()
            try measure("animate-apng", threads: maxThreads, frames: scenes.count) {
                try sequence.render(scenes, to: [counter])
            }
            precondition(counter.bytes > 0)
        }
        if wants("zlib-frames") {
            // Rendered a batch at a time (untimed); only the encoding is timed.
            let frameRenderer = FrameRenderer(threads: maxThreads)
            var rendered: [RGBAImage<UInt8>] = []
            var best = Double.infinity
            onStart("zlib-frames", 1)
            for _ in 0..<repeats {
                var seconds = 0.0
                for start in stride(from: 0, to: scenes.count, by: batch) {
                    try frameRenderer.render(Array(scenes[start..<min(start + batch, scenes.count)]), into: &rendered)
                    let begin = DispatchTime.now().uptimeNanoseconds
                    for frame in rendered { _ = try PNGCodec.encode(frame, options: .fast) }
                    seconds += Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e9
                }
                best = min(best, seconds)
            }
            record("zlib-frames", threads: 1, frames: scenes.count, seconds: best)
        }

        // PNG coding of one frame, for scale: encoding usually dominates writing frames.
        let frame = try ShadeRenderer().shade(art: art, mask: mask, normal: normals[0], as: UInt8.self)
        let encoded = try PNGCodec.encode(frame)
        if wants("png-encode") { try measure("png-encode", threads: 1, frames: 1) { _ = try PNGCodec.encode(frame) } }
        if wants("png-encode-fast") {
            try measure("png-encode-fast", threads: 1, frames: 1) { _ = try PNGCodec.encode(frame, options: .fast) }
        }
        if wants("png-decode") { try measure("png-decode", threads: 1, frames: 1) { _ = try PNGCodec.decode(encoded) } }
    }

    /// Times `body` `repeats` times and records the best run.
    private mutating func measure(_ name: String, threads: Int, frames: Int, repeats: Int? = nil,
                                  _ body: () throws -> Void) throws {
        onStart(name, threads)
        var best = Double.infinity
        for _ in 0..<(repeats ?? self.repeats) {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        record(name, threads: threads, frames: frames, seconds: best)
    }

    private mutating func record(_ name: String, threads: Int, frames: Int, seconds: Double) {
        report.paths.append(BenchReport.Path(
            name: name, width: art.width, height: art.height, frames: frames, threads: threads, seconds: seconds))
    }
}

/// What `kira bench` prints.
struct BenchReport {
    struct Path {
        var name: String
        var width: Int
        var height: Int
        var frames: Int
        var threads: Int
        var seconds: Double

        var megapixelsPerSecond: Double { Double(width * height * frames) / seconds / 1e6 }
        var framesPerSecond: Double { Double(frames) / seconds }
    }

    var width = 0
    var height = 0
    var paths: [Path] = []

    var table: String {
        var lines = ["kira bench: \(width)×\(height), \(BuildInfo.summary)"]
        lines.append(pad("path", 16) + pad("threads", 8, right: true) + pad("frames", 8, right: true)
            + pad("seconds", 10, right: true) + pad("Mpx/s", 10, right: true) + pad("frames/s", 10, right: true)
            + pad("vs 1 thread", 12, right: true))
        for path in paths {
            let single = paths.first { $0.name == path.name && $0.threads == 1 }
            let scaling = single.map { String(format2(path.megapixelsPerSecond / $0.megapixelsPerSecond)) + "×" } ?? ""
            lines.append(pad(path.name, 16) + pad("\(path.threads)", 8, right: true) + pad("\(path.frames)", 8, right: true)
                + pad(format3(path.seconds), 10, right: true) + pad(format1(path.megapixelsPerSecond), 10, right: true)
                + pad(format1(path.framesPerSecond), 10, right: true) + pad(path.threads == 1 ? "" : scaling, 12, right: true))
        }
        return lines.joined(separator: "\n")
    }

    var json: String {
        let items = paths.map { p in
            #"{"name":"\#(p.name)","width":\#(p.width),"height":\#(p.height),"frames":\#(p.frames),"threads":\#(p.threads),"seconds":\#(p.seconds),"mpx_per_s":\#(p.megapixelsPerSecond),"frames_per_s":\#(p.framesPerSecond)}"#
        }
        return #"{"build":"\#(BuildInfo.summary)","width":\#(width),"height":\#(height),"paths":[\#(items.joined(separator: ","))]}"#
    }

    private func pad(_ s: String, _ n: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, n - s.count))
        return right ? fill + s : s + fill
    }
}

func format1(_ x: Double) -> String { formatted(x, digits: 1) }
func format2(_ x: Double) -> String { formatted(x, digits: 2) }
func format3(_ x: Double) -> String { formatted(x, digits: 3) }

/// `x` with `digits` decimals (no Foundation needed).
func formatted(_ x: Double, digits: Int) -> String {
    guard x.isFinite else { return "\(x)" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (abs(x) * scale).rounded()
    let whole = Int(rounded / scale), fraction = Int(rounded.truncatingRemainder(dividingBy: scale))
    var text = "\(x < 0 && rounded > 0 ? "-" : "")\(whole)"
    if digits > 0 {
        let f = String(fraction)
        text += "." + String(repeating: "0", count: digits - f.count) + f
    }
    return text
}

/// Encodes every frame as `kira animate` does numbered PNGs, and only counts the bytes.
private final class EncodedBytesSink: FrameSink {
    private(set) var bytes = 0

    func makeEncoder() -> FrameEncoder<UInt8, Int> {
        { frame, _, _ in try PNGCodec.encode(frame, options: .fast).count }
    }

    func consume(_ frame: RGBAImage<UInt8>, index: Int, encoded: Int) throws { bytes += encoded }

    func finish() throws {}
}

/// Encodes every frame as `kira animate --apng` does, and only counts the bytes.
private final class APNGBytesSink: FrameSink {
    private(set) var bytes = 0

    func makeEncoder() -> FrameEncoder<UInt8, Int> {
        { frame, previous, _ in
            try APNGFrame.encode(frame, after: previous?.image, candidates: previous?.changes).imageData.count
        }
    }

    func consume(_ frame: RGBAImage<UInt8>, index: Int, encoded: Int) throws { bytes += encoded }

    func finish() throws {}
}
