import Dispatch
import KiraFiles
import KiraFormats
import KiraGeometry
import KiraImage
import KiraPNG
import KiraPipeline
import KiraRender
import KiraRequest
import KiraSamples
import KiraShader

/// Runs the measurements and collects the results.
public struct Bench {
    public let art: RGBAImage<UInt8>
    public let mask: RGBAImage<UInt8>
    public let frames: Int
    public let repeats: Int
    /// The paths to measure; empty for all.
    public let only: Set<String>
    /// The foils to shade with, each measured on every path that shades, one after the other.
    public let foils: [Foil]
    /// The shader's parameters of the foil being measured.
    private var parameters = KiraParameters.seed
    /// Frames held at once by the paths that render many (sweeps, frames for zlib): more are
    /// rendered batch after batch, so memory stays bounded however many `frames` are asked for.
    private(set) var batch: Int
    /// Frames per batch of the animate-png path's sequence renderer.
    private(set) var sequenceBatch = 4
    public private(set) var report: BenchReport
    /// Called as each path starts: its name, thread count and the frames it renders in all its runs.
    public var onStart: (_ name: String, _ threads: Int, _ frames: Int) -> Void = { _, _, _ in }
    /// Called as the path that started last renders each frame: how many it has rendered.
    public var onFrame: (_ done: Int) -> Void = { _ in }

    /// Every path, in the order measured.
    public static let pathNames = ["scalar", "simd", "sweep", "frame", "frame-scalar", "frame-thumbnail", "animate-png", "animate-apng",
                                   "encode-frames", "png-encode", "png-encode-fast", "png-decode", "webp-encode", "jpeg-encode", "srgb-convert"]

    /// The paths that time one frame a run whatever `frames` is.
    public static let oneFramePaths: Set<String> = ["scalar", "png-encode", "png-encode-fast", "png-decode", "webp-encode", "jpeg-encode",
                                                    "srgb-convert"]

    /// A benchmark of `art` and `mask`; `build` describes the build for the report.
    public init(art: RGBAImage<UInt8>, mask: RGBAImage<UInt8>, frames: Int, repeats: Int, only: Set<String> = [],
                foils: [Foil] = [.kira], build: String) {
        precondition(!foils.isEmpty, "a benchmark shades with at least one foil")
        self.art = art
        self.mask = mask
        self.frames = frames
        self.repeats = repeats
        self.only = only
        self.foils = foils
        batch = frames
        report = BenchReport(build: build, width: art.width, height: art.height)
    }

    /// The built-in sample card's front and mask resized to `width` × `height`: the card measured
    /// when no art is given.
    public static func sampleCard(width: Int, height: Int) throws(ImageFileError) -> (art: RGBAImage<UInt8>, mask: RGBAImage<UInt8>) {
        (try BuiltInCard.front.art.rgba8.lanczosScaled(width: width, height: height),
         try BuiltInCard.front.mask.rgba8.lanczosScaled(width: width, height: height))
    }

    /// Sizes the batches to the memory budget, or refuses when even one frame does not fit.
    public mutating func fit(in budget: MemoryBudget) throws(RequestError) {
        (batch, sequenceBatch) = try Self.batches(width: art.width, height: art.height, frames: frames, budget: budget)
    }

    /// The batch sizes for `width` × `height` frames within the budget: all `frames` at once if
    /// they fit, and up to 4 (the sequence renderer's default) for the animate-png path. Known from the size alone, so the sample
    /// card's resize can be skipped when the work is refused.
    public static func batches(width: Int, height: Int, frames: Int, budget: MemoryBudget) throws(RequestError) -> (Int, Int) {
        let face = MemoryBudget.imageBytes(width: width, height: height, channelBytes: 1)
        let canvasSize: (width: Int, height: Int)
        do {
            canvasSize = try FrameScene.defaultCanvasSize(cardWidth: width, cardHeight: height)
        } catch {
            throw RequestError(error)
        }
        let canvas = MemoryBudget.imageBytes(width: canvasSize.width, height: canvasSize.height, channelBytes: 1)
        let inputs = 4 * face  // the art and mask, and the sample card before resizing (at most their size)
        // A frame: its canvas and both faces shaded (as FrameRenderer.estimatedPeakBytes); the
        // sequence also holds the batch being encoded and its PNG bytes (FramePipeline's).
        let perFrame = max(face, canvas + 2 * face)
        guard let batch = budget.largestBatch(upTo: frames, estimate: { inputs + $0 * perFrame }),
              let sequenceBatch = budget.largestBatch(upTo: 4, estimate: { inputs + $0 * (perFrame + 2 * canvas) }) else {
            throw budget.overBudget(inputs + perFrame + 2 * canvas, for: "benchmarking \(width)×\(height) frames",
                                    hint: "give a smaller {size}")
        }
        return (batch, sequenceBatch)
    }

