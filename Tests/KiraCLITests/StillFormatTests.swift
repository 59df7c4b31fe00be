import Foundation
import Kira
import KiraCatalogue
import KiraPNG
import KiraTestSupport
import Testing

/// Stills as WebP and JPEG by their extension, scaled down with --width/--height, numbered frames
/// in any of the formats, and the sRGB every picture says it is in.
@Suite struct StillFormatTests {
    static let pose = ["--tilt-x", "6", "--tilt-y", "-9", "--size", "80x100"]

    func bytes(_ workspace: Workspace, _ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: workspace.file(name))))
    }

    @Test func theExtensionChoosesTheFormat() throws {
        let workspace = try Workspace()
        for name in ["a.png", "a.webp", "a.jpg", "a.JPEG", "lossless.webp"] {
            let extra = name == "lossless.webp" ? ["--lossless"] : []
            let result = try CLIRunner.run(["render"] + Workspace.card + Self.pose + ["--background", "#203040", "-o", "output/\(name)"] + extra,
                                           in: workspace.path)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(name): \(result.stderr)")
        }
        let png = try PNGCodec.read(workspace.file("output/a.png")).rgba8
        #expect(try WebPCodec.decode(try bytes(workspace, "output/lossless.webp")) == png)
        let webp = try WebPCodec.decode(try bytes(workspace, "output/a.webp"))
        let jpeg = try JPEGCodec.decode(try bytes(workspace, "output/a.jpg"))
        #expect(jpeg.profile == ColorProfile.sRGB)
        #expect(try bytes(workspace, "output/a.JPEG") == bytes(workspace, "output/a.jpg"))
        for lossy in [webp, jpeg.image] {
            #expect(lossy.width == 80 && lossy.height == 100)
            #expect(ImageComparison(.rgba8(png), .rgba8(lossy)).psnr > 25)
        }
    }

    @Test func jpegSaysItFlattensATransparentBackground() throws {
        let workspace = try Workspace()
        let result = try workspace.run(card: "render", "--size", "80x100", "-o", "output/a.jpg")
        #expect(result.status == 0)
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("flattened onto white"), "\(result.stderr)")
        let image = try JPEGCodec.decode(try bytes(workspace, "output/a.jpg")).image
        #expect(image[0, 0].x > 245 && image[0, 0].y > 245 && image[0, 0].z > 245, "the corner is white: \(image[0, 0])")
        let shade = try workspace.run(card: "shade", "-o", "output/s.jpg")
        #expect(shade.status == 0 && shade.stderr.isEmpty, "opaque art has nothing to flatten: \(shade.stderr)")
    }

    /// The command line's spelling of the output rules (the rules themselves: KiraRequestTests'
    /// OutputRuleTests), and its own rule on the output's extension.
    @Test(arguments: [
        (["--depth", "16", "-o", "output/a.webp"], "--depth 16 needs a .png output"),
        (["--quality", "80", "--lossless", "-o", "output/a.webp"], "give --quality or --lossless"),
        (["-o", "output/a.gif"], "Kira writes .png, .webp and .jpg"),
    ])
    func settingsAFormatCannotUseAreRefused(arguments: [String], message: String) throws {
        let workspace = try Workspace()
        let result = try CLIRunner.run(["render"] + Workspace.card + ["--size", "80x100"] + arguments, in: workspace.path)
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains(message), "\(result.stderr)")
        #expect(workspace.outputs().isEmpty)
    }

    /// --width scales the rendered frame with the Lanczos scaler; --height alike; both fit.
    @Test func widthAndHeightScaleTheStillDown() throws {
        let workspace = try Workspace()
        #expect(try workspace.run(card: "render", "--size", "80x100", "-o", "output/full.png").status == 0)
        #expect(try workspace.run(card: "render", "--size", "80x100", "--width", "40", "-o", "output/w.png").status == 0)
        #expect(try workspace.run(card: "render", "--size", "80x100", "--height", "30", "--width", "40", "-o", "output/wh.png").status == 0)
        guard case .rgba8(let full) = try PNGCodec.read(workspace.file("output/full.png")) else { Issue.record("8-bit"); return }
        #expect(try PNGCodec.read(workspace.file("output/w.png")) == .rgba8(try full.lanczosScaled(width: 40, height: 50)))
        #expect(try PNGCodec.read(workspace.file("output/wh.png")) == .rgba8(try full.lanczosScaled(width: 24, height: 30)))
        #expect(try workspace.run(card: "shade", "--width", "15", "-o", "output/s.webp").status == 0)
        #expect(try WebPCodec.decode(try bytes(workspace, "output/s.webp")).width == 15)
    }

    /// A catalogue row writes the same file as `kira render` with the same values, in any format.
    @Test func batchRowsWriteWhatRenderWrites() throws {
        let workspace = try Workspace()
        try """
            output,art,mask,tilt_x,size,quality,width,background
            a.webp,textures/front.png,textures/mask.png,5,80x100,70,,
            b.jpg,textures/front.png,textures/mask.png,5,80x100,,40,#102030
            c.png,textures/front.png,textures/mask.png,5,80x100,,40,
            d.jpg,textures/front.png,textures/mask.png,5,80x100,,,

            """.write(toFile: workspace.file("cards.csv"), atomically: false, encoding: .utf8)
        let batch = try workspace.run("batch", "cards.csv")
        #expect(batch.status == 0, "\(batch.stderr)")
        #expect(batch.stderr.split(separator: "\n").count == 1 && batch.stderr.contains("row 4: JPEG has no transparency"), "\(batch.stderr)")
        for (name, options) in [("a.webp", ["--quality", "70"]), ("b.jpg", ["--width", "40", "--background", "#102030"]),
                                ("c.png", ["--width", "40"]), ("d.jpg", [])] {
            let render = try CLIRunner.run(["render"] + Workspace.front + ["--tilt-x", "5", "--size", "80x100", "-o", "output/\(name)"] + options,
                                           in: workspace.path)
            #expect(render.status == 0, "\(render.stderr)")
            #expect(try bytes(workspace, name) == bytes(workspace, "output/\(name)"), "\(name)")
        }
    }

    /// Numbered frames as WebP or JPEG, scaled; a run in another format replaces the frames of the
    /// one before; the animated PNG scales too and says it is sRGB.
    @Test func framesAndAnimatedPNGsTakeTheFormatAndTheScale() throws {
        let workspace = try Workspace()
        let common = ["--preset", "seed002-flip", "--fps", "4", "--size", "60x80"]
        var result = try CLIRunner.run(["animate"] + Workspace.card + common + ["--output-dir", "output/f"], in: workspace.path)
        #expect(result.status == 0, "\(result.stderr)")
        result = try CLIRunner.run(["animate"] + Workspace.card + common + ["--output-dir", "output/f", "--frame-format", "webp",
                                                                              "--width", "30", "--apng", "output/a.png"], in: workspace.path)
        #expect(result.status == 0, "\(result.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: workspace.file("output/f")).sorted()
        #expect(names.allSatisfy { $0.hasSuffix(".webp") || $0 == "frames.csv" } && names.count > 2, "\(names)")
        #expect(try String(contentsOfFile: workspace.file("output/f/frames.csv"), encoding: .utf8).contains("frame-0001.webp,"))
        #expect(try WebPCodec.decode(try bytes(workspace, "output/f/frame-0001.webp")).width == 30)
        let chunks = try PNGChunks.parse(try bytes(workspace, "output/a.png"), name: "apng")
        #expect(Array(chunks.prefix(3).map(\.type)) == ["IHDR", "sRGB", "acTL"])
        #expect(PNGChunks.readBigEndian(chunks[0].data, 0) == 30 && PNGChunks.readBigEndian(chunks[0].data, 4) == 40)
        let jpg = try CLIRunner.run(["animate"] + Workspace.card + common + ["--output-dir", "output/j", "--frame-format", "jpg", "--quality", "60"],
                                    in: workspace.path)
        #expect(jpg.status == 0 && jpg.stderr.contains("flattened onto white"), "\(jpg.stderr)")
        #expect(workspace.exists("output/j/frame-0000.jpg"))
    }

    /// Every picture Kira writes says it is sRGB; the sample card's masks, which are data, do not.
    @Test func picturesSaySRGBAndMasksDoNot() throws {
        let workspace = try Workspace()
        #expect(try workspace.run(card: "shade", "-o", "output/s.png").status == 0)
        #expect(try workspace.run(card: "render", "--depth", "16", "-o", "output/r.png").status == 0)
        #expect(try workspace.run("textures", "--size", "20x28", "--output-dir", "output/t").status == 0)
        for name in ["output/s.png", "output/r.png", "output/t/front.png", "output/t/back.png"] {
            #expect(try PNGChunks.parse(try bytes(workspace, name), name: name).map(\.type).contains("sRGB"), "\(name)")
        }
        for name in ["output/t/mask.png", "output/t/back-mask.png"] {
            #expect(try !PNGChunks.parse(try bytes(workspace, name), name: name).map(\.type).contains("sRGB"), "\(name)")
        }
    }

    /// The frames' settings need frames to apply to.
    @Test(arguments: [
        (["--video", "output/v.mp4", "--width", "40"], "--width applies to numbered frames (--output-dir) and --apng"),
        (["--apng", "output/a.png", "--frame-format", "webp"], "--frame-format applies to numbered frames"),
        (["--sheet", "output/s.png", "--lossless"], "--lossless applies to numbered frames"),
    ])
    func frameSettingsNeedFrames(arguments: [String], message: String) throws {
        let workspace = try Workspace()
        let result = try CLIRunner.run(["animate", "--preset", "seed004-flip", "--size", "60x80"] + arguments, in: workspace.path)
        #expect(result.status == 2 && result.stderr.contains(message), "\(result.stderr)")
        #expect(workspace.outputs().isEmpty)
    }
}
