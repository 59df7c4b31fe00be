import CLibDeflate

/// PNG image data — the zlib stream of filtered rows that `IDAT` and `fdAT` chunks carry — for
/// a rectangle of an RGBA image, compressed with libdeflate.
///
/// Kira's animated PNGs are made here rather than by libpng because libpng compresses only
/// with zlib, and compressing is most of the cost of writing an animation. Measured on this
/// machine for a 1209×1910 changed rectangle of a 2340×3170 frame (the 1260×1760 sample card
/// mid-flip; one thread, other builds running, so times are ±20%):
///
/// | filter | zlib 1 | zlib 6 | libdeflate 1 | libdeflate 2 | libdeflate 3 | libdeflate 6 |
/// |---|---|---|---|---|---|---|
/// | none  | 1.59 MB, 47 ms | 1.31 MB, 102 ms | 1.46 MB, 24 ms | 1.41 MB, 34 ms | 1.39 MB, 35 ms | 1.30 MB, 50 ms |
/// | sub   | 1.45 MB, 43 ms | 1.15 MB, 160 ms | 1.30 MB, 29 ms | 1.27 MB, 32 ms | 1.24 MB, 36 ms | 1.17 MB, 72 ms |
/// | up    | 1.41 MB, 43 ms | 1.11 MB, 172 ms | 1.24 MB, 28 ms | 1.21 MB, 33 ms | 1.19 MB, 38 ms | 1.12 MB, 80 ms |
/// | paeth | 1.28 MB, 40 ms | 0.99 MB, 176 ms | 1.12 MB, 28 ms | 1.09 MB, 32 ms | 1.06 MB, 36 ms | 1.00 MB, 78 ms |
///
/// (Filtering itself: none 0, up and sub a subtraction per byte, paeth 2–3× that.) Hence the
/// choice: **libdeflate level 1 with the Up filter** — 14% smaller than zlib level 1 with Sub
/// (what libpng wrote for Kira's frames before) in two thirds of the time; Up is one vector
/// subtraction of the row above, and Paeth's further 10% would cost more filtering time than
/// libdeflate saves over zlib. Higher levels buy 3–10% for 20–200% more time.
enum PNGImageData {
    /// libdeflate's level for animation frames (see the table above).
    static let defaultLevel = 1

    /// The image data of `region` of `image`, every row filtered with Up (PNG filter type 2),
    /// 16-bit samples stored big-endian as PNG requires.
    static func compress<C>(_ image: RGBAImage<C>, region: ImageRegion, level: Int = defaultLevel) throws(ImageFileError) -> [UInt8] {
        let sampleBytes = MemoryLayout<C>.size
        let rowBytes = region.width * 4 * sampleBytes
        let filteredRow = rowBytes + 1
        let total = filteredRow * region.height
        let filtered = [UInt8](unsafeUninitializedCapacity: total) { buffer, count in
            image.channels.withUnsafeBytes { pixels in
                let imageRowBytes = image.width * 4 * sampleBytes
                var above = [UInt8](repeating: 0, count: rowBytes)  // the row before the first is zero
                var row = [UInt8](repeating: 0, count: rowBytes)
                for y in 0..<region.height {
                    let source = pixels.baseAddress! + (region.y + y) * imageRowBytes + region.x * 4 * sampleBytes
                    row.withUnsafeMutableBytes { row in
                        if sampleBytes == 1 {
                            row.copyMemory(from: UnsafeRawBufferPointer(start: source, count: rowBytes))
                        } else {
                            // Native-endian UInt16 to PNG's big-endian bytes.
                            for i in Swift.stride(from: 0, to: rowBytes, by: 2) {
                                let value = source.loadUnaligned(fromByteOffset: i, as: UInt16.self)
                                row[i] = UInt8(value >> 8)
                                row[i + 1] = UInt8(value & 0xFF)
                            }
                        }
                    }
                    let out = buffer.baseAddress! + y * filteredRow
                    out[0] = 2  // Up
                    upFilter(row, above, into: out + 1)
                    swap(&row, &above)
                }
            }
            count = total
        }
        guard let compressor = libdeflate_alloc_compressor(Int32(min(max(level, 0), 12))) else {
            throw ImageFileError(path: "<encoder>", reason: "out of memory")
        }
        defer { libdeflate_free_compressor(compressor) }
        var failed = false
        let compressed = filtered.withUnsafeBytes { input in
            let bound = libdeflate_zlib_compress_bound(compressor, input.count)
            return [UInt8](unsafeUninitializedCapacity: bound) { output, count in
                count = libdeflate_zlib_compress(compressor, input.baseAddress, input.count, output.baseAddress, bound)
                failed = count == 0
            }
        }
        if failed { throw ImageFileError(path: "<encoder>", reason: "compression failed") }
        return compressed
    }

    /// `out[i] = row[i] - above[i]` (mod 256): PNG's Up filter, 32 bytes at a time.
    private static func upFilter(_ row: [UInt8], _ above: [UInt8], into out: UnsafeMutablePointer<UInt8>) {
        row.withUnsafeBytes { row in
            above.withUnsafeBytes { above in
                let count = row.count
                var i = 0
                while i + 32 <= count {
                    let a = row.loadUnaligned(fromByteOffset: i, as: SIMD32<UInt8>.self)
                    let b = above.loadUnaligned(fromByteOffset: i, as: SIMD32<UInt8>.self)
                    UnsafeMutableRawPointer(out + i).storeBytes(of: a &- b, as: SIMD32<UInt8>.self)
                    i += 32
                }
                while i < count {
                    out[i] = row[i] &- above[i]
                    i += 1
                }
            }
        }
    }

    /// CRC-32 as PNG chunks use it (libdeflate's, many times faster than a table per byte).
    static func crc32(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        libdeflate_crc32(crc, bytes.baseAddress, bytes.count)
    }
}