    /// `normals` in batches of at most ``batch``.
    var normalBatches: [ArraySlice<SIMD3<Float>>] {
        let all = normals
        return stride(from: 0, to: all.count, by: batch).map { all[$0..<min($0 + batch, all.count)] }
    }

    /// Normals of a tilt sweep: tiltY from -10° to 10°, as a drag across the card (`seed003-tilt`).
    var normals: [SIMD3<Float>] {
        (0..<frames).map { k in
            let t = frames == 1 ? 0 : Float(k) / Float(frames - 1)
            return Rotation.normalFromTilt(tiltXDegrees: 4, tiltYDegrees: -10 + 20 * t)
        }
    }

    public mutating func measureAll(maxThreads: Int) throws {
        for foil in foils {
            parameters.foil = foil
            try measureShading(maxThreads: maxThreads)
        }
        try measureCoding()
    }

    private func wants(_ path: String) -> Bool { only.isEmpty || only.contains(path) }

    /// What ``measureAll(maxThreads:)`` will measure and about how long it will take, from a
    /// calibration run of one frame a path (the scalar path, one frame anyway, is not run: it is
    /// estimated from the SIMD path at one thread).
    public func plan(maxThreads: Int) throws -> BenchPlan {
        let wanted = only.isEmpty ? Set(Self.pathNames).subtracting(["frame-scalar"]) : only
        var calibrated = wanted.subtracting(["scalar"])
        if wanted.contains("scalar") { calibrated.insert("simd") }
        var probe = Bench(art: art, mask: mask, frames: 1, repeats: 1, only: calibrated, foils: foils, build: report.build)
        try probe.measureAll(maxThreads: maxThreads)
        var steps: [BenchPlan.Step] = []
        for path in probe.report.paths {
            if wanted.contains("scalar"), path.name == "simd", path.threads == 1 {
                steps.append(BenchPlan.Step(name: "scalar", foil: path.foil, threads: 1, frames: 1, runs: 1,
                                            seconds: path.seconds * BenchPlan.scalarToSIMD))
            }
            guard wanted.contains(path.name) else { continue }
            let frames = Self.oneFramePaths.contains(path.name) ? 1 : self.frames
            steps.append(BenchPlan.Step(name: path.name, foil: path.foil, threads: path.threads, frames: frames, runs: repeats,
                                        seconds: path.seconds * Double(frames * repeats)))
        }
        return BenchPlan(width: art.width, height: art.height, frames: frames, repeats: repeats, steps: steps)
    }

