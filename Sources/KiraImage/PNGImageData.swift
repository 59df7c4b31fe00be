import CKiraPNG
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
///
/// The filters are vectorised C now (`kira_png_row_filters.h`), so Paeth costs little more than
/// Up. Measured again end to end, `kira animate --preset seed003-tilt-flip --fps 30 --size
/// 2340x3170 --apng` (129 frames, three runs each, interleaved, load ~2): Up 141.7 MB in 6.4–6.9 s
/// of user CPU, Paeth 131.2 MB (−7.4%) in 6.7–6.9 s, adaptive 130.2 MB (−8.1%) in 6.8–7.1 s. Up
/// stays for now: the animation's end-to-end rate is held to 1.2× llvmpipe's frame rate
/// (README, performance), which it only just meets; Paeth is the better trade once there is room.
enum PNGImageData {
    /// libdeflate's level for animation frames (see the table above).
    static let defaultLevel = 1

    /// How rows are filtered before compression: one PNG filter type for every row, or per row
    /// the type whose output has the smallest sum of absolute (signed) bytes — libpng's heuristic
    /// for its adaptive filtering.
    enum RowFilter: Sendable, Equatable {
        case none, sub, up, average, paeth, adaptive

        /// The PNG filter type byte of a fixed filter.
        fileprivate var type: UInt8? {
            switch self {
            case .none: 0
            case .sub: 1
            case .up: 2
            case .average: 3
            case .paeth: 4
            case .adaptive: nil
            }
        }
    }

    /// The image data of `region` of `image`, rows filtered with `filter` (Up unless told),
    /// 16-bit samples stored big-endian as PNG requires.
    static func compress<C>(_ image: RGBAImage<C>, region: ImageRegion, level: Int = defaultLevel, filter: RowFilter = .up)
        throws(ImageFileError) -> [UInt8]
    {
        let sampleBytes = MemoryLayout<C>.size
        let pixelBytes = 4 * sampleBytes
        let rowBytes = region.width * pixelBytes
        let filteredRow = rowBytes + 1
        let total = filteredRow * region.height
        let level = Int32(min(max(level, 0), 12))
        guard let scratch = CompressionScratch.take(level: level, filtered: total) else {
            throw ImageFileError(path: "<encoder>", reason: "out of memory")
        }
        defer { CompressionScratch.give(scratch) }
        let filtered = scratch.filtered.baseAddress!
        // The row before the first is zero. 8-bit rows are filtered where they lie; 16-bit ones
        // are first byte-swapped (PNG is big-endian) into two row buffers used in turn, so that
        // the row above stays intact.
        let rows = UnsafeMutablePointer<UInt8>.allocate(capacity: (sampleBytes == 1 ? 1 : 3) * rowBytes)
        defer { rows.deallocate() }
        rows.initialize(repeating: 0, count: rowBytes)
        image.channels.withUnsafeBytes { pixels in
            let imageRowBytes = image.width * pixelBytes
            var above = UnsafePointer(rows)
            for y in 0..<region.height {
                let source = pixels.baseAddress! + (region.y + y) * imageRowBytes + region.x * pixelBytes
                let current: UnsafePointer<UInt8>
                if sampleBytes == 1 {
                    current = source.assumingMemoryBound(to: UInt8.self)
                } else {
                    let swapped = rows + rowBytes * (1 + y % 2)
                    for i in Swift.stride(from: 0, to: rowBytes, by: 2) {
                        let value = source.loadUnaligned(fromByteOffset: i, as: UInt16.self)
                        swapped[i] = UInt8(value >> 8)
                        swapped[i + 1] = UInt8(value & 0xFF)
                    }
                    current = UnsafePointer(swapped)
                }
                let type = filter.type ?? Self.cheapestFilter(current, above, count: rowBytes, pixelBytes: pixelBytes)
                let out = filtered + y * filteredRow
                out[0] = type
                kira_png_filter_row(Int32(type), current, above, rowBytes, pixelBytes, out + 1)
                above = current
            }
        }
        let count = libdeflate_zlib_compress(scratch.compressor, filtered, total, scratch.output.baseAddress,
                                             scratch.output.count)
        if count == 0 { throw ImageFileError(path: "<encoder>", reason: "compression failed") }
        // Exactly the compressed bytes: a frame waiting to be written holds no more than that.
        return [UInt8](UnsafeBufferPointer(start: scratch.output.baseAddress!, count: count))
    }

    /// The adaptive choice for `row` (`above` is the unfiltered row before it): the filter type
    /// whose filtered bytes, read as signed bytes, have the smallest sum of magnitudes — the
    /// first such type on a tie.
    private static func cheapestFilter(_ row: UnsafePointer<UInt8>, _ above: UnsafePointer<UInt8>, count: Int,
                                       pixelBytes: Int) -> UInt8 {
        var best: (type: UInt8, cost: UInt64) = (0, .max)
        for type: UInt8 in 0...4 {
            let cost = kira_png_filter_cost(Int32(type), row, above, count, pixelBytes)
            if cost < best.cost { best = (type, cost) }
        }
        return best.type
    }

    /// CRC-32 as PNG chunks use it (libdeflate's, many times faster than a table per byte).
    static func crc32(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        libdeflate_crc32(crc, bytes.baseAddress, bytes.count)
    }
}
