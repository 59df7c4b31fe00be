import CLibDeflate
import KiraFiles
import KiraImage

/// PNG chunks: the one place Kira writes them (PNGs, APNGs) and reads them back (tests, checks).
/// A chunk is its data's length, its four-letter type, the data, and the CRC-32 of type and data.
public enum PNGChunks {
    public struct Chunk: Sendable, Equatable {
        public let type: String
        public let data: [UInt8]
    }

    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The data of the sRGB chunk Kira writes: rendering intent 0, perceptual (what image editors
    /// write; it only matters to a viewer converting sRGB to a smaller gamut).
    public static let sRGBIntent: [UInt8] = [0]

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

    /// Writes the chunk `type` whose data is `prefix` then `data` through `write`, without copying
    /// `data` (an APNG frame's image data streams to its file this way).
    static func emit<E: Error>(_ type: String, prefix: [UInt8] = [], _ data: UnsafeRawBufferPointer,
                               through write: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E) {
        let head = bigEndian(UInt32(prefix.count + data.count)) + Array(type.utf8) + prefix
        let tail = bigEndian(head[4...].withUnsafeBytes { crc32(data, continuing: crc32($0)) })
        // Array's withUnsafeBytes does not pass a typed error through: it is carried out by hand.
        func written(_ bytes: [UInt8]) -> E? {
            bytes.withUnsafeBytes { bytes in
                do throws(E) { try write(bytes) } catch { return error }
                return nil
            }
        }
        if let failure = written(head) { throw failure }
        try write(data)
        if let failure = written(tail) { throw failure }
    }

    /// Appends the chunk `type` with `data` to `out`.
    public static func append(_ type: String, _ data: [UInt8], to out: inout [UInt8]) {
        data.withUnsafeBytes { data in
            emit(type, data) { (bytes: UnsafeRawBufferPointer) in out.append(contentsOf: bytes) }
        }
    }

    /// The data of an IHDR chunk of RGBA pixels: width, height, bit depth, colour type 6,
    /// deflate, adaptive filters, no interlace.
    public static func header(width: Int, height: Int, bitDepth: Int) -> [UInt8] {
        bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [UInt8(bitDepth), 6, 0, 0, 0]
    }

    public static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    public static func readBigEndian(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// CRC-32 (ISO 3309, as PNG uses) of `bytes`.
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { crc32($0) }
    }

    /// CRC-32 of `bytes` after `crc` (libdeflate's, many times faster than a table per byte).
    static func crc32(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        libdeflate_crc32(crc, bytes.baseAddress, bytes.count)
    }
}
