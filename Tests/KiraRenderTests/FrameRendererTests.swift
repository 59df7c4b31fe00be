import KiraGeometry
import KiraImage
import KiraShader
import Testing
@testable import KiraRender

@Suite struct FrameRendererTests {
    static let cardSize = (width: 40, height: 56)

    static func scene(pose: CardPose = CardPose(), background: FrameBackground = .color(SIMD3(0.1, 0.2, 0.3)),
                      visibility: FaceVisibility = .orientation, opaque: Bool = false) -> FrameScene {
        var art = TestImages.art(width: cardSize.width, height: cardSize.height)
        var back = TestImages.art(width: 30, height: 42)  // another size: stretched over the card
        if opaque {
            for i in stride(from: 3, to: art.channels.count, by: 4) { art.channels[i] = 255 }
            for i in stride(from: 3, to: back.channels.count, by: 4) { back.channels[i] = 255 }
        }
        // Mark the back's top-left corner so that a mirrored back would show.
        for y in 0..<6 { for x in 0..<6 { back[x, y] = SIMD4(255, 0, 255, 255) } }
        let mask = TestImages.mask(width: 13, height: 17)
        return try! FrameScene(  // valid images and pose: nothing to refuse
            front: try CardFace(art: .rgba8(art), mask: .rgba8(mask)),
            back: try CardFace(art: .rgba8(back), mask: .rgba8(mask)),
            pose: pose, background: background, visibility: visibility)
    }

    /// `face` (premultiplied) composited over `background` at `origin` on a canvas of the scene's size.
    static func flatComposite(_ face: RGBAImage<UInt8>, scene: FrameScene) -> RGBAImage<UInt8> {
        var canvas = try! RGBAImage<UInt8>(width: scene.canvasWidth, height: scene.canvasHeight)
        let bg = scene.background.premultiplied
        let origin = scene.cardOrigin
        for y in 0..<canvas.height {
            for x in 0..<canvas.width {
                var color = bg
                let fx = x - origin.x, fy = y - origin.y
                if fx >= 0, fy >= 0, fx < face.width, fy < face.height {
                    let t = face[fx, fy]
                    let source = SIMD4(UInt8.normalized(t.x), UInt8.normalized(t.y), UInt8.normalized(t.z), UInt8.normalized(t.w))
                    color = source + color * (1 - source.w)
                }
                let scale: Float = color.w > 0 ? 1 / color.w : 0
                canvas[x, y] = SIMD4(UInt8.quantize(color.x * scale), UInt8.quantize(color.y * scale),
                                     UInt8.quantize(color.z * scale), UInt8.quantize(color.w))
            }
        }
        return canvas
    }

