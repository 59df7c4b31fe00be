#if Server
import DequeModule
import KiraFiles
import KiraImage

/// At most so many renders at once, and at most so many bytes of frames in flight; a render that
/// cannot start within a short wait is refused, so that overload is a fast 503, never a queue
/// without end.
///
/// Waiters are served first come, first served (a large frame at the head is not passed by small
/// ones, which would starve it). No listed package has an asynchronous semaphore with a bounded
/// wait and weights (swift-async-algorithms has none), so it is here, on swift-collections' Deque.
final class AdmissionGate: Sendable {
    /// The wait ran out.
    struct Overloaded: Error {}

    private struct Waiter {
        let id: Int
        let bytes: Int
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var running = 0
        var bytes = 0
        var waiting: Deque<Waiter> = []
        var nextWaiter = 0
        /// Waiters whose time ran out before they were parked.
        var expired: Set<Int> = []
        /// Bytes of answers queued for clients, by buffer: how many connections hold each, and its
        /// size. One counts here unless the frame cache keeps it (it counts in the cache's share).
        var held: [Int: (connections: Int, bytes: Int)] = [:]
        /// The buffers the frame cache keeps.
        var cached: Set<Int> = []
    }

    let slots: Int
    let byteBudget: Int
    /// Waiters beyond this many are refused at once: each holds a connection and a little memory.
    let maxWaiting: Int
    private let state = Locked(State())
    private let clock: any ServerClock

    init(slots: Int, byteBudget: Int, maxWaiting: Int, clock: any ServerClock = SystemClock()) {
        self.slots = slots
        self.byteBudget = byteBudget
        self.maxWaiting = maxWaiting
        self.clock = clock
    }

    /// Bytes counted now: renders' and answers' still queued.
    var bytesInUse: Int { state.withLock { $0.bytes } }

    /// Renders running now.
    var running: Int { state.withLock { $0.running } }
    /// Requests waiting now.
    var waiting: Int { state.withLock { $0.waiting.count } }

    /// Waits until a render of `bytes` may start, at most `wait`; throws ``Overloaded`` after it.
    /// Every successful call is paired with one ``release(bytes:)``.
    func admit(bytes: Int, wait: Duration) async throws {
        precondition(bytes <= byteBudget, "a frame over the whole budget is refused before it asks")
        let id = state.withLock { state -> Int? in
            if state.waiting.isEmpty, state.running < slots, state.bytes + bytes <= byteBudget {
                state.running += 1
                state.bytes += bytes
                return nil
            }
            state.nextWaiter += 1
            return state.nextWaiter
        }
        guard let id else { return }
        let timer = Task {
            try await self.clock.sleep(for: wait)
            self.abandon(id)
        }
        defer { timer.cancel() }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let refused = state.withLock { state -> Bool in
                if state.expired.remove(id) != nil { return true }
                guard state.waiting.count < maxWaiting else { return true }
                state.waiting.append(Waiter(id: id, bytes: bytes, continuation: continuation))
                return false
            }
            if refused { continuation.resume(throwing: Overloaded()) }
            // A render may have ended between the first look and the parking.
            else { release(bytes: 0, finished: false) }
        }
    }

    /// A render of `bytes` ended: the waiters that now fit start, in order.
    func release(bytes: Int) { release(bytes: bytes, finished: true) }

    private func release(bytes: Int, finished: Bool) {
        let started = state.withLock { state -> [Waiter] in
            if finished {
                state.running -= 1
                state.bytes -= bytes
            }
            var started: [Waiter] = []
            while let head = state.waiting.first, state.running < slots, state.bytes + head.bytes <= byteBudget {
                state.waiting.removeFirst()
                state.running += 1
                state.bytes += head.bytes
                started.append(head)
            }
            return started
        }
        for waiter in started { waiter.continuation.resume() }
    }

    /// An answer's buffer of `bytes`, identified by `key`, is queued for a client: it counts in the
    /// budget (once, whichever connections hold it, and not while the frame cache keeps it) until
    /// ``releaseHeld(key:)`` as often. It may take the bytes over the budget: renders then wait
    /// until it is sent.
    func hold(key: Int, bytes: Int) {
        state.withLock { state in
            if let entry = state.held[key] {
                state.held[key] = (entry.connections + 1, entry.bytes)
            } else {
                state.held[key] = (1, bytes)
                if !state.cached.contains(key) { state.bytes += bytes }
            }
        }
    }

    /// One connection sent (or dropped) the buffer `key`.
    func releaseHeld(key: Int) {
        let freed = state.withLock { state -> Int in
            guard let entry = state.held[key] else { return 0 }
            guard entry.connections == 1 else {
                state.held[key] = (entry.connections - 1, entry.bytes)
                return 0
            }
            state.held[key] = nil
            guard !state.cached.contains(key) else { return 0 }
            state.bytes -= entry.bytes
            return entry.bytes
        }
        if freed > 0 { release(bytes: 0, finished: false) }
    }

    /// The frame cache keeps the buffer `key` now (its bytes count in the cache's share), or no
    /// longer: a buffer still queued for a client then counts here until it is sent.
    func setCached(key: Int, _ isCached: Bool) {
        let freed = state.withLock { state -> Bool in
            let wasCached = isCached ? !state.cached.insert(key).inserted : state.cached.remove(key) != nil
            guard wasCached != isCached, let entry = state.held[key] else { return false }
            state.bytes += isCached ? -entry.bytes : entry.bytes
            return isCached
        }
        if freed { release(bytes: 0, finished: false) }
    }

    /// A waiter's time ran out: it leaves the line, refused.
    private func abandon(_ id: Int) {
        let waiter = state.withLock { state -> Waiter? in
            guard let index = state.waiting.firstIndex(where: { $0.id == id }) else {
                state.expired.insert(id)
                return nil
            }
            return state.waiting.remove(at: index)
        }
        waiter?.continuation.resume(throwing: Overloaded())
        // The head may have left: those behind it may fit now.
        if waiter != nil { release(bytes: 0, finished: false) }
    }
}
#endif
