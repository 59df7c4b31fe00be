#if !arch(wasm32)
import Dispatch
import Synchronization
#if canImport(CDispatch)
import CDispatch  // Linux: dispatch_apply_f lives in the C module under the Swift overlay.
#endif
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs numbered tiles on a fixed number of workers with Dispatch's parallel apply (on
/// WebAssembly, which has no threads here, on the calling thread).
///
/// Workers claim tiles from a shared counter, so a slow tile does not hold the others back. A
/// tile's result must depend only on the tile, never on the worker that ran it or on the order:
/// that is what makes every output identical at any thread count.
///
/// The apply is `dispatch_apply_f`, the C function under `DispatchQueue.concurrentPerform`:
/// the Swift overlay boxes its closure on the heap at every call, and a renderer must not
/// allocate per frame.
public struct TileScheduler: Sendable {
    /// How many workers run at once (1...``maxWorkers``).
    public let workers: Int

    /// The most workers a scheduler runs: what `--threads` allows. Each worker has scratch rows
    /// a canvas wide, so a count from a caller is bounded before anything is sized by it.
    public static let maxWorkers = 1024

    /// A scheduler of `workers` workers, taken into 1...``maxWorkers`` (a tile's result does not
    /// depend on the count, so any count draws the same).
    public init(workers: Int) {
        self.workers = min(max(1, workers), Self.maxWorkers)
    }

    /// The number of processors online (1 on WebAssembly).
    public static var processorCount: Int {
        #if !arch(wasm32)
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        #else
        1
        #endif
    }

    /// The signature of a tile function for ``run(tiles:context:_:)``.
    public typealias TileFunction = @convention(c) (_ context: UnsafeMutableRawPointer, _ tile: Int, _ worker: Int) -> Void

    /// Calls `work(context, tile, worker)` once for every tile in `0..<tiles`; `worker` is in
    /// `0..<workers` and no two calls with the same `worker` overlap.
    ///
    /// This form allocates nothing: what a renderer calls once per frame.
    public func run(tiles: Int, context: UnsafeMutableRawPointer, _ work: TileFunction) {
        guard tiles > 0 else { return }
        #if !arch(wasm32)
        if workers > 1, tiles > 1 {
            runParallel(tiles: tiles, workers: min(workers, tiles), context: context, work)
            return
        }
        #endif
        for tile in 0..<tiles { work(context, tile, 0) }
    }

    #if !arch(wasm32)
    private func runParallel(tiles: Int, workers active: Int, context: UnsafeMutableRawPointer, _ work: TileFunction) {
        var job = Job(work: work, context: context, tiles: tiles)
        withUnsafeMutablePointer(to: &job) { job in
            dispatch_apply_f(active, nil, job) { job, worker in
                let job = job!.assumingMemoryBound(to: Job.self)
                while true {
                    let tile = job.pointee.next.wrappingAdd(1, ordering: .relaxed).oldValue
                    if tile >= job.pointee.tiles { break }
                    job.pointee.work(job.pointee.context, tile, worker)
                }
            }
        }
    }
    #endif

    /// Calls `body(tile, worker)` once for every tile in `0..<tiles`, as
    /// ``run(tiles:context:_:)`` does. Converting the closure may allocate.
    public func run(tiles: Int, _ body: @Sendable (_ tile: Int, _ worker: Int) -> Void) {
        withoutActuallyEscaping(body) { body in
            var body = body
            withUnsafeMutablePointer(to: &body) { pointer in
                run(tiles: tiles, context: UnsafeMutableRawPointer(pointer)) { context, tile, worker in
                    context.assumingMemoryBound(to: (@Sendable (Int, Int) -> Void).self).pointee(tile, worker)
                }
            }
        }
    }
}

#if !arch(wasm32)
/// What the workers of one `run` share, passed to them as `dispatch_apply_f`'s context.
private struct Job: ~Copyable {
    let work: TileScheduler.TileFunction
    let context: UnsafeMutableRawPointer
    let tiles: Int
    /// The next tile to claim.
    let next = Atomic<Int>(0)
}
#endif