    /// The paths that shade, with ``parameters``.
    private mutating func measureShading(maxThreads: Int) throws {
        let normals = self.normals
        let art = self.art, mask = self.mask, parameters = self.parameters

        // The scalar reference: one frame, one thread.
        if wants("scalar") {
            try measure("scalar", threads: 1, frames: 1, repeats: 1) { _ in
                _ = try ReferenceRenderer.shade(art: art, mask: mask, normal: normals[0], parameters: parameters, as: UInt8.self)
            }
        }

        // Cold frames: every frame runs the whole shader, noise tables included.
        var threadCounts = [1]
        while threadCounts.last! * 2 <= maxThreads { threadCounts.append(threadCounts.last! * 2) }
        if threadCounts.last! != maxThreads { threadCounts.append(maxThreads) }
        for threads in threadCounts where wants("simd") {
            let renderer = ShadeRenderer(threads: threads)
            renderer.recomputesNoiseTables = true
            var output = RGBAImage<UInt8>(sizeOf: art)
            try renderer.shade(art: art, mask: mask, normal: normals[0], parameters: parameters, into: &output)  // first touch
            try measure("simd", threads: threads, frames: normals.count) { tick in
                for normal in normals {
                    try renderer.shade(art: art, mask: mask, normal: normal, parameters: parameters, into: &output)
                    tick(1)
                }
            }
        }

        // Sweeps: all the tilts in one pass over the card.
        let normalBatches = self.normalBatches
        for threads in Set([1, maxThreads]).sorted() where wants("sweep") {
            let renderer = ShadeRenderer(threads: threads)
            var stack = try FrameStack<UInt8>(width: art.width, height: art.height, count: normalBatches[0].count)
            try renderer.shade(art: art, mask: mask, normals: Array(normalBatches[0]), parameters: parameters, into: &stack)
            try measure("sweep", threads: threads, frames: normals.count) { tick in
                for batch in normalBatches {
                    try renderer.shade(art: art, mask: mask, normals: Array(batch), parameters: parameters, into: &stack)
                    tick(batch.count)
                }
            }
        }

        // On-screen frames: the card tilted by (6°, 0°) and flipped by 25°, shaded and projected with
        // perspective onto its default canvas (2340×3170 for a 1260×1760 card; Mpx/s counts card
        // pixels): the frame Tests/LLVMPipe/frame-rate.sh draws with llvmpipe as the anchor. Every frame shades the face again.
        let face = try CardFace(art: .rgba8(art), mask: .rgba8(mask))
        // `frame-scalar` is the same with the readable one-pixel-at-a-time projection, measured
        // only when asked for (`--path frame-scalar`).
        let scene = try FrameScene(front: face, back: face, pose: CardPose(tiltX: 6, tiltY: 0, flip: 25), parameters: parameters)
        for (name, path) in [("frame", FrameRenderer.ProjectionPath.lanes), ("frame-scalar", .scalar)]
        where wants(name) && (name == "frame" || only.contains(name)) {
            for threads in Set([1, maxThreads]).sorted() {
                let renderer = FrameRenderer(threads: threads)
                renderer.projectionPath = path
                var canvas = RGBAImage<UInt8>()
                try renderer.render(scene, into: &canvas)
                try measure(name, threads: threads, frames: normals.count) { tick in
                    for _ in 0..<normals.count {
                        try renderer.render(scene, into: &canvas)
                        tick(1)
                    }
                }
            }
        }

        // The same frame as a thumbnail, the card at a quarter of its size on a canvas scaled
        // alike: the same shading, and every pixel of the face filtered over its footprint
        // (about 5 × 5 bilinear taps) instead of one bilinear sample.
        if wants("frame-thumbnail") {
            var thumbnail = scene
            thumbnail.cardScale = 0.25
            thumbnail.canvasWidth = max(1, scene.canvasWidth / 4)
            thumbnail.canvasHeight = max(1, scene.canvasHeight / 4)
            for threads in Set([1, maxThreads]).sorted() {
                let renderer = FrameRenderer(threads: threads)
                var canvas = RGBAImage<UInt8>()
                try renderer.render(thumbnail, into: &canvas)
                try measure("frame-thumbnail", threads: threads, frames: normals.count) { tick in
                    for _ in 0..<normals.count {
                        try renderer.render(thumbnail, into: &canvas)
                        tick(1)
                    }
                }
            }
        }

        // An animation to PNG files' bytes: frames rendered in batches (one shading sweep each)
        // while the previous batch is encoded (`--compression fast`: igzip level 2, Paeth
        // filter) on other threads; against the same frames encoded one after the other on one
        // thread, the encoder alone (`encode-frames`).
        let scenes = try (0..<normals.count).map { k throws(RenderError) in
            try FrameScene(front: face, back: face, pose: CardPose(
                tiltX: 4, tiltY: -10 + 20 * Double(k) / Double(max(1, normals.count - 1)), flip: 15), parameters: parameters)
        }
        let sequence = FramePipeline(threads: maxThreads, batchSize: sequenceBatch)
        if wants("animate-png") {
            let counter = EncodedBytesSink()
            try measure("animate-png", threads: maxThreads, frames: scenes.count) { tick in
                try sequence.render(scenes, to: [counter])
                tick(scenes.count)
            }
            precondition(counter.bytes > 0)
        }
        // The same frames as `kira animate --apng` encodes them: the changed rectangle of each,
        // igzip, on every core while the next batch renders (the file write left out).
        if wants("animate-apng") {
            let counter = APNGBytesSink()
            try measure("animate-apng", threads: maxThreads, frames: scenes.count) { tick in
                try sequence.render(scenes, to: [counter])
                tick(scenes.count)
            }
            precondition(counter.bytes > 0)
        }
        if wants("encode-frames") {
            // Rendered a batch at a time (untimed); only the encoding is timed.
            let frameRenderer = FrameRenderer(threads: maxThreads)
            var rendered: [RGBAImage<UInt8>] = []
            var best = Double.infinity
            onStart("encode-frames", 1, repeats * scenes.count)
            var done = 0
            for _ in 0..<repeats {
                var seconds = 0.0
                for start in stride(from: 0, to: scenes.count, by: batch) {
                    try frameRenderer.render(Array(scenes[start..<min(start + batch, scenes.count)]), into: &rendered)
                    let begin = DispatchTime.now().uptimeNanoseconds
                    for frame in rendered { _ = try PNGCodec.encode(frame, options: .fast) }
                    done += rendered.count
                    onFrame(done)
                    seconds += Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e9
                }
                best = min(best, seconds)
            }
            record("encode-frames", threads: 1, frames: scenes.count, seconds: best)
        }

    }

