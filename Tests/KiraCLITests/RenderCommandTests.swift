import Foundation
import Kira
import KiraPNG
import Testing

@Suite struct RenderCommandTests {
    @Test func rendersACentredCardOnTheDefaultCanvas() throws {
        let workspace = try Workspace()
        let result = try workspace.run(card: "render", "--tilt-x", "-8", "--tilt-y=12", "--flip", "-30", "--background", "#102030")
        #expect(result.status == 0, "\(result.stderr)")
        let image = try PNGCodec.read(workspace.file("output/render.png"))
        let (w, h) = try FrameScene.defaultCanvasSize(cardWidth: Workspace.artSize.width, cardHeight: Workspace.artSize.height)
        #expect(image.width == w && image.height == h)
        #expect(workspace.outputs() == ["render.png"])
    }

    @Test func matchesTheLibrary() throws {
        let workspace = try Workspace()
        let result = try workspace.run(card: "render", "--flip", "150", "--axis", "xy", "--perspective", "0.3",
                                       "--size", "90x100", "--crossfade", "-o", "output/x.png")
        #expect(result.status == 0, "\(result.stderr)")
        let face = { (art: String, mask: String) in
            try Workspace.face(art: workspace.file(art), mask: workspace.file(mask))
        }
        let scene = try FrameScene(
            front: try face("textures/front.png", "textures/mask.png"),
            back: try face("textures/back.png", "textures/back-mask.png"),
            pose: CardPose(flip: 150, flipAxis: .diagonal, flipPerspective: 0.3), canvasSize: (90, 100),
            visibility: .crossfade)
        var expected = RGBAImage<UInt8>()
        try FrameRenderer().render(scene, into: &expected)
        let written = try PNGCodec.read(workspace.file("output/x.png")).rgba8
        let differing = zip(written.channels, expected.channels).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) channels differ")
    }

    static let badInputs: [(String, [String])] = [
        ("NaN flip", ["--flip", "nan"]),
        ("tilt out of range", ["--tilt-y", "-91"]),
        ("bad axis", ["--axis", "z"]),
        ("bad background", ["--background", "#12345"]),
        ("bad size", ["--size", "0x10"]),
        ("negative perspective", ["--perspective", "-1"]),
        ("missing back", ["--back", "nope.png"]),
        ("output over an input", ["-o", "textures/back.png"]),
    ]

    /// Every number option takes a value that starts with a minus, as the tilts do: it is refused
    /// by its range, never taken for an option ("Missing value").
    static let numberOptions = RenderRequest.parameters.filter { $0.kind == .number || $0.kind == .integer }.map(\.option)

    @Test(arguments: numberOptions)
    func numberOptionTakesANegativeValue(option: String) throws {
        #expect(Self.numberOptions.contains("--perspective") && Self.numberOptions.contains("--width"))
        let workspace = try Workspace()
        let result = try CLIRunner.run(["render"] + Workspace.card + [option, "-1e9"], in: workspace.path)
        #expect(result.status == 2, "\(option): exit \(result.status): \(result.stderr)")
        #expect(result.stderr.hasPrefix("kira render: \(option) must be"), "\(option): \(result.stderr)")
        #expect(workspace.outputs().isEmpty)
    }

    @Test(arguments: badInputs.indices)
    func badInputFailsCleanly(index: Int) throws {
        let (name, arguments) = Self.badInputs[index]
        let workspace = try Workspace()
        let result = try CLIRunner.run(["render"] + Workspace.card + arguments, in: workspace.path)
        #expect(result.status == 2, "\(name): exit \(result.status): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.hasPrefix("kira render: "), "\(name): \(result.stderr)")
        #expect(workspace.outputs().isEmpty)
    }
}
