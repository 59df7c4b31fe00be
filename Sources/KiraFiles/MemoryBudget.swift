/// A ceiling on the memory a piece of work may use, checked against an estimate of its peak
/// before anything large is allocated: work that would not fit is refused (or cut into smaller
/// batches) instead of failing half way, or taking the machine down with it.
public struct MemoryBudget: Sendable, Equatable {
    /// The ceiling, in bytes.
    public var bytes: Int

    public init(bytes: Int) {
        self.bytes = bytes
    }

    /// 2 GiB: what a small machine or container can spare.
    public static let standard = MemoryBudget(bytes: 2 << 30)

    /// 16 MiB, the smallest ceiling taken: below it not even the sample card's textures fit.
    public static let minimumBytes = 16 << 20

    /// What is wrong with this ceiling, to follow the name of the option that set it (`must be at
    /// least 16M, not 1 KiB`), or nil when it is at least ``minimumBytes``.
    public var problem: String? {
        bytes >= Self.minimumBytes ? nil : "must be at least \(Self.minimumBytes >> 20)M, not \(Self.exactly(bytes))"
    }

    /// Whether an estimated peak of `estimate` bytes fits.
    public func fits(_ estimate: Int) -> Bool { estimate <= bytes }

    /// The largest batch in `1...preferred` whose estimated peak fits, or nil when even a batch
    /// of one does not. `estimate` gives the peak for a batch size, and grows with it; it is
    /// asked about a few sizes only (a binary search), so any `preferred` answers at once.
    public func largestBatch(upTo preferred: Int, estimate: (Int) -> Int) -> Int? {
        var low = 1, high = max(1, preferred)
        guard fits(estimate(low)) else { return nil }
        if fits(estimate(high)) { return high }
        // fits(low), not fits(high): the answer is in low..<high.
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if fits(estimate(middle)) { low = middle } else { high = middle }
        }
        return low
    }

    /// The bytes of a `width` × `height` RGBA image with `channelBytes` bytes a channel; `Int.max`
    /// when that is more than an `Int` holds (never a trap), 0 for a negative side.
    public static func imageBytes(width: Int, height: Int, channelBytes: Int) -> Int {
        guard width > 0, height > 0, channelBytes > 0 else { return 0 }
        return product([width, height, 4, channelBytes])
    }

    /// `factors` multiplied, or `Int.max` when the product overflows (an estimate that large fits
    /// no budget either way).
    public static func product(_ factors: [Int]) -> Int {
        var result = 1
        for factor in factors {
            let (value, overflow) = result.multipliedReportingOverflow(by: factor)
            if overflow { return Int.max }
            result = value
        }
        return result
    }

    /// `a + b` for estimates, `Int.max` when that overflows.
    public static func sum(_ a: Int, _ b: Int) -> Int {
        let (value, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? Int.max : Int.min) : value
    }

    /// The ceiling for people: ``describe(_:)`` from 1 MiB up, exactly below it ("1000 bytes", not
    /// "1 MiB", which a ceiling of 1000 bytes would read as: a ceiling is never rounded up).
    public var described: String {
        bytes >= 1 << 20 ? Self.describe(bytes) : Self.exactly(bytes)
    }

    /// `bytes` exactly, in the largest binary unit that divides it: "1 KiB", "16383 KiB", "1000
    /// bytes". Not ``describe(_:)``, which rounds up to whole MiB (right for an estimate) and so
    /// would say "not 1 MiB" for 1K, or "not 16 MiB" for a ceiling just under 16M.
    static func exactly(_ bytes: Int) -> String {
        if bytes != 0, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes != 0, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }

    /// `bytes` for people, rounded up: "512 MiB", "3.1 GiB"; a negative count as 0.
    public static func describe(_ bytes: Int) -> String {
        let mebibytes = Double(max(0, bytes)) / Double(1 << 20)
        if mebibytes < 1024 { return "\(Int(mebibytes.rounded(.up))) MiB" }
        let tenths = (mebibytes / 1024 * 10).rounded(.up)
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(tenths / 10)) GiB" : "\(tenths / 10) GiB"
    }
}
