import Testing
@testable import KiraImage
import KiraTestSupport

@Suite struct PNGRoundTripTests {
    @Test(arguments: [PNGCodec.EncodingOptions.standard, .fast, .init(compressionLevel: 0, filters: .none),
                      .init(compressionLevel: 9, filters: .paeth), .init(compressionLevel: 3, filters: .up)])
    func eightBitRoundTrips(options: PNGCodec.EncodingOptions) throws {
        var image = RGBAImage<UInt8>(width: 37, height: 23)
        for i in image.channels.indices { image.channels[i] = UInt8((i * 31 + i / 7) & 0xFF) }
        let decoded = try PNGCodec.decode(PNGCodec.encode(image, options: options))
        #expect(decoded == .rgba8(image))
    }

    @Test func sixteenBitRoundTrips() throws {
        var image = RGBAImage<UInt16>(width: 19, height: 31)
        for i in image.channels.indices { image.channels[i] = UInt16((i * 40503) & 0xFFFF) }
        let decoded = try PNGCodec.decode(PNGCodec.encode(image))
        #expect(decoded == .rgba16(image))
    }

    @Test func depthConversionsAreExactWhereTheyCanBe() {
        let image = RGBAImage<UInt8>(width: 256, height: 1, channels: (0..<1024).map { UInt8($0 / 4) })
        let wide = AnyRGBAImage.rgba8(image).rgba16
        #expect(wide.channels.map { Int($0) } == image.channels.map { Int($0) * 257 })
        #expect(AnyRGBAImage.rgba16(wide).rgba8 == image)
    }

    @Test func writeIsAtomicAndReadable() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/out.png"
        let image = RGBAImage<UInt8>(width: 4, height: 3, channels: (0..<48).map { UInt8($0 * 5) })
        try PNGCodec.write(image, to: path)
        #expect(try PNGCodec.read(path) == .rgba8(image))
        #expect(directory.contents() == ["out.png"], "no temporary file is left behind")
    }

    @Test func writeIntoMissingDirectoryFailsCleanly() {
        let image = RGBAImage<UInt8>(width: 1, height: 1)
        #expect(throws: ImageFileError.self) { try PNGCodec.write(image, to: "/nonexistent-kira-dir/x.png") }
    }
}
