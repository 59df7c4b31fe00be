import Foundation
import Kira
import KiraTestSupport
import Testing

/// `kira compare` reads the still WebP and JPEG files Kira writes, and compares a transparent
/// image with a flattened copy by what both show over a background.
@Suite struct CompareFormatsTests {
    /// A transparent frame as PNG, lossless WebP and JPEG (flattened onto white): a small card
    /// in a canvas mostly transparent.
    static func frames(in workspace: Workspace) throws {
        for name in ["t.png", "t.webp", "t.jpg"] {
            let extra = name == "t.webp" ? ["--lossless"] : []
            let result = try CLIRunner.run(["render", "--tilt-y", "8", "--size", "120x160", "--scale", "0.12", "-o", name] + extra, in: workspace.path)
            #expect(result.status == 0, "\(result.stderr)")
        }
    }

    @Test func aLosslessWebPIsThePNGsPixels() throws {
        let workspace = try Workspace(empty: ())
        try Self.frames(in: workspace)
        let object = try CompareChannelsTests.json(try workspace.run("compare", "t.png", "t.webp", "--json"))
        // Both store alpha; the pixels are the same: PSNR is null (infinite).
        #expect(object["channels"] as? String == "RGBA" && object["psnr"] is NSNull && object["max_error"] as? Double == 0, "\(object)")
    }

    @Test func aJPEGComparesOverTheBackgroundItWasFlattenedOnto() throws {
        let workspace = try Workspace(empty: ())
        try Self.frames(in: workspace)
        // Alpha as a channel: the transparent surround is 255 levels off the JPEG's opaque white.
        let raw = try workspace.run("compare", "t.png", "t.jpg")
        #expect(raw.status == 0 && raw.stdout.contains("only A stores alpha: --background"), "\(raw.stdout)")
        let rawObject = try CompareChannelsTests.json(try workspace.run("compare", "t.png", "t.jpg", "--json"))
        let rawPSNR = try #require(rawObject["psnr"] as? Double)
        // Over white, what each shows: only the JPEG's loss is left.
        let over = try CompareChannelsTests.json(try workspace.run("compare", "t.png", "t.jpg", "--json", "--background", "white"))
        let psnr = try #require(over["psnr"] as? Double)
        #expect(rawPSNR < 15 && psnr > 30, "raw \(rawPSNR) dB, over white \(psnr) dB")
        #expect(over["channels"] as? String == "RGB" && over["background"] as? String == "#ffffff", "\(over)")
        // Over black the white surround is off again.
        let black = try CompareChannelsTests.json(try workspace.run("compare", "t.png", "t.jpg", "--json", "--background", "#000000"))
        #expect((black["psnr"] as? Double ?? 99) < 15, "\(black)")
    }

    @Test(arguments: [
        (["--background", "blue"], "--background must be #RRGGBB, white or black"),
        (["--background", "white", "--metric", "flip"], "--background applies to --metric standard or all"),
    ])
    func badBackgroundsAreRefused(options: [String], message: String) throws {
        let workspace = try Workspace(empty: ())
        try Self.frames(in: workspace)
        let result = try CLIRunner.run(["compare", "t.png", "t.jpg"] + options, in: workspace.path)
        #expect(result.status == 2 && result.stderr.contains(message) && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test func anAnimatedWebPIsRefusedInOneLine() throws {
        let workspace = try Workspace(empty: ())
        try Self.frames(in: workspace)
        let result = try workspace.run("animate", "--preset", "flip-quick", "--fps", "4", "--size", "60x80", "--video", "clip.webp")
        #expect(result.status == 0, "\(result.stderr)")
        let compared = try workspace.run("compare", "clip.webp", "clip.webp")
        #expect(compared.status == 2 && compared.stderr.contains("clip.webp: an animated WebP; only a still WebP is read"), "\(compared.stderr)")
    }
}
