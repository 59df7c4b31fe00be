import Foundation
import KiraFiles
import KiraRequest

/// One of N slices of a catalogue, as `--shard K/N` names it: K counts from 0, so the scheduler's
/// index can be used as it is (`$JOB_COMPLETION_INDEX`, `$SLURM_ARRAY_TASK_ID`).
///
/// A shard is a *contiguous block* of rows: with M rows, shard K takes the rows whose index i
/// (from 0) satisfies K·M/N ≤ i < (K+1)·M/N, rounded down. Blocks keep the rows of one card,
/// usually written one after the other, in one process, so that its textures are decoded once and
/// its tilts shaded in one sweep; the N blocks cover every row exactly once and differ in size by
/// at most one row. The slice depends only on the manifest's row count and K/N, so a re-run of the
/// same shard takes the same rows.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    /// The whole catalogue.
    public static let whole = Shard(index: 0, count: 1)!

    /// Shards are limited to this many (far more than any scheduler runs at once).
    public static let maxCount = 1_000_000

    public init?(index: Int, count: Int) {
        guard (1...Self.maxCount).contains(count), (0..<count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// `K/N` with 0 ≤ K < N, e.g. `3/16`; surrounding spaces are allowed. The error names the
    /// parameter `shard` and says which of K and N is wrong.
    public init(parsing text: String) throws(RequestError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let k = Int(parts[0].trimmingCharacters(in: .whitespaces)),
              let n = Int(parts[1].trimmingCharacters(in: .whitespaces)) else {
            throw RequestError(parameter: "shard", reason: "must be K/N, two whole numbers with 0 ≤ K < N, e.g. 3/16, not \(QuotedValue.quoted(text))")
        }
        guard (1...Self.maxCount).contains(n) else {
            throw RequestError(parameter: "shard", reason: "\(k)/\(n): N must be 1…\(Self.maxCount), e.g. 0/16")
        }
        guard (0..<n).contains(k) else {
            throw RequestError(parameter: "shard", reason: "\(k)/\(n): K must be 0…\(n - 1) (K counts from 0), e.g. 0/\(n)")
        }
        self.init(index: k, count: n)!
    }

    /// The indices (from 0) of this shard's rows among `total` rows.
    public func rows(ofTotal total: Int) -> Range<Int> {
        // Multiply before dividing; Int is 64 bits, rows and shards are far below 2^31.
        (index * total / count)..<((index + 1) * total / count)
    }

    public var description: String { "\(index)/\(count)" }
}
