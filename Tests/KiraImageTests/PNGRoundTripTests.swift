import CKiraPNG
import Dispatch
@testable import KiraPNG
import Testing
import KiraFiles
import KiraImage
import KiraTestSupport

@Suite struct PNGRoundTripTests {
    @Test(arguments: [PNGCodec.EncodingOptions.standard, .fast, .init(filters: .none, deflater: .zlib(level: 0), sixteenBitDeflater: .zlib(level: 0)),
                      .init(filters: .paeth, deflater: .zlib(level: 9), sixteenBitDeflater: .zlib(level: 9)),
                      .init(filters: .up, deflater: .zlib(level: 3), sixteenBitDeflater: .zlib(level: 3)),
                      .init(filters: .paeth, deflater: .libdeflate(level: 12), sixteenBitDeflater: .libdeflate(level: 12)),
                      .init(filters: .up, deflater: .libdeflate(level: 1), sixteenBitDeflater: .libdeflate(level: 1)),
                      .init(filters: .none, deflater: .igzip(level: 0), sixteenBitDeflater: .igzip(level: 0)),
                      .init(filters: .all, deflater: .igzip(level: 3), sixteenBitDeflater: .igzip(level: 3))])
    func eightBitRoundTrips(options: PNGCodec.EncodingOptions) throws {
        var image = try RGBAImage<UInt8>(width: 37, height: 23)
        for i in image.channels.indices { image.channels[i] = UInt8((i * 31 + i / 7) & 0xFF) }
        let decoded = try PNGCodec.decode(PNGCodec.encode(image, options: options))
        #expect(decoded == .rgba8(image))
    }

    @Test func sixteenBitRoundTrips() throws {
        var image = try RGBAImage<UInt16>(width: 19, height: 31)
        for i in image.channels.indices { image.channels[i] = UInt16((i * 40503) & 0xFFFF) }
        let decoded = try PNGCodec.decode(PNGCodec.encode(image))
        #expect(decoded == .rgba16(image))
    }

    /// The image-data writer (filters in C, PNG chunks by hand; libdeflate or igzip) against
    /// libpng's reader, and against libpng's own writer as the reference: every filter, both
    /// deflaters, both depths, odd sizes, noisy and smooth rows (so that adaptive filtering picks
    /// different types).
    @Test(arguments: [PNGImageData.RowFilter.none, .sub, .up, .average, .paeth, .adaptive], ["libdeflate", "igzip"])
    func imageDataWriterDecodesWithLibpng(filter: PNGImageData.RowFilter, deflater: String) throws {
        func encode<C>(_ image: RGBAImage<C>, region: ImageRegion, level: Int) throws -> [UInt8] {
            try PNGCodec.encodeImageData(image, region: region,
                                         deflater: deflater == "igzip" ? .igzip(level: level % 4) : .libdeflate(level: level), filter: filter)
        }
        for (width, height) in [(1, 1), (3, 5), (37, 23), (17, 1), (1, 9)] {
            var image8 = try RGBAImage<UInt8>(width: width, height: height)
            var image16 = try RGBAImage<UInt16>(width: width, height: height)
            for i in image8.channels.indices {
                let pixel = i / 4, x = pixel % width, y = pixel / width
                // Smooth gradients in the top half, noise below.
                let value = y < height / 2 ? x * 7 + y * 3 + (i % 4) * 50 : (i * 40503 + i / 7) ^ (i >> 3)
                image8.channels[i] = UInt8(truncatingIfNeeded: value)
                image16.channels[i] = UInt16(truncatingIfNeeded: value &* 257 &+ i)
            }
            let whole8 = ImageRegion(x: 0, y: 0, width: width, height: height)
            let bytes8 = try encode(image8, region: whole8, level: 6)
            #expect(try PNGCodec.decode(bytes8) == .rgba8(image8), "8 bit, \(width)×\(height)")
            let bytes16 = try encode(image16, region: whole8, level: 1)
            #expect(try PNGCodec.decode(bytes16) == .rgba16(image16), "16 bit, \(width)×\(height)")
            let reference = try PNGCodec.decode(PNGCodec.encode(image16, options: .init(sixteenBitDeflater: .zlib(level: 6))))
            #expect(try PNGCodec.decode(bytes16) == reference)
            if width > 2 && height > 2 {
                let inner = ImageRegion(x: 1, y: 1, width: width - 2, height: height - 2)
                let part = try encode(image8, region: inner, level: 1)
                #expect(try PNGCodec.decode(part) == PNGCodec.decode(PNGCodec.encode(image8, region: inner, options: .init(deflater: .zlib(level: 6)))))
            }
        }
    }

