import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs numbered tiles on a fixed number of workers with `DispatchQueue.concurrentPerform`.
///
/// Workers claim tiles from a shared counter, so a slow tile does not hold the others back. A
/// tile's result must depend only on the tile, never on the worker that ran it or on the order:
/// that is what makes every output identical at any thread count.
public struct TileScheduler: Sendable {
    /// How many workers run at once (at least 1).
    public let workers: Int

    public init(workers: Int) {
        self.workers = max(1, workers)
    }

    /// The number of processors online.
    public static var processorCount: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// Calls `body(tile, worker)` once for every tile in `0..<tiles`; `worker` is in
    /// `0..<workers` and no two calls with the same `worker` overlap.
    public func run(tiles: Int, _ body: @Sendable (_ tile: Int, _ worker: Int) -> Void) {
        guard tiles > 0 else { return }
        let active = min(workers, tiles)
        if active == 1 {
            for tile in 0..<tiles { body(tile, 0) }
            return
        }
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: active) { worker in
            while true {
                let tile = next.wrappingAdd(1, ordering: .relaxed).oldValue
                if tile >= tiles { break }
                body(tile, worker)
            }
        }
    }
}
