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
        var output = RGBAImage<UInt8>()
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

/// A sweep renders many normals in one pass; each frame must be what a cold render gives.
@Suite struct SweepTests {
    @Test func sweepFramesEqualColdFrames() throws {
        let art = TestImages.art(width: 53, height: 37)
        let mask = TestImages.mask(width: 20, height: 11)
        let normals = stride(from: Float(-10), through: 10, by: 4).map {
            Rotation.normalFromTilt(tiltXDegrees: $0, tiltYDegrees: -$0 / 3)
        } + [SIMD3(0, 0, -1)]
        for threads in [1, 3] {
            let renderer = ShadeRenderer(threads: threads, tileRows: 4)
            var stack = try FrameStack<UInt8>(width: 0, height: 0, count: 0)
            try renderer.shade(art: art, mask: mask, normals: normals, into: &stack)
            #expect(stack.count == normals.count)
            for (k, normal) in normals.enumerated() {
                let cold = try ReferenceRenderer.shade(art: art, mask: mask, normal: normal, as: UInt8.self)
                #expect(stack.frame(k) == cold, "frame \(k), \(threads) threads")
            }
        }
    }

    @Test func sixteenBitSweep() throws {
        let art = TestImages.art(width: 19, height: 5, as: UInt16.self)
        let normals = [SIMD3<Float>(0, 0, 1), SIMD3(0.2, -0.1, 0.9)]
        var stack = try FrameStack<UInt16>(width: 0, height: 0, count: 0)
        try ShadeRenderer().shade(art: art, mask: art, normals: normals, into: &stack)
        for (k, normal) in normals.enumerated() {
            #expect(stack.frame(k) == (try ReferenceRenderer.shade(art: art, mask: art, normal: normal, as: UInt16.self)))
        }
    }

    @Test func invalidNormalInSweepThrows() throws {
        let art = TestImages.art(width: 4, height: 4)
        var stack = try FrameStack<UInt8>(width: 0, height: 0, count: 0)
        #expect(throws: RenderError.invalidNormal(SIMD3(0, 0, 0))) {
            try ShadeRenderer().shade(art: art, mask: art, normals: [SIMD3(0, 0, 1), .zero], into: &stack)
        }
    }
}
