import Foundation
import Kira
import KiraPNG
import Testing

/// The option groups shared by shade, render and animate: the same names, ranges and meaning.
@Suite struct ConsistentOptionsTests {
    @Test(arguments: [["shade"], ["render", "--size", "40x50"]])
    func tiltRangeIsTheSameEverywhere(command: [String]) throws {
        let workspace = try Workspace()
        let faces = command[0] == "shade" ? Workspace.front : Workspace.card
        let refused = try CLIRunner.run(command + faces + ["--tilt-x", "91", "-o", "output/a.png"], in: workspace.path)
        #expect(refused.status == 2 && refused.stderr.contains("--tilt-x must be between -90 and 90"), "\(refused.stderr)")
        let accepted = try CLIRunner.run(command + faces + ["--tilt-y=-90", "-o", "output/b.png"], in: workspace.path)
        #expect(accepted.status == 0, "\(accepted.stderr)")
    }

    @Test func renderTakesTheRotationConvention() throws {
        let workspace = try Workspace()
        let result = try workspace.run(card: "render", "--tilt-x", "20", "--tilt-y", "30", "--rotation", "standard",
                                       "--size", "60x80", "-o", "output/standard.png")
        #expect(result.status == 0, "\(result.stderr)")
        let face = { (art: String, mask: String) in
            try Workspace.face(art: workspace.file(art), mask: workspace.file(mask))
        }
        let scene = try FrameScene(front: try face("textures/front.png", "textures/mask.png"),
                               back: try face("textures/back.png", "textures/back-mask.png"),
                               pose: CardPose(tiltX: 20, tiltY: 30), canvasSize: (60, 80), rotationConvention: .standard)
        var expected = RGBAImage<UInt8>()
        try FrameRenderer().render(scene, into: &expected)
        #expect(try PNGCodec.read(workspace.file("output/standard.png")) == .rgba8(expected))
        var seed = scene
        seed.rotationConvention = .seed
        var seedImage = RGBAImage<UInt8>()
        try FrameRenderer().render(seed, into: &seedImage)
        #expect(seedImage != expected, "the conventions must differ at this tilt for the test to mean anything")
    }

    @Test func animateWritesSixteenBitFrames() throws {
        let workspace = try Workspace()
        let result = try workspace.run(card: "animate", "--preset", "seed004-flip", "--fps", "2", "--size", "40x50",
                                       "--depth", "16", "--output-dir", "output/deep")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try PNGCodec.read(workspace.file("output/deep/frame-0001.png")).bitDepth == 16)
    }

    @Test func aDragForAPresetThatIgnoresItIsRefused() throws {
        let workspace = try Workspace()
        try "0,0,0\n0.1,5,5\n".write(toFile: workspace.file("drag.csv"), atomically: false, encoding: .utf8)
        let result = try workspace.run(card: "animate", "--preset", "seed002-flip", "--drag", "drag.csv", "--size", "40x50")
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("tilt-then-flip"), "\(result.stderr)")
        #expect(workspace.outputs().isEmpty)
    }
}
