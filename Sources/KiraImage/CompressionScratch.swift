import CLibDeflate
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The buffers and the libdeflate compressor of one compression, kept for the next one.
///
/// An animation frame's filtered rows and its compressed bytes are about 10 MB each. Allocated
/// afresh for every frame, their pages were faulted in and cleared by the kernel every time;
/// with canvases copied on write, that was a seventh of `kira animate --apng`'s CPU time (perf),
/// and 6% once both were gone. A few scratches are kept, one per
/// compression running at once up to the number of cores, for images up to 64 MB; others are
/// freed after use.
final class CompressionScratch: @unchecked Sendable {
    let compressor: OpaquePointer
    let level: Int32
    private(set) var filtered: UnsafeMutableBufferPointer<UInt8>
    private(set) var output: UnsafeMutableBufferPointer<UInt8>

    private init?(level: Int32) {
        guard let compressor = libdeflate_alloc_compressor(level) else { return nil }
        self.compressor = compressor
        self.level = level
        filtered = UnsafeMutableBufferPointer(start: nil, count: 0)
        output = UnsafeMutableBufferPointer(start: nil, count: 0)
    }

    deinit {
        libdeflate_free_compressor(compressor)
        filtered.deallocate()
        output.deallocate()
    }

    /// Room for `filtered` bytes of filtered rows and for their compressed form.
    private func reserve(filtered bytes: Int) {
        if filtered.count < bytes {
            filtered.deallocate()
            filtered = .allocate(capacity: bytes)
        }
        let bound = libdeflate_zlib_compress_bound(compressor, bytes)
        if output.count < bound {
            output.deallocate()
            output = .allocate(capacity: bound)
        }
    }

    private static let kept = Locked<[CompressionScratch]>([])
    /// Scratches kept between compressions: as many as compressions run at once on a busy machine.
    private static let keptLimit = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))

    /// A scratch for compressing `filtered` bytes at `level` (one kept from before when there is
    /// one), nil when out of memory.
    static func take(level: Int32, filtered bytes: Int) -> CompressionScratch? {
        let reused = kept.withLock { kept in
            kept.firstIndex { $0.level == level }.map { kept.remove(at: $0) }
        }
        guard let scratch = reused ?? CompressionScratch(level: level) else { return nil }
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
