import Foundation
import KiraFiles
import KiraFormats
import KiraImage
import KiraPNG
import KiraTestSupport
import Testing

/// WebP and JPEG files, the profile they carry, and the downscale before any format.
@Suite struct StillEncoderTests {
    /// A smooth card-like picture with a transparent border of `border` pixels (transparent black).
    static func picture(width: Int = 64, height: Int = 80, border: Int = 0) -> RGBAImage<UInt8> {
        var image = try! RGBAImage<UInt8>(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let inside = x >= border && y >= border && x < width - border && y < height - border
                guard inside else { continue }
                image[x, y] = SIMD4(UInt8(40 + x * 3 % 200), UInt8(30 + y * 2 % 200), UInt8(180 - (x + y) % 150), 255)
            }
        }
        return image
    }

    static func meanError(_ a: RGBAImage<UInt8>, _ b: RGBAImage<UInt8>) -> Double {
        Double(zip(a.channels, b.channels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.channels.count)
    }

    /// The payload of the RIFF chunk `type` of a WebP file, if any.
    static func webPChunk(_ type: String, in file: [UInt8]) -> [UInt8]? {
        var offset = 12
        while offset + 8 <= file.count {
            let size = Int(file[offset + 4]) | Int(file[offset + 5]) << 8 | Int(file[offset + 6]) << 16 | Int(file[offset + 7]) << 24
            if String(decoding: file[offset..<(offset + 4)], as: UTF8.self) == type { return Array(file[(offset + 8)..<(offset + 8 + size)]) }
            offset += 8 + size + size % 2
        }
        return nil
    }

    @Test func losslessWebPKeepsEverySample() throws {
        let image = Self.picture(border: 5)
        let file = try WebPCodec.encode(image, quality: 85, lossless: true)
        #expect(try WebPCodec.decode(file) == image)
    }

    @Test func lossyWebPIsCloseKeepsAlphaAndShrinksWithQuality() throws {
        let image = Self.picture(border: 5)
        let file = try WebPCodec.encode(image, quality: 85, lossless: false)
        let decoded = try WebPCodec.decode(file)
        #expect(decoded.width == image.width && decoded.height == image.height)
        // Alpha is stored losslessly; the colour under transparent pixels is not kept.
        #expect(decoded.channels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == image.channels[$0.offset] })
        var error = 0, count = 0
        for i in stride(from: 0, to: image.channels.count, by: 4) where image.channels[i + 3] == 255 {
            for c in 0..<3 { error += abs(Int(decoded.channels[i + c]) - Int(image.channels[i + c])) }
            count += 3
        }
        #expect(Double(error) / Double(count) < 3, "mean error \(Double(error) / Double(count)) on opaque pixels")
        let small = try WebPCodec.encode(image, quality: 10, lossless: false)
        #expect(small.count < file.count)
    }

    @Test func webPAndJPEGCarryTheSRGBProfile() throws {
        let image = Self.picture()
        #expect(Self.webPChunk("ICCP", in: try WebPCodec.encode(image, quality: 85, lossless: false)) == ColorProfile.sRGB)
        #expect(Self.webPChunk("ICCP", in: try WebPCodec.encode(image, quality: 85, lossless: true)) == ColorProfile.sRGB)
        #expect(try JPEGCodec.decode(try JPEGCodec.encode(image, quality: 85)).profile == ColorProfile.sRGB)
        #expect(Self.webPChunk("ICCP", in: try WebPCodec.encode(image, quality: 85, lossless: false, profile: [])) == nil)
    }

    /// The profile is LittleCMS's sRGB with no creation date: the same bytes on every run.
    @Test func theSRGBProfileIsFixed() {
        let profile = ColorProfile.sRGB
        #expect(profile.count > 128)
        #expect(Array(profile[36..<40]) == Array("acsp".utf8))
        #expect(Array(profile[16..<20]) == Array("RGB ".utf8))
        #expect(profile[24..<36].allSatisfy { $0 == 0 }, "the creation date is cleared")
    }

    @Test func jpegIsCloseAndFlattensOntoTheMatte() throws {
        let image = Self.picture(border: 8)
        let flat = image.flattened(onto: SIMD3(255, 255, 255))
        #expect(flat[0, 0] == SIMD4(255, 255, 255, 255))
        #expect(flat[20, 20] == image[20, 20])
        let decoded = try JPEGCodec.decode(try StillEncoder(.jpeg(quality: 90, matte: SIMD3(255, 255, 255))).encode(image)).image
        #expect(Self.meanError(decoded, flat) < 3, "mean error \(Self.meanError(decoded, flat))")
        #expect(decoded[0, 0].x > 245 && decoded[0, 0].y > 245 && decoded[0, 0].z > 245)
        var half = image
        half[20, 20].w = 128
        #expect(half.flattened(onto: SIMD3(0, 0, 0))[20, 20].x == UInt8((UInt32(image[20, 20].x) * 128 + 127) / 255))
    }

    @Test func pngsSayTheyAreSRGBUnlessTheyHoldData() throws {
        let image = Self.picture()
        for options in [PNGCodec.EncodingOptions.standard, .fast] {
            #expect(try PNGChunks.parse(try PNGCodec.encode(image, options: options), name: "8").map(\.type) == ["IHDR", "sRGB", "IDAT", "IEND"])
            #expect(try PNGChunks.parse(try PNGCodec.encode(AnyRGBAImage.rgba8(image).rgba16, options: options), name: "16").map(\.type)
                    == ["IHDR", "sRGB", "IDAT", "IEND"])
            var data = options
            data.marksSRGB = false
            #expect(try PNGChunks.parse(try PNGCodec.encode(image, options: data), name: "mask").map(\.type) == ["IHDR", "IDAT", "IEND"])
        }
        #expect(try PNGChunks.parse(try PNGCodec.encode(image), name: "png").first { $0.type == "sRGB" }?.data == [0])
    }

    @Test func scaledSizesKeepTheAspectAndOnlyShrink() {
        func size(_ w: Int?, _ h: Int?, _ image: (Int, Int)) -> [Int]? {
            StillEncoder(.png(.standard), width: w, height: h).scaledSize(width: image.0, height: image.1).map { [$0.width, $0.height] }
        }
        #expect(size(400, nil, (800, 1000)) == [400, 500])
        #expect(size(nil, 300, (800, 1000)) == [240, 300])
        #expect(size(400, 300, (800, 1000)) == [240, 300])
        #expect(size(400, 900, (800, 1000)) == [400, 500])
        #expect(size(333, nil, (800, 1000)) == [333, 416])
        #expect(size(1, nil, (800, 1000)) == [1, 1])
        #expect(size(800, nil, (800, 1000)) == nil)
        #expect(size(nil, nil, (800, 1000)) == nil)
        #expect(StillEncoder(.png(.standard), width: 900).enlarges(width: 800, height: 1000))
        #expect(throws: ImageFileError.self) { try StillEncoder(.png(.standard), width: 900).encode(Self.picture()) }
    }

    /// The scaler is ffmpeg's: the same pixels as `ffmpeg -vf scale=…:flags=lanczos` with
    /// full chroma and accurate rounding.
    @Test func lanczosIsFFmpegsScaler() throws {
        let directory = try TemporaryDirectory()
        let image = Self.picture(width: 90, height: 120)
        try PNGCodec.write(image, to: directory.path + "/in.png")
        let output = try MediaTools.run("ffmpeg", ["-v", "error", "-i", directory.path + "/in.png", "-vf",
                                                   "scale=36:48:flags=lanczos+accurate_rnd+full_chroma_int+full_chroma_inp+bitexact",
                                                   "-f", "rawvideo", "-pix_fmt", "rgba", "pipe:1"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try image.lanczosScaled(width: 36, height: 48).channels == Array(output.stdout))
    }

    /// Transparent pixels, whatever colour they store, do not darken the edge they border: the
    /// colour is scaled premultiplied, so a red edge stays red as it fades out.
    @Test func transparencyDoesNotBleed() throws {
        var image = try RGBAImage<UInt8>(width: 40, height: 40)
        for y in 0..<40 { for x in 0..<20 { image[x, y] = SIMD4(255, 0, 0, 255) } }
        let scaled = try image.lanczosScaled(width: 10, height: 10)
        for y in 0..<10 {
            // Far from the edge (Lanczos reaches 3 output pixels): the flat colours, exactly.
            #expect(scaled[1, y] == SIMD4(255, 0, 0, 255) && scaled[9, y].w == 0)
            for x in 0..<10 where scaled[x, y].w >= 16 {
                #expect(scaled[x, y].x >= 254 && scaled[x, y].y <= 1 && scaled[x, y].z <= 1, "(\(x), \(y)): \(scaled[x, y])")
            }
        }
        #expect((0..<10).contains { scaled[$0, 5].w > 16 && scaled[$0, 5].w < 240 }, "the edge fades")
        let deep = try AnyRGBAImage.rgba8(image).rgba16.lanczosScaled(width: 10, height: 10)
        #expect(deep[1, 1].x == 65535 && deep[1, 1].w == 65535 && deep[1, 1].y < 16)
    }
}
