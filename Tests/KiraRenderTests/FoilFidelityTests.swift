import KiraGeometry
import KiraImage
import KiraShader
import Testing
@testable import KiraRender

/// Every foil's fast path against its scalar reference, byte for byte: 8 and 16 bits, straight and
/// premultiplied, one to three threads, masks and foil maps of other sizes, with and without glare.
@Suite struct FoilFidelityTests {
    static let foils = FoilRegistry.names
    static let normals: [SIMD3<Float>] = [
        Rotation.normalFromTilt(tiltXDegrees: 7, tiltYDegrees: -11),
        -Rotation.normalFromTilt(tiltXDegrees: -3, tiltYDegrees: 25),
    ]

    static func parameters(_ foil: String, intensity: Float = 1, glare: Float = 0) -> KiraParameters {
        KiraParameters(foil: Foil(named: foil)!, intensity: intensity, glare: glare)
    }

    /// The foil map: a relief of rings, at twice the art's size (the same aspect ratio).
    static func foilMap(width: Int, height: Int) -> AnyRGBAImage {
        var image = try! RGBAImage<UInt16>(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let v = UInt16(((x - width / 2) * (x - width / 2) + (y - height / 3) * (y - height / 3)) * 97 % 65536)
                image[x, y] = SIMD4(v, v / 2, 65535 - v, 65535)
            }
        }
        return .rgba16(image)
    }

    /// How many channels differ (the images themselves are too long to print).
    static func differing<C: Equatable>(_ a: [C], _ b: [C]) -> Int {
        a.count == b.count ? zip(a, b).count { $0 != $1 } : max(a.count, b.count)
    }

    @Test(arguments: foils)
    func fastPathIsTheReference(foil: String) throws {
        let art = TestImages.art(width: 37, height: 29)
        let mask = TestImages.mask(width: 20, height: 31)
        for (intensity, glare) in [(Float(1), Float(0)), (0.6, 0.8), (2, 1)] {
            let parameters = Self.parameters(foil, intensity: intensity, glare: glare)
            for foilMap in [nil, Self.foilMap(width: 74, height: 58)] {
                for normal in Self.normals {
                    let reference = try ReferenceRenderer.shade(art: art, mask: mask, foilMap: foilMap, normal: normal,
                                                                parameters: parameters, as: UInt8.self)
                    for threads in 1...3 {
                        let fast = try ShadeRenderer(threads: threads, tileRows: 5).shade(
                            art: art, mask: mask, foilMap: foilMap, normal: normal, parameters: parameters, as: UInt8.self)
                        #expect(Self.differing(fast.channels, reference.channels) == 0, "\(foil) intensity \(intensity) glare \(glare) map \(foilMap != nil) threads \(threads)")
                    }
                }
            }
        }
    }

    /// Faces of a pixel or a few: no foil's tables or cells may assume a card-sized face.
    @Test(arguments: foils)
    func tinyFaces(foil: String) throws {
        for (width, height) in [(1, 1), (17, 3), (2, 40)] {
            let art = TestImages.art(width: width, height: height), mask = TestImages.mask(width: 5, height: 3)
            let parameters = Self.parameters(foil, glare: 0.5)
            let reference = try ReferenceRenderer.shade(art: art, mask: mask, normal: Self.normals[0], parameters: parameters,
                                                        as: UInt8.self)
            let fast = try ShadeRenderer(threads: 2).shade(art: art, mask: mask, normal: Self.normals[0], parameters: parameters,
                                                           as: UInt8.self)
            #expect(Self.differing(fast.channels, reference.channels) == 0, "\(foil) \(width)×\(height)")
        }
    }

    @Test(arguments: foils)
    func sixteenBitsAndPremultipliedSweeps(foil: String) throws {
        let art = TestImages.art(width: 35, height: 21, as: UInt16.self)
        let mask = TestImages.mask(width: 35, height: 21, as: UInt16.self)
        let parameters = Self.parameters(foil, intensity: 1.3, glare: 0.5)
        var stack = try FrameStack<UInt16>(width: 0, height: 0, count: 0)
        try ShadeRenderer(threads: 2).shade(art: art, mask: mask, normals: Self.normals, parameters: parameters,
                                            premultiplied: true, into: &stack)
        for (k, normal) in Self.normals.enumerated() {
            let reference = try ReferenceRenderer.shade(art: art, mask: mask, normal: normal, parameters: parameters,
                                                        premultiplied: true, as: UInt16.self)
            let frame = Array(stack.channels[(k * stack.frameChannels)..<((k + 1) * stack.frameChannels)])
            #expect(Self.differing(frame, reference.channels) == 0, "\(foil), frame \(k)")
        }
    }

    /// Intensity 0 is the art alone: what the default foil gives with a black mask.
    @Test(arguments: foils)
    func zeroIntensityIsTheArtWithoutShine(foil: String) throws {
        let art = TestImages.art(width: 40, height: 24)
        let mask = TestImages.mask(width: 40, height: 24)
        let black = try RGBAImage<UInt8>(width: 3, height: 3, channels: [UInt8](repeating: 0, count: 36))
        let normal = Self.normals[0]
        let renderer = ShadeRenderer(threads: 2)
        let none = try renderer.shade(art: art, mask: mask, normal: normal, parameters: Self.parameters(foil, intensity: 0),
                                      as: UInt8.self)
        let blackMask = try renderer.shade(art: art, mask: black, normal: normal, parameters: .seed, as: UInt8.self)
        #expect(Self.differing(none.channels, blackMask.channels) == 0)
        #expect(Self.differing(none.channels, art.channels) == 0, "the art's own pixels, unchanged")
    }

    @Test func defaultLookIsTheSeedsShader() {
        #expect(Self.parameters("kira", intensity: 1, glare: 0) == .seed)
        #expect(KiraParameters.seed.foil == .kira)
    }

    @Test func badParametersAreRefusedBeforeShading() {
        let art = TestImages.art(width: 8, height: 8), mask = TestImages.mask(width: 8, height: 8)
        let normal = Self.normals[0]
        for (intensity, glare) in [(Float.nan, Float(0)), (2.5, 0), (-0.1, 0), (1, 1.5), (1, .nan)] {
            let parameters = Self.parameters("kira", intensity: intensity, glare: glare)
            #expect(throws: RenderError.self) {
                _ = try ShadeRenderer().shade(art: art, mask: mask, normal: normal, parameters: parameters, as: UInt8.self)
            }
            #expect(throws: RenderError.self) {
                _ = try ReferenceRenderer.shade(art: art, mask: mask, normal: normal, parameters: parameters, as: UInt8.self)
            }
        }
        let square = Self.foilMap(width: 8, height: 4)
        #expect(throws: RenderError.foilMapShape(map: SIMD2(8, 4), art: SIMD2(8, 8))) {
            _ = try ShadeRenderer().shade(art: art, mask: mask, foilMap: square, normal: normal,
                                          parameters: Self.parameters("etched"), as: UInt8.self)
        }
        #expect(FaceMapShape.fits(map: SIMD2(315, 441), art: SIMD2(630, 880)))
        #expect(FaceMapShape.fits(map: SIMD2(63, 88), art: SIMD2(630, 880)))
        #expect(!FaceMapShape.fits(map: SIMD2(630, 630), art: SIMD2(630, 880)))
    }

    @Test func registryNamesEveryFoilOnce() {
        #expect(Self.foils.count == Set(Self.foils).count)
        #expect(Self.foils.first == "kira")
        #expect(Self.foils.count >= 7)
        #expect(Foil(named: "glitter") == nil)
        #expect(Foil.all.map(\.name) == Self.foils)
    }
}
