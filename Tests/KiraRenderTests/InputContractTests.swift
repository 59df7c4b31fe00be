import KiraGeometry
import KiraImage
import KiraShader
import Testing
@testable import KiraRender

/// Each value that once trapped the process, or was drawn where the shading layer refuses it, is
/// refused with a typed error instead, and before anything is allocated for it.
@Suite struct InputContractTests {
    static func face(width: Int = 6, height: Int = 8) throws -> CardFace {
        try CardFace(art: .rgba8(TestImages.art(width: width, height: height)),
                     mask: .rgba8(TestImages.mask(width: width, height: height)))
    }

    static func scene() throws -> FrameScene {
        let face = try face()
        return try FrameScene(front: face, back: face, canvasSize: (12, 14))
    }

    /// Expects `body` to throw `expected`, compared by message: a NaN in an error's payload is
    /// not equal to itself.
    static func expect<E: Error & CustomStringConvertible>(
        _ expected: E, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) {
        let error = #expect(throws: E.self, sourceLocation: sourceLocation) { try body() }
        #expect(error?.description == expected.description, sourceLocation: sourceLocation)
    }

    /// `change` applied to a valid scene: the scene's init refuses the changed values, and so does
    /// the renderer when they are set on a scene made before.
    static func expectRefused(_ expected: RenderError, sourceLocation: SourceLocation = #_sourceLocation,
                              _ change: (inout FrameScene) -> Void) throws {
        var scene = try scene()
        change(&scene)
        expect(expected, sourceLocation: sourceLocation) { try scene.validate() }
        var output = RGBAImage<UInt8>()
        expect(expected, sourceLocation: sourceLocation) { try FrameRenderer(threads: 1).render(scene, into: &output) }
        #expect(output.channels.isEmpty, "nothing drawn or allocated for a refused scene", sourceLocation: sourceLocation)
        var outputs: [RGBAImage<UInt8>] = []
        expect(expected, sourceLocation: sourceLocation) { try FrameRenderer(threads: 1).render([scene, scene], into: &outputs) }
        expect(expected, sourceLocation: sourceLocation) {
            _ = try FrameScene(front: scene.front, back: scene.back, pose: scene.pose,
                               canvasSize: (scene.canvasWidth, scene.canvasHeight), background: scene.background,
                               visibility: scene.visibility).validated(scale: scene.cardScale, offset: scene.cardOffset)
        }
    }

    @Test func aCanvasTooLargeToAllocateIsRefusedBeforeAllocation() throws {
        let tooLarge = RenderError.invalidImage(
            "canvas", .tooLarge(width: 1_000_000, height: 1_000_000, limits: .standard))
        try Self.expectRefused(tooLarge) {
            $0.canvasWidth = 1_000_000
            $0.canvasHeight = 1_000_000
        }
        let face = try Self.face()
        #expect(throws: tooLarge) { try FrameScene(front: face, back: face, canvasSize: (1_000_000, 1_000_000)) }
        #expect(tooLarge.description.contains("16384"), "the message says the limit: \(tooLarge)")
    }

