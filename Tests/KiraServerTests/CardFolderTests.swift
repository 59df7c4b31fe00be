#if Server
import Foundation
import KiraRequest
import KiraServer
import Testing

/// A cards folder that cannot be served stops the start-up with one line naming the culprit.
@Suite struct CardFolderTests {
    static func startUpError(_ setUp: (ServerFixtures.CardFolder) throws -> Void,
                             _ change: (inout ServerConfiguration) -> Void = { _ in }) throws -> String? {
        let cards = try ServerFixtures.CardFolder()
        defer { cards.remove() }
        try setUp(cards)
        do {
            _ = try buildApplication(ServerFixtures.configuration {
                $0.cardsDirectory = cards.path
                change(&$0)
            })
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aCorruptPNGIsRefusedNamingTheFile() throws {
        let message = try Self.startUpError { try $0.addCard("broken", files: [], raw: ["art.png": Array("not a png at all".utf8)]) }
        #expect(message?.contains("broken/art.png") == true, "\(message ?? "started")")
    }

    @Test func aTruncatedPNGIsRefused() throws {
        let message = try Self.startUpError { cards in
            try cards.addCard("cut")
            let path = cards.path + "/cut/art.png"
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
        }
        #expect(message?.contains("cut/art.png") == true, "\(message ?? "started")")
    }

    @Test func texturesOverTheBudgetAreRefused() throws {
        let message = try Self.startUpError({ try $0.addCard("huge", width: 2048, height: 2048) }) {
            $0.memory = .init(bytes: 24 << 20)
            $0.cacheBytes = 8 << 20
        }
        #expect(message?.contains("--max-memory") == true, "\(message ?? "started")")
    }

    @Test func aStrayPNGIsRefused() throws {
        let message = try Self.startUpError { try $0.addCard("typo", files: ["art.png", "front.png"]) }
        #expect(message?.contains("typo/front.png") == true, "\(message ?? "started")")
    }

    @Test func aFolderWithoutArtIsRefused() throws {
        let message = try Self.startUpError { try $0.addCard("empty", files: ["mask.png"]) }
        #expect(message?.contains("no art.png") == true, "\(message ?? "started")")
    }

    @Test(arguments: ["two words", "kärte", "sample", "a%2e"])
    func anIdAURLCannotCarryIsRefused(name: String) throws {
        let message = try Self.startUpError { try $0.addCard(name) }
        #expect(message?.contains(name) == true, "\(message ?? "started")")
    }

    /// Every file option of `kira render` is a card file named after it, the foil map included.
    @Test func everyFileParameterIsACardFile() throws {
        let message = try Self.startUpError { try $0.addCard("full", files: ["art.png", "mask.png", "back.png", "back_mask.png", "foil_map.png"]) }
        #expect(message == nil, "\(message ?? "")")
        #expect(CardLibrary.fileNames.map(\.file).sorted() == RenderRequest.parameters.filter { $0.kind == .path }.map { $0.name + ".png" }.sorted())
    }

    /// The options' spelling, which `kira textures` writes, names the same files; both at once is
    /// one file twice, refused.
    @Test func aCardFileMayBeSpeltAsItsOption() throws {
        let message = try Self.startUpError { try $0.addCard("dashes", files: ["art.png", "back.png", "back-mask.png", "foil-map.png"]) }
        #expect(message == nil, "\(message ?? "")")
        let twice = try Self.startUpError { try $0.addCard("twice", files: ["art.png", "back_mask.png", "back-mask.png"]) }
        #expect(twice?.contains("holds both back_mask.png and back-mask.png") == true, "\(twice ?? "started")")
        let stray = try Self.startUpError { try $0.addCard("typo", files: ["art.png", "front.png"]) }
        #expect(stray?.contains("back_mask.png or back-mask.png") == true, "\(stray ?? "started")")
    }

    @Test func hiddenFoldersAndOtherFilesAreIgnored() throws {
        let message = try Self.startUpError { cards in
            try cards.addCard(".git", files: [])
            try cards.addCard("ok", raw: ["README.txt": Array("notes".utf8)])
            _ = FileManager.default.createFile(atPath: cards.path + "/index.html", contents: Data())
        }
        #expect(message == nil)
    }

    @Test func aMissingFolderIsRefused() {
        #expect(throws: ServerSetupError.self) {
            try buildApplication(ServerFixtures.configuration { $0.cardsDirectory = "/nonexistent/cards" })
        }
    }
}
#endif
