import KiraImage
import KiraRender
import KiraSamples
import KiraWeb
import Testing

/// The card file keeps every face's images exactly, says what is wrong with a damaged one, and
/// keeps a foil map that is its art's own as one image.
@Suite struct CardFileTests {
    static func image8(_ width: Int, _ height: Int, seed: UInt8) -> AnyRGBAImage {
        .rgba8(try! RGBAImage(width: width, height: height, channels: (0..<(width * height * 4)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }))
    }

    static func image16(_ width: Int, _ height: Int) -> AnyRGBAImage {
        .rgba16(try! RGBAImage(width: width, height: height, channels: (0..<(width * height * 4)).map { UInt16(truncatingIfNeeded: $0 &* 2741) }))
    }

    static func decode(_ bytes: [UInt8]) throws -> (front: CardFace, back: CardFace) {
        try bytes.withUnsafeBytes { try CardFile.decode($0) }
    }

    @Test func roundTrip() throws {
        let art = Self.image8(5, 7, seed: 1)
        let front = try CardFace(art: art, mask: Self.image16(3, 4), foilMap: art)
        let back = try CardFace(art: Self.image16(5, 7), mask: Self.image8(5, 7, seed: 9), foilMap: nil)
        let bytes = CardFile.encode(front: front, back: back)
        // The foil map that is the art is not stored twice.
        #expect(bytes.count == 8 + 4 + 72 + 5 * 7 * 4 + 3 * 4 * 8 + 5 * 7 * 8 + 5 * 7 * 4)
        let decoded = try Self.decode(bytes)
        #expect(decoded.front.art == front.art && decoded.front.mask == front.mask && decoded.front.foilMap == art)
        #expect(decoded.back.art == back.art && decoded.back.mask == back.mask && decoded.back.foilMap == nil)
    }

    @Test func theSampleCardRendersAlike() throws {
        let (front, back) = (BuiltInCard.front, BuiltInCard.back)
        let decoded = try Self.decode(CardFile.encode(front: front, back: back))
        #expect(decoded.front.art == front.art && decoded.front.mask == front.mask && decoded.back.mask == back.mask)
        #expect(decoded.front.foilMap == front.foilMap && decoded.back.foilMap == back.foilMap)
    }

    @Test func damagedFilesAreRefused() throws {
        let good = CardFile.encode(front: try CardFace(art: Self.image8(2, 2, seed: 0), mask: Self.image8(2, 2, seed: 1)),
                                   back: try CardFace(art: Self.image8(2, 2, seed: 2), mask: Self.image8(2, 2, seed: 3)))
        #expect(throws: CardFileError.notACardFile) { try Self.decode(Array(good.dropFirst())) }
        #expect(throws: CardFileError.notACardFile) { try Self.decode([]) }
        var version = good
        version[8] = 2
        #expect(throws: CardFileError.version(2)) { try Self.decode(version) }
        #expect(throws: CardFileError.self) { try Self.decode(Array(good.dropLast())) }
        #expect(throws: CardFileError.self) { try Self.decode(good + [0]) }
        var depth = good
        depth[12] = 12
        #expect(throws: CardFileError.self) { try Self.decode(depth) }
        var huge = good
        huge[12 + 4 ..< 12 + 8] = [0xFF, 0xFF, 0x00, 0x00]
        #expect(throws: CardFileError.self) { try Self.decode(huge) }
        var noArt = good
        noArt[12] = 0
        #expect(throws: CardFileError.self) { try Self.decode(noArt) }
        var repeatedMask = good
        repeatedMask[24] = 1
        #expect(throws: CardFileError.self) { try Self.decode(repeatedMask) }
    }
}
