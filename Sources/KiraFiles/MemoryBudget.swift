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
    /// of one does not. `estimate` gives the peak for a batch size.
    public func largestBatch(upTo preferred: Int, estimate: (Int) -> Int) -> Int? {
        var batch = max(1, preferred)
        while batch > 1, !fits(estimate(batch)) { batch -= 1 }
        return fits(estimate(batch)) ? batch : nil
    }

    /// The bytes of a `width` × `height` RGBA image with `channelBytes` bytes a channel.
    public static func imageBytes(width: Int, height: Int, channelBytes: Int) -> Int {
        width * height * 4 * channelBytes
    }

    /// `bytes` exactly, in the largest binary unit that divides it: "1 KiB", "16383 KiB", "1000
    /// bytes". Not ``describe(_:)``, which rounds up to whole MiB (right for an estimate) and so
    /// would say "not 1 MiB" for 1K, or "not 16 MiB" for a ceiling just under 16M.
    static func exactly(_ bytes: Int) -> String {
        if bytes != 0, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes != 0, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }

    /// `bytes` for people: "512 MiB", "3.1 GiB".
    public static func describe(_ bytes: Int) -> String {
        let mebibytes = Double(bytes) / Double(1 << 20)
        if mebibytes < 1024 { return "\(Int(mebibytes.rounded(.up))) MiB" }
        let tenths = (mebibytes / 1024 * 10).rounded(.up)
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(tenths / 10)) GiB" : "\(tenths / 10) GiB"
    }
}
