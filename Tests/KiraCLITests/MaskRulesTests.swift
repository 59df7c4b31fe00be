import Foundation
import Kira
import KiraFormats
import KiraPNG
import KiraTestSupport
import Testing

/// Masks fit their art (FaceMap): the art's size is used as it is, a smaller mask is upscaled
/// bilinearly, another aspect ratio is refused, alpha multiplies the mask; and masks, being data,
/// are never colour-converted while art is.
@Suite struct MaskRulesTests {
    static func art() -> RGBAImage<UInt8> {
        var art = try! RGBAImage<UInt8>(width: 40, height: 56)
        for y in 0..<56 { for x in 0..<40 { art[x, y] = SIMD4(UInt8(60 + x * 3), UInt8(50 + y * 2), 140, 255) } }
        return art
    }

    static func shade(art: RGBAImage<UInt8>, mask: RGBAImage<UInt8>) throws -> RGBAImage<UInt8> {
        try ReferenceRenderer.shade(art: art, mask: mask, normal: Rotation.normalFromTilt(tiltXDegrees: 5, tiltYDegrees: -4), as: UInt8.self)
    }

    static func run(_ workspace: Workspace, mask: String) throws -> CLIRunner.Result {
        try workspace.run("shade", "--art", "art.png", "--mask", mask, "--tilt-x", "5", "--tilt-y", "-4", "-o", "out.png")
    }

    @Test func aSmallerMaskIsUpscaledBilinearly() throws {
        let workspace = try Workspace(empty: ())
        let art = Self.art()
        try PNGCodec.write(art, to: workspace.file("art.png"))
        var small = try RGBAImage<UInt8>(width: 10, height: 14)
        for y in 0..<14 { for x in 0..<10 { small[x, y] = SIMD4(repeating: UInt8((x * 25 + y * 9) % 256)).replacing(with: 255, where: [false, false, false, true]) } }
        try PNGCodec.write(small, to: workspace.file("small.png"))
        #expect(try Self.run(workspace, mask: "small.png").status == 0)
        let expected = try Self.shade(art: art, mask: small.bilinearScaled(width: 40, height: 56))
        #expect(try PNGCodec.read(workspace.file("out.png")) == .rgba8(expected))
        #expect(try PNGCodec.read(workspace.file("out.png")) != .rgba8(try Self.shade(art: art, mask: small)), "not nearest any more")
    }

