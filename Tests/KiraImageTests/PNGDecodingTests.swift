@testable import KiraPNG
import KiraTestSupport
import Testing
import KiraImage

/// Every PNG layout decodes to the RGBA samples it stores.
@Suite struct PNGDecodingTests {
    /// A deterministic pattern of samples below `1 << depth`.
    static func pattern(_ count: Int, depth: Int) -> [Int] {
        (0..<count).map { ($0 * 7919 + 13) % (1 << depth) }
    }

    @Test(arguments: [1, 2, 4, 8, 16], [false, true])
    func grayDecodes(depth: Int, interlaced: Bool) throws {
        let (w, h) = (13, 11)
        let samples = Self.pattern(w * h, depth: depth)
        let fixture = PNGFixture(width: w, height: h, colorType: .gray, bitDepth: depth, interlaced: interlaced, samples: samples)
        let image = try PNGCodec.decode(fixture.bytes)
        // Low bit depths are scaled to 8 bits by replicating bits (libpng's expansion).
        for y in 0..<h {
            for x in 0..<w {
                let v = samples[y * w + x]
                if depth == 16 {
                    guard case .rgba16(let img) = image else { Issue.record("expected 16-bit"); return }
                    #expect(img[x, y] == SIMD4(UInt16(v), UInt16(v), UInt16(v), 65535))
                } else {
                    guard case .rgba8(let img) = image else { Issue.record("expected 8-bit"); return }
                    let scaled = UInt8(v * 255 / ((1 << depth) - 1))
                    #expect(img[x, y] == SIMD4(scaled, scaled, scaled, 255), "(\(x), \(y)) depth \(depth)")
                }
            }
        }
    }

    @Test(arguments: [8, 16], [false, true])
    func rgbaDecodes(depth: Int, interlaced: Bool) throws {
        let (w, h) = (17, 9)
        let samples = Self.pattern(w * h * 4, depth: depth)
        let fixture = PNGFixture(width: w, height: h, colorType: .rgba, bitDepth: depth, interlaced: interlaced, samples: samples)
        let image = try PNGCodec.decode(fixture.bytes)
        #expect(image.bitDepth == depth)
        #expect(image.rgba16.channels.map(Int.init) == samples.map { depth == 8 ? $0 * 257 : $0 })
    }

    @Test(arguments: [8, 16])
    func rgbAndGrayAlphaDecode(depth: Int) throws {
        let (w, h) = (5, 4)
        let rgb = Self.pattern(w * h * 3, depth: depth)
        let decodedRGB = try PNGCodec.decode(PNGFixture(width: w, height: h, colorType: .rgb, bitDepth: depth, samples: rgb).bytes)
        let ga = Self.pattern(w * h * 2, depth: depth)
        let decodedGA = try PNGCodec.decode(PNGFixture(width: w, height: h, colorType: .grayAlpha, bitDepth: depth, samples: ga).bytes)
        let opaque = depth == 8 ? 255 : 65535
        let scale = depth == 8 ? 257 : 1
        for i in 0..<(w * h) {
            let expectedRGB = [rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2], opaque].map { $0 * scale }
            #expect(decodedRGB.rgba16.channels[(4 * i)..<(4 * i + 4)].map(Int.init) == expectedRGB)
            let expectedGA = [ga[2 * i], ga[2 * i], ga[2 * i], ga[2 * i + 1]].map { $0 * scale }
            #expect(decodedGA.rgba16.channels[(4 * i)..<(4 * i + 4)].map(Int.init) == expectedGA)
        }
    }

    @Test(arguments: [1, 2, 4, 8])
    func paletteWithTransparencyDecodes(depth: Int) throws {
        let colors = 1 << depth
        let palette: [(UInt8, UInt8, UInt8)] = (0..<min(colors, 256)).map { (i: Int) in
            (UInt8(i * 3 % 256), UInt8(i * 5 % 256), UInt8(255 - i))
        }
        let alphas = (0..<min(colors, 4)).map { UInt8($0 * 60) }  // the first entries only; the rest opaque
        let (w, h) = (10, 7)
        let indices = Self.pattern(w * h, depth: depth)
        let fixture = PNGFixture(width: w, height: h, colorType: .palette, bitDepth: depth, interlaced: depth == 4,
                                 samples: indices, palette: palette, transparency: alphas)
        guard case .rgba8(let image) = try PNGCodec.decode(fixture.bytes) else {
            Issue.record("expected 8-bit")
            return
        }
        for y in 0..<h {
            for x in 0..<w {
                let i = indices[y * w + x]
                let alpha = i < alphas.count ? alphas[i] : 255
                #expect(image[x, y] == SIMD4(palette[i].0, palette[i].1, palette[i].2, alpha))
            }
        }
    }

    @Test func grayWithTransparentKeyGetsAlpha() throws {
        let fixture = PNGFixture(width: 3, height: 1, colorType: .gray, bitDepth: 8, samples: [10, 20, 30],
                                 transparency: [0, 20])
        let image = try PNGCodec.decode(fixture.bytes).rgba8
        #expect(image.channels == [10, 10, 10, 255, 20, 20, 20, 0, 30, 30, 30, 255])
    }
}
