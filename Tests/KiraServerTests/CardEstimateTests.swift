#if Server
import Foundation
import KiraFiles
import KiraImage
import KiraPNG
import KiraRequest
import KiraTestSupport
@testable import KiraServer
import Testing

/// The start-up checks the cards' textures against the budget from the PNG headers, card by card,
/// before anything is decoded, counting the images made from the files (a mask from the art's
/// alpha, a plain back) as well as the files.
@Suite struct CardEstimateTests {
    /// A file that is a PNG's signature and header claiming `width`×`height`, and no image: what
    /// is refused from its header is never decoded, and decoding it would fail.
    static func headerOnly(width: Int, height: Int, bitDepth: UInt8 = 8) -> [UInt8] {
        func word(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + word(13) + Array("IHDR".utf8) + word(width) + word(height)
            + [bitDepth, 6, 0, 0, 0] + word(0) + Array(repeating: 0x55, count: 64)
    }

    /// An 8192² art fits the budget by its own decoded size (256 MiB of 344), not with the mask
    /// and back made from it (768 MiB): refused from its header, before its image is decoded.
    @Test func anArtWhoseDerivedTexturesDoNotFitIsRefusedBeforeDecoding() throws {
        let message = try CardFolderTests.startUpError({ try $0.addCard("big", files: [], raw: ["art.png": Self.headerOnly(width: 8192, height: 8192)]) }) {
            $0.memory = .init(bytes: 600 << 20)
            $0.cacheBytes = 256 << 20
        }
        let text = try #require(message, "started")
        #expect(text.contains("--max-memory") && text.contains("would need about"), "\(text)")
    }

    /// Card by card: the card at which the textures go over is named, and none is decoded.
    @Test func theCardThatGoesOverIsNamed() throws {
        let message = try CardFolderTests.startUpError({ cards in
            for index in 0..<6 { try cards.addCard("c\(index)", files: [], raw: ["art.png": Self.headerOnly(width: 4096, height: 4096)]) }
        }) {
            $0.memory = .init(bytes: 512 << 20)
            $0.cacheBytes = 256 << 20
        }
        let text = try #require(message, "started")
        #expect(text.contains("up to card 'c1'"), "\(text)")
    }

    /// A header that claims 2³²−1 pixels a side is refused with a line, never a trap.
    @Test func aHeaderOfAnyClaimedSizeIsRefused() throws {
        for side in [Int(UInt32.max), Int(Int32.max), 16385] {
            let message = try CardFolderTests.startUpError { try $0.addCard("huge", files: [], raw: ["art.png": Self.headerOnly(width: side, height: side, bitDepth: 16)]) }
            #expect(message?.contains("--max-memory") == true, "\(side): \(message ?? "started")")
        }
    }

    /// The estimate is an upper bound of what loading holds, for every combination of a card's
    /// files, 8- and 16-bit, maps smaller than their art.
    @Test(arguments: [["art.png"], ["art.png", "mask.png"], ["art.png", "back.png"], ["art.png", "back_mask.png"],
                      ["art.png", "mask.png", "back.png", "back_mask.png", "foil_map.png"]],
          [false, true])
    func theEstimateBoundsWhatLoadingHolds(files: [String], sixteenBit: Bool) throws {
        let folder = try TemporaryDirectory()
        let cardFolder = folder.path + "/card"
        try FileManager.default.createDirectory(atPath: cardFolder, withIntermediateDirectories: true)
        var textures = CardTextures()
        for name in files {
            // Maps at half the art's size are upscaled to it when loaded.
            let (width, height) = name == "art.png" || name == "back.png" ? (120, 168) : (60, 84)
            var image = try RGBAImage<UInt16>(width: width, height: height)
            for i in image.channels.indices { image.channels[i] = UInt16(truncatingIfNeeded: i * 997 % 65536) }
            let path = cardFolder + "/" + name
            let any = AnyRGBAImage.rgba16(image)
            try PNGCodec.write(sixteenBit ? any : .rgba8(any.rgba8), to: path)
            try textures.set(role: String(name.dropLast(4)), to: path)
        }
        var counted = Set<String>()
        let estimate = try textures.estimatedBytes(counted: &counted)
        let sample = try CardLibrary.load(directory: nil, textureBudget: .max).textureBytes
        let held = try CardLibrary.load(directory: folder.path, textureBudget: .max).textureBytes - sample
        #expect(held > 0 && held <= estimate, "\(files), 16-bit \(sixteenBit): holds \(held), estimated \(estimate)")
        // A file is counted once: a second card of the same files adds only what is made from them.
        #expect(try textures.estimatedBytes(counted: &counted) < estimate)
    }
}

private extension CardTextures {
    mutating func set(role: String, to path: String) throws {
        switch role {
        case "art": art = path
        case "mask": mask = path
        case "back": back = path
        case "back_mask": backMask = path
        default: foilMap = path
        }
    }
}
#endif