    static func maxError(_ a: RGBAImage<UInt8>, _ b: RGBAImage<UInt8>) -> Int {
        zip(a.channels, b.channels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    @Test(arguments: [FrameBackground.color(SIMD3(0.1, 0.2, 0.3)), .transparent])
    func restingCardIsTheFlatShadeOnTheBackground(background: FrameBackground) throws {
        let scene = Self.scene(background: background)
        var frame = RGBAImage<UInt8>()
        try FrameRenderer().render(scene, into: &frame)
        guard case .rgba8(let art) = scene.front.art, case .rgba8(let mask) = scene.front.mask else {
            Issue.record("the test scene's front is 8-bit")
            return
        }
        var flat = try FrameStack<UInt8>(width: 0, height: 0, count: 0)
        try ShadeRenderer().shade(art: art, mask: mask, normals: [SIMD3(0, 0, 1)], premultiplied: true, into: &flat)
        let expected = Self.flatComposite(flat.frame(0), scene: scene)
        #expect(frame.width == scene.canvasWidth && frame.height == scene.canvasHeight)
        #expect(Self.maxError(frame, expected) <= 1, "max error \(Self.maxError(frame, expected))")
    }

    /// SwiftUI's `layerEffect` reads the layer premultiplied and its result is premultiplied:
    /// where the art is transparent the shine (`kira * mono`) still adds light to what lies
    /// behind, and an edge between transparent and opaque texels takes no colour from the
    /// transparent ones.
    @Test func facesArePremultipliedAsOnScreen() throws {
        var art = try RGBAImage<UInt8>(width: 40, height: 56)
        for y in 0..<56 {
            for x in 0..<40 { art[x, y] = x < 20 ? SIMD4(255, 0, 0, 0) : SIMD4(0, 0, 255, 255) }  // red, but transparent
        }
        var mask = try RGBAImage<UInt8>(width: 40, height: 56)
        for i in 0..<mask.channels.count { mask.channels[i] = 255 }
        let face = try CardFace(art: .rgba8(art), mask: .rgba8(mask))
        let scene = try FrameScene(front: face, back: face, pose: CardPose(tiltY: 9), background: .color(.zero))
        var frame = RGBAImage<UInt8>()
        try FrameRenderer().render(scene, into: &frame)
        // The transparent half is lit by the shine alone: no red from the art, but not black.
        let origin = scene.cardOrigin
        let lit = frame[origin.x + 8, origin.y + 28]
        var shine = try FrameStack<UInt8>(width: 0, height: 0, count: 0)
        try ShadeRenderer().shade(art: art, mask: mask, normals: [scene.pose.normal(convention: .seed)],
                                  premultiplied: true, into: &shine)
        #expect(shine.frame(0)[8, 28].w == 0 && shine.frame(0)[8, 28] != SIMD4(0, 0, 0, 0))
        #expect(Int(lit.x) + Int(lit.y) + Int(lit.z) > 0 && lit.w == 255, "\(lit)")
        // The flat straight-alpha shade of the same art is transparent there, with red as its colour.
        let straight = try ShadeRenderer().shade(art: art, mask: mask, normal: SIMD3(0, 0, 1), as: UInt8.self)
        #expect(straight[8, 28].w == 0 && straight[8, 28].x == 255)
        // The colour stored under alpha 0 makes no difference anywhere, the seam included.
        var black = art
        for y in 0..<56 { for x in 0..<20 { black[x, y] = SIMD4(0, 0, 0, 0) } }
        let blackFace = try CardFace(art: .rgba8(black), mask: .rgba8(mask))
        var blackFrame = RGBAImage<UInt8>()
        try FrameRenderer().render(try FrameScene(front: blackFace, back: blackFace, pose: CardPose(tiltY: 9),
                                              background: .color(.zero)), into: &blackFrame)
        let same = blackFrame == frame
        #expect(same, "the colour under alpha 0 showed")
    }

    @Test func flippedCardShowsTheBackReadable() throws {
        let scene = Self.scene(pose: CardPose(flip: 180))
        var frame = RGBAImage<UInt8>()
        try FrameRenderer().render(scene, into: &frame)
        let origin = scene.cardOrigin
        // The back's magenta mark is at the card's top-left, not mirrored to the top-right.
        let topLeft = frame[origin.x + 2, origin.y + 2], topRight = frame[origin.x + 37, origin.y + 2]
        #expect(topLeft.x > 200 && topLeft.y < 120 && topLeft.z > 200, "\(topLeft)")
        #expect(!(topRight.x > 200 && topRight.y < 120 && topRight.z > 200), "\(topRight)")
    }

    @Test func edgeOnCardCoversAtMostASliver() throws {
        for flip in [90.0, 270] {
            let scene = Self.scene(pose: CardPose(flip: flip), background: .transparent, opaque: true)
            var frame = RGBAImage<UInt8>()
            try FrameRenderer().render(scene, into: &frame)
            let covered = stride(from: 3, to: frame.channels.count, by: 4).reduce(0) { $0 + Int(frame.channels[$1]) } / 255
            #expect(covered <= Self.cardSize.height * 2, "flip \(flip): \(covered) pixels' worth of coverage")
        }
        // Just off edge-on, one face shows as a thin sliver, not nothing and not the card.
        let scene = Self.scene(pose: CardPose(flip: 88), background: .transparent, opaque: true)
        var frame = RGBAImage<UInt8>()
        try FrameRenderer().render(scene, into: &frame)
        let covered = stride(from: 3, to: frame.channels.count, by: 4).reduce(0) { $0 + Int(frame.channels[$1]) } / 255
        #expect(covered > 0 && covered < Self.cardSize.width * Self.cardSize.height / 10)
    }

    @Test func coverageSumsToTheQuadsArea() throws {
        let size = SIMD2(Double(Self.cardSize.width), Double(Self.cardSize.height))
        for pose in [CardPose(tiltX: 13, tiltY: -21), CardPose(flip: 37, flipAxis: .diagonal), CardPose(tiltY: 44)] {
            let h = pose.frontHomography(size: size).then(.translation(SIMD2(20.25, 30.5)))
            let projection = try #require(FaceProjection(homography: h, faceSize: SIMD2(40, 56), opacity: 1, canvas: SIMD2(200, 200)))
            var total = 0.0
            for y in projection.rows { for x in projection.columns { total += projection.coverage(x: x, y: y) } }
            let corners = [SIMD2(0, 0), SIMD2(size.x, 0), size, SIMD2(0, size.y)].map { h.apply($0)! }
            var area = 0.0
            for i in 0..<4 { area += corners[i].x * corners[(i + 1) % 4].y - corners[(i + 1) % 4].x * corners[i].y }
            #expect(abs(total - abs(area) / 2) < 1e-6, "\(pose): coverage \(total), area \(abs(area) / 2)")
        }
    }

    @Test func halfCoveredPixelBlendsHalf() throws {
        // A card shifted by half a pixel: its left and right columns cover half a pixel each.
        let h = Homography.translation(SIMD2(10.5, 10))
        let projection = try #require(FaceProjection(homography: h, faceSize: SIMD2(4, 4), opacity: 1, canvas: SIMD2(30, 30)))
        #expect(projection.coverage(x: 10, y: 11) == 0.5)
        #expect(projection.coverage(x: 11, y: 11) == 1)
        #expect(projection.coverage(x: 14, y: 11) == 0.5)
        #expect(projection.coverage(x: 15, y: 11) == 0)
    }

    @Test func mirroredTiltMirrorsTheGeometry() throws {
        var left = RGBAImage<UInt8>(), right = RGBAImage<UInt8>()
        let renderer = FrameRenderer()
        try renderer.render(Self.scene(pose: CardPose(tiltX: 7, tiltY: 23), background: .transparent, opaque: true), into: &left)
        try renderer.render(Self.scene(pose: CardPose(tiltX: 7, tiltY: -23), background: .transparent, opaque: true), into: &right)
        var worst = 0
        for y in 0..<left.height {
            for x in 0..<left.width {
                worst = max(worst, abs(Int(left[x, y].w) - Int(right[left.width - 1 - x, y].w)))
            }
        }
        #expect(worst <= 1, "alpha differs by \(worst) between mirrored tilts")
    }

    /// Outside the region the renderer reports as drawn, every pixel is the background's; the
    /// pixels that differ from it all lie inside (what `kira animate --apng` relies on).
    @Test(arguments: [CardPose(), CardPose(tiltX: 6, flip: 25), CardPose(tiltX: 20, tiltY: 30), CardPose(flip: 90),
                      CardPose(tiltY: 10, flip: 150)])
    func drawnRegionHoldsEveryFacePixel(_ pose: CardPose) throws {
        let scenes = [Self.scene(pose: pose), Self.scene(pose: CardPose(tiltX: -4, flip: 10))]
        let renderer = FrameRenderer(threads: 2)
        var frames: [RGBAImage<UInt8>] = []
        try renderer.render(scenes, into: &frames)
        #expect(renderer.drawnRegions.count == 2)
        for (frame, drawn) in zip(frames, renderer.drawnRegions) {
            let background = frame[0, 0]
            var differing: ImageRegion?
            for y in 0..<frame.height {
                for x in 0..<frame.width where frame[x, y] != background {
                    let pixel = ImageRegion(x: x, y: y, width: 1, height: 1)
                    differing = differing.map { $0.union(pixel) } ?? pixel
                }
            }
            guard let found = differing else {
                // Edge-on: nothing shows, and nothing (or a sliver) is reported drawn.
                #expect(drawn.isEmpty || drawn.width <= 4, "\(drawn)")
                continue
            }
            #expect(drawn.union(found) == drawn, "\(found) lies outside the drawn \(drawn)")
            // And the region is no loose bound: at most two pixels around what differs.
            #expect(drawn.width - found.width <= 4 && drawn.height - found.height <= 4)
        }
    }

    @Test func identicalAtAnyThreadCount() throws {
        let scene = Self.scene(pose: CardPose(tiltX: -9, tiltY: 14, flip: 30))
        var baseline = RGBAImage<UInt8>()
        try FrameRenderer(threads: 1).render(scene, into: &baseline)
        for (threads, tileRows) in [(2, 16), (7, 3), (3, 1)] {
            var frame = RGBAImage<UInt8>()
            try FrameRenderer(threads: threads, tileRows: tileRows).render(scene, into: &frame)
            #expect(frame == baseline, "\(threads) threads, \(tileRows)-row tiles")
        }
    }

    @Test func crossfadeBlendsTheFacesByFlipProgress() throws {
        let renderer = FrameRenderer()
        var solid = RGBAImage<UInt8>(), faded = RGBAImage<UInt8>()
        try renderer.render(Self.scene(pose: CardPose(flip: 0)), into: &solid)
        try renderer.render(Self.scene(pose: CardPose(flip: 0), visibility: .crossfade), into: &faded)
        #expect(solid == faded, "at 0° the crossfade shows only the front")
        try renderer.render(Self.scene(pose: CardPose(flip: 180)), into: &solid)
        try renderer.render(Self.scene(pose: CardPose(flip: 180), visibility: .crossfade), into: &faded)
        #expect(Self.maxError(solid, faded) <= 1, "at 180° only the back")
        // Half way through a flip seen mostly edge-on, both faces contribute: the mirrored back
        // shows through (SwiftUI draws both layers).
        try renderer.render(Self.scene(pose: CardPose(flip: 120), visibility: .crossfade), into: &faded)
        try renderer.render(Self.scene(pose: CardPose(flip: 120)), into: &solid)
        #expect(solid != faded)
    }

    @Test func crossfadeOrderFollowsTheSeeds() throws {
        var scene = Self.scene(pose: CardPose(flip: 70))
        scene.visibility = .crossfade  // seed003-tilt-flip: the back over the front
        #expect(scene.layers().map(\.side) == [.front, .back])
        scene.visibility = .crossfadeBackUnder  // seed002-flip: the front over the back
        #expect(scene.layers().map(\.side) == [.back, .front])
        var over = RGBAImage<UInt8>(), under = RGBAImage<UInt8>()
        try FrameRenderer().render(scene, into: &under)
        scene.visibility = .crossfade
        try FrameRenderer().render(scene, into: &over)
        #expect(over != under)
    }

    @Test func sixteenBitFrames() throws {
        let scene = Self.scene(pose: CardPose(tiltY: 12))
        var deep = RGBAImage<UInt16>(), flat = RGBAImage<UInt8>()
        let renderer = FrameRenderer()
        try renderer.render(scene, into: &deep)
        try renderer.render(scene, into: &flat)
        #expect(Self.maxError(AnyRGBAImage.rgba16(deep).rgba8, flat) <= 2)
    }

    @Test func batchOfFramesEqualsSingleFrames() throws {
        let base = Self.scene()
        let scenes = [CardPose(tiltX: 5), CardPose(tiltY: -12, flip: 40), CardPose(flip: 150), CardPose(flip: 90),
                      CardPose(tiltX: -3, tiltY: 7, flip: 200)].map { pose -> FrameScene in
            var scene = base
            scene.pose = pose
            return scene
        } + [{ var s = base; s.visibility = .crossfade; s.pose = CardPose(flip: 70); return s }()]
        #expect(scenes.allSatisfy { $0.sharesFaces(with: base) })
        var batch: [RGBAImage<UInt8>] = []
        let renderer = FrameRenderer(threads: 2)
        try renderer.render(scenes, into: &batch)
        for (i, scene) in scenes.enumerated() {
            var single = RGBAImage<UInt8>()
            try FrameRenderer(threads: 1).render(scene, into: &single)
            #expect(batch[i] == single, "frame \(i)")
        }
    }

    @Test func separateFacesTurnEachFaceByItsOwnAngle() throws {
        let renderer = FrameRenderer()
        var frame = RGBAImage<UInt8>(), reference = RGBAImage<UInt8>()
        // Front at rest and back edge-on: the plain front.
        var scene = Self.scene(visibility: .separateFaces(front: 0, back: -90))
        try renderer.render(scene, into: &frame)
        try renderer.render(Self.scene(), into: &reference)
        #expect(frame == reference)
        // Front edge-on and back at rest: the back, unmirrored (not pre-rotated).
        scene.visibility = .separateFaces(front: 90, back: 0)
        try renderer.render(scene, into: &frame)
        let origin = scene.cardOrigin
        let topLeft = frame[origin.x + 2, origin.y + 2]
        #expect(topLeft.x > 200 && topLeft.y < 120 && topLeft.z > 200, "\(topLeft)")
    }
}

@Suite struct ReferenceShadedFrameTests {
    @Test func referenceShadingGivesTheSameFrames() throws {
        let scene = FrameRendererTests.scene(pose: CardPose(tiltX: 4, tiltY: -9, flip: 30))
        var fast = RGBAImage<UInt8>(), reference = RGBAImage<UInt8>()
        try FrameRenderer().render(scene, into: &fast)
        let renderer = FrameRenderer()
        renderer.faceShading = .reference
        try renderer.render(scene, into: &reference)
        #expect(fast == reference)
    }
}
