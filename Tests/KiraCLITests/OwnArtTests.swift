import Foundation
import Kira
import KiraPNG
import Testing

/// A user's own art never gets the sample card's textures: what Kira assumes instead is said in
/// one line on stderr, and only for a face that shows.
@Suite struct OwnArtTests {
    /// Art with a transparent left half, so its alpha differs from "opaque everywhere".
    static func writeArt(in workspace: Workspace) throws -> RGBAImage<UInt8> {
        var art = try RGBAImage<UInt8>(width: 30, height: 40)
        for y in 0..<40 {
            for x in 0..<30 {
                let i = 4 * (y * 30 + x)
                art.channels[i] = UInt8(40 + 5 * x)
                art.channels[i + 1] = UInt8(21 + 2 * y)
                art.channels[i + 2] = 90
                art.channels[i + 3] = x < 15 ? 0 : 255
            }
        }
        try PNGCodec.write(art, to: workspace.file("mine.png"))
        return art
    }

    @Test func artWithoutAMaskShinesWhereItIsOpaque() throws {
        let workspace = try Workspace(empty: ())
        let art = try Self.writeArt(in: workspace)
        let result = try workspace.run("shade", "--art", "mine.png", "--tilt-x", "5", "-o", "out.png")
        #expect(result.status == 0)
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("no --mask"), "\(result.stderr)")
        var mask = try RGBAImage<UInt8>(width: 30, height: 40)
        for i in stride(from: 0, to: mask.channels.count, by: 4) {
            let alpha = art.channels[i + 3]
            mask.channels.replaceSubrange(i..<(i + 4), with: [alpha, alpha, alpha, 255])
        }
        let normal = Rotation.normalFromTilt(tiltXDegrees: 5, tiltYDegrees: 0)
        let expected = try ReferenceRenderer.shade(art: art, mask: mask, normal: normal, as: UInt8.self)
        #expect(try PNGCodec.read(workspace.file("out.png")) == .rgba8(expected))
    }

    @Test func aPoseThatNeverShowsTheBackNeedsNoBack() throws {
        let workspace = try Workspace(empty: ())
        _ = try Self.writeArt(in: workspace)
        try PNGCodec.write(try RGBAImage<UInt8>(width: 2, height: 2, channels: Array(repeating: 255, count: 16)), to: workspace.file("m.png"))
        let result = try workspace.run("render", "--art", "mine.png", "--mask", "m.png", "--tilt-y", "20", "--size", "50x60", "-o", "out.png")
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test func aFlipShowsAPlainBackInTheArtsColourWithANotice() throws {
        let workspace = try Workspace(empty: ())
        let art = try Self.writeArt(in: workspace)
        try PNGCodec.write(try RGBAImage<UInt8>(width: 2, height: 2, channels: Array(repeating: 255, count: 16)), to: workspace.file("m.png"))
        let result = try workspace.run("render", "--art", "mine.png", "--mask", "m.png", "--flip", "180", "--perspective", "0",
                                       "--size", "30x40", "-o", "out.png")
        #expect(result.status == 0)
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("no --back"), "\(result.stderr)")
        // The opaque half's mean colour, worked out here; the back has no shine.
        var sum = SIMD3<Double>(repeating: 0), count = 0.0
        for i in stride(from: 0, to: art.channels.count, by: 4) where art.channels[i + 3] == 255 {
            sum += SIMD3(Double(art.channels[i]), Double(art.channels[i + 1]), Double(art.channels[i + 2]))
            count += 1
        }
        let mean = (sum / count).rounded(.toNearestOrEven)
        #expect(result.stderr.contains(String(format: "#%02X%02X%02X", Int(mean.x), Int(mean.y), Int(mean.z))), "\(result.stderr)")
        let image = try PNGCodec.read(workspace.file("out.png")).rgba8
        // Seen from behind, the card's opaque right half is on the left; well inside it, the plain colour.
        let pixel = image[7, 20]
        #expect(pixel == SIMD4(UInt8(mean.x), UInt8(mean.y), UInt8(mean.z), 255), "\(pixel)")
    }
}
