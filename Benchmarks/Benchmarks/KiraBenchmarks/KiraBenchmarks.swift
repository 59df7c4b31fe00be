import Benchmark
import Kira

/// Throughput of the shader paths and of PNG coding on a synthetic card (the sample textures'
/// sizes), with allocations counted. Setup happens outside the measured region; every benchmark
/// checks that it produced something.
let benchmarks: @Sendable () -> Void = {
    let megapixels = BenchmarkMetric.custom("Mpx/s", polarity: .prefersLarger, useScalingFactor: false)
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, megapixels],
        timeUnits: .milliseconds,
        warmupIterations: 2,
        maxDuration: .seconds(3),
        maxIterations: 200
    )

    func card(_ width: Int, _ height: Int) throws(ImageError) -> (RGBAImage<UInt8>, RGBAImage<UInt8>) {
        var art = try RGBAImage<UInt8>(width: width, height: height)
        var mask = try RGBAImage<UInt8>(width: width, height: height)
        for i in art.channels.indices {
            art.channels[i] = i % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: (i / 4 % width) * 3 + i / (4 * width))
            mask.channels[i] = i % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: (i / 4) % 97 * 2)
        }
        return (art, mask)
    }

    func record(_ benchmark: Benchmark, pixels: Int, since start: ContinuousClock.Instant) {
        // One reading of the clock: reading it twice, once for each component, mixed two durations.
        let elapsed = (ContinuousClock.now - start).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        benchmark.measurement(megapixels, Int((Double(pixels) / seconds / 1e6).rounded()))
    }

    let normal = Rotation.normalFromTilt(tiltXDegrees: 6, tiltYDegrees: -4)

    for (width, height) in [(630, 880), (1260, 1760)] {
        let (art, mask) = try! card(width, height)  // fixed sizes, within the limits
        let size = "\(width)x\(height)"

        Benchmark("Shade scalar reference \(size)", configuration: .init(maxDuration: .seconds(2), maxIterations: 3)) { benchmark in
            let start = ContinuousClock.now
            let image = try ReferenceRenderer.shade(art: art, mask: mask, normal: normal, as: UInt8.self)
            record(benchmark, pixels: width * height, since: start)
            precondition(image.width == width)
            blackHole(image)
        }

        for threads in [1, TileScheduler.processorCount] {
            Benchmark("Shade SIMD cold frame \(size) \(threads) thread(s)") { benchmark in
                let renderer = ShadeRenderer(threads: threads)
                renderer.recomputesNoiseTables = true
                var output = try RGBAImage<UInt8>(width: width, height: height)
                try renderer.shade(art: art, mask: mask, normal: normal, into: &output)
                benchmark.startMeasurement()
                let start = ContinuousClock.now
                try renderer.shade(art: art, mask: mask, normal: normal, into: &output)
                record(benchmark, pixels: width * height, since: start)
                benchmark.stopMeasurement()
                precondition(output.channels[3] == art.channels[3])
                blackHole(output)
            }
        }

        Benchmark("Shade SIMD sweep of 8 tilts \(size) all threads") { benchmark in
            let renderer = ShadeRenderer()
            let normals = (0..<8).map { Rotation.normalFromTilt(tiltXDegrees: Float($0) - 4, tiltYDegrees: 3) }
            var frames = try FrameStack<UInt8>(width: width, height: height, count: normals.count)
            try renderer.shade(art: art, mask: mask, normals: normals, into: &frames)
            benchmark.startMeasurement()
            let start = ContinuousClock.now
            try renderer.shade(art: art, mask: mask, normals: normals, into: &frames)
            record(benchmark, pixels: width * height * normals.count, since: start)
            benchmark.stopMeasurement()
            precondition(frames.count == 8)
            blackHole(frames)
        }

        // The on-screen frame of the llvmpipe comparison (docs/performance.md): tilt (6°, 0°), flip 25°, the card shaded again every frame.
        // On one thread nothing goes through Dispatch, whose parallel apply allocates a little
        // per call (1–2 here, as the two-thread shade shows): the renderer's own count is the
        // one-thread one.
        for threads in [1, TileScheduler.processorCount] {
            Benchmark("Frame render tilt 6° flip 25° \(size) \(threads) thread(s)") { benchmark in
                let renderer = FrameRenderer(threads: threads)
                let face = try CardFace(art: .rgba8(art), mask: .rgba8(mask))
                let scene = try FrameScene(front: face, back: face, pose: CardPose(tiltX: 6, tiltY: 0, flip: 25))
                var canvas = RGBAImage<UInt8>()
                try renderer.render(scene, into: &canvas)
                benchmark.startMeasurement()
                let start = ContinuousClock.now
                try renderer.render(scene, into: &canvas)
                record(benchmark, pixels: width * height, since: start)
                benchmark.stopMeasurement()
                precondition(canvas.width == scene.canvasWidth)
                blackHole(canvas)
            }
        }

        let encoded = try! PNGCodec.encode(art)
        Benchmark("PNG decode \(size)") { benchmark in
            let start = ContinuousClock.now
            let image = try PNGCodec.decode(encoded)
            record(benchmark, pixels: width * height, since: start)
            precondition(image.width == width)
            blackHole(image)
        }

        for (name, options) in [("standard", PNGCodec.EncodingOptions.standard), ("fast", .fast)] {
            Benchmark("PNG encode \(name) \(size)") { benchmark in
                let start = ContinuousClock.now
                let bytes = try PNGCodec.encode(art, options: options)
                record(benchmark, pixels: width * height, since: start)
                precondition(bytes.count > 8)
                blackHole(bytes)
            }
        }
    }
}
