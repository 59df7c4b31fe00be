import Foundation
import Testing
@testable import KiraImage

/// Checks an APNG file chunk by chunk and returns its frames, decoded.
enum APNGChecker {
    struct Failure: Error, CustomStringConvertible { let description: String }

    static func frames(_ bytes: [UInt8]) throws -> [AnyRGBAImage] {
        let chunks = try PNGChunks.parse(bytes, name: "apng")  // checks every CRC
        guard chunks.first?.type == "IHDR", chunks.last?.type == "IEND" else { throw Failure(description: "IHDR first, IEND last") }
        guard let actl = chunks.first(where: { $0.type == "acTL" }) else { throw Failure(description: "no acTL") }
        guard chunks.firstIndex(where: { $0.type == "acTL" })! < chunks.firstIndex(where: { $0.type == "IDAT" })! else {
            throw Failure(description: "acTL must come before the image data")
        }
        let declared = Int(PNGChunks.readBigEndian(actl.data, 0))
        var expectedSequence: UInt32 = 0
        var frames: [[UInt8]] = []
        for chunk in chunks {
            switch chunk.type {
            case "fcTL":
                guard PNGChunks.readBigEndian(chunk.data, 0) == expectedSequence else { throw Failure(description: "fcTL sequence") }
                guard chunk.data.count == 26 else { throw Failure(description: "fcTL length") }
                expectedSequence += 1
                frames.append([])
            case "fdAT":
                guard PNGChunks.readBigEndian(chunk.data, 0) == expectedSequence else { throw Failure(description: "fdAT sequence") }
                guard frames.count > 1 else { throw Failure(description: "fdAT in the first frame") }
                expectedSequence += 1
                frames[frames.count - 1] += chunk.data.dropFirst(4)
            case "IDAT":
                guard frames.count == 1 else { throw Failure(description: "IDAT outside the first frame") }
                frames[0] += chunk.data
            default:
                break
            }
        }
        guard frames.count == declared else { throw Failure(description: "acTL says \(declared) frames, found \(frames.count)") }
        let ihdr = chunks[0].data
        return try frames.map { data in
            var png = PNGChunks.signature
            PNGChunks.append("IHDR", ihdr, to: &png)
            PNGChunks.append("IDAT", data, to: &png)
            PNGChunks.append("IEND", [], to: &png)
            return try PNGCodec.decode(png)
        }
    }
}

@Suite struct APNGTests {
    static func frames<C: ImageChannel>(_ count: Int, as: C.Type) -> [RGBAImage<C>] {
        (0..<count).map { k in
            var image = RGBAImage<C>(width: 23, height: 17)
            for i in image.channels.indices { image.channels[i] = C(truncatingIfNeeded: (i * 7 + k * 31) % Int(C.max)) }
            return image
        }
    }

    @Test func eightBitFramesSurviveTheRoundTrip() throws {
        let frames = Self.frames(5, as: UInt8.self)
        var writer = APNGWriter(framesPerSecond: 24)
        for frame in frames { try writer.append(png: try PNGCodec.encode(frame, options: .fast)) }
        let decoded = try APNGChecker.frames(try writer.finish())
        #expect(decoded == frames.map { .rgba8($0) })
    }

    @Test func sixteenBitFramesSurviveTheRoundTrip() throws {
        let frames = Self.frames(3, as: UInt16.self)
        var writer = APNGWriter(framesPerSecond: 10, plays: 1)
        for frame in frames { try writer.append(png: try PNGCodec.encode(frame)) }
        #expect(try APNGChecker.frames(try writer.finish()) == frames.map { .rgba16($0) })
    }

    @Test func theFirstFrameIsAPlainPNGForOtherViewers() throws {
        let frames = Self.frames(3, as: UInt8.self)
        var writer = APNGWriter(framesPerSecond: 30)
        for frame in frames { try writer.append(png: try PNGCodec.encode(frame)) }
        #expect(try PNGCodec.decode(try writer.finish()) == .rgba8(frames[0]))
    }

    @Test func framesMustMatch() throws {
        var writer = APNGWriter(framesPerSecond: 30)
        try writer.append(png: try PNGCodec.encode(RGBAImage<UInt8>(width: 4, height: 4)))
        #expect(throws: ImageFileError.self) { try writer.append(png: try PNGCodec.encode(RGBAImage<UInt8>(width: 5, height: 4))) }
        #expect(throws: ImageFileError.self) { try APNGWriter(framesPerSecond: 30).finish() }
    }

    static let apngdis = ["/usr/bin/apngdis", "/usr/local/bin/apngdis"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Debian's `apngdis` splits the file into its frames (skipped where it is not installed).
    @Test(.enabled(if: apngdis != nil)) func apngdisReadsIt() throws {
        let frames = Self.frames(4, as: UInt8.self)
        var writer = APNGWriter(framesPerSecond: 12)
        for frame in frames { try writer.append(png: try PNGCodec.encode(frame)) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kira-apng-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(try writer.finish()).write(to: directory.appendingPathComponent("a.png"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.apngdis!)
        process.arguments = ["a.png", "f"]
        process.currentDirectoryURL = directory
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        for k in 0..<4 {
            let image = try PNGCodec.read(directory.appendingPathComponent("f\(k + 1).png").path).rgba8
            #expect(image == frames[k], "frame \(k) as apngdis extracted it")
        }
    }
}

@Suite struct ContactSheetTests {
    @Test func framesLandInTheirCellsWithLabels() {
        var red = RGBAImage<UInt8>(width: 40, height: 60), blue = red
        for i in stride(from: 0, to: red.channels.count, by: 4) {
            red.channels[i] = 255; red.channels[i + 3] = 255
            blue.channels[i + 2] = 255; blue.channels[i + 3] = 255
        }
        let frames = [(0.0, red), (0.5, blue), (1.25, red)].map { (time: $0.0, image: $0.1) }
        let sheet = ContactSheet.make(frames: frames, columns: 2, cellWidth: 100)
        // 2 columns × 2 rows of 100 × 150 cells with a 9-pixel label strip and 8-pixel gaps.
        #expect(sheet.width == 8 + 2 * 108 && sheet.height == 8 + 2 * (150 + 9 + 8))
        #expect(sheet[8 + 50, 8 + 75].x == 255 && sheet[8 + 50, 8 + 75].z == 0)
        #expect(sheet[116 + 50, 8 + 75].z == 255 && sheet[116 + 50, 8 + 75].x == 0)
        #expect(sheet[8 + 50, 175 + 75].x == 255)
        // Each label strip has light pixels; the empty fourth cell stays background.
        for (x, y) in [(8, 158), (116, 158), (8, 325)] {
            let lit = (0..<60).contains { dx in (0..<9).contains { dy in sheet[x + dx, y + dy].x > 200 && sheet[x + dx, y + dy].y > 200 } }
            #expect(lit, "label at (\(x), \(y))")
        }
        #expect(sheet[116 + 50, 175 + 75] == SIMD4(24, 26, 32, 255))
        #expect(ContactSheet.label(1.25) == "1.25 s" && ContactSheet.label(0.05) == "0.05 s")
    }
}
