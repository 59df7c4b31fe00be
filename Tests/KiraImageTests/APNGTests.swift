import Foundation
@testable import KiraPNG
import Testing
import KiraFiles
import KiraImage
import KiraTestSupport

/// Checks an APNG file chunk by chunk and returns its frames as a player shows them: each
/// frame's rectangle decoded and composed onto the canvas the frame before left.
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
        var frames: [(control: [UInt8], data: [UInt8])] = []
        for chunk in chunks {
            switch chunk.type {
            case "fcTL":
                guard PNGChunks.readBigEndian(chunk.data, 0) == expectedSequence else { throw Failure(description: "fcTL sequence") }
                guard chunk.data.count == 26 else { throw Failure(description: "fcTL length") }
                expectedSequence += 1
                frames.append((chunk.data, []))
            case "fdAT":
                guard PNGChunks.readBigEndian(chunk.data, 0) == expectedSequence else { throw Failure(description: "fdAT sequence") }
                guard frames.count > 1 else { throw Failure(description: "fdAT in the first frame") }
                expectedSequence += 1
                frames[frames.count - 1].data += chunk.data.dropFirst(4)
            case "IDAT":
                guard frames.count == 1 else { throw Failure(description: "IDAT outside the first frame") }
                frames[0].data += chunk.data
            default:
                break
            }
        }
        guard frames.count == declared else { throw Failure(description: "acTL says \(declared) frames, found \(frames.count)") }
        let ihdr = chunks[0].data
        let canvasWidth = Int(PNGChunks.readBigEndian(ihdr, 0)), canvasHeight = Int(PNGChunks.readBigEndian(ihdr, 4))
        var canvas: AnyRGBAImage?
        var shown: [AnyRGBAImage] = []
        for (index, frame) in frames.enumerated() {
            let c = frame.control
            let width = Int(PNGChunks.readBigEndian(c, 4)), height = Int(PNGChunks.readBigEndian(c, 8))
            let x = Int(PNGChunks.readBigEndian(c, 12)), y = Int(PNGChunks.readBigEndian(c, 16))
            guard c[24] == 0, c[25] == 0 else { throw Failure(description: "frame \(index): dispose/blend other than none/source") }
            guard width > 0, height > 0, x + width <= canvasWidth, y + height <= canvasHeight else {
                throw Failure(description: "frame \(index) outside the canvas")
            }
            guard index > 0 || (x == 0 && y == 0 && width == canvasWidth && height == canvasHeight) else {
                throw Failure(description: "the first frame must be whole")
            }
            var png = PNGChunks.signature
            PNGChunks.append("IHDR", PNGChunks.bigEndian(UInt32(width)) + PNGChunks.bigEndian(UInt32(height)) + ihdr[8...], to: &png)
            PNGChunks.append("IDAT", frame.data, to: &png)
            PNGChunks.append("IEND", [], to: &png)
            let piece = try PNGCodec.decode(png)
            switch (canvas, piece) {
            case (nil, _): canvas = piece
            case (.rgba8(var whole)?, .rgba8(let part)):
                place(part, at: x, y, on: &whole)
                canvas = .rgba8(whole)
            case (.rgba16(var whole)?, .rgba16(let part)):
                place(part, at: x, y, on: &whole)
                canvas = .rgba16(whole)
            default: throw Failure(description: "frame \(index) changes bit depth")
            }
            shown.append(canvas!)
        }
        return shown
    }

    static func place<C>(_ part: RGBAImage<C>, at x: Int, _ y: Int, on canvas: inout RGBAImage<C>) {
        for row in 0..<part.height {
            for column in 0..<part.width { canvas[x + column, y + row] = part[column, row] }
        }
    }
}

@Suite struct APNGTests {
    static func frames<C: ImageChannel>(_ count: Int, as: C.Type) -> [RGBAImage<C>] {
        (0..<count).map { k in
            var image = try! RGBAImage<C>(width: 23, height: 17)
            for i in image.channels.indices { image.channels[i] = C(truncatingIfNeeded: (i * 7 + k * 31) % Int(C.max)) }
            return image
        }
    }

    /// Frames that differ from one to the next only in a small moving patch (or not at all).
    static func movingPatch(_ count: Int) -> [RGBAImage<UInt8>] {
        var image = frames(1, as: UInt8.self)[0]
        return (0..<count).map { k in
            if k % 3 != 2 {  // every third frame repeats the one before
                for y in (k % 9)..<(k % 9 + 5) { for x in (2 * k % 15)..<(2 * k % 15 + 4) { image[x, y] = SIMD4(UInt8(k), 200, 9, UInt8(40 * k % 256)) } }
            }
            return image
        }
    }

    /// Writes `frames` through `APNGFileWriter` and returns the file's bytes.
    static func write<C>(_ frames: [RGBAImage<C>], fps: Int = 24, plays: UInt32 = 0, deltas: Bool = false,
                         options: PNGCodec.EncodingOptions = .fast, in directory: TemporaryDirectory) throws -> [UInt8] {
        let path = directory.path + "/a.png"
        let writer = try APNGFileWriter(path: path, width: frames[0].width, height: frames[0].height,
                                        frameCount: frames.count, framesPerSecond: fps, plays: plays)
        for (k, frame) in frames.enumerated() {
            try writer.append(deltas ? APNGFrame.encode(frame, after: k == 0 ? nil : frames[k - 1], options: options)
                                     : APNGFrame.encode(frame, options: options))
        }
        #expect(!FileManager.default.fileExists(atPath: path), "nothing at the path before finish()")
        try writer.finish()
        return try FileIO.read(path)
    }

