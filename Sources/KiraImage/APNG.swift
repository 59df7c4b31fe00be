/// Builds an animated PNG (APNG) from PNG-encoded frames of one size.
///
/// Each frame is encoded by libpng as an ordinary PNG (``PNGCodec/encode(_:options:)``); its
/// image data is then rewrapped: the first frame's `IDAT` chunks stay `IDAT` (so viewers without
/// APNG support show it), later frames' become `fdAT` chunks, and each frame gets an `fcTL`
/// with its delay. The frames replace one another (no disposal, no blending). The compressed
/// frames are kept in memory until ``finish()``.
public struct APNGWriter: Sendable {
    /// Frame delay as a fraction of a second: `delayNumerator / delayDenominator`.
    public let delayNumerator: UInt16
    public let delayDenominator: UInt16
    /// How many times to play; 0 loops forever.
    public let plays: UInt32

    private var header: [UInt8]?  // the IHDR chunk's data
    private var frames: [[[UInt8]]] = []  // per frame, its IDAT payloads

    /// A writer for frames shown `1 / framesPerSecond` seconds each.
    public init(framesPerSecond: Int, plays: UInt32 = 0) {
        precondition((1...1000).contains(framesPerSecond), "frames per second must be in 1...1000")
        delayNumerator = 1
        delayDenominator = UInt16(framesPerSecond)
        self.plays = plays
    }

    /// The number of frames added.
    public var count: Int { frames.count }

    /// Adds the next frame, given as a complete PNG file.
    ///
    /// - Throws: ``ImageFileError`` when the bytes are not a PNG, or differ in size or layout
    ///   from the first frame.
    public mutating func append(png: [UInt8]) throws(ImageFileError) {
        let chunks = try PNGChunks.parse(png, name: "frame \(frames.count)")
        guard let ihdr = chunks.first(where: { $0.type == "IHDR" })?.data else {
            throw ImageFileError(path: "frame \(frames.count)", reason: "no IHDR chunk")
        }
        if let header, header != ihdr {
            throw ImageFileError(path: "frame \(frames.count)", reason: "size or layout differs from the first frame")
        }
        header = ihdr
        frames.append(chunks.filter { $0.type == "IDAT" }.map(\.data))
    }

    /// The animated PNG file.
    public func finish() throws(ImageFileError) -> [UInt8] {
        guard let header, !frames.isEmpty else { throw ImageFileError(path: "<apng>", reason: "no frames") }
        var out: [UInt8] = PNGChunks.signature
        PNGChunks.append("IHDR", header, to: &out)
        PNGChunks.append("acTL", PNGChunks.bigEndian(UInt32(frames.count)) + PNGChunks.bigEndian(plays), to: &out)
        var sequence: UInt32 = 0
        for (index, payloads) in frames.enumerated() {
            var control = PNGChunks.bigEndian(sequence)
            control += Array(header[0..<8])  // width, height
            control += PNGChunks.bigEndian(UInt32(0)) + PNGChunks.bigEndian(UInt32(0))  // x, y offsets
            control += [UInt8(delayNumerator >> 8), UInt8(delayNumerator & 0xFF)]
            control += [UInt8(delayDenominator >> 8), UInt8(delayDenominator & 0xFF)]
            control += [0, 0]  // dispose: none; blend: source
            PNGChunks.append("fcTL", control, to: &out)
            sequence += 1
            for payload in payloads {
                if index == 0 {
                    PNGChunks.append("IDAT", payload, to: &out)
                } else {
                    PNGChunks.append("fdAT", PNGChunks.bigEndian(sequence) + payload, to: &out)
                    sequence += 1
                }
            }
        }
        PNGChunks.append("IEND", [], to: &out)
        return out
    }
}

/// PNG chunk reading and writing, for building APNG files and checking them.
public enum PNGChunks {
    public struct Chunk: Sendable, Equatable {
        public let type: String
        public let data: [UInt8]
    }

    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The chunks of a PNG file, with every CRC checked.
    public static func parse(_ bytes: [UInt8], name: String) throws(ImageFileError) -> [Chunk] {
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else {
            throw ImageFileError(path: name, reason: "not a PNG file (bad signature)")
        }
        var chunks: [Chunk] = []
        var offset = 8
        while offset < bytes.count {
            guard offset + 12 <= bytes.count else { throw ImageFileError(path: name, reason: "truncated chunk") }
            let length = Int(readBigEndian(bytes, offset))
            guard length <= bytes.count - offset - 12 else { throw ImageFileError(path: name, reason: "truncated chunk") }
            let typeBytes = Array(bytes[(offset + 4)..<(offset + 8)])
            let data = Array(bytes[(offset + 8)..<(offset + 8 + length)])
            guard crc32(typeBytes + data) == readBigEndian(bytes, offset + 8 + length) else {
                throw ImageFileError(path: name, reason: "bad CRC in a \(String(decoding: typeBytes, as: UTF8.self)) chunk")
            }
            chunks.append(Chunk(type: String(decoding: typeBytes, as: UTF8.self), data: data))
            offset += 12 + length
        }
        return chunks
    }

    static func append(_ type: String, _ data: [UInt8], to out: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        out += bigEndian(UInt32(data.count))
        out += typeBytes
        out += data
        out += bigEndian(crc32(typeBytes + data))
    }

    public static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    public static func readBigEndian(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// CRC-32 (ISO 3309, as PNG uses), table-driven.
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }
}
