import KiraFormats
import Testing

/// A contact sheet shows at most 24 frames, the first and the last among them, evenly spread.
@Suite struct ContactSheetFrameTests {
    @Test(arguments: [1, 2, 23, 24, 25, 47, 48, 49, 100, 721])
    func atMostTwentyFourFramesFromFirstToLast(count: Int) {
        let indices = ContactSheet.frameIndices(count: count)
        #expect(indices.count == min(count, 24), "\(count) frames gave \(indices.count)")
        #expect(indices.first == 0 && indices.last == count - 1)
        #expect(zip(indices, indices.dropFirst()).allSatisfy { $0 < $1 }, "\(indices)")
        // Evenly spread: the gaps differ by at most one frame.
        let gaps = zip(indices, indices.dropFirst()).map { $1 - $0 }
        #expect((gaps.max() ?? 0) - (gaps.min() ?? 0) <= 1, "\(gaps)")
    }
}
