#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One block of memory for ꟻLIP's float planes, mapped for this comparison and unmapped after.
///
/// A fresh mapping faults its pages in one at a time as they are first written; ꟻLIP's planes
/// take about 60 bytes a pixel, tens of thousands of 4 KB pages for a large image, and those
/// faults cost as much as a quarter of the work. On Linux the block is aligned to 2 MB and asks
/// for transparent huge pages (`MADV_HUGEPAGE`), so a fault brings in 2 MB at once.
final class PlaneArena: @unchecked Sendable {
    let base: UnsafeMutablePointer<Float>
    private let mapping: UnsafeMutableRawPointer
    private let length: Int
    private var used = 0
    let capacity: Int

    static let hugePage = 2 << 20

    /// A block of `count` floats, uninitialised.
    init(floats count: Int) {
        capacity = count
        length = count * MemoryLayout<Float>.stride + Self.hugePage
        guard let mapped = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), mapped != MAP_FAILED else {
            fatalError("out of memory for \(count) floats")
        }
        mapping = mapped
        let aligned = (Int(bitPattern: mapped) + Self.hugePage - 1) / Self.hugePage * Self.hugePage
        #if os(Linux)
        _ = madvise(UnsafeMutableRawPointer(bitPattern: aligned), length - (aligned - Int(bitPattern: mapped)), MADV_HUGEPAGE)
        #endif
        base = UnsafeMutableRawPointer(bitPattern: aligned)!.bindMemory(to: Float.self, capacity: count)
    }

    /// The next `count` floats of the block.
    func plane(_ count: Int) -> UnsafeSendablePointer<Float> {
        precondition(used + count <= capacity, "the arena holds \(capacity) floats")
        defer { used += count }
        return UnsafeSendablePointer(base + used)
    }

    deinit { munmap(mapping, length) }
}
