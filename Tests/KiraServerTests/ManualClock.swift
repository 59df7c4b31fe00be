#if Server
import KiraFiles
import KiraImage
@testable import KiraServer

/// A clock the test moves by hand: sleepers wake when ``advance(by:)`` passes their deadline.
final class ManualClock: ServerClock {
    private struct State {
        var offset = Duration.zero
        var nextSleeper = 0
        var sleepers: [Int: (deadline: ContinuousClock.Instant, continuation: CheckedContinuation<Void, any Error>)] = [:]
        var cancelled: Set<Int> = []
    }

    private let origin = ContinuousClock.now
    private let state = Locked(State())

    var now: ContinuousClock.Instant { origin + state.withLock { $0.offset } }

    /// Sleepers the test left waiting (a live connection's wake-up set for later) are cancelled.
    deinit {
        for sleeper in state.withLock({ $0.sleepers.values }) { sleeper.continuation.resume(throwing: CancellationError()) }
    }

    /// Sleepers waiting now.
    var sleepers: Int { state.withLock { $0.sleepers.count } }

    func sleep(until deadline: ContinuousClock.Instant) async throws {
        let id = state.withLock { state in
            state.nextSleeper += 1
            return state.nextSleeper
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ready = state.withLock { state -> Result<Void, any Error>? in
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if origin + state.offset >= deadline { return .success(()) }
                    state.sleepers[id] = (deadline, continuation)
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            let sleeper = state.withLock { state in
                let sleeper = state.sleepers.removeValue(forKey: id)
                if sleeper == nil { state.cancelled.insert(id) }
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the time on by `duration`, waking every sleeper it passes.
    func advance(by duration: Duration) {
        let woken = state.withLock { state in
            state.offset += duration
            let now = origin + state.offset
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in woken { continuation.resume() }
    }

    /// Waits (in real time, at most `seconds`) until `count` sleepers wait.
    func waitForSleepers(_ count: Int, seconds: Double = 60) async throws {
        for _ in 0..<Int(seconds * 200) where sleepers < count { try await Task.sleep(for: .milliseconds(5)) }
    }
}
#endif
