import Foundation
import Kira
import KiraPNG
import KiraTestSupport
import Testing

@Suite struct AnimateCommandTests {
    /// seed004-flip for 0.6 s at 10 frames/s as numbered frames, an APNG and a contact sheet.
    static func animate(in workspace: Workspace) throws -> CLIRunner.Result {
        try workspace.run(card: "animate", "--preset", "seed004-flip", "--fps", "10", "--size", "80x100",
                          "--output-dir", "output/frames", "--apng", "output/flip.png", "--sheet", "output/sheet.png")
    }

    @Test func framesApngAndSheet() throws {
        let workspace = try Workspace()
        let result = try Self.animate(in: workspace)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "no progress bar when stderr is not a terminal")
        // 0.6 s at 10 frames/s, both ends included.
        let frames = try FileManager.default.contentsOfDirectory(atPath: workspace.file("output/frames")).sorted()
        #expect(frames == (0..<7).map { "frame-000\($0).png" } + ["frames.csv"])
        let apng = try [UInt8](Data(contentsOf: URL(fileURLWithPath: workspace.file("output/flip.png"))))
        let chunks = try PNGChunks.parse(apng, name: "flip.png")
        #expect(chunks.filter { $0.type == "fcTL" }.count == 7)
        #expect(PNGChunks.readBigEndian(chunks.first { $0.type == "acTL" }!.data, 0) == 7)
        // Its first frame is the first numbered frame.
        #expect(try PNGCodec.decode(apng) == PNGCodec.read(workspace.file("output/frames/frame-0000.png")))
        #expect(try PNGCodec.read(workspace.file("output/sheet.png")).width > 80)
        // Later frames store only what changed.
        #expect(chunks.filter { $0.type == "fcTL" }.dropFirst().allSatisfy { PNGChunks.readBigEndian($0.data, 4) < 80 })
    }

    /// The APNG's frames, composed as players do (apngdis), are the numbered frames.
    @Test
    func apngFramesAreTheNumberedFrames() throws {
        let workspace = try Workspace()
        let result = try Self.animate(in: workspace)
        #expect(result.status == 0, "\(result.stderr)")
        try MediaTools.splitAPNG("flip.png", prefix: "split-", in: workspace.file("output"))
        for k in 0..<7 {
            #expect(try PNGCodec.read(workspace.file("output/split-\(k + 1).png")) == PNGCodec.read(workspace.file("output/frames/frame-000\(k).png")), "frame \(k)")
        }
    }

    /// A tall, narrow canvas gives a sheet of bounded size (it was 632 × 160034 and took 42 s),
    /// one Kira can read back.
    @Test func sheetOfTallNarrowCanvasIsBounded() throws {
        let workspace = try Workspace()
        let result = try workspace.run(card: "animate", "--preset", "seed002-flip", "--fps", "2", "--size", "5x4000",
                                       "--sheet", "output/sheet.png", "--quiet")
        #expect(result.status == 0, "\(result.stderr)")
        let sheet = try PNGCodec.read(workspace.file("output/sheet.png"))
        #expect(sheet.width <= 8 + 6 * 208 && sheet.height <= 8 + 4 * (4 * 200 + 18 + 8), "\(sheet.width) × \(sheet.height)")
    }

    /// A directory at a frame's name (one this run writes, or one of an earlier, longer run it
    /// removes) is refused before any frame is rendered: it once failed only after all were written.
    @Test(arguments: ["frame-0003.png", "frame-0500.png", "frames.csv"])
    func directoryAtAFrameNameIsRefusedFirst(name: String) throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(atPath: workspace.file("output/frames/\(name)"), withIntermediateDirectories: true)
        let result = try workspace.run(card: "animate", "--preset", "seed004-flip", "--fps", "10", "--size", "40x40",
                                       "--output-dir", "output/frames", "--quiet")
        #expect(result.status == 2 && result.stderr.contains("\(name): a directory"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.file("output/frames")) == [name], "nothing written")
    }

    @Test func framesEqualSingleRenders() throws {
        let workspace = try Workspace()
        #expect(try workspace.run(card: "animate", "--preset", "seed002-flip", "--fps", "4", "--size", "70x90", "--output-dir", "output/f").status == 0)
        let face = { (art: String, mask: String) in
            try Workspace.face(art: workspace.file(art), mask: workspace.file(mask))
        }
        let front = try face("textures/front.png", "textures/mask.png"), back = try face("textures/back.png", "textures/back-mask.png")
        for (k, time) in [(1, 0.25), (2, 0.5)] {
            let state = AnimationPreset.seed002Flip.state(at: time)
            var expected = RGBAImage<UInt8>()
            try FrameRenderer(threads: 1).render(
                try FrameScene(front: front, back: back, pose: state.pose, canvasSize: (70, 90), visibility: state.visibility),
                into: &expected)
            #expect(try PNGCodec.read(workspace.file("output/f/frame-000\(k).png")) == .rgba8(expected), "frame \(k)")
        }
    }

    @Test func dragFromAFile() throws {
        let workspace = try Workspace()
        try "time,dx,dy\n0,0,0\n0.2,60,-30\n".write(toFile: workspace.file("drag.csv"), atomically: false, encoding: .utf8)
        let result = try workspace.run(card: "animate", "--preset", "seed003-tilt", "--drag", "drag.csv", "--fps", "5",
                                       "--duration", "0.4", "--size", "70x90", "--quiet")
        #expect(result.status == 0, "\(result.stderr)")
        let frames = try FileManager.default.contentsOfDirectory(atPath: workspace.file("output/tilt"))
        #expect(frames.filter { $0.hasSuffix(".png") }.count == 3)
    }

    @Test(arguments: [["--preset", "seed999"], ["--preset", "seed004-flip", "--fps", "0"], ["--preset", "seed004-flip", "--duration", "nan"],
                      ["--preset", "seed003-tilt", "--drag", "nope.csv"], ["--preset", "seed003-tilt", "--drag", "textures/front.png"],
                      ["--preset", "seed004-flip", "--apng", "nowhere/a.png", "--size", "40x40"],
                      ["--preset", "seed004-flip", "--output-dir", "no/such/dir", "--size", "40x40"], []])
    func badInput(arguments: [String]) throws {
        let workspace = try Workspace()
        let result = try CLIRunner.run(["animate"] + Workspace.card + arguments, in: workspace.path)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
        #expect(workspace.outputs().isEmpty, "\(arguments): \(workspace.outputs())")
    }
}
