#if Server
import KiraFiles
import KiraImage
import NIOCore
import OrderedCollections

/// Encoded frames by key: least recently used out first, within a budget in bytes, and one render
/// for any number of identical requests that arrive while it runs (single flight).
///
/// swift-collections' `OrderedDictionary` keeps the use order (a hit moves its entry to the end,
/// an O(n) move that costs microseconds for the few thousand frames a cache holds); no listed
/// package has a cache bounded in bytes, nor a single flight whose waiters give up at a deadline,
/// so those two are here. A render runs in a task of its own: a waiter that gives up (its client
/// left, or its deadline passed) leaves the render to finish for the others and the cache.
final class FrameCache: Sendable {
    /// Where a frame came from.
    enum Source: String, Sendable {
        case hit, miss, joined
    }

    /// The deadline passed before the frame was ready.
    struct DeadlineExceeded: Error {}

    private struct Flight {
        var waiters: [Int: CheckedContinuation<ByteBuffer, any Error>] = [:]
    }

    private struct State {
        var entries: OrderedDictionary<String, ByteBuffer> = [:]
        var heldBytes = 0
        var flights: [String: Flight] = [:]
        var nextWaiter = 0
    }

    /// Bytes of encoded frames kept at most.
    let capacity: Int
    private let state = Locked(State())
    private let onChange: @Sendable (_ heldBytes: Int) -> Void
    private let onKeep: @Sendable (_ frame: ByteBuffer, _ kept: Bool) -> Void
    private let clock: any ServerClock

    /// `onChange` hears the bytes held after each change; `onKeep` each frame kept and each let go.
    init(capacity: Int, clock: any ServerClock = SystemClock(), onChange: @escaping @Sendable (_ heldBytes: Int) -> Void = { _ in },
         onKeep: @escaping @Sendable (_ frame: ByteBuffer, _ kept: Bool) -> Void = { _, _ in }) {
        self.capacity = capacity
        self.clock = clock
        self.onChange = onChange
        self.onKeep = onKeep
    }

    /// The bytes held now.
    var heldBytes: Int { state.withLock { $0.heldBytes } }
    /// The frames held now.
    var count: Int { state.withLock { $0.entries.count } }
    /// Renders under way now.
    var flightCount: Int { state.withLock { $0.flights.count } }

    /// The frame for `key` if cached (it becomes the most recently used).
    func cached(_ key: String) -> ByteBuffer? {
        state.withLock { state in
            guard let index = state.entries.index(forKey: key) else { return nil }
            let frame = state.entries.remove(at: index)
            state.entries[frame.key] = frame.value
            return frame.value
        }
    }

    /// The frame for `key`: from the cache, from a render of it already under way, or made now by
    /// `make`. Throws ``DeadlineExceeded`` at `deadline` (the render goes on), or what `make` threw.
    func frame(for key: String, deadline: ContinuousClock.Instant,
               make: @escaping @Sendable () async throws -> ByteBuffer) async throws -> (frame: ByteBuffer, source: Source) {
        if let frame = cached(key) { return (frame, .hit) }
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let timer = Task {
            try await self.clock.sleep(until: deadline)
            self.resume(waiter: id, of: key, with: .failure(DeadlineExceeded()))
        }
        defer { timer.cancel() }
        var source = Source.miss
        let frame = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ByteBuffer, any Error>) in
                // Looked up and parked under one lock, so that no render can finish in between.
                let found = state.withLock { state -> ByteBuffer? in
                    if let frame = state.entries[key] {
                        source = .hit
                        return frame
                    }
                    source = state.flights[key] == nil ? .miss : .joined
                    state.flights[key, default: Flight()].waiters[id] = continuation
                    return nil
                }
                if let found {
                    continuation.resume(returning: found)
                } else if source == .miss {
                    Task {
                        do { self.finish(key, with: .success(try await make())) } catch { self.finish(key, with: .failure(error)) }
                    }
                }
            }
        } onCancel: {
            resume(waiter: id, of: key, with: .failure(CancellationError()))
        }
        return (frame, source)
    }

    /// Ends one waiter, if still waiting.
    private func resume(waiter id: Int, of key: String, with result: Result<ByteBuffer, any Error>) {
        let continuation = state.withLock { $0.flights[key]?.waiters.removeValue(forKey: id) }
        continuation?.resume(with: result)
    }

    /// Ends a render: its frame is kept (when it fits) and handed to every waiter.
    private func finish(_ key: String, with result: Result<ByteBuffer, any Error>) {
        var kept: ByteBuffer?
        var dropped: [ByteBuffer] = []
        let (waiters, held) = state.withLock { state -> ([CheckedContinuation<ByteBuffer, any Error>], Int) in
            let flight = state.flights.removeValue(forKey: key)
            if case .success(let frame) = result, frame.readableBytes <= capacity {
                if let old = state.entries.removeValue(forKey: key) {
                    state.heldBytes -= old.readableBytes
                    dropped.append(old)
                }
                while state.heldBytes + frame.readableBytes > capacity, let oldest = state.entries.elements.first {
                    state.entries.removeFirst()
                    state.heldBytes -= oldest.value.readableBytes
                    dropped.append(oldest.value)
                }
                state.entries[key] = frame
                state.heldBytes += frame.readableBytes
                kept = frame
            }
            return (Array(flight?.waiters.values ?? [:].values), state.heldBytes)
        }
        // Before any waiter has the frame to queue for its client, so that it is counted once.
        for frame in dropped { onKeep(frame, false) }
        if let kept { onKeep(kept, true) }
        onChange(held)
        for waiter in waiters { waiter.resume(with: result) }
    }
}
#endif
