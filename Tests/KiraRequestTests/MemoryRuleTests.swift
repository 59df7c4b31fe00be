import KiraFiles
import KiraFormats
import KiraRequest
import Testing

/// Work estimated over the memory budget is refused before it starts, saying what it needs and
/// how to need less: the rules `kira render`, `kira shade`, manifests and the server share
/// (KiraCLITests checks that each command passes `--max-memory` on).
@Suite struct MemoryRuleTests {
    static let card = OutputRuleTests.card

    @Test func aFrameOverTheBudgetIsRefusedNamingWhatItNeeds() throws {
        let request = try RenderRequest(values: [("size", "16384x16384")])
        let error = #expect(throws: RequestError.self) {
            try request.prepare(Self.card, format: .png, budget: MemoryBudget(bytes: 1 << 30))
        }
        let reason = try #require(error?.reason)
        #expect(reason.hasPrefix("a 16384×16384 frame needs about "), "\(reason)")
        #expect(reason.contains("over the budget of 1 GiB"), "\(reason)")
        #expect(reason.hasSuffix("or raise {max_memory}"), "\(reason)")
    }

    @Test func theSameFrameFitsALargerBudget() throws {
        let request = try RenderRequest(values: [("size", "64x80")])
        _ = try request.prepare(Self.card, format: .png, budget: MemoryBudget(bytes: 16 << 20))
        // Without a budget the caller counts memory itself (the server, with its own).
        _ = try RenderRequest(values: [("size", "16384x16384")]).prepare(Self.card, format: .png, budget: nil)
    }

    /// The estimate grows with the canvas and the depth: a budget that takes an 8-bit frame may
    /// refuse the 16-bit one.
    @Test func sixteenBitsNeedMore() throws {
        let eight = try RenderRequest(values: [("size", "2048x2048")])
        let sixteen = try RenderRequest(values: [("size", "2048x2048"), ("depth", "16")])
        let needs8 = try eight.prepare(Self.card, format: .png, budget: nil).estimatedPeakBytes
        let needs16 = try sixteen.prepare(Self.card, format: .png, budget: nil).estimatedPeakBytes
        #expect(needs16 > needs8)
        let between = MemoryBudget(bytes: (needs8 + needs16) / 2)
        _ = try eight.prepare(Self.card, format: .png, budget: between)
        #expect(throws: RequestError.self) { try sixteen.prepare(Self.card, format: .png, budget: between) }
    }

    @Test func aShadingOverTheBudgetIsRefused() throws {
        let request = ShadeRequest()
        let face = Self.card.front.face
        #expect(throws: RequestError.self) { try request.checkMemory(for: face, budget: MemoryBudget(bytes: 1 << 10)) }
        try request.checkMemory(for: face, budget: .standard)
    }
}
