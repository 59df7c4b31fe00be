import Foundation
import KiraFormats
import KiraImage
import KiraPNG
import KiraTestSupport
import Testing

/// Art's colour chunks read, and art in other spaces converted to sRGB by LittleCMS.
@Suite struct ColorConversionTests {
    static let adobeRGB = Prerequisite.adobeRGBProfile
    static let sRGBProfile = Prerequisite.sRGBProfile

    /// A picture with every level of each channel and mixes of them, opaque but for one column.
    static func picture() -> RGBAImage<UInt8> {
        var image = try! RGBAImage<UInt8>(width: 64, height: 48)
        for y in 0..<48 {
            for x in 0..<64 {
                image[x, y] = SIMD4(UInt8((x * 4 + y) % 256), UInt8((y * 5 + x / 2) % 256), UInt8((x * y) % 256), x == 3 ? 128 : 255)
            }
        }
        return image
    }

    static func file(_ image: RGBAImage<UInt8>, _ chunks: [(String, [UInt8])]) throws -> PNGFile {
        try PNGCodec.decodeFile(ColorChunks.retagged(try PNGCodec.encode(image), with: chunks))
    }

    static func profile(_ profile: Prerequisite) throws -> [UInt8] { try profile.contents() }

    @Test func theChunksAreRead() throws {
        let image = Self.picture()
        let icc = try Self.profile(Self.adobeRGB)
        let file = try Self.file(image, [("gAMA", ColorChunks.gAMA(1 / 2.2)), ("cHRM", PNGColorChunks.sRGBChromaticities.flatMap(PNGFixture.bigEndian)),
                                         ("iCCP", ColorChunks.iCCP(name: "Adobe", profile: icc))])
        #expect(file.colorChunks.gamma == 45455 && file.colorChunks.chromaticities == PNGColorChunks.sRGBChromaticities)
        #expect(file.colorChunks.iccProfile == icc && file.colorChunks.iccName == "Adobe" && file.colorChunks.sRGBIntent == nil)
        #expect(try PNGCodec.decodeFile(try PNGCodec.encode(image)).colorChunks == PNGColorChunks(sRGBIntent: 0))
        // A chunk with a bad CRC, or a profile that does not inflate, counts as absent.
        var broken = PNGFixture.chunk("gAMA", ColorChunks.gAMA(1))
        broken[broken.count - 1] ^= 1
        var png = ColorChunks.retagged(try PNGCodec.encode(image), with: [("iCCP", Array("x".utf8) + [0, 0, 1, 2, 3])])
        png.insert(contentsOf: broken, at: 33)
        #expect(try PNGCodec.decodeFile(png).colorChunks == PNGColorChunks())
        #expect(try PNGCodec.decodeFile(png).image == .rgba8(image))
    }

    /// sRGB by any name passes through as stored: the chunk, no chunk at all, gAMA 1/2.2 with or
    /// without sRGB's primaries, an sRGB ICC profile.
    /// Made when a test runs: a missing profile then fails that test, naming its package.
    static let sRGBTags: [String: @Sendable () throws -> [(String, [UInt8])]] = [
        "sRGB chunk": { [("sRGB", [1])] },
        "no colour chunk": { [] },
        "gAMA 1/2.2": { [("gAMA", ColorChunks.gAMA(1 / 2.2))] },
        "gAMA 0.45 and sRGB's cHRM": { [("gAMA", ColorChunks.gAMA(0.45)), ("cHRM", PNGColorChunks.sRGBChromaticities.flatMap(PNGFixture.bigEndian))] },
        "an sRGB ICC profile of another maker": { [("iCCP", ColorChunks.iCCP(name: "sRGB", profile: try profile(sRGBProfile)))] },
        "an sRGB chunk beside another profile": { [("sRGB", [0]), ("iCCP", ColorChunks.iCCP(name: "Adobe", profile: try profile(adobeRGB)))] },
    ]

    @Test(arguments: sRGBTags.keys.sorted())
    func sRGBArtPassesThroughExactly(name: String) throws {
        let image = Self.picture(), chunks = try Self.sRGBTags[name]!()
        let converted = ColorConversion.toSRGB(try Self.file(image, chunks))
        #expect(converted.outcome == .sRGB, "\(name)")
        #expect(converted.image == .rgba8(image), "\(name)")
    }

