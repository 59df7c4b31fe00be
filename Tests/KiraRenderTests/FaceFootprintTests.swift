import KiraGeometry
import KiraImage
import Testing
@testable import KiraRender

/// Minification: which pixels are filtered over their footprint, how many taps they take, and
/// that a face drawn small no longer aliases.
@Suite struct FaceFootprintTests {
    /// The projections of `scene`'s faces, as the renderer places them.
    static func projections(_ scene: FrameScene) -> [FaceProjection] {
        let card = SIMD2(Double(scene.front.art.width), Double(scene.front.art.height))
        return scene.layers().compactMap { layer in
            let face = layer.side == .front ? scene.front.art : scene.back.art
            let scale = Homography(rows: SIMD3(card.x / Double(face.width), 0, 0),
                                   SIMD3(0, card.y / Double(face.height), 0), SIMD3(0, 0, 1))
            return FaceProjection(homography: scale.then(layer.homography), faceSize: SIMD2(face.width, face.height),
                                  opacity: layer.opacity, canvas: SIMD2(scene.canvasWidth, scene.canvasHeight))
        }
    }

    /// The footprint of canvas pixel (`x`, `y`) on `projection`'s face.
    static func footprint(_ projection: FaceProjection, x: Int, y: Int) -> FaceFootprint {
        FaceFootprint(inverse: projection.inverse,
                      h: projection.inverse.homogeneous(SIMD2(Double(x) + 0.5, Double(y) + 0.5)))
    }

    @Test(arguments: [(1.0, 1), (0.8, 1), (0.7, 1), (0.625, 2), (0.5, 2), (0.25, 5), (0.125, 11), (1.0 / 128, 64)])
    func tapsGrowWithTheMinification(scale: Double, taps: Int) {
        var scene = FrameRendererTests.scene()
        scene.cardScale = scale
        let projection = Self.projections(scene)[0]
        let centre = SIMD2(scene.canvasWidth / 2, scene.canvasHeight / 2)
        let footprint = Self.footprint(projection, x: centre.x, y: centre.y)
        // Seen flat, a pixel spans 1/scale texels along each axis: filtered beyond 1.5.
        #expect(footprint.columns == taps && footprint.rows == taps)
        #expect(footprint.isMinified == (taps > 1))
        let row = scene.canvasHeight / 2
        #expect(projection.mayMinify(y: row, columns: projection.spans(y: row).covered) == (taps > 1))
    }

    @Test func aFlipIsFilteredAcrossTheFaceOnly() {
        let scene = FrameRendererTests.scene(pose: CardPose(flip: 80))
        let projection = Self.projections(scene)[0]
        let footprint = Self.footprint(projection, x: scene.canvasWidth / 2, y: scene.canvasHeight / 2)
        // Foreshortened along x (about 1/cos 80° ≈ 5.8 texels a pixel), not along y.
        #expect(footprint.columns > 4)
        #expect(footprint.rows == 1)
    }

    /// `kira bench`'s frame (tilted by 6°, flipped by 25°, at scale 1) spans at most about 1.43
    /// texels a pixel: no row of it is filtered, so it renders as fast and as it did.
    @Test func theBenchmarkFrameIsNotMinified() {
        let scene = FrameRendererTests.scene(pose: CardPose(tiltX: 6, tiltY: 0, flip: 25))
        let projection = Self.projections(scene)[0]
        #expect(projection.rows.allSatisfy { !projection.mayMinify(y: $0, columns: projection.spans(y: $0).covered) })
    }

    /// The bound behind ``FaceProjection/mayMinify(y:columns:)`` holds: a row it clears has no
    /// pixel that the reference would filter.
    @Test func aRowClearedByTheBoundHasNoMinifiedPixel() {
        var cleared = 0, bounded = 0, loose = 0
        for tiltX in stride(from: -30.0, through: 30, by: 10) {
            for tiltY in stride(from: -24.0, through: 24, by: 12) {
                for (flip, scale) in [(0.0, 1.0), (25, 1), (40, 1), (0, 0.9), (10, 0.7), (160, 1.2), (-50, 2)] {
                    var scene = FrameRendererTests.scene(pose: CardPose(tiltX: tiltX, tiltY: tiltY, flip: flip))
                    scene.cardScale = scale
                    for projection in Self.projections(scene) {
                        for y in projection.rows {
                            let covered = projection.spans(y: y).covered
                            let minified = covered.contains { x in Self.footprint(projection, x: x, y: y).isMinified }
                            if !projection.mayMinify(y: y, columns: covered) {
                                cleared += 1
                                #expect(!minified, "row \(y): tilt \(tiltX), \(tiltY), flip \(flip), scale \(scale)")
                            } else if minified {
                                bounded += 1
                            } else {
                                loose += 1
                            }
                        }
                    }
                }
            }
        }
        // Both kinds occur among these poses, so the check above is not vacuous; and the bound
        // is not so loose that rows pay for the test needlessly.
        #expect(cleared > 1000 && bounded > 1000, "\(cleared) rows cleared, \(bounded) minified")
        #expect(loose * 10 < cleared, "\(loose) rows not minified but not cleared, \(cleared) cleared")
    }

    /// A face of one-pixel black and white stripes drawn at a quarter of its size: each canvas
    /// pixel spans four stripes, so the face is an even grey; sampled at pixel centres alone it
    /// would be stripes or a moiré.
    @Test(arguments: [FrameRenderer.ProjectionPath.lanes, .scalar])
    func finePatternsAverageInsteadOfAliasing(path: FrameRenderer.ProjectionPath) throws {
        var art = try RGBAImage<UInt8>(width: 160, height: 224)
        for y in 0..<art.height {
            for x in 0..<art.width {
                let v: UInt8 = (x + y / 3) % 2 == 0 ? 255 : 0
                art[x, y] = SIMD4(v, v, v, 255)
            }
        }
        let black = try RGBAImage<UInt8>(width: 1, height: 1, channels: [0, 0, 0, 255])
        let face = try CardFace(art: .rgba8(art), mask: .rgba8(black))
        var scene = try FrameScene(front: face, back: face, pose: CardPose(tiltX: 4, tiltY: -7), canvasSize: (60, 80),
                               background: .color(SIMD3(0, 0, 0)))
        scene.cardScale = 0.27
        let renderer = FrameRenderer(threads: 2)
        renderer.projectionPath = path
        var frame = RGBAImage<UInt8>()
        try renderer.render(scene, into: &frame)
        var low = 255, high = 0
        for y in 30..<50 {
            for x in 22..<38 {
                let v = Int(frame[x, y].x)
                low = min(low, v)
                high = max(high, v)
            }
        }
        #expect(low >= 112 && high <= 143, "grey between \(low) and \(high)")
    }
}
