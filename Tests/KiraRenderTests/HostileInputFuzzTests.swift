import KiraFiles
import KiraGeometry
import KiraImage
import KiraSamples
import KiraShader
import KiraTestSupport
import Testing
@testable import KiraRender

/// Random hostile values (NaN, ±infinity, huge, negative, zero, subnormal) thrown at every public
/// entry point that takes sizes, poses, scales, offsets, colours or images: each call must throw
/// or return a valid result, never trap. Seeded, so that a failure replays; a valid call gets
/// tiny sizes, so that the whole run takes a few seconds (and runs under AddressSanitizer).
@Suite struct HostileInputFuzzTests {
    static let calls = 12_000

    static let hostileSides = [-1, -16384, Int.min, Int.max, Int.max / 2, Int.max / 4 + 1, 16385, 1_000_000, 1 << 32]
    static let hostileDoubles: [Double] = [
        .nan, -.nan, .infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1e300, -1e300,
        .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude / 2, 0, -0.0, -1, 4e9,
    ]
    static let hostileFloats: [Float] = [
        .nan, .infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1e30, -1e30,
        .leastNonzeroMagnitude, .leastNormalMagnitude / 2, 0, -0.0, -1, 2,
    ]

    /// A side: hostile a quarter of the time, else 0...5 or the largest allowed.
    static func side(_ rng: inout SplitMix) -> Int {
        switch Int.random(in: 0..<8, using: &rng) {
        case 0, 1: hostileSides.randomElement(using: &rng)!
        case 2: [0, 16384].randomElement(using: &rng)!
        default: Int.random(in: 1...5, using: &rng)
        }
    }

    /// A size that is hostile or tiny: a valid size over `maxPixels` pixels is cut to one row or
    /// one column of at most `maxPixels`.
    static func size(_ rng: inout SplitMix, maxPixels: Int = 4096) -> (width: Int, height: Int) {
        let width = side(&rng), height = side(&rng)
        let limit = ImageLimits.standard.maxSide
        guard (0...limit).contains(width), (0...limit).contains(height), width * height > maxPixels else { return (width, height) }
        return Bool.random(using: &rng) ? (min(width, maxPixels), 1) : (1, min(height, maxPixels))
    }

    static func double(_ rng: inout SplitMix, sane: ClosedRange<Double> = -90...90) -> Double {
        Bool.random(using: &rng) ? hostileDoubles.randomElement(using: &rng)! : Double.random(in: sane, using: &rng)
    }

    static func float(_ rng: inout SplitMix, sane: ClosedRange<Float> = -1...1) -> Float {
        Bool.random(using: &rng) ? hostileFloats.randomElement(using: &rng)! : Float.random(in: sane, using: &rng)
    }

    /// An image: usually tiny and valid; sometimes empty or with channels that no longer match.
    static func image(_ rng: inout SplitMix) -> AnyRGBAImage {
        let width = Int.random(in: 0...4, using: &rng), height = Int.random(in: 0...4, using: &rng)
        var image = try! RGBAImage<UInt8>(width: width, height: height)
        for i in image.channels.indices { image.channels[i] = UInt8.random(in: 0...255, using: &rng) }
        if Int.random(in: 0..<10, using: &rng) == 0 { image.channels.removeLast(min(image.channels.count, 3)) }
        if Int.random(in: 0..<10, using: &rng) == 0 { image.channels.append(7) }
        return Bool.random(using: &rng) ? .rgba8(image) : .rgba16(AnyRGBAImage.rgba8(image).rgba16)
    }

    static func face(_ rng: inout SplitMix) -> CardFace {
        CardFace(checkedArt: image(&rng), mask: image(&rng), foilMap: Bool.random(using: &rng) ? image(&rng) : nil)
    }

    static func pose(_ rng: inout SplitMix) -> CardPose {
        CardPose(tiltX: double(&rng), tiltY: double(&rng), flip: double(&rng, sane: -720...720),
                 flipAxis: [.x, .y, .diagonal].randomElement(using: &rng)!,
                 flipPerspective: double(&rng, sane: 0...10), tiltPerspective: double(&rng, sane: 0...10))
    }

