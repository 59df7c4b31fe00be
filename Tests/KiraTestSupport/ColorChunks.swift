import KiraPNG
// Test support shared by the test targets; not part of Kira's API.

/// PNG files given other colour chunks: what phones, editors and scanners write.
public enum ColorChunks {
    /// The colour chunks PNG has.
    static let colorTypes: Set<String> = ["sRGB", "gAMA", "cHRM", "iCCP"]

    /// `png` with its colour chunks (sRGB, gAMA, cHRM, iCCP) replaced by `chunks` (type, data),
    /// which go right after IHDR.
    public static func retagged(_ png: [UInt8], with chunks: [(String, [UInt8])]) -> [UInt8] {
        var out = Array(png[0..<8])
        var offset = 8
        while offset + 12 <= png.count {
            let length = png[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let end = offset + 12 + length
            if !colorTypes.contains(type) { out += png[offset..<end] }
            if type == "IHDR" { for (type, data) in chunks { out += PNGFixture.chunk(type, data) } }
            offset = end
        }
        return out
    }

    /// An iCCP chunk's data: `name`, the compression method, the profile as a zlib stream.
    public static func iCCP(name: String, profile: [UInt8]) -> [UInt8] {
        Array(name.utf8) + [0, 0] + PNGFixture.zlibStored(profile)
    }

    /// A gAMA chunk's data for `gamma` (the encoding exponent: 1/2.2 for sRGB-like files).
    public static func gAMA(_ gamma: Double) -> [UInt8] {
        PNGFixture.bigEndian(UInt32((gamma * 100000).rounded()))
    }
}
