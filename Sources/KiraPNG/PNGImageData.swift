import CKiraPNG
import CLibDeflate
import KiraFiles
import KiraImage

/// PNG image data — the zlib stream of filtered rows that `IDAT` and `fdAT` chunks carry — for
/// a rectangle of an RGBA image, compressed with libdeflate or igzip (Intel's ISA-L).
///
/// Kira's animated PNGs are made here rather than by libpng because libpng compresses only
/// with zlib, and compressing was most of the cost of writing an animation (libdeflate level 1
/// was 57% of `kira animate --apng`'s CPU time, perf).
///
/// APNG frames and ``PNGCodec/EncodingOptions/fast`` are igzip level 2 with the Paeth filter: no
/// larger than libdeflate level 1 with Up and 42% less time for a 129-frame 2340×3170 animation
/// (2 cores, AMD EPYC; the tables are in docs/performance.md, "PNG compression").
///
/// igzip picks its SIMD code when it starts, by CPU. Levels 0–2 wrote the same bytes with its
/// AVX-512 code and with its AVX2 code (run under valgrind, which hides AVX-512) for an
/// 800×1000 `kira render` frame, Paeth-filtered; level 3's bytes differed. So files written
/// with `fast` and APNGs should not depend on the machine; only the same pixels are tested.
enum PNGImageData {
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

        /// The encoding options' filters: `.all` is the adaptive choice.
        init(_ filters: PNGCodec.Filters) {
            self = switch filters {
            case .all: .adaptive
            case .none: .none
            case .sub: .sub
            case .up: .up
            case .paeth: .paeth
            }
        }
    }

    /// The image data of `region` of `image` as `options` say: their deflater for its bit depth
    /// (zlib, which Kira reaches only through libpng, is replaced by libdeflate at the same level)
    /// and their filters.
    static func compress<C>(_ image: RGBAImage<C>, region: ImageRegion, options: PNGCodec.EncodingOptions)
        throws(ImageFileError) -> [UInt8]
    {
        var deflater = options.deflater(bitDepth: C.bitDepth)
        if case .zlib(let level) = deflater { deflater = .libdeflate(level: level) }
        return try compress(image, region: region, deflater: deflater, filter: RowFilter(options.filters))
    }

    /// The image data of `region` of `image`, rows filtered with `filter`, compressed by
    /// `deflater` (libdeflate or igzip), 16-bit samples stored big-endian as PNG requires.
    static func compress<C>(_ image: RGBAImage<C>, region: ImageRegion, deflater: PNGCodec.Deflater, filter: RowFilter)
        throws(ImageFileError) -> [UInt8]
    {
        let sampleBytes = MemoryLayout<C>.size
        let pixelBytes = 4 * sampleBytes
        let rowBytes = region.width * pixelBytes
        let filteredRow = rowBytes + 1
        let total = filteredRow * region.height
        if case .zlib = deflater { preconditionFailure("zlib compresses through libpng (PNGCodec)") }
        // igzip counts bytes in 32 bits; said before the buffers are taken.
        if case .igzip = deflater, total > Int(UInt32.max) {
            throw ImageFileError(path: "<encoder>", reason: "igzip compresses at most 4 GiB of image data; this region has \(total >> 20) MiB")
        }
        guard let scratch = CompressionScratch.take(deflater: deflater, filtered: total) else {
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
        let count = scratch.compress(count: total)
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
}