    /// A scene with every property drawn at random, made around the init's checks.
    static func scene(_ rng: inout SplitMix) -> FrameScene {
        let canvas = size(&rng, maxPixels: 256)
        var scene = try! FrameScene(front: validFace, back: validFace, canvasSize: (4, 4))
        scene.front = Int.random(in: 0..<4, using: &rng) == 0 ? face(&rng) : validFace
        scene.back = Int.random(in: 0..<4, using: &rng) == 0 ? face(&rng) : validFace
        scene.pose = pose(&rng)
        scene.canvasWidth = canvas.width
        scene.canvasHeight = canvas.height
        scene.cardScale = double(&rng, sane: 0.01...4)
        scene.cardOffset = SIMD2(double(&rng, sane: -8...8), double(&rng, sane: -8...8))
        scene.background = Bool.random(using: &rng) ? .transparent
            : .color(SIMD3(float(&rng, sane: 0...1), float(&rng, sane: 0...1), float(&rng, sane: 0...1)))
        scene.visibility = [.orientation, .crossfade, .crossfadeBackUnder,
                            .separateFaces(front: double(&rng), back: double(&rng))].randomElement(using: &rng)!
        return scene
    }

    static let validFace = try! CardFace(art: .rgba8(TestImages.art(width: 5, height: 7)),
                                         mask: .rgba8(TestImages.mask(width: 5, height: 7)))

    /// What each entry point did: how often it refused and how often it returned.
    struct Outcomes {
        var thrown: [String: Int] = [:]
        var returned: [String: Int] = [:]

        mutating func record<E: Error>(_ name: String, _ call: () throws(E) -> Bool) {
            do {
                let valid = try call()
                #expect(valid, "\(name) returned an invalid result")
                returned[name, default: 0] += 1
            } catch {
                #expect(!"\(error)".isEmpty, "\(name) threw an error without a message")
                thrown[name, default: 0] += 1
            }
        }
    }

    static func isValid<C>(_ image: RGBAImage<C>, _ width: Int, _ height: Int) -> Bool {
        image.width == width && image.height == height && image.channels.count == width * height * 4
    }

