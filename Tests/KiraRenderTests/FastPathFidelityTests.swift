import KiraGeometry
import KiraImage
import KiraShader
import Testing
@testable import KiraRender

/// The fast renderer against the scalar reference, pixel by pixel.
@Suite struct FastPathFidelityTests {
    static let normals: [(String, SIMD3<Float>)] = [
        ("rest", Rotation.normalFromTilt(tiltXDegrees: 0, tiltYDegrees: 0)),
        ("tiltX +10", Rotation.normalFromTilt(tiltXDegrees: 10, tiltYDegrees: 0)),
        ("tiltY -10", Rotation.normalFromTilt(tiltXDegrees: 0, tiltYDegrees: -10)),
        ("mixed", Rotation.normalFromTilt(tiltXDegrees: -7, tiltYDegrees: 4.5)),
        ("back", -Rotation.normalFromTilt(tiltXDegrees: 3, tiltYDegrees: 8)),
    ]

    static let sizes: [(Int, Int)] = [(48, 48), (40, 56), (56, 40), (33, 51), (1, 1), (17, 3)]

    /// The largest channel difference and how many channels differ.
    static func compare<C: ImageChannel>(_ a: RGBAImage<C>, _ b: RGBAImage<C>) -> (maxError: Int, differing: Int) {
        var maxError = 0, differing = 0
        for (x, y) in zip(a.channels, b.channels) where x != y {
            maxError = max(maxError, abs(Int(x) - Int(y)))
            differing += 1
        }
        return (maxError, differing)
    }

    @Test(arguments: sizes, normals.indices)
    func matchesReference(size: (Int, Int), normalIndex: Int) throws {
        let (name, normal) = Self.normals[normalIndex]
        let art = TestImages.art(width: size.0, height: size.1)
        let mask = TestImages.mask(width: size.0, height: size.1)
        let fast = try ShadeRenderer(threads: 2).shade(art: art, mask: mask, normal: normal, as: UInt8.self)
        let reference = try ReferenceRenderer.shade(art: art, mask: mask, normal: normal, as: UInt8.self)
        let (maxError, differing) = Self.compare(fast, reference)
        #expect(maxError <= 1, "\(size) \(name): max error \(maxError)/255 over \(differing) channels")
        // The fast path performs the reference's operations in the same order: expect exact bytes.
        #expect(differing == 0, "\(size) \(name): \(differing) channels differ (max \(maxError))")
    }

    @Test func oddSizeAndMaskOfAnotherSize() throws {
        let art = TestImages.art(width: 333, height: 517)
        let normal = Rotation.normalFromTilt(tiltXDegrees: 6, tiltYDegrees: -9)
        for maskSize in [(100, 37), (333, 517), (700, 1000), (1, 1)] {
            let mask = TestImages.mask(width: maskSize.0, height: maskSize.1)
            let fast = try ShadeRenderer().shade(art: art, mask: mask, normal: normal, as: UInt8.self)
            let reference = try ReferenceRenderer.shade(art: art, mask: mask, normal: normal, as: UInt8.self)
            let (maxError, differing) = Self.compare(fast, reference)
            #expect(maxError <= 1 && differing == 0, "mask \(maskSize): max error \(maxError), \(differing) channels")
        }
    }

    @Test func sixteenBitPathsMatchReference() throws {
        let normal = Rotation.normalFromTilt(tiltXDegrees: -4, tiltYDegrees: 10)
        let art8 = TestImages.art(width: 35, height: 21, as: UInt8.self)
        let art16 = TestImages.art(width: 35, height: 21, as: UInt16.self)
        let mask16 = TestImages.mask(width: 20, height: 30, as: UInt16.self)
        let renderer = ShadeRenderer()
        let a = try renderer.shade(art: art16, mask: mask16, normal: normal, as: UInt16.self)
        let b = try ReferenceRenderer.shade(art: art16, mask: mask16, normal: normal, as: UInt16.self)
        #expect(Self.compare(a, b).differing == 0)
        let c = try renderer.shade(art: art8, mask: mask16, normal: normal, as: UInt16.self)
        let d = try ReferenceRenderer.shade(art: art8, mask: mask16, normal: normal, as: UInt16.self)
        #expect(Self.compare(c, d).differing == 0)
        let e = try renderer.shade(art: art16, mask: TestImages.mask(width: 35, height: 21), normal: normal, as: UInt8.self)
        let f = try ReferenceRenderer.shade(art: art16, mask: TestImages.mask(width: 35, height: 21), normal: normal, as: UInt8.self)
        #expect(Self.compare(e, f).differing == 0)
    }

