import Foundation
import KiraImage
import KiraRequest
import KiraTestSupport
import Testing

/// A card's texture files that are not usable PNGs, in every role: each is refused with an error
/// of one line, what the command line prints after "kira: " (with exit status 2; KiraCLITests
/// checks that once per command and per kind of file).
@Suite struct CardFileErrorTests {
    /// The kinds of bad file a user might hand in, as BadInputTests in KiraCLITests writes them.
    static let bad = ["missing.png", "folder", "notes.txt", "empty.png", "random.png", "truncated.png", "badcrc.png", "huge.png", "zero.png"]

    /// A folder holding a good art file and one file of each bad kind.
    static func folder() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        func put(_ name: String, _ bytes: [UInt8]) throws {
            try Data(bytes).write(to: URL(fileURLWithPath: directory.path + "/" + name))
        }
        let good = PNGFixture(width: 12, height: 16, colorType: .rgba, bitDepth: 8, samples: (0..<(12 * 16 * 4)).map { $0 % 251 }).bytes
        try put("good.png", good)
        try FileManager.default.createDirectory(atPath: directory.path + "/folder", withIntermediateDirectories: true)
        try put("notes.txt", Array("just text\n".utf8))
        try put("empty.png", [])
        var state: UInt32 = 12345
        try put("random.png", (0..<4096).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(state >> 24)
        })
        try put("truncated.png", Array(good.prefix(good.count / 2)))
        var corrupt = good
        corrupt[29] ^= 0x55  // inside the IHDR CRC
        try put("badcrc.png", corrupt)
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        func header(_ w: UInt32, _ h: UInt32) -> [UInt8] {
            signature + PNGFixture.chunk("IHDR", PNGFixture.bigEndian(w) + PNGFixture.bigEndian(h) + [8, 6, 0, 0, 0])
                + PNGFixture.chunk("IEND", [])
        }
        try put("huge.png", header(100_000, 100_000))
        try put("zero.png", header(0, 0))
        return directory
    }

    @Test(arguments: ["art", "mask", "back", "back_mask"], bad)
    func aBadTextureFileIsRefusedInOneLine(role: String, file: String) throws {
        let directory = try Self.folder()
        let path = directory.path + "/" + file, good = directory.path + "/good.png"
        let textures = switch role {
        case "art": CardTextures(art: path)
        case "mask": CardTextures(art: good, mask: path)
        case "back": CardTextures(art: good, back: path)
        default: CardTextures(art: good, backMask: path)
        }
        do {
            _ = try textures.load()
            Issue.record("\(role) \(file) was loaded")
        } catch {
            let message = "\(error)"
            #expect(!message.isEmpty && !message.contains("\n"), "\(role) \(file): \(message)")
            #expect(message.contains(file), "\(role) \(file): \(message)")
        }
    }
}