    @Test func anImageWhoseChannelCountOverflowsIsRefused() throws {
        let width = Int.max / 2
        #expect(throws: ImageError.tooLarge(width: width, height: 3, limits: .standard)) {
            try RGBAImage<UInt8>(width: width, height: 3)
        }
        #expect(throws: ImageError.tooLarge(width: width, height: 3, limits: .standard)) {
            try RGBAImage<UInt16>(width: width, height: 3, channels: [])
        }
        #expect(throws: ImageError.tooLarge(width: width, height: 3, limits: .standard)) {
            try FrameStack<UInt8>(width: width, height: 3, count: 1)
        }
        #expect(throws: ImageError.negativeSize(width: -1, height: 3)) { try RGBAImage<UInt8>(width: -1, height: 3) }
        // Frames whose channels' count fits in an Int, but not in memory: 64 GiB.
        #expect(throws: ImageError.frameCount(1 << 32, width: 2, height: 2)) {
            try FrameStack<UInt8>(width: 2, height: 2, count: 1 << 32)
        }
        #expect(throws: ImageError.frameCount(Int.max, width: 4, height: 4)) {
            try FrameStack<UInt8>(width: 4, height: 4, count: Int.max)
        }
        // The message of a size whose channel count is not even an Int.
        #expect(ImageError.channelCount(width: width, height: 3, count: 0).description.contains("cannot hold"))
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func aPoseThatIsNotFiniteIsRefused(value: Double) throws {
        try Self.expectRefused(.nonFinite("pose.tiltX", value)) { $0.pose.tiltX = value }
        try Self.expectRefused(.nonFinite("pose.tiltY", value)) { $0.pose.tiltY = value }
        try Self.expectRefused(.nonFinite("pose.flip", value)) { $0.pose.flip = value }
        try Self.expectRefused(.nonFinite("pose.flipPerspective", value)) { $0.pose.flipPerspective = value }
        try Self.expectRefused(.nonFinite("pose.tiltPerspective", value)) { $0.pose.tiltPerspective = value }
    }

    @Test(arguments: [Double.nan, -1, 0, -.infinity, .infinity])
    func aCardScaleThatIsNotAFiniteNumberAboveZeroIsRefused(scale: Double) throws {
        try Self.expectRefused(.invalidScale(scale)) { $0.cardScale = scale }
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func anOffsetThatIsNotFiniteIsRefused(value: Double) throws {
        try Self.expectRefused(.nonFinite("cardOffset.x", value)) { $0.cardOffset.x = value }
        try Self.expectRefused(.nonFinite("cardOffset.y", value)) { $0.cardOffset.y = value }
    }

    @Test func aBackgroundColourOutsideZeroToOneIsRefused() throws {
        for channel in [Float.nan, .infinity, -0.5, 2] {
            let color = SIMD3<Float>(0.5, channel, 0.5)
            try Self.expectRefused(.invalidColor(color)) { $0.background = .color(color) }
        }
    }

    @Test func emptyFrontArtIsRefused() throws {
        let empty = AnyRGBAImage.rgba8(RGBAImage())
        let mask = AnyRGBAImage.rgba8(TestImages.mask(width: 6, height: 8))
        #expect(throws: RenderError.emptyImage("art")) { try CardFace(art: empty, mask: mask) }
        try Self.expectRefused(.emptyImage("front art")) { $0.front.art = empty }
        try Self.expectRefused(.emptyImage("back mask")) { $0.back.mask = empty }
        // Channels changed after the image was made: the renderer reads by the size.
        try Self.expectRefused(.invalidImage("front art", .channelCount(width: 6, height: 8, count: 4))) {
            guard case .rgba8(var art) = $0.front.art else { return }
            art.channels = [1, 2, 3, 4]
            $0.front.art = .rgba8(art)
        }
    }

    @Test(arguments: [SIMD3<Float>(.nan, 0, 1), SIMD3(0, .infinity, 0), SIMD3(0, 0, 0)])
    func aNormalWithNoDirectionIsRefusedByBothRenderers(normal: SIMD3<Float>) throws {
        let art = TestImages.art(width: 6, height: 8), mask = TestImages.mask(width: 6, height: 8)
        var output = RGBAImage<UInt8>()
        Self.expect(RenderError.invalidNormal(normal)) {
            try ShadeRenderer(threads: 1).shade(art: art, mask: mask, normal: normal, into: &output)
        }
        #expect(output.channels.isEmpty, "nothing allocated for a refused normal")
        var stack = FrameStack<UInt8>()
        Self.expect(RenderError.invalidNormal(normal)) {
            try ShadeRenderer(threads: 1).shade(art: art, mask: mask, normals: [SIMD3(0, 0, 1), normal], into: &stack)
        }
        Self.expect(RenderError.invalidNormal(normal)) {
            _ = try ReferenceRenderer.shade(art: art, mask: mask, normal: normal, as: UInt8.self)
        }
    }

    /// The frame renderer's normal comes from the pose: a pose whose normal the shading layer
    /// would refuse is refused by the frame layer too, instead of being drawn.
    @Test func theFrameRendererRefusesThePoseOfANaNNormal() throws {
        var scene = try Self.scene()
        scene.pose.tiltX = .nan
        let normal = Rotation.normalFromTilt(tiltXDegrees: Float(scene.pose.tiltX), tiltYDegrees: 0)
        #expect(!KiraUniforms.isValidNormal(normal), "the shading layer refuses this pose's normal")
        var output = RGBAImage<UInt8>()
        Self.expect(RenderError.nonFinite("pose.tiltX", .nan)) { try FrameRenderer(threads: 1).render(scene, into: &output) }
    }

    @Test func aPlacementOverTheLimitsIsRefusedAndLeavesTheScenes() throws {
        let scene = try Self.scene()
        var scenes = [scene]
        Self.expect(RenderError.invalidScale(.nan)) { try FrameScene.place(&scenes, size: nil, scale: .nan, fit: false) }
        #expect(throws: RenderError.invalidImage("canvas", .tooLarge(width: 16385, height: 1, limits: .standard))) {
            try FrameScene.place(&scenes, size: (16385, 1), scale: nil, fit: false)
        }
        #expect(throws: RenderError.self) { try FrameScene.place(&scenes, size: nil, scale: 1e300, fit: false) }
        #expect(scenes[0].canvasWidth == scene.canvasWidth && scenes[0].cardScale == scene.cardScale)
    }
}

extension FrameScene {
    /// This scene with the card at `scale` and `offset`, checked.
    fileprivate func validated(scale: Double, offset: SIMD2<Double>) throws(RenderError) -> FrameScene {
        var scene = self
        scene.cardScale = scale
        scene.cardOffset = offset
        try scene.validate()
        return scene
    }
}