    @Test func alphaIsKeptAndShineIsAdded() throws {
        let art = TestImages.art(width: 32, height: 32)
        let black = try RGBAImage<UInt8>(width: 1, height: 1)
        var white = try RGBAImage<UInt8>(width: 1, height: 1)
        white[0, 0] = SIMD4(255, 255, 255, 255)
        let renderer = ShadeRenderer()
        let normal = SIMD3<Float>(0, 0, 1)
        // A black mask means no shine: the art comes back unchanged.
        #expect(try renderer.shade(art: art, mask: black, normal: normal, as: UInt8.self) == art)
        // A white mask only ever adds light, and never touches alpha.
        let shiny = try renderer.shade(art: art, mask: white, normal: normal, as: UInt8.self)
        for i in stride(from: 0, to: art.channels.count, by: 4) {
            #expect(shiny.channels[i + 3] == art.channels[i + 3])
            for c in 0..<3 { #expect(shiny.channels[i + c] >= art.channels[i + c]) }
        }
        #expect(shiny != art)
    }

    @Test func invalidInputsThrow() {
        let art = TestImages.art(width: 4, height: 4)
        let renderer = ShadeRenderer()
        for bad in [SIMD3<Float>(0, 0, 0), SIMD3(.nan, 0, 1), SIMD3(.infinity, 0, 0)] {
            #expect(throws: RenderError.self) { try renderer.shade(art: art, mask: art, normal: bad, as: UInt8.self) }
        }
        #expect(throws: RenderError.emptyImage("mask")) {
            try renderer.shade(art: art, mask: RGBAImage<UInt8>(), normal: SIMD3(0, 0, 1), as: UInt8.self)
        }
    }

    /// Faces for frames: the art read premultiplied, the result stored premultiplied.
    @Test func premultipliedSweepMatchesReference() throws {
        let normals = Self.normals.map(\.1)
        let art8 = TestImages.art(width: 33, height: 51), mask8 = TestImages.mask(width: 13, height: 17)
        var stack8 = try FrameStack<UInt8>(width: 0, height: 0, count: 0)
        try ShadeRenderer(threads: 2).shade(art: art8, mask: mask8, normals: normals, premultiplied: true, into: &stack8)
        let art16 = TestImages.art(width: 33, height: 51, as: UInt16.self)
        var stack16 = try FrameStack<UInt16>(width: 0, height: 0, count: 0)
        try ShadeRenderer(threads: 2).shade(art: art16, mask: mask8, normals: normals, premultiplied: true, into: &stack16)
        for (k, normal) in normals.enumerated() {
            let reference8 = try ReferenceRenderer.shade(art: art8, mask: mask8, normal: normal, premultiplied: true, as: UInt8.self)
            #expect(Self.compare(stack8.frame(k), reference8).differing == 0, "8-bit frame \(k)")
            let reference16 = try ReferenceRenderer.shade(art: art16, mask: mask8, normal: normal, premultiplied: true, as: UInt16.self)
            #expect(Self.compare(stack16.frame(k), reference16).differing == 0, "16-bit frame \(k)")
            // Premultiplying changes the picture only where the art is not opaque.
            let straight = try ReferenceRenderer.shade(art: art8, mask: mask8, normal: normal, as: UInt8.self)
            #expect(Self.compare(stack8.frame(k), straight).differing > 0)
        }
    }
}