    /// The rule is the library's (KiraRequestTests' MaskShapeTests); here, that the command says
    /// it in one line with the options' spelling and writes nothing.
    @Test func aMaskOfAnotherShapeIsOneLine() throws {
        let workspace = try Workspace(empty: ())
        try PNGCodec.write(Self.art(), to: workspace.file("art.png"))
        try PNGCodec.write(try RGBAImage<UInt8>(width: 40, height: 40), to: workspace.file("square.png"))
        let result = try Self.run(workspace, mask: "square.png")
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("--mask is 40×40, the art 40×56"), "\(result.stderr)")
        #expect(!workspace.exists("out.png"))
    }

    /// White paint on a transparent layer shines only where painted: as the same mask painted
    /// black where it is transparent.
    @Test func aMasksAlphaMultipliesIt() throws {
        let workspace = try Workspace(empty: ())
        let art = Self.art()
        try PNGCodec.write(art, to: workspace.file("art.png"))
        var layer = try RGBAImage<UInt8>(width: 40, height: 56), painted = try RGBAImage<UInt8>(width: 40, height: 56)
        for y in 0..<56 {
            for x in 0..<40 {
                let alpha: UInt8 = x < 20 ? 255 : (x < 30 ? 128 : 0)
                layer[x, y] = SIMD4(255, 255, 255, alpha)
                painted[x, y] = SIMD4(alpha, alpha, alpha, 255)
            }
        }
        try PNGCodec.write(layer, to: workspace.file("layer.png"))
        #expect(try Self.run(workspace, mask: "layer.png").status == 0)
        #expect(try PNGCodec.read(workspace.file("out.png")) == .rgba8(try Self.shade(art: art, mask: painted)))
    }

    /// Art tagged Adobe RGB (1998), shaded with an all-black mask (no shine), comes out as
    /// LittleCMS converts it to sRGB, within a mean of 1/255; the same tag on the mask changes
    /// nothing.
    @Test func artIsConvertedToSRGBAndMasksAreNot() throws {
        let workspace = try Workspace(empty: ())
        let art = Self.art()
        let adobe = ColorChunks.iCCP(name: "Adobe RGB", profile: try Prerequisite.adobeRGBProfile.contents())
        try Data(ColorChunks.retagged(try PNGCodec.encode(art), with: [("iCCP", adobe)])).write(to: URL(fileURLWithPath: workspace.file("art.png")))
        var black = try RGBAImage<UInt8>(width: 40, height: 56)
        for i in stride(from: 3, to: black.channels.count, by: 4) { black.channels[i] = 255 }
        try PNGCodec.write(black, to: workspace.file("black.png"))
        let converted = try Self.run(workspace, mask: "black.png")
        #expect(converted.status == 0)
        #expect(converted.stderr == "kira shade: art.png: converted to sRGB from its ICC profile \"Compatible with Adobe RGB (1998)\"\n",
                "\(converted.stderr)")
        let output = try PNGCodec.read(workspace.file("out.png")).rgba8
        var input = ""
        for pixel in 0..<(40 * 56) { input += "\(art.channels[4 * pixel]) \(art.channels[4 * pixel + 1]) \(art.channels[4 * pixel + 2])\n" }
        try input.write(toFile: workspace.file("in.txt"), atomically: false, encoding: .utf8)
        let transicc = try MediaTools.run("sh", ["-c", "'\(try Prerequisite.transicc.path())' -t1 -s -n -i '\(try Prerequisite.adobeRGBProfile.path())' -o '*sRGB' < '\(workspace.file("in.txt"))'"])
        let expected = String(decoding: transicc.stdout, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Double($0) }
        #expect(expected.count == 40 * 56 * 3, "\(transicc.stderr)")
        var error = 0.0
        for pixel in 0..<min(40 * 56, expected.count / 3) {
            for c in 0..<3 { error += abs(Double(output.channels[4 * pixel + c]) - expected[3 * pixel + c]) }
        }
        let mean = error / Double(40 * 56 * 3)
        #expect(mean < 1 && output != art, "mean error \(mean) / 255")

        // A mask tagged Adobe RGB shades as the same mask untagged.
        try PNGCodec.write(art, to: workspace.file("art.png"))
        let mask = try PNGCodec.encode(Self.art())
        try Data(mask).write(to: URL(fileURLWithPath: workspace.file("plain.png")))
        try Data(ColorChunks.retagged(mask, with: [("iCCP", adobe)])).write(to: URL(fileURLWithPath: workspace.file("tagged.png")))
        #expect(try Self.run(workspace, mask: "plain.png").status == 0)
        let plain = try PNGCodec.read(workspace.file("out.png"))
        let tagged = try Self.run(workspace, mask: "tagged.png")
        #expect(tagged.status == 0 && tagged.stderr.isEmpty, "\(tagged.stderr)")
        #expect(try PNGCodec.read(workspace.file("out.png")) == plain)
    }
}

extension MaskRulesTests {
    /// A catalogue reads art through its texture cache: converted there as `kira render` converts
    /// it, the same file as a mask not converted.
    @Test func batchConvertsArtAsRenderDoes() throws {
        let workspace = try Workspace(empty: ())
        let adobe = ColorChunks.iCCP(name: "Adobe RGB", profile: try Prerequisite.adobeRGBProfile.contents())
        try Data(ColorChunks.retagged(try PNGCodec.encode(Self.art()), with: [("iCCP", adobe)])).write(to: URL(fileURLWithPath: workspace.file("art.png")))
        try PNGCodec.write(Self.art(), to: workspace.file("plain.png"))
        try "output,art,mask,tilt_x\nb.png,art.png,art.png,5\n".write(toFile: workspace.file("cards.csv"), atomically: false, encoding: .utf8)
        let batch = try workspace.run("batch", "cards.csv")
        #expect(batch.status == 0, "\(batch.stderr)")
        let render = try workspace.run("render", "--art", "art.png", "--mask", "art.png", "--tilt-x", "5", "-o", "r.png")
        #expect(render.status == 0 && render.stderr.contains("converted to sRGB"), "\(render.stderr)")
        let plain = try workspace.run("render", "--art", "plain.png", "--mask", "art.png", "--tilt-x", "5", "-o", "p.png")
        #expect(plain.status == 0)
        let bytes = { (name: String) in try Data(contentsOf: URL(fileURLWithPath: workspace.file(name))) }
        #expect(try bytes("b.png") == bytes("r.png"))
        #expect(try bytes("b.png") != bytes("p.png"))
    }
}
