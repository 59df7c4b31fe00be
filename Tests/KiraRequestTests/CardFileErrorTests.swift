import Foundation
import KiraImage
import KiraPNG
import KiraRequest
import KiraTestSupport
import Testing

/// A card's texture files that are not usable PNGs, in every role: each is refused with an error
/// of one line, what the command line prints after "kira: " (with exit status 2; KiraCLITests
/// checks that once per command and per kind of file).
@Suite struct CardFileErrorTests {
    /// The kinds of bad file a user might hand in, as BadInputTests in KiraCLITests writes them.
    static let bad = ["missing.png", "folder"] + BadPNGFiles.names

    /// A folder holding a good art file and one file of each bad kind.
    static func folder() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        let good = PNGFixture(width: 12, height: 16, colorType: .rgba, bitDepth: 8, samples: (0..<(12 * 16 * 4)).map { $0 % 251 }).bytes
        try Data(good).write(to: URL(fileURLWithPath: directory.path + "/good.png"))
        try FileManager.default.createDirectory(atPath: directory.path + "/folder", withIntermediateDirectories: true)
        try BadPNGFiles.write(into: directory.path, good: good)
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
