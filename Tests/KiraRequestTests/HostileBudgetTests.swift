#if canImport(Glibc)
import Glibc
#endif
import Foundation
import KiraFiles
import KiraImage
import KiraPNG
import KiraRequest
import KiraTestSupport
import Testing

/// A budget of any value, and images whose headers claim any size, give a sensible line: never a
/// trap, never "needs about 0 MiB … over the budget of 0 MiB".
@Suite struct HostileBudgetTests {
    @Test(arguments: [-1, Int.min, -(2 << 30)])
    func aNegativeBudgetIsNamedAsTheFault(bytes: Int) throws {
        let budget = MemoryBudget(bytes: bytes)
        let error = #expect(throws: RequestError.self) { try budget.check(1 << 20, for: "reading a.png", hint: "give smaller images") }
        let reason = try #require(error?.reason)
        #expect(reason.hasPrefix("reading a.png cannot fit a memory budget of -"), "\(reason)")
        #expect(reason.contains(", which is below zero: give a budget of 0 bytes or more"), "\(reason)")
        #expect(!reason.contains("0 MiB"), "\(reason)")
        // Nothing to read needs nothing, whatever the budget.
        try budget.checkDecoding([])
    }

    /// A budget under a MiB is said exactly, not rounded up to a MiB it does not have.
    @Test func aSmallBudgetIsSaidExactly() throws {
        let error = #expect(throws: RequestError.self) { try MemoryBudget(bytes: 1000).check(4096, for: "x", hint: "y") }
        #expect(error?.reason == "x needs about 1 MiB of memory, over the budget of 1000 bytes: y, or raise {max_memory}")
        let zero = #expect(throws: RequestError.self) { try MemoryBudget(bytes: 0).check(1, for: "x", hint: "y") }
        #expect(zero?.reason.contains("over the budget of 0 bytes") == true, "\(zero?.reason ?? "")")
    }

    @Test func sizesSaturateInsteadOfTrapping() {
        #expect(MemoryBudget.imageBytes(width: Int.max, height: 2, channelBytes: 2) == Int.max)
        #expect(MemoryBudget.imageBytes(width: Int(UInt32.max), height: Int(UInt32.max), channelBytes: 2) == Int.max)
        #expect(MemoryBudget.imageBytes(width: -5, height: 3, channelBytes: 1) == 0)
        #expect(MemoryBudget.imageBytes(width: 100, height: 3, channelBytes: 2) == 2400)
        #expect(MemoryBudget.sum(Int.max, 1) == Int.max)
        #expect(MemoryBudget.describe(-1) == "0 MiB")
    }

    /// Any preferred batch answers after a few estimates (it once counted down one by one).
    @Test func theLargestBatchIsFoundInFewSteps() {
        let calls = Locked(0)
        let budget = MemoryBudget(bytes: 1 << 30)
        let batch = budget.largestBatch(upTo: Int.max) { size in
            calls.withLock { $0 += 1 }
            // Counting down from Int.max one by one would take forever: after 1000 steps, say it fits.
            return calls.withLock { $0 } > 1000 ? 0 : (size > (1 << 30) / 100 ? Int.max : size * 100)
        }
        #expect(calls.withLock { $0 } < 200, "\(calls.withLock { $0 }) estimates")
        #expect(batch == (1 << 30) / 100)
        // As before for what callers ask: the largest that fits, or nil.
        #expect(MemoryBudget(bytes: 100).largestBatch(upTo: 8) { $0 * 30 } == 3)
        #expect(MemoryBudget(bytes: 100).largestBatch(upTo: 8) { _ in 101 } == nil)
        #expect(MemoryBudget(bytes: 100).largestBatch(upTo: 0) { $0 * 30 } == 1)
        #expect(MemoryBudget(bytes: 1000).largestBatch(upTo: 8) { $0 * 30 } == 8)
    }

    /// A PNG whose header claims 2³²−1 pixels a side is refused from its header with a line
    /// (it was a trap: the size overflowed).
    @Test(arguments: [UInt32.max, UInt32(Int32.max)])
    func aHeaderClaimingAnySizeIsRefused(side: UInt32) throws {
        let temporary = try TemporaryDirectory()
        let path = temporary.path + "/huge.png"
        func word(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32($0))) } }
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + word(13) + Array("IHDR".utf8) + word(side) + word(side) + [16, 6, 0, 0, 0, 0, 0, 0, 0]
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        let error = #expect(throws: RequestError.self) { try MemoryBudget.standard.checkDecoding([path]) }
        #expect(error?.reason.contains("over the budget of 2 GiB") == true, "\(error?.reason ?? "")")
        #expect(try PNGHeader.decodingBytes([path]) == Int.max)
    }
}
