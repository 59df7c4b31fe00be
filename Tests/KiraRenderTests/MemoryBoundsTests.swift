import KiraFiles
import KiraImage
import KiraPNG
import Testing
@testable import KiraRender

/// The default canvas stays inside Kira's own limits; batches fit the budget.
@Suite struct MemoryBoundsTests {
    @Test(arguments: [(630, 880), (16384, 1), (1, 16384), (8000, 8000), (8191, 8191), (16384, 4096), (4095, 3)])
    func defaultCanvasWithinLimits(card: (Int, Int)) throws {
        let limits = PNGCodec.Limits.standard
        let (w, h) = try FrameScene.defaultCanvasSize(cardWidth: card.0, cardHeight: card.1)
        #expect(w <= limits.maxSide && h <= limits.maxSide && w * h <= limits.maxPixels, "\(card) → \(w)×\(h)")
        #expect(w >= card.0 && h >= card.1 && (w - card.0) % 2 == 0 && (h - card.1) % 2 == 0, "\(card) → \(w)×\(h)")
    }

    /// A card that fits keeps the whole ±45° room, as before the limits.
    @Test func smallCardsKeepTheirRoom() throws {
        let room = FrameScene.roomForTilt(cardWidth: 630, cardHeight: 880)
        #expect(try FrameScene.defaultCanvasSize(cardWidth: 630, cardHeight: 880) == room)
        #expect(room.width > 630 && room.height > 880)
    }

    @Test func batchesShrinkToTheBudget() {
        let perFrame = 300 << 20
        let budget = MemoryBudget.standard
        #expect(budget.largestBatch(upTo: 8) { $0 * perFrame } == 6)
        #expect(budget.largestBatch(upTo: 3) { $0 * perFrame } == 3)
        #expect(MemoryBudget(bytes: 100 << 20).largestBatch(upTo: 8) { $0 * perFrame } == nil)
        #expect(MemoryBudget.describe(3 << 29) == "1.5 GiB" && MemoryBudget.describe(512 << 20) == "512 MiB")
    }
}
