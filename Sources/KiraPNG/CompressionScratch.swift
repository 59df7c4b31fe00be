import CKiraPNG
import CLibDeflate
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import KiraFiles
import KiraImage

/// The buffers and the compressor (libdeflate or igzip) of one compression, kept for the next one.
///
/// An animation frame's filtered rows and its compressed bytes are about 10 MB each. Allocated
/// afresh for every frame, their pages were faulted in and cleared by the kernel every time;
/// with canvases copied on write, that was a seventh of `kira animate --apng`'s CPU time (perf),
/// and 6% once both were gone. A few scratches are kept, one per
/// compression running at once up to the number of cores, for images up to 64 MB; others are
/// freed after use.
final class CompressionScratch: @unchecked Sendable {
    /// A compressor for one deflater and level: libdeflate's or igzip's (through `kira_igzip.h`).
    enum Compressor {
        case libdeflate(OpaquePointer)
        case igzip(OpaquePointer)
    }

    let compressor: Compressor
    let deflater: PNGCodec.Deflater
    private(set) var filtered: UnsafeMutableBufferPointer<UInt8>
    private(set) var output: UnsafeMutableBufferPointer<UInt8>

    private init?(deflater: PNGCodec.Deflater) {
        switch deflater {
        case .igzip(let level):
            guard let compressor = kira_igzip_alloc_compressor(Int32(level)) else { return nil }
            self.compressor = .igzip(compressor)
        case .libdeflate(let level):
            guard let compressor = libdeflate_alloc_compressor(Int32(level)) else { return nil }
            self.compressor = .libdeflate(compressor)
        case .zlib:
            preconditionFailure("zlib compresses through libpng (PNGCodec), not with a scratch")
        }
        self.deflater = deflater
        filtered = UnsafeMutableBufferPointer(start: nil, count: 0)
        output = UnsafeMutableBufferPointer(start: nil, count: 0)
    }

    deinit {
        switch compressor {
        case .libdeflate(let compressor): libdeflate_free_compressor(compressor)
        case .igzip(let compressor): kira_igzip_free_compressor(compressor)
        }
        filtered.deallocate()
        output.deallocate()
    }

    /// The first `count` bytes of ``filtered`` as one zlib stream in ``output``: its length, 0 on
    /// failure.
    func compress(count: Int) -> Int {
        switch compressor {
        case .libdeflate(let compressor):
            libdeflate_zlib_compress(compressor, filtered.baseAddress, count, output.baseAddress, output.count)
        case .igzip(let compressor):
            kira_igzip_zlib_compress(compressor, filtered.baseAddress, count, output.baseAddress, output.count)
        }
    }

    /// Room for `filtered` bytes of filtered rows and for their compressed form.
    private func reserve(filtered bytes: Int) {
        if filtered.count < bytes {
            filtered.deallocate()
            filtered = .allocate(capacity: bytes)
        }
        let bound = switch compressor {
        case .libdeflate(let compressor): libdeflate_zlib_compress_bound(compressor, bytes)
        case .igzip: kira_igzip_zlib_compress_bound(bytes)
        }
        if output.count < bound {
            output.deallocate()
            output = .allocate(capacity: bound)
        }
    }

    private static let kept = Locked<[CompressionScratch]>([])
    /// Scratches kept between compressions: as many as compressions run at once on a busy machine.
    private static let keptLimit = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))

    /// A scratch for compressing `filtered` bytes with `deflater` (libdeflate or igzip, at its
    /// level; one kept from before when there is one), nil when out of memory.
    static func take(deflater: PNGCodec.Deflater, filtered bytes: Int) -> CompressionScratch? {
        let reused = kept.withLock { kept in
            kept.firstIndex { $0.deflater == deflater }.map { kept.remove(at: $0) }
        }
        guard let scratch = reused ?? CompressionScratch(deflater: deflater) else { return nil }
        scratch.reserve(filtered: bytes)
        return scratch
    }

    /// The largest filtered image a kept scratch may hold room for: a 2340×3170 RGBA8 canvas is
    /// 30 MB; room for a larger image (up to gigabytes) is given back after its compression.
    private static let keptBytesLimit = 64 << 20

    /// Returns `scratch` for a later compression.
    static func give(_ scratch: CompressionScratch) {
        let dropped: CompressionScratch? = kept.withLock { kept in
            if kept.count < keptLimit, scratch.filtered.count <= keptBytesLimit {
                kept.append(scratch)
                return nil
            }
            return scratch
        }
        _ = dropped  // freed here, outside the lock
    }
}
