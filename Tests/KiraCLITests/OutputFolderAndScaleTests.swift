import Foundation
import Kira
import KiraPNG
import Testing

/// `--output-dir` holds one run's frames and their index; `--fit`/`--scale` show the whole card on
/// a small canvas.
@Suite struct OutputFolderAndScaleTests {
    @Test func aShorterRunRemovesTheStaleFramesAndWritesItsIndex() throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(atPath: workspace.file("output/f"), withIntermediateDirectories: true)
        try "mine".write(toFile: workspace.file("output/f/notes.txt"), atomically: false, encoding: .utf8)
        try "mine".write(toFile: workspace.file("output/f/frame-1.png"), atomically: false, encoding: .utf8)
        // seed004-flip lasts 0.6 s: 5 frames at 6 frames/s, then 2 at 2 frames/s.
        for fps in ["6", "2"] {
            let result = try workspace.run(card: "animate", "--preset", "seed004-flip", "--fps", fps, "--size", "40x50", "--output-dir", "output/f")
            #expect(result.status == 0, "\(result.stderr)")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: workspace.file("output/f")).sorted()
        #expect(files == ["frame-0000.png", "frame-0001.png", "frame-1.png", "frames.csv", "notes.txt"], "\(files)")
        let index = try String(contentsOfFile: workspace.file("output/f/frames.csv"), encoding: .utf8)
        #expect(index == "file,time_s\nframe-0000.png,0.0\nframe-0001.png,0.5\n", "\(index)")
    }

    /// `textures --output-dir` creates a missing folder, as `animate --output-dir` does; one
    /// whose parent is missing is refused (the bad-input tests).
    @Test func texturesCreateTheirFolder() throws {
        let workspace = try Workspace()
        let result = try workspace.run("textures", "--size", "20x28", "--output-dir", "output/new-textures")
        #expect(result.status == 0, "\(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: workspace.file("output/new-textures")).sorted()
        #expect(files == ["back-mask.png", "back.png", "front.png", "mask.png"])
    }

    /// An input named like a stale frame of the folder is refused before anything is written,
    /// instead of being removed with the earlier run's frames.
    @Test func anInputAmongTheStaleFramesIsKept() throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(atPath: workspace.file("output/f"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: workspace.file("textures/front.png"), toPath: workspace.file("output/f/frame-0009.png"))
        let art = try Data(contentsOf: URL(fileURLWithPath: workspace.file("output/f/frame-0009.png")))
        // seed004-flip at 6 frames/s: frames 0…4, so frame-0009.png would be removed as stale.
        let result = try workspace.run("animate", "--preset", "seed004-flip", "--fps", "6", "--size", "40x50",
                                       "--art", "output/f/frame-0009.png", "--output-dir", "output/f")
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("frame-0009.png"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: workspace.file("output/f/frame-0009.png"))) == art)
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.file("output/f")) == ["frame-0009.png"])
    }

    /// The alpha of the canvas's border pixels and of its centre.
    static func alphas(_ path: String) throws -> (border: Set<UInt8>, centre: UInt8, width: Int, height: Int) {
        let image = try PNGCodec.read(path).rgba8
        var border = Set<UInt8>()
        for x in 0..<image.width { border.formUnion([image[x, 0].w, image[x, image.height - 1].w]) }
        for y in 0..<image.height { border.formUnion([image[0, y].w, image[image.width - 1, y].w]) }
        return (border, image[image.width / 2, image.height / 2].w, image.width, image.height)
    }

    @Test func fitShowsTheWholeCardOnASmallCanvas() throws {
        let workspace = try Workspace()  // an opaque 45×63 card
        let crop = try workspace.run(card: "render", "--size", "40x50", "-o", "output/crop.png")
        #expect(crop.status == 0)
        #expect(try Self.alphas(workspace.file("output/crop.png")).border == [255], "without --fit the card is cropped")
        #expect(crop.stderr.contains("kira render: the card reaches beyond the 40×50 canvas and is cropped (give --fit to fill the canvas with the whole card, or --scale)\n"),
                "\(crop.stderr)")
        for tilt in [["--tilt-y", "0"], ["--tilt-x", "45", "--tilt-y", "-45"]] {
            let result = try CLIRunner.run(["render"] + Workspace.card + tilt + ["--size", "40x50", "--fit", "-o", "output/fit.png"], in: workspace.path)
            #expect(result.status == 0, "\(result.stderr)")
            let fit = try Self.alphas(workspace.file("output/fit.png"))
            #expect(fit.border == [0] && fit.centre == 255, "\(tilt): \(fit)")
            #expect(!result.stderr.contains("cropped"), "\(result.stderr)")
        }
    }

    @Test func anAnimationOnACanvasThatCropsItSaysHowManyFrames() throws {
        let workspace = try Workspace()  // an opaque 45×63 card
        let cropped = try workspace.run(card: "animate", "--preset", "seed004-flip", "--fps", "5", "--size", "40x50",
                                        "--output-dir", "output/a")
        #expect(cropped.status == 0)
        #expect(cropped.stderr.contains("kira animate: the card in 4 of 4 frames reaches beyond the 40×50 canvas and is cropped"),
                "\(cropped.stderr)")
        for extra in [["--fit"], ["--quiet"]] {
            let result = try CLIRunner.run(["animate"] + Workspace.card + ["--preset", "seed004-flip", "--fps", "5", "--size", "40x50",
                                                                          "--output-dir", "output/b"] + extra, in: workspace.path)
            #expect(result.status == 0 && !result.stderr.contains("cropped"), "\(extra): \(result.stderr)")
        }
    }

    @Test func scaleWithoutASizeScalesTheDefaultCanvas() throws {
        let workspace = try Workspace()
        #expect(try workspace.run(card: "render", "--scale", "0.5", "-o", "output/half.png").status == 0)
        let room = try FrameScene.defaultCanvasSize(cardWidth: Workspace.artSize.width, cardHeight: Workspace.artSize.height)
        let half = try Self.alphas(workspace.file("output/half.png"))
        #expect(half.width == Int((Double(room.width) / 2).rounded()) && half.height == Int((Double(room.height) / 2).rounded()))
        #expect(half.border == [0] && half.centre == 255)
    }
}
