import KiraGeometry
import KiraImage
import Testing
@testable import KiraRender

/// The lane projection (``LaneProjectionJob``) against the scalar one it is written from: the
/// same frames, byte for byte.
@Suite struct ProjectionLanesTests {
    struct Case: Sendable, CustomStringConvertible {
        var pose: CardPose
        var visibility = FaceVisibility.orientation
        var background = FrameBackground.color(SIMD3(0.1, 0.2, 0.3))
        var canvas: (width: Int, height: Int)? = nil
        var scale = 1.0
        var description: String {
            "\(pose) \(visibility) \(background) canvas \(canvas.map { "\($0.width)x\($0.height)" } ?? "default") scale \(scale)"
        }
    }

    static let cases: [Case] = [
        Case(pose: CardPose()),
        Case(pose: CardPose(tiltX: 6, flip: 25)),
        Case(pose: CardPose(tiltX: -9, tiltY: 14, flip: 30), background: .transparent),
        Case(pose: CardPose(tiltX: 8, tiltY: -14)),
        Case(pose: CardPose(flip: 88), background: .transparent),
        Case(pose: CardPose(flip: 130, flipAxis: .diagonal, flipPerspective: 0.3)),
        Case(pose: CardPose(tiltY: 10, flip: 180)),
        Case(pose: CardPose(flip: 120), visibility: .crossfade),
        Case(pose: CardPose(flip: 70), visibility: .crossfadeBackUnder, background: .transparent),
        Case(pose: CardPose(flip: 40), visibility: .separateFaces(front: 40, back: -50)),
        // The card larger than the canvas, and canvases narrower than sixteen pixels.
        Case(pose: CardPose(tiltX: 20, tiltY: 30), canvas: (37, 45)),
        Case(pose: CardPose(tiltY: -25), canvas: (13, 70)),
        Case(pose: CardPose(tiltX: 3), background: .transparent, canvas: (5, 9)),
        // Minified faces (filtered over their footprints): thumbnails, a strong tilt, a flip
        // near edge-on, and a card so small that its footprints reach the most taps a side.
        Case(pose: CardPose(tiltX: 6, tiltY: -9), scale: 0.3),
        Case(pose: CardPose(tiltX: -20, tiltY: 35, flip: 20), background: .transparent, scale: 0.55),
        Case(pose: CardPose(tiltX: 45, tiltY: -45)),
        Case(pose: CardPose(flip: 89.6), background: .transparent),
        Case(pose: CardPose(tiltY: 10, flip: 160, flipAxis: .diagonal), scale: 0.2),
        Case(pose: CardPose(tiltX: 5), canvas: (19, 21), scale: 0.015),
    ]

    static func render<Out: LaneChannel>(_ scene: FrameScene, _ path: FrameRenderer.ProjectionPath, threads: Int = 2,
                                         as: Out.Type) throws -> RGBAImage<Out> {
        let renderer = FrameRenderer(threads: threads, tileRows: 5)
        renderer.projectionPath = path
        var frame = RGBAImage<Out>()
        try renderer.render(scene, into: &frame)
        return frame
    }

    static func scene(_ c: Case) -> FrameScene {
        var scene = FrameRendererTests.scene(pose: c.pose, background: c.background, visibility: c.visibility)
        if let canvas = c.canvas {
            scene.canvasWidth = canvas.width
            scene.canvasHeight = canvas.height
        }
        scene.cardScale = c.scale
        return scene
    }

    @Test(arguments: cases)
    func lanesMatchTheScalarProjection(_ c: Case) throws {
        let scene = Self.scene(c)
        let scalar8 = try Self.render(scene, .scalar, as: UInt8.self)
        let lanes8 = try Self.render(scene, .lanes, as: UInt8.self)
        #expect(Self.differences(lanes8, scalar8) == "none", "8-bit")
        let scalar16 = try Self.render(scene, .scalar, as: UInt16.self)
        let lanes16 = try Self.render(scene, .lanes, as: UInt16.self)
        #expect(Self.differences(lanes16, scalar16) == "none", "16-bit")
    }

    @Test func lanesMatchOnAWideCanvasAtAnyThreadCount() throws {
        // Rows longer than a few runs, with the card off centre so that runs start anywhere.
        var scene = FrameRendererTests.scene(pose: CardPose(tiltX: 6, tiltY: -3, flip: 25))
        scene.canvasWidth = 151
        scene.canvasHeight = 83
        let scalar = try Self.render(scene, .scalar, threads: 1, as: UInt8.self)
        for threads in [1, 2, 7] {
            let lanes = try Self.render(scene, .lanes, threads: threads, as: UInt8.self)
            #expect(Self.differences(lanes, scalar) == "none", "\(threads) threads")
        }
    }

    @Test func minifiedFacesMatchAtAnyThreadCountAndDepth() throws {
        var scene = FrameRendererTests.scene(pose: CardPose(tiltX: 12, tiltY: -7, flip: 50))
        scene.canvasWidth = 61
        scene.canvasHeight = 47
        scene.cardScale = 0.45
        let scalar8 = try Self.render(scene, .scalar, threads: 1, as: UInt8.self)
        let scalar16 = try Self.render(scene, .scalar, threads: 1, as: UInt16.self)
        for threads in [1, 2, 7] {
            #expect(Self.differences(try Self.render(scene, .lanes, threads: threads, as: UInt8.self), scalar8) == "none",
                    "8-bit, \(threads) threads")
            #expect(Self.differences(try Self.render(scene, .lanes, threads: threads, as: UInt16.self), scalar16) == "none",
                    "16-bit, \(threads) threads")
            #expect(Self.differences(try Self.render(scene, .scalar, threads: threads, as: UInt8.self), scalar8) == "none",
                    "scalar, \(threads) threads")
        }
    }

    /// How many channels differ, and the first pixel that does.
    static func differences<C: ImageChannel>(_ a: RGBAImage<C>, _ b: RGBAImage<C>) -> String {
        guard a.width == b.width, a.height == b.height else { return "sizes differ" }
        let count = zip(a.channels, b.channels).filter { $0 != $1 }.count
        guard let first = zip(a.channels, b.channels).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset
        else { return "none" }
        let pixel = first / 4
        return "\(count) channels, first at (\(pixel % a.width), \(pixel / a.width)): \(a[pixel % a.width, pixel / a.width]) vs \(b[pixel % a.width, pixel / a.width])"
    }
}