    /// PNG coding of one frame, for scale: encoding usually dominates writing frames. Measured once,
    /// on the first foil's frame, whatever the foils.
    private mutating func measureCoding() throws {
        let art = self.art, mask = self.mask, normals = self.normals
        parameters.foil = foils[0]
        let frame = try ShadeRenderer().shade(art: art, mask: mask, normal: normals[0], parameters: parameters, as: UInt8.self)
        let encoded = try PNGCodec.encode(frame)
        if wants("png-encode") { try measure("png-encode", threads: 1, frames: 1) { _ in _ = try PNGCodec.encode(frame) } }
        if wants("png-encode-fast") {
            try measure("png-encode-fast", threads: 1, frames: 1) { _ in _ = try PNGCodec.encode(frame, options: .fast) }
        }
        if wants("png-decode") { try measure("png-decode", threads: 1, frames: 1) { _ in _ = try PNGCodec.decode(encoded) } }
        // The same frame as the lossy formats at the default quality (beside png-encode).
        let quality = OutputSettings.defaultQuality
        if wants("webp-encode") {
            try measure("webp-encode", threads: 1, frames: 1) { _ in _ = try WebPCodec.encode(frame, quality: quality, lossless: false) }
        }
        if wants("jpeg-encode") {
            try measure("jpeg-encode", threads: 1, frames: 1) { _ in
                _ = try JPEGCodec.encode(frame.flattened(onto: OutputSettings.jpegMatte), quality: quality)
            }
        }
        // Art read as Adobe RGB (1998) would be: its primaries and gamma 2.2 (as gAMA and cHRM),
        // converted to sRGB on every core; the cost added to png-decode when art is not sRGB.
        if wants("srgb-convert") {
            let adobe = PNGColorChunks(gamma: 45455, chromaticities: [31270, 32900, 64000, 33000, 21000, 71000, 15000, 6000])
            let file = PNGFile(image: .rgba8(frame), hasAlpha: true, colorChunks: adobe)
            try measure("srgb-convert", threads: TileScheduler.processorCount, frames: 1) { _ in
                guard case .converted = ColorConversion.toSRGB(file).outcome else { preconditionFailure("not converted") }
            }
        }
    }

    /// Times `body` `repeats` times and records the best run; `body` reports the frames it
    /// renders through its argument (a run that reports none counts as all its frames at its end).
    private mutating func measure(_ name: String, threads: Int, frames: Int, repeats: Int? = nil,
                                  _ body: (_ tick: (Int) -> Void) throws -> Void) throws {
        let runs = repeats ?? self.repeats, onFrame = self.onFrame
        onStart(name, threads, runs * frames)
        var best = Double.infinity, done = 0
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            let before = done
            try body { frames in
                done += frames
                onFrame(done)
            }
            if done == before {
                done += frames
                onFrame(done)
            }
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        record(name, threads: threads, frames: frames, seconds: best)
    }

    private mutating func record(_ name: String, threads: Int, frames: Int, seconds: Double) {
        report.paths.append(BenchReport.Path(
            name: name, foil: parameters.foil.name, width: art.width, height: art.height, frames: frames, threads: threads,
            seconds: seconds))
    }
}