    /// Adobe RGB (1998) art comes out as LittleCMS's own command-line tool converts it (relative
    /// colorimetric, clipped to the sRGB gamut), within a mean of 1/255; alpha untouched.
    @Test func adobeRGBIsConvertedAsTransiccConvertsIt() throws {
        let image = Self.picture()
        let converted = ColorConversion.toSRGB(try Self.file(image, [("iCCP", ColorChunks.iCCP(name: "Adobe", profile: try Self.profile(Self.adobeRGB)))]))
        guard case .converted(let source) = converted.outcome, case .rgba8(let output) = converted.image else {
            Issue.record("not converted: \(converted.outcome)")
            return
        }
        #expect(source.contains("Adobe") || source.contains("ICC"), "\(source)")
        let expected = try Self.transicc(image, profile: try Self.adobeRGB.path())
        var error = 0.0
        for pixel in 0..<(image.width * image.height) {
            for c in 0..<3 { error += abs(Double(output.channels[4 * pixel + c]) - expected[3 * pixel + c]) }
            #expect(output.channels[4 * pixel + 3] == image.channels[4 * pixel + 3])
        }
        let mean = error / Double(image.width * image.height * 3)
        #expect(mean < 1, "mean error \(mean) / 255")
        #expect(output != image)
    }

    /// `image`'s RGB through `transicc -t1 -s` (relative colorimetric, clipped) from `profile` to
    /// sRGB: three values 0...255 a pixel.
    static func transicc(_ image: RGBAImage<UInt8>, profile: String) throws -> [Double] {
        let directory = try TemporaryDirectory()
        var input = ""
        for pixel in 0..<(image.width * image.height) {
            input += "\(image.channels[4 * pixel]) \(image.channels[4 * pixel + 1]) \(image.channels[4 * pixel + 2])\n"
        }
        try input.write(toFile: directory.path + "/in.txt", atomically: false, encoding: .utf8)
        let output = try MediaTools.run("sh", ["-c", "'\(try Prerequisite.transicc.path())' -t1 -s -n -i '\(profile)' -o '*sRGB' < '\(directory.path)/in.txt'"])
        let values = String(decoding: output.stdout, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Double($0) }
        guard output.status == 0, values.count == 3 * image.width * image.height else {
            throw MediaTools.Failure(message: "transicc: status \(output.status), \(values.count) values: \(output.stderr)")
        }
        return values
    }

    /// A linear file (gAMA 1.0) is brightened into sRGB's curve, at 8 and 16 bits and grey too.
    @Test func linearArtIsEncodedWithSRGBsCurve() throws {
        var image = try RGBAImage<UInt8>(width: 4, height: 1)
        for x in 0..<4 { image[x, 0] = SIMD4(UInt8(x * 85), UInt8(x * 85), UInt8(x * 85), 255) }
        let linear = [("gAMA", ColorChunks.gAMA(1))]
        func srgb(_ v: Double) -> Double { v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055 }
        let converted = ColorConversion.toSRGB(try Self.file(image, linear))
        #expect(converted.outcome == .converted(from: "gamma 1 (gAMA) with sRGB's primaries"))
        for x in 0..<4 {
            let expected = srgb(Double(x * 85) / 255) * 255
            #expect(abs(Double(converted.image.rgba8[x, 0].x) - expected) <= 1, "\(x): \(converted.image.rgba8[x, 0]) against \(expected)")
        }
        let deep = ColorConversion.toSRGB(try PNGCodec.decodeFile(ColorChunks.retagged(
            try PNGCodec.encode(AnyRGBAImage.rgba8(image).rgba16), with: linear)))
        guard case .rgba16(let deepImage) = deep.image else { Issue.record("16-bit art must stay 16-bit"); return }
        #expect(abs(Double(deepImage[1, 0].x) - srgb(1.0 / 3) * 65535) <= 64, "\(deepImage[1, 0])")
        let gray = PNGFixture(width: 4, height: 1, colorType: .gray, bitDepth: 8, samples: [0, 85, 170, 255])
        let grayFile = try PNGCodec.decodeFile(ColorChunks.retagged(gray.bytes, with: linear))
        #expect(grayFile.isGray)
        #expect(ColorConversion.toSRGB(grayFile).image.rgba8 == converted.image.rgba8)
    }

    /// A profile that cannot be used leaves the samples as stored, and says why.
    @Test func anUnusableProfileKeepsTheSamples() throws {
        let image = Self.picture()
        let garbage = ColorConversion.toSRGB(try Self.file(image, [("iCCP", ColorChunks.iCCP(name: "junk", profile: Array(repeating: 7, count: 300)))]))
        #expect(garbage.image == .rgba8(image))
        guard case .unusableProfile = garbage.outcome else { Issue.record("\(garbage.outcome)"); return }
        let gray = PNGFixture(width: 2, height: 1, colorType: .gray, bitDepth: 8, samples: [10, 200])
        let wrongKind = ColorConversion.toSRGB(try PNGCodec.decodeFile(ColorChunks.retagged(
            gray.bytes, with: [("iCCP", ColorChunks.iCCP(name: "Adobe", profile: try Self.profile(Self.adobeRGB)))])))
        #expect(wrongKind.outcome == .unusableProfile("the colour profile is for RGB images, the image is grey"))
    }
}
