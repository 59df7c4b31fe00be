// Test support shared by the test targets; not part of Kira's API.

/// Builds PNG files byte by byte, independently of libpng, so that decoding tests know the exact
/// samples to expect. Image data is stored uncompressed (zlib "stored" blocks), every row with
/// filter 0; Adam7 interlacing is supported.
public struct PNGFixture {
    public enum ColorType: UInt8, Sendable {
        case gray = 0, rgb = 2, palette = 3, grayAlpha = 4, rgba = 6

        public var samplesPerPixel: Int {
            switch self {
            case .gray, .palette: 1
            case .grayAlpha: 2
            case .rgb: 3
            case .rgba: 4
            }
        }
    }

    public var width: Int
    public var height: Int
    public var colorType: ColorType
    public var bitDepth: Int
    public var interlaced = false
    /// `width * height * samplesPerPixel` samples, each below `1 << bitDepth`.
    public var samples: [Int]
    /// PLTE entries (RGB) for palette images.
    public var palette: [(UInt8, UInt8, UInt8)] = []
    /// Raw tRNS chunk contents, if any.
    public var transparency: [UInt8]? = nil

    public init(width: Int, height: Int, colorType: ColorType, bitDepth: Int, interlaced: Bool = false,
                samples: [Int], palette: [(UInt8, UInt8, UInt8)] = [], transparency: [UInt8]? = nil) {
        self.width = width
        self.height = height
        self.colorType = colorType
        self.bitDepth = bitDepth
        self.interlaced = interlaced
        self.samples = samples
        self.palette = palette
        self.transparency = transparency
    }

    /// The complete file.
    public var bytes: [UInt8] {
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var ihdr = Self.bigEndian(UInt32(width)) + Self.bigEndian(UInt32(height))
        ihdr += [UInt8(bitDepth), colorType.rawValue, 0, 0, interlaced ? 1 : 0]
        file += Self.chunk("IHDR", ihdr)
        if colorType == .palette {
            file += Self.chunk("PLTE", palette.flatMap { [$0.0, $0.1, $0.2] })
        }
        if let transparency { file += Self.chunk("tRNS", transparency) }
        file += Self.chunk("IDAT", Self.zlibStored(scanlines()))
        file += Self.chunk("IEND", [])
        return file
    }

    private func scanlines() -> [UInt8] {
        guard interlaced else { return packRows(xs: Array(0..<width), ys: Array(0..<height)) }
        // Adam7: (x0, y0, dx, dy) of each pass.
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        var out: [UInt8] = []
        for (x0, y0, dx, dy) in passes {
            let xs = Array(stride(from: x0, to: width, by: dx)), ys = Array(stride(from: y0, to: height, by: dy))
            if xs.isEmpty || ys.isEmpty { continue }
            out += packRows(xs: xs, ys: ys)
        }
        return out
    }

    private func packRows(xs: [Int], ys: [Int]) -> [UInt8] {
        var out: [UInt8] = []
        let n = colorType.samplesPerPixel
        for y in ys {
            out.append(0)  // filter: none
            var bits: [Int] = []
            for x in xs {
                for s in 0..<n { bits.append(samples[(y * width + x) * n + s]) }
            }
            if bitDepth == 16 {
                for v in bits { out += [UInt8(v >> 8), UInt8(v & 0xFF)] }
            } else if bitDepth == 8 {
                out += bits.map { UInt8($0) }
            } else {
                var byte = 0, used = 0
                for v in bits {
                    byte = (byte << bitDepth) | v
                    used += bitDepth
                    if used == 8 {
                        out.append(UInt8(byte))
                        byte = 0
                        used = 0
                    }
                }
                if used > 0 { out.append(UInt8(byte << (8 - used))) }
            }
        }
        return out
    }

    public static func bigEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }

    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
    }

    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        return ~crc
    }

    public static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, data.count - offset)
            let final: UInt8 = offset + count == data.count ? 1 : 0
            out += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[offset..<(offset + count)]
            offset += count
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + bigEndian(b << 16 | a)
    }
}