    /// Noise does not compress: igzip then writes stored blocks, which must fit the room
    /// `kira_igzip_zlib_compress_bound` leaves (a 4 MB frame, every level) and decode exactly.
    @Test func igzipStoresIncompressibleFramesWhole() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let image = try RGBAImage<UInt8>(width: 1024, height: 1024, channels: (0..<(4 << 20)).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        })
        let whole = ImageRegion(x: 0, y: 0, width: 1024, height: 1024)
        for level in 0...3 {
            let bytes = try PNGCodec.encodeImageData(image, region: whole, deflater: .igzip(level: level), filter: .none)
            #expect(bytes.count > 4 << 20, "level \(level): noise should not shrink")
            #expect(try PNGCodec.decode(bytes) == .rgba8(image), "level \(level)")
        }
    }

    /// igzip's output depends on its input alone: a compressor whose memory held stale bytes, as
    /// a recycled heap block does, compresses to the bytes a zeroed one does. Without the
    /// wrapper's zeroing and its setting of `hist_bits`, words 1 and 2 change this stream
    /// (checked): they land in the stream's `hist_bits`, which `isal_deflate_stateless_init`
    /// leaves as it finds it (ISA-L 2.30); the other two words change nothing there.
    @Test func igzipIgnoresStaleMemory() throws {
        let width = 256, height = 96
        let input = (0..<(height * (4 * width + 1))).map { i -> UInt8 in
            let x = i % (4 * width + 1), y = i / (4 * width + 1)
            if x == 0 { return 4 }
            return y % 3 == 0 ? UInt8(truncatingIfNeeded: (x * 7 + y) ^ (x >> 3)) : UInt8(truncatingIfNeeded: x / 9 + y)
        }
        func compressed(stale: UInt16) throws -> [UInt8] {
            let compressor = try #require(kira_igzip_alloc_compressor(2))
            defer { kira_igzip_free_compressor(compressor) }
            kira_igzip_fill_state(compressor, stale)
            var output = [UInt8](repeating: 0, count: kira_igzip_zlib_compress_bound(input.count))
            let count = kira_igzip_zlib_compress(compressor, input, input.count, &output, output.count)
            #expect(count > 0)
            return Array(output.prefix(count))
        }
        let clean = try compressed(stale: 0)
        for stale: UInt16 in [1, 2, 0x5555, 0xFFFF] {
            #expect(try compressed(stale: stale) == clean, "stale words \(stale)")
        }
    }

    /// Compressions reuse buffers and compressors (``CompressionScratch``): many at once, of
    /// different sizes, deflaters and levels, give the bytes each gives alone.
    @Test func concurrentCompressionsGiveTheBytesOfSerialOnes() throws {
        let images = try (0..<12).map { k in
            try RGBAImage<UInt8>(width: 5 + 7 * k, height: 3 + 5 * (k % 4),
                             channels: (0..<(4 * (5 + 7 * k) * (3 + 5 * (k % 4)))).map { UInt8(truncatingIfNeeded: $0 * (k + 3) ^ ($0 >> 2)) })
        }
        @Sendable func compress(_ k: Int) throws -> [UInt8] {
            let image = images[k]
            return try PNGImageData.compress(image, region: ImageRegion(x: 0, y: 0, width: image.width, height: image.height),
                                             deflater: k % 3 == 2 ? .igzip(level: 2) : .libdeflate(level: k % 3 == 0 ? 1 : 2),
                                             filter: .paeth)
        }
        let serial = try images.indices.map(compress)
        let results = Locked([[UInt8]?](repeating: nil, count: images.count))  // a lock TSan sees
        DispatchQueue.concurrentPerform(iterations: 4 * images.count) { i in
            let bytes = try? compress(i % images.count)
            if i >= 3 * images.count { results.withLock { $0[i % images.count] = bytes } }
        }
        #expect(results.withLock { $0 } == serial.map { Optional($0) })
    }

    /// `standard` and `fast` go through the deflaters they say, at both depths.
    @Test func presetsChooseTheirDeflater() throws {
        let image8 = try RGBAImage<UInt8>(width: 9, height: 7, channels: (0..<252).map { UInt8($0 % 251) })
        let image16 = try RGBAImage<UInt16>(width: 9, height: 7, channels: (0..<252).map { UInt16($0 * 97) })
        let whole = ImageRegion(x: 0, y: 0, width: 9, height: 7)
        func imageData<C>(_ image: RGBAImage<C>, _ deflater: PNGCodec.Deflater, _ filter: PNGImageData.RowFilter) throws -> [UInt8] {
            try PNGCodec.encodeImageData(image, region: whole, deflater: deflater, filter: filter)
        }
        #expect(try PNGCodec.encode(image8) == imageData(image8, .libdeflate(level: 6), .adaptive))
        #expect(try PNGCodec.encode(image8, options: .fast) == imageData(image8, .igzip(level: 2), .paeth))
        #expect(try imageData(image8, .igzip(level: 2), .paeth) != imageData(image8, .libdeflate(level: 2), .paeth))
        #expect(try PNGCodec.encode(image16) == PNGCodec.encode(image16, options: .init(filters: .all, deflater: .zlib(level: 6), sixteenBitDeflater: .zlib(level: 6))))
        #expect(try PNGCodec.encode(image16, options: .fast) == imageData(image16, .igzip(level: 2), .paeth))
        #expect(PNGCodec.EncodingOptions() == .standard)
    }

    @Test func depthConversionsAreExactWhereTheyCanBe() throws {
        let image = try RGBAImage<UInt8>(width: 256, height: 1, channels: (0..<1024).map { UInt8($0 / 4) })
        let wide = AnyRGBAImage.rgba8(image).rgba16
        #expect(wide.channels.map { Int($0) } == image.channels.map { Int($0) * 257 })
        #expect(AnyRGBAImage.rgba16(wide).rgba8 == image)
    }

    @Test func writeIsAtomicAndReadable() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/out.png"
        let image = try RGBAImage<UInt8>(width: 4, height: 3, channels: (0..<48).map { UInt8($0 * 5) })
        try PNGCodec.write(image, to: path)
        #expect(try PNGCodec.read(path) == .rgba8(image))
        #expect(directory.contents() == ["out.png"], "no temporary file is left behind")
    }

    @Test func writeIntoMissingDirectoryFailsCleanly() throws {
        let image = try RGBAImage<UInt8>(width: 1, height: 1)
        #expect(throws: ImageFileError.self) { try PNGCodec.write(image, to: "/nonexistent-kira-dir/x.png") }
    }

    /// Valid PNGs with an ancillary chunk over libpng's default 8 MB limit are read.
    @Test func largeAncillaryChunk() throws {
        let png = PNGFixture(width: 3, height: 2, colorType: .rgb, bitDepth: 8, samples: Array(0..<18)).bytes
        let text = Array("Comment\u{0}".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 9 << 20)
        let withText = Array(png[0..<33]) + PNGFixture.chunk("tEXt", text) + Array(png[33...])
        #expect(try PNGCodec.decode(withText) == PNGCodec.decode(png))
    }
}
