import Foundation
import Kira
import KiraTestSupport
import Testing

/// `kira compare` counts the channels the files store, and gives no SSIM below its window.
@Suite struct CompareChannelsTests {
    static func write(_ fixture: PNGFixture, _ name: String, in workspace: Workspace) throws {
        try Data(fixture.bytes).write(to: URL(fileURLWithPath: workspace.file(name)))
    }

    /// A 20×16 RGB file, and another whose samples are all 3 higher.
    static func rgbPair(in workspace: Workspace) throws {
        let samples = (0..<(20 * 16 * 3)).map { ($0 * 37) % 250 }
        try write(PNGFixture(width: 20, height: 16, colorType: .rgb, bitDepth: 8, samples: samples), "a.png", in: workspace)
        try write(PNGFixture(width: 20, height: 16, colorType: .rgb, bitDepth: 8, samples: samples.map { $0 + 3 }), "b.png", in: workspace)
    }

    static func json(_ result: CLIRunner.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test func rgbFilesCountThreeChannels() throws {
        let workspace = try Workspace(empty: ())
        try Self.rgbPair(in: workspace)
        let result = try workspace.run("compare", "a.png", "b.png", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let object = try Self.json(result)
        // MSE = (3/255)² over R, G, B: PSNR = 20 log10(255 / 3) = 38.59 dB, as scikit-image and
        // ImageMagick report; counting the opaque filler alpha would give 39.84.
        let psnr = try #require(object["psnr"] as? Double)
        #expect(abs(psnr - 20 * log10(255.0 / 3)) < 1e-9, "\(psnr)")
        #expect(object["channels"] as? String == "RGB")
        #expect(abs((object["mean_error"] as? Double ?? 0) - 3) < 1e-9)
    }

    @Test func alphaCountsWhenAFileStoresIt() throws {
        let workspace = try Workspace(empty: ())
        try Self.rgbPair(in: workspace)
        // The same pixels as an RGBA file with opaque alpha: alpha is stored, so it counts.
        let samples = (0..<(20 * 16 * 3)).map { ($0 * 37) % 250 }
        var rgba: [Int] = []
        for p in 0..<(20 * 16) { rgba += [samples[3 * p], samples[3 * p + 1], samples[3 * p + 2], 255] }
        try Self.write(PNGFixture(width: 20, height: 16, colorType: .rgba, bitDepth: 8, samples: rgba), "a4.png", in: workspace)
        let object = try Self.json(try workspace.run("compare", "a4.png", "b.png", "--json"))
        #expect(object["channels"] as? String == "RGBA")
        let psnr = try #require(object["psnr"] as? Double)
        #expect(abs(psnr - (20 * log10(255.0 / 3) - 10 * log10(0.75))) < 1e-9, "\(psnr)")
    }

    @Test func aOnePixelImageHasNoSSIM() throws {
        let workspace = try Workspace(empty: ())
        try Self.write(PNGFixture(width: 1, height: 1, colorType: .rgb, bitDepth: 8, samples: [200, 100, 50]), "a.png", in: workspace)
        try Self.write(PNGFixture(width: 1, height: 1, colorType: .rgb, bitDepth: 8, samples: [55, 100, 50]), "b.png", in: workspace)
        let report = try workspace.run("compare", "a.png", "b.png", "--json")
        #expect(report.status == 0, "\(report.stderr)")
        #expect(try Self.json(report)["ssim"] is NSNull)
        let gated = try workspace.run("compare", "a.png", "b.png", "--min-ssim", "0.99")
        #expect(gated.status == 2, "an inverted red channel must not pass: \(gated.stdout)")
        #expect(gated.stderr.split(separator: "\n").count == 1 && gated.stderr.contains("11×11"), "\(gated.stderr)")
    }
}
