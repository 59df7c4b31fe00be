import Foundation
import KiraFormats
import KiraGeometry
import KiraImage
import KiraPNG
import KiraRequest
import KiraSamples
import KiraShader
import Testing
@testable import KiraCompare
@testable import KiraRender

/// The fast renderers against golden images committed in `Golden/`.
///
/// The golden images are made by the scalar reference (``ReferenceRenderer``; for frames, faces
/// shaded by it and projected one pixel at a time), never by the code under test. They are written only when
/// `KIRA_RECORD_GOLDEN=1` is set — see `Golden/README.md` for when that is allowed —, and a run
/// that records fails, as a missing golden image does: only a run without it can pass.
@Suite struct GoldenImageTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let recording = ProcessInfo.processInfo.environment["KIRA_RECORD_GOLDEN"] == "1"

    static let card = (width: 126, height: 176)
    static let front = try! SampleCard.front(width: card.width, height: card.height)
    static let back = try! SampleCard.back(width: card.width, height: card.height)
    static let mask = try! SampleCard.mask(width: card.width, height: card.height)
    static let backMask = try! SampleCard.backMask(width: card.width, height: card.height)

    struct ShadeScene: Sendable, CustomStringConvertible {
        let name: String
        let tilt: (x: Float, y: Float)
        var back = false
        var maskSize: (Int, Int)? = nil
        var parameters = KiraParameters.seed
        /// Whether the art itself is the foil map (the height field of foils that read one).
        var artAsFoilMap = false
        var description: String { name }
    }

    /// The seed's shader with another foil, intensity and glare.
    static func look(_ foil: String, intensity: Float = 1, glare: Float = 0) -> KiraParameters {
        KiraParameters(foil: Foil(named: foil)!, intensity: intensity, glare: glare)
    }

    static let shadeScenes: [ShadeScene] = [
        ShadeScene(name: "shade-rest", tilt: (0, 0)),
        ShadeScene(name: "shade-tiltx+10", tilt: (10, 0)),
        ShadeScene(name: "shade-tilty-10", tilt: (0, -10)),
        ShadeScene(name: "shade-mixed", tilt: (-7, 4.5)),
        ShadeScene(name: "shade-back", tilt: (3, 8), back: true),
        ShadeScene(name: "shade-mask-63x88", tilt: (5, -5), maskSize: (63, 88)),
        ShadeScene(name: "shade-threejs", tilt: (6, 2), parameters: .threeJS),
        // One per foil besides the seed's (docs/looks.md), and the glare with another intensity.
        ShadeScene(name: "foil-rainbow", tilt: (6, -4), parameters: look("rainbow")),
        ShadeScene(name: "foil-sparkle", tilt: (6, -4), parameters: look("sparkle")),
        ShadeScene(name: "foil-cosmos", tilt: (6, -4), parameters: look("cosmos")),
        ShadeScene(name: "foil-gold", tilt: (6, -4), parameters: look("gold")),
        ShadeScene(name: "foil-etched", tilt: (6, -4), parameters: look("etched"), artAsFoilMap: true),
        ShadeScene(name: "foil-reverse", tilt: (6, -4), parameters: look("reverse")),
        ShadeScene(name: "shade-glare", tilt: (-5, 9), back: true, parameters: look("kira", intensity: 0.5, glare: 0.8)),
    ]

    struct FrameCase: Sendable, CustomStringConvertible {
        let name: String
        let pose: CardPose
        var visibility = FaceVisibility.orientation
        var parameters = KiraParameters.seed
        var description: String { name }
    }

    static let frameScenes: [FrameCase] = [
        FrameCase(name: "frame-tilted", pose: CardPose(tiltX: 8, tiltY: -14)),
        FrameCase(name: "frame-midflip", pose: CardPose(tiltX: 5, flip: 60)),
        FrameCase(name: "frame-flipped", pose: CardPose(tiltY: 10, flip: 180)),
        FrameCase(name: "frame-diagonal-flip", pose: CardPose(flip: 130, flipAxis: .diagonal, flipPerspective: 0.3)),
        FrameCase(name: "frame-crossfade", pose: CardPose(flip: 120), visibility: .crossfade),
        FrameCase(name: "frame-cosmos-glare", pose: CardPose(tiltX: -6, tiltY: 12),
                  parameters: look("cosmos", intensity: 1.5, glare: 0.6)),
    ]

    /// Compares `image` with the golden file `name`, or records the reference when asked to.
    static func check(_ name: String, rendered: RGBAImage<UInt8>, reference: () throws -> RGBAImage<UInt8>) throws {
        let path = directory.appendingPathComponent(name + ".png").path
        if recording {
            try PNGCodec.write(try reference(), to: path, options: .init(deflater: .zlib(level: 9), sixteenBitDeflater: .zlib(level: 9)))
            Issue.record("recorded golden image \(name).png: review it, commit it, and run the tests again without KIRA_RECORD_GOLDEN")
            return
        }
        guard FileManager.default.fileExists(atPath: path) else {
            Issue.record("missing golden image \(name).png: record it with KIRA_RECORD_GOLDEN=1 (see Golden/README.md)")
            return
        }
        let golden = try PNGCodec.read(path)
        let comparison = ImageComparison(golden, .rgba8(rendered))
        #expect(comparison.maxError == 0,
                "\(name): max error \(comparison.maxError * 255)/255, PSNR \(comparison.psnr) dB, \(comparison.shareOverThreshold * 100)% of pixels off")
    }

    @Test(arguments: shadeScenes)
    func shade(scene: ShadeScene) throws {
        let art = scene.back ? Self.back : Self.front
        var mask = scene.back ? Self.backMask : Self.mask
        // A smaller mask (drawn down with Lanczos) is prepared as every front end prepares it:
        // upscaled to the art's size, bilinearly (FaceMap).
        if let (w, h) = scene.maskSize {
            mask = try FaceMap.fitted(.rgba8(mask.lanczosScaled(width: w, height: h)), artWidth: art.width, artHeight: art.height, parameter: "mask").rgba8
        }
        var normal = Rotation.normalFromTilt(tiltXDegrees: scene.tilt.x, tiltYDegrees: scene.tilt.y)
        if scene.back { normal = -normal }
        let foilMap: AnyRGBAImage? = scene.artAsFoilMap ? .rgba8(art) : nil
        let fast = try ShadeRenderer().shade(art: art, mask: mask, foilMap: foilMap, normal: normal,
                                             parameters: scene.parameters, as: UInt8.self)
        try Self.check(scene.name, rendered: fast) {
            try ReferenceRenderer.shade(art: art, mask: mask, foilMap: foilMap, normal: normal, parameters: scene.parameters,
                                        as: UInt8.self)
        }
    }

    @Test(arguments: frameScenes)
    func frame(scene: FrameCase) throws {
        let frame = try FrameScene(
            front: try CardFace(art: .rgba8(Self.front), mask: .rgba8(Self.mask)),
            back: try CardFace(art: .rgba8(Self.back), mask: .rgba8(Self.backMask)),
            pose: scene.pose, canvasSize: (200, 240), background: .color(SIMD3(0.1, 0.12, 0.16)),
            visibility: scene.visibility, parameters: scene.parameters)
        var fast = RGBAImage<UInt8>()
        try FrameRenderer().render(frame, into: &fast)
        try Self.check(scene.name, rendered: fast) {
            let renderer = FrameRenderer(threads: 1)
            renderer.faceShading = .reference
            renderer.projectionPath = .scalar
            var reference = RGBAImage<UInt8>()
            try renderer.render(frame, into: &reference)
            return reference
        }
    }
}
