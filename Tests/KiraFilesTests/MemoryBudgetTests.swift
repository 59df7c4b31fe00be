import Testing
@testable import KiraFiles

/// The budget's own rules, which every front end's `--max-memory` (and a server's configuration)
/// takes from it.
@Suite struct MemoryBudgetTests {
    /// A ceiling under the minimum is named as given: "1K" once read "not 1 MiB" (rounded up).
    @Test(arguments: [(1 << 10, "not 1 KiB"), (16383 << 10, "not 16383 KiB"), (8, "not 8 bytes"), (15 << 20, "not 15 MiB"),
                      (0, "not 0 bytes"), (1, "not 1 byte"), (-(2 << 30), "not -2048 MiB")])
    func aCeilingUnderTheMinimumIsNamedExactly(bytes: Int, shown: String) throws {
        let problem = try #require(MemoryBudget(bytes: bytes).problem)
        #expect(problem == "must be at least 16M, \(shown)")
    }

    @Test(arguments: [16 << 20, 512 << 20, 2 << 30, Int.max])
    func aCeilingFromTheMinimumUpIsOne(bytes: Int) {
        #expect(MemoryBudget(bytes: bytes).problem == nil)
    }

    @Test func theStandardCeilingIsOne() {
        #expect(MemoryBudget.standard.problem == nil)
        #expect(MemoryBudget.standard.bytes == 2 << 30)
    }

    /// An estimate is rounded up, never down: what is said to fit does.
    @Test(arguments: [(1, "1 MiB"), (1 << 20, "1 MiB"), ((1 << 20) + 1, "2 MiB"), (1 << 30, "1 GiB"), ((3 << 30) + (1 << 20), "3.1 GiB")])
    func estimatesAreDescribedRoundedUp(bytes: Int, described: String) {
        #expect(MemoryBudget.describe(bytes) == described)
    }

    @Test func theLargestBatchThatFits() {
        let budget = MemoryBudget(bytes: 100)
        #expect(budget.largestBatch(upTo: 8) { $0 * 30 } == 3)
        #expect(budget.largestBatch(upTo: 8) { _ in 101 } == nil)
        #expect(budget.largestBatch(upTo: 0) { $0 * 30 } == 1)
    }
}
