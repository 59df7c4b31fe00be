import Dispatch
import Synchronization

/// Rows of an image split into bands that worker threads take one at a time, so that a core
/// slowed by other work holds up the rest less.
enum RowBands {
    /// Runs `body` over rows `0..<height` in `bands` bands, on at most `threads` threads (nil:
    /// as many as the system gives).
    static func run(_ height: Int, bands: Int, threads: Int?, _ body: @Sendable (Range<Int>) -> Void) {
        let count = max(1, min(height, bands))
        @Sendable func band(_ index: Int) {
            let start = height * index / count, end = height * (index + 1) / count
            if start < end { body(start..<end) }
        }
        guard let threads else {
            DispatchQueue.concurrentPerform(iterations: count, execute: band)
            return
        }
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: max(1, min(threads, count))) { _ in
            while case let index = next.wrappingAdd(1, ordering: .relaxed).oldValue, index < count { band(index) }
        }
    }
}
