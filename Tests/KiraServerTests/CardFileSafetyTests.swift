#if Server
import Foundation
import KiraServer
import Testing

/// A cards folder is read as `kira render` reads its inputs: regular files only, never a device
/// or a FIFO, and the decoded textures estimated from their headers and counted against the
/// budget before anything is decoded.
@Suite struct CardFileSafetyTests {
    /// A PNG signature and IHDR declaring a `width`×`height` RGBA image, and nothing else: a
    /// file that could never be decoded, so a refusal that names the budget was made before.
    static func headerOnly(width: Int, height: Int) -> [UInt8] {
        func word(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        return [137, 80, 78, 71, 13, 10, 26, 10] + word(13) + Array("IHDR".utf8) + word(width) + word(height) + [8, 6, 0, 0, 0] + word(0)
    }

    @Test(arguments: ["/dev/zero", "/dev/urandom"])
    func artLinkedToADeviceIsRefused(device: String) throws {
        let message = try CardFolderTests.startUpError({ cards in
            try cards.addCard("linked", files: [])
            try FileManager.default.createSymbolicLink(atPath: cards.path + "/linked/art.png", withDestinationPath: device)
        }) { $0.memory = .init(bytes: 512 << 20) }
        #expect(message?.contains("linked/art.png") == true && message?.contains("not a regular file") == true, "\(message ?? "started")")
    }

    /// Opening a FIFO with no writer for reading would block for ever.
    @Test func aFIFOIsRefusedWithoutWaiting() throws {
        let message = try CardFolderTests.startUpError { cards in
            try cards.addCard("piped", files: [])
            #expect(mkfifo(cards.path + "/piped/art.png", 0o600) == 0)
        }
        #expect(message?.contains("piped/art.png") == true && message?.contains("not a regular file") == true, "\(message ?? "started")")
    }

    @Test func aHugeArtIsRefusedFromItsHeader() throws {
        let message = try CardFolderTests.startUpError({ cards in
            try cards.addCard("huge", files: [], raw: ["art.png": Self.headerOnly(width: 16384, height: 16384)])
        }) { $0.memory = .init(bytes: 512 << 20) }
        #expect(message?.contains("--max-memory") == true, "\(message ?? "started")")
    }

    /// Six cards of 64 MiB each, each under the budget alone, are over it together.
    @Test func manyLargeCardsAreCountedTogether() throws {
        let message = try CardFolderTests.startUpError({ cards in
            for i in 0..<6 { try cards.addCard("big-\(i)", files: [], raw: ["art.png": Self.headerOnly(width: 4096, height: 4096)]) }
        }) { $0.memory = .init(bytes: 512 << 20) }
        #expect(message?.contains("--max-memory") == true, "\(message ?? "started")")
    }
}
#endif
