import KiraFiles
@testable import KiraPNG
import KiraTestSupport
import Testing
import KiraImage

/// Bad files become errors that name the file and say what is wrong; none crashes.
@Suite struct PNGErrorTests {
    static let good = PNGFixture(width: 8, height: 8, colorType: .rgb, bitDepth: 8,
                                 samples: (0..<192).map { $0 % 256 }).bytes

    func reason(_ bytes: [UInt8], limits: PNGCodec.Limits = .standard) -> String? {
        do {
            _ = try PNGCodec.decode(bytes, name: "test.png", limits: limits)
            return nil
        } catch {
            #expect(error.path == "test.png")
            #expect(!error.reason.isEmpty && !error.reason.contains("\n"))
            return error.reason
        }
    }

    @Test func goodFixtureDecodes() {
        #expect(reason(Self.good) == nil)
    }

    @Test func emptyFile() {
        #expect(reason([])?.contains("empty") == true)
    }

    @Test func notAPNG() {
        #expect(reason(Array("GIF89a, not a PNG at all".utf8))?.contains("not a PNG") == true)
    }

    @Test(arguments: [9, 20, 33, 40, 60, 100])
    func truncatedFile(length: Int) {
        #expect(reason(Array(Self.good.prefix(length))) != nil, "a file cut at \(length) bytes must fail")
    }

    @Test func badCRCInCriticalChunk() {
        var bytes = Self.good
        bytes[8 + 8 + 13] ^= 0xFF  // the IHDR CRC
        #expect(reason(bytes) != nil)
    }

    @Test func corruptImageData() {
        var bytes = PNGFixture(width: 8, height: 8, colorType: .rgb, bitDepth: 8, samples: Array(repeating: 7, count: 192)).bytes
        // Cut the IDAT payload short but keep the chunk structure valid: the data stream ends early.
        let idat = PNGFixture.chunk("IDAT", Array(PNGFixture.zlibStored(Array(repeating: 0, count: 30))))
        let start = 8 + 25  // after the signature and the IHDR chunk
        bytes = Array(bytes[0..<start]) + idat + PNGFixture.chunk("IEND", [])
        #expect(reason(bytes) != nil)
    }

    @Test func hugeDimensionsAreRefusedBeforeAllocating() {
        let header = PNGFixture.bigEndian(100_000) + PNGFixture.bigEndian(100_000) + [8, 6, 0, 0, 0]
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + PNGFixture.chunk("IHDR", header)
            + PNGFixture.chunk("IEND", [])
        let message = reason(bytes)
        #expect(message?.contains("limit") == true, "\(message ?? "no error")")
    }

    @Test func pixelCountLimit() {
        let message = reason(Self.good, limits: .init(maxSide: 100, maxPixels: 63))
        #expect(message?.contains("8×8") == true, "\(message ?? "no error")")
    }

    @Test func zeroSizeIsRefused() {
        let header = PNGFixture.bigEndian(0) + PNGFixture.bigEndian(0) + [8, 6, 0, 0, 0]
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + PNGFixture.chunk("IHDR", header)
        #expect(reason(bytes) != nil)
    }

    @Test func missingFileAndDirectory() throws {
        #expect(throws: ImageFileError(path: "/no/such/kira.png", reason: "no such file")) {
            try PNGCodec.read("/no/such/kira.png")
        }
        let directory = try TemporaryDirectory()
        #expect(throws: ImageFileError(path: directory.path, reason: "is a directory, not a file")) {
            try PNGCodec.read(directory.path)
        }
    }
}

/// One limit for what Kira writes and reads: every size `--size` allows (16384 a side) is read
/// back; only the memory budget bounds what is decoded.
@Suite struct ReadWriteLimitTests {
    @Test func everySizeKiraWritesIsWithinTheReadLimits() {
        let limits = PNGCodec.Limits.standard
        #expect(limits.maxSide == 16384 && limits.maxPixels == 16384 * 16384)
    }

    /// A 9000×9000 header (over the 64 Mpx that was the limit) is not refused for its size: this
    /// one fails for its missing image data instead.
    @Test func largeHeadersAreNotRefusedForTheirSize() {
        let header = PNGFixture.bigEndian(9000) + PNGFixture.bigEndian(9000) + [8, 6, 0, 0, 0]
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + PNGFixture.chunk("IHDR", header) + PNGFixture.chunk("IEND", [])
        #expect(PNGHeader(bytes: bytes)?.width == 9000 && PNGHeader(bytes: bytes)?.height == 9000)
        #expect(PNGHeader(bytes: bytes)?.decodedBytes == 9000 * 9000 * 4)
        do {
            _ = try PNGCodec.decode(bytes)
            Issue.record("decoded an image with no data")
        } catch {
            #expect(!error.reason.contains("over the limit"), "\(error)")
        }
    }
}
