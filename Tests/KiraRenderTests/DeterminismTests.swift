import KiraGeometry
import KiraImage
import Testing
@testable import KiraRender

/// The schedule (threads, tile size, reuse between frames) never changes a byte of output.
@Suite struct DeterminismTests {
    @Test func identicalAtAnyThreadCountAndTileSize() throws {
        let art = TestImages.art(width: 131, height: 97)
        let mask = TestImages.mask(width: 50, height: 70)
        let normal = Rotation.normalFromTilt(tiltXDegrees: 8, tiltYDegrees: -3)
        let baseline = try ShadeRenderer(threads: 1, tileRows: 97).shade(art: art, mask: mask, normal: normal, as: UInt8.self)
        for threads in [1, 2, 7] {
            for tileRows in [1, 5, 16] {
                let image = try ShadeRenderer(threads: threads, tileRows: tileRows)
                    .shade(art: art, mask: mask, normal: normal, as: UInt8.self)
                #expect(image == baseline, "\(threads) threads, \(tileRows)-row tiles")
            }
        }
    }

    @Test func reusedRendererMatchesFreshOne() throws {
        let art = TestImages.art(width: 64, height: 40)
        let mask = TestImages.mask(width: 64, height: 40)
        let renderer = ShadeRenderer(threads: 2)
        var output = RGBAImage<UInt8>(width: 0, height: 0)
        for tilt in stride(from: Float(-10), through: 10, by: 5) {
            let normal = Rotation.normalFromTilt(tiltXDegrees: tilt, tiltYDegrees: -tilt / 2)
            try renderer.shade(art: art, mask: mask, normal: normal, into: &output)
            let fresh = try ShadeRenderer(threads: 1).shade(art: art, mask: mask, normal: normal, as: UInt8.self)
            #expect(output == fresh, "tilt \(tilt)")
        }
        renderer.recomputesNoiseTables = true
        let normal = SIMD3<Float>(0.1, 0.2, 0.9)
        try renderer.shade(art: art, mask: mask, normal: normal, into: &output)
        #expect(output == (try ShadeRenderer().shade(art: art, mask: mask, normal: normal, as: UInt8.self)))
    }
}
