import CLibDeflate
import KiraImage

/// What a PNG file says about its colours: its sRGB, gAMA, cHRM and iCCP chunks, as stored.
///
/// libpng is told to skip these chunks (a broken profile must not fail an otherwise good image);
/// they are read here instead, from the chunks before the image data, each only when its CRC is
/// right and its layout valid: a broken one counts as absent.
public struct PNGColorChunks: Sendable, Equatable {
    /// The sRGB chunk's rendering intent, when there is one.
    public var sRGBIntent: UInt8?
    /// gAMA: the encoding gamma × 100000 (45455 for 1/2.2).
    public var gamma: UInt32?
    /// cHRM: white x, y, red x, y, green x, y, blue x, y, each × 100000.
    public var chromaticities: [UInt32]?
    /// iCCP: the profile's name and its bytes (decompressed).
    public var iccName: String?
    public var iccProfile: [UInt8]?

    public init(sRGBIntent: UInt8? = nil, gamma: UInt32? = nil, chromaticities: [UInt32]? = nil,
                iccName: String? = nil, iccProfile: [UInt8]? = nil) {
        self.sRGBIntent = sRGBIntent
        self.gamma = gamma
        self.chromaticities = chromaticities
        self.iccName = iccName
        self.iccProfile = iccProfile
    }

    /// sRGB's own cHRM values (IEC 61966-2-1: D65 white, the Rec. 709 primaries).
    public static let sRGBChromaticities: [UInt32] = [31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000]

    /// Whether the chunks alone say the image is sRGB: an sRGB chunk; or no iCCP, with a gAMA
    /// within 2% of 1/2.2 (or none) and cHRM within 0.002 of sRGB's (or none). Otherwise the
    /// image is converted (an ICC profile is then tested further: one that is sRGB by another
    /// name is left alone too).
    public var isSRGB: Bool {
        if sRGBIntent != nil { return true }
        guard iccProfile == nil else { return false }
        if let gamma, !(44546...46364).contains(gamma) { return false }
        if let chromaticities {
            return zip(chromaticities, Self.sRGBChromaticities).allSatisfy { abs(Int($0) - Int($1)) <= 200 }
        }
        return true
    }

    /// The gamma and primaries as words: "gamma 1 (gAMA) with sRGB's primaries".
    public var gammaDescription: String {
        let g = gamma.map { "gamma \(Self.decimal($0)) (gAMA)" } ?? "sRGB's curve"
        let p = chromaticities.map { "primaries " + $0.map(Self.decimal).joined(separator: ",") + " (cHRM)" } ?? "sRGB's primaries"
        return "\(g) with \(p)"
    }

    private static func decimal(_ value: UInt32) -> String {
        var text = String(Double(value) / 100000)
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// The largest ICC profile read (the largest in common use are a few MB, lookup tables for
    /// printers).
    static let maxProfileBytes = 16 << 20

    /// The colour chunks of the PNG `bytes` (a valid signature is assumed; anything else reads
    /// as no chunks).
    public static func read(_ bytes: [UInt8]) -> PNGColorChunks {
        var chunks = PNGColorChunks()
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(PNGChunks.readBigEndian(bytes, offset))
            guard length <= bytes.count - offset - 12 else { break }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            if type == "IDAT" || type == "IEND" { break }
            let data = (offset + 8)..<(offset + 8 + length)
            defer { offset += 12 + length }
            guard ["sRGB", "gAMA", "cHRM", "iCCP"].contains(type) else { continue }
            let crc = bytes.withUnsafeBytes { PNGChunks.crc32(UnsafeRawBufferPointer(rebasing: $0[(offset + 4)..<data.upperBound])) }
            guard crc == PNGChunks.readBigEndian(bytes, data.upperBound) else { continue }
            let body = Array(bytes[data])
            switch type {
            case "sRGB" where body.count == 1 && body[0] <= 3:
                chunks.sRGBIntent = body[0]
            case "gAMA" where body.count == 4:
                let value = PNGChunks.readBigEndian(body, 0)
                if value > 0 { chunks.gamma = value }
            case "cHRM" where body.count == 32:
                chunks.chromaticities = (0..<8).map { PNGChunks.readBigEndian(body, 4 * $0) }
            case "iCCP":
                guard let nul = body.firstIndex(of: 0), (1...79).contains(nul), nul + 2 < body.count, body[nul + 1] == 0,
                      let profile = inflate(Array(body[(nul + 2)...]))
                else { continue }
                chunks.iccName = String(decoding: body[..<nul], as: UTF8.self)
                chunks.iccProfile = profile
            default:
                continue
            }
        }
        return chunks
    }

    /// A zlib stream's contents, up to ``maxProfileBytes``; nil when it is not valid.
    private static func inflate(_ stream: [UInt8]) -> [UInt8]? {
        guard let decompressor = libdeflate_alloc_decompressor() else { return nil }
        defer { libdeflate_free_decompressor(decompressor) }
        var capacity = max(4096, stream.count * 4)
        while true {
            var output = [UInt8](repeating: 0, count: capacity)
            var produced = 0
            let result = stream.withUnsafeBytes { input in
                output.withUnsafeMutableBytes { out in
                    libdeflate_zlib_decompress(decompressor, input.baseAddress, input.count, out.baseAddress, out.count, &produced)
                }
            }
            if result == LIBDEFLATE_SUCCESS { return Array(output[..<produced]) }
            guard result == LIBDEFLATE_INSUFFICIENT_SPACE, capacity < maxProfileBytes else { return nil }
            capacity = min(capacity * 4, maxProfileBytes)
        }
    }
}
