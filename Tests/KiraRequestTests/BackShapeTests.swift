import Foundation
import KiraPNG
import KiraRequest
import KiraTestSupport
import Testing

/// A back is stretched over the card's shape, which the front art sets; one of another shape is
/// said on stderr, and one of the art's shape (to a pixel of rounding) says nothing.
@Suite struct BackShapeTests {
    static func png(_ width: Int, _ height: Int, in directory: TemporaryDirectory) throws -> String {
        let path = directory.path + "/\(width)x\(height).png"
        let bytes = PNGFixture(width: width, height: height, colorType: .rgba, bitDepth: 8,
                               samples: (0..<(width * height * 4)).map { _ in 255 }).bytes
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aBackOfAnotherShapeIsSaid() throws {
        let directory = try TemporaryDirectory()
        let art = try Self.png(12, 16, in: directory)
        let square = try Self.png(10, 10, in: directory)
        let card = try CardTextures(art: art, back: square).load()
        let said = try #require(card.assumptions(showing: [.back]))
        #expect(said.contains("{back} is 10×10 and the art 12×16: the back is stretched"), "\(said)")
        // Only when the back is seen.
        #expect(card.assumptions(showing: [.front])?.contains("stretched") == false)
    }

    @Test func aBackOfTheArtsShapeSaysNothing() throws {
        let directory = try TemporaryDirectory()
        let art = try Self.png(12, 16, in: directory)
        for back in [try Self.png(6, 8, in: directory), try Self.png(24, 32, in: directory), try Self.png(9, 12, in: directory)] {
            let card = try CardTextures(art: art, back: back).load()
            let said = card.assumptions(showing: [.front, .back]) ?? ""
            #expect(!said.contains("stretched") && said.contains("no {back_mask}"), "\(back): \(said)")
        }
    }
}