    @Test func eightBitFramesSurviveTheRoundTrip() throws {
        let directory = try TemporaryDirectory()
        let frames = Self.frames(5, as: UInt8.self)
        #expect(try APNGChecker.frames(Self.write(frames, in: directory)) == frames.map { .rgba8($0) })
    }

    @Test func sixteenBitFramesSurviveTheRoundTrip() throws {
        let directory = try TemporaryDirectory()
        let frames = Self.frames(3, as: UInt16.self)
        #expect(try APNGChecker.frames(Self.write(frames, fps: 10, plays: 1, options: .standard, in: directory)) == frames.map { .rgba16($0) })
    }

    @Test func changedRectanglesPlayAsTheWholeFrames() throws {
        let directory = try TemporaryDirectory()
        let frames = Self.movingPatch(8)
        let bytes = try Self.write(frames, deltas: true, in: directory)
        #expect(try APNGChecker.frames(bytes) == frames.map { .rgba8($0) })
        // Later frames are the patch's rectangle, and a repeated frame a single pixel.
        let controls = try PNGChunks.parse(bytes, name: "a").filter { $0.type == "fcTL" }.map(\.data)
        let sizes = controls.map { (PNGChunks.readBigEndian($0, 4), PNGChunks.readBigEndian($0, 8)) }
        #expect(sizes[0] == (23, 17) && sizes[1] == (4, 5) && sizes[2] == (1, 1))
    }

    @Test func changedRegion() throws {
        let a = try RGBAImage<UInt16>(width: 9, height: 7)
        var b = a
        #expect(b.changedRegion(since: a) == nil)
        b[3, 2] = SIMD4(0, 0, 0, 1)
        #expect(b.changedRegion(since: a) == ImageRegion(x: 3, y: 2, width: 1, height: 1))
        b[8, 6] = SIMD4(1, 0, 0, 0)
        b[0, 4] = SIMD4(0, 1, 0, 0)
        #expect(b.changedRegion(since: a) == ImageRegion(x: 0, y: 2, width: 9, height: 5))
        // Only the candidate rectangle is compared: what lies outside it is taken as equal.
        #expect(b.changedRegion(since: a, candidates: ImageRegion(x: 0, y: 0, width: 9, height: 7))
                    == ImageRegion(x: 0, y: 2, width: 9, height: 5))
        #expect(b.changedRegion(since: a, candidates: ImageRegion(x: 2, y: 1, width: 3, height: 3))
                    == ImageRegion(x: 3, y: 2, width: 1, height: 1))
        #expect(b.changedRegion(since: a, candidates: ImageRegion(x: 4, y: 0, width: 4, height: 7)) == nil)
        #expect(b.changedRegion(since: a, candidates: ImageRegion(x: 0, y: 0, width: 0, height: 0)) == nil)
    }

    @Test func regionUnion() {
        let a = ImageRegion(x: 2, y: 3, width: 4, height: 5), b = ImageRegion(x: 5, y: 1, width: 3, height: 2)
        #expect(a.union(b) == ImageRegion(x: 2, y: 1, width: 6, height: 7))
        #expect(a.union(ImageRegion(x: 0, y: 0, width: 0, height: 0)) == a)
        #expect(ImageRegion(x: 9, y: 9, width: 0, height: 3).union(b) == b)
    }

    @Test func theFirstFrameIsAPlainPNGForOtherViewers() throws {
        let directory = try TemporaryDirectory()
        let frames = Self.frames(3, as: UInt8.self)
        #expect(try PNGCodec.decode(Self.write(frames, deltas: true, in: directory)) == .rgba8(frames[0]))
    }

    @Test func wrongFramesAreRefusedAndLeaveNoFile() throws {
        let directory = try TemporaryDirectory()
        let image = try RGBAImage<UInt8>(width: 4, height: 4)
        do {
            let writer = try APNGFileWriter(path: directory.path + "/a.png", width: 4, height: 4, frameCount: 2, framesPerSecond: 30)
            // The first frame must be whole; a frame must fit the canvas and keep the layout.
            #expect(throws: ImageFileError.self) { try writer.append(APNGFrame.encode(image, region: ImageRegion(x: 1, y: 0, width: 3, height: 4))) }
            try writer.append(APNGFrame.encode(image))
            #expect(throws: ImageFileError.self) { try writer.append(APNGFrame.encode(try RGBAImage<UInt8>(width: 5, height: 4))) }
            #expect(throws: ImageFileError.self) { try writer.append(APNGFrame.encode(try RGBAImage<UInt16>(width: 4, height: 4))) }
            // One frame of two declared.
            #expect(throws: ImageFileError.self) { try writer.finish() }
        }
        #expect(directory.contents().isEmpty, "\(directory.contents())")
        #expect(throws: ImageFileError.self) {
            try APNGFileWriter(path: directory.path + "/missing/a.png", width: 4, height: 4, frameCount: 1, framesPerSecond: 30)
        }
    }

    /// Debian's `apngdis` splits the file into its frames, composing the changed rectangles as
    /// players do.
    @Test
    func apngdisReadsIt() throws {
        let directory = try TemporaryDirectory()
        let frames = Self.movingPatch(6)
        _ = try Self.write(frames, fps: 12, deltas: true, in: directory)
        try MediaTools.splitAPNG("a.png", prefix: "f", in: directory.path)
        for k in 0..<frames.count {
            let image = try PNGCodec.read(directory.path + "/f\(k + 1).png").rgba8
            #expect(image == frames[k], "frame \(k) as apngdis extracted it")
        }
    }
}
