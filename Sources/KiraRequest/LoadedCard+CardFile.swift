import CLibDeflate
import KiraWeb

extension LoadedCard {
    /// The card as a card file (`CardFile` of `KiraWeb`): its faces as Kira renders them, raw RGBA,
    /// gzip-compressed by libdeflate at level 9, what a browser's `DecompressionStream` reads.
    /// What `kira card` writes and `kira serve` sends at `/v1/cards/NAME/card.kira`.
    // The sample card, 8.9 MB raw: 544 / 537 / 504 KB at levels 6 / 9 / 12, and 0.67 / 0.67 / 3.3 s
    // for all of `kira card` (debug build, 2-core Zen 4, loaded).
    public var cardFile: [UInt8] {
        Self.gzip(CardFile.encode(front: front.face, back: back.face), level: 9)
    }

    static func gzip(_ bytes: [UInt8], level: Int32) -> [UInt8] {
        guard let compressor = libdeflate_alloc_compressor(level) else { fatalError("libdeflate: no memory for a compressor") }
        defer { libdeflate_free_compressor(compressor) }
        var output = [UInt8](repeating: 0, count: libdeflate_gzip_compress_bound(compressor, bytes.count))
        let size = bytes.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                libdeflate_gzip_compress(compressor, input.baseAddress, input.count, out.baseAddress, out.count)
            }
        }
        // The bound holds any input: libdeflate returns 0 only when the output does not fit.
        precondition(size > 0, "libdeflate: the gzip bound did not hold")
        output.removeSubrange(size...)
        return output
    }
}