    @Test func hostileValuesThrowOrGiveAValidResultAcrossTheEntryPoints() throws {
        var rng = SplitMix(state: 0x4B49_5241)  // any seed: fixed, so that a failure replays
        var outcomes = Outcomes()
        let frames = FrameRenderer(threads: 1), shades = ShadeRenderer(threads: 1)
        var canvas = RGBAImage<UInt8>(), shaded = RGBAImage<UInt16>(), stack = FrameStack<UInt8>()
        for _ in 0..<Self.calls {
            switch Int.random(in: 0..<12, using: &rng) {
            case 0:
                let (w, h) = Self.size(&rng, maxPixels: 16384)
                outcomes.record("RGBAImage(width:height:)") { () throws(ImageError) in
                    Self.isValid(try RGBAImage<UInt8>(width: w, height: h), w, h)
                }
            case 1:
                let (w, h) = Self.size(&rng)
                let count = Int.random(in: 0..<4, using: &rng) == 0 ? Int.random(in: 0...64, using: &rng)
                    : (0...4096).contains(w) && (0...4096).contains(h) && w * h <= 4096 ? w * h * 4 : 0
                let channels = [UInt16](repeating: 1, count: count)
                outcomes.record("RGBAImage(width:height:channels:)") { () throws(ImageError) in
                    Self.isValid(try RGBAImage<UInt16>(width: w, height: h, channels: channels), w, h)
                }
            case 2:
                let (w, h) = Self.size(&rng, maxPixels: 64)
                var count = Bool.random(using: &rng) ? Self.hostileSides.randomElement(using: &rng)! : Int.random(in: 0...4, using: &rng)
                // Frames the stack takes, but more than a few kilobytes: a few frames instead.
                if (0...64).contains(w), (0...64).contains(h), count > 4, count <= (1 << 28) / max(1, w * h) { count = 4 }
                outcomes.record("FrameStack(width:height:count:)") { () throws(ImageError) in
                    let stack = try FrameStack<UInt8>(width: w, height: h, count: count)
                    return stack.count == count && stack.channels.count == w * h * 4 * count
                }
            case 3:
                let (art, mask, map) = (Self.image(&rng), Self.image(&rng), Bool.random(using: &rng) ? Self.image(&rng) : nil)
                outcomes.record("CardFace(art:mask:foilMap:)") { () throws(RenderError) in
                    let face = try CardFace(art: art, mask: mask, foilMap: map)
                    return face.art.width > 0 && face.mask.width > 0
                }
            case 4:
                let front = Bool.random(using: &rng) ? Self.face(&rng) : Self.validFace
                let pose = Self.pose(&rng)
                let size: (width: Int, height: Int)? = Bool.random(using: &rng) ? Self.size(&rng, maxPixels: 1024) : nil
                outcomes.record("FrameScene(front:back:pose:canvasSize:)") { () throws(RenderError) in
                    let scene = try FrameScene(front: front, back: Self.validFace, pose: pose, canvasSize: size)
                    return scene.canvasWidth > 0 && scene.canvasHeight > 0 && scene.pose.tiltX.isFinite
                }
            case 5, 6, 7:
                let scene = Self.scene(&rng)
                outcomes.record("FrameRenderer.render") { () throws(RenderError) in
                    try frames.render(scene, into: &canvas)
                    return Self.isValid(canvas, scene.canvasWidth, scene.canvasHeight)
                }
            case 8:
                let scenes = [Self.scene(&rng), Self.scene(&rng)]
                var outputs: [RGBAImage<UInt8>] = []
                outcomes.record("FrameRenderer.render (batch)") { () throws(RenderError) in
                    try frames.render(scenes, into: &outputs)
                    return outputs.count == 2 && zip(scenes, outputs).allSatisfy { Self.isValid($1, $0.canvasWidth, $0.canvasHeight) }
                }
            case 9:
                let face = Bool.random(using: &rng) ? Self.face(&rng) : Self.validFace
                let normal = SIMD3(Self.float(&rng), Self.float(&rng), Self.float(&rng))
                outcomes.record("ShadeRenderer.shade") { () throws(RenderError) in
                    let art = face.art.rgba8
                    try shades.shade(art: art, mask: face.mask.rgba8, foilMap: face.foilMap, normal: normal, into: &shaded)
                    return Self.isValid(shaded, art.width, art.height)
                }
                let normals = (0..<Int.random(in: 0...3, using: &rng)).map { _ in
                    SIMD3(Self.float(&rng), Self.float(&rng), Self.float(&rng))
                }
                outcomes.record("ShadeRenderer.shade (normals)") { () throws(RenderError) in
                    let art = face.art.rgba8
                    try shades.shade(art: art, mask: face.mask.rgba8, foilMap: face.foilMap, normals: normals, into: &stack)
                    return stack.count == normals.count && stack.channels.count == art.channels.count * normals.count
                }
            case 10:
                var scenes = [Self.scene(&rng)]
                let size: (width: Int, height: Int)? = Bool.random(using: &rng) ? Self.size(&rng, maxPixels: 1024) : nil
                let scale: Double? = Bool.random(using: &rng) ? Self.double(&rng, sane: 0.01...4) : nil
                let fit = size != nil && scale == nil && Bool.random(using: &rng)
                outcomes.record("FrameScene.place") { () throws(RenderError) in
                    try FrameScene.place(&scenes, size: size, scale: scale, fit: fit)
                    try scenes[0].validate()
                    return true
                }
                let (w, h) = Self.size(&rng)
                let limits = ImageLimits(maxSide: Self.side(&rng), maxPixels: Self.side(&rng))
                outcomes.record("FrameScene.defaultCanvasSize") { () throws(RenderError) in
                    let room = try FrameScene.defaultCanvasSize(cardWidth: w, cardHeight: h, limits: limits)
                    return room.width >= 1 && room.height >= 1 && room.width <= 16384 && room.height <= 16384
                }
            default:
                // Drawing is slow even when tiny: a valid size one call in eight.
                let (w, h) = Int.random(in: 0..<8, using: &rng) == 0 ? Self.size(&rng, maxPixels: 16)
                    : (Self.hostileSides.randomElement(using: &rng)!, Self.side(&rng))
                outcomes.record("SampleCard.front") { () throws(ImageError) in
                    Self.isValid(try SampleCard.front(width: w, height: h), w, h)
                }
                let bytes = Bool.random(using: &rng) ? Self.hostileSides.randomElement(using: &rng)! : Int.random(in: 0...(1 << 40), using: &rng)
                let scene = Self.scene(&rng)
                outcomes.record("MemoryBudget") { () throws(ImageError) in
                    let budget = MemoryBudget(bytes: bytes)
                    let peak = FrameRenderer.estimatedPeakBytes(for: scene, channelBytes: 2, frames: Self.side(&rng))
                    let batch = budget.largestBatch(upTo: Self.side(&rng)) { _ in peak }
                    return peak >= 0 && (batch ?? 1) >= 1 && MemoryBudget.imageBytes(width: w, height: h, channelBytes: 8) >= 0
                }
            }
        }
        // Every entry point was reached, refused hostile values and accepted valid ones.
        let names = Set(outcomes.thrown.keys).union(outcomes.returned.keys)
        #expect(names.count == 13, "entry points reached: \(names.sorted())")
        for name in names where name != "MemoryBudget" {
            #expect(outcomes.thrown[name, default: 0] > 0, "\(name) never refused a value")
            #expect(outcomes.returned[name, default: 0] > 0, "\(name) never returned")
        }
        #expect(outcomes.thrown.values.reduce(0, +) + outcomes.returned.values.reduce(0, +) >= 10_000)
    }
}
