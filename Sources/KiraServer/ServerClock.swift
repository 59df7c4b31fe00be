#if Server
/// The time the server's deadlines, waits and timings read: the continuous clock, or in tests a
/// clock they move by hand.
protocol ServerClock: Sendable {
    var now: ContinuousClock.Instant { get }
    /// Returns at `deadline` (or throws when the task is cancelled).
    func sleep(until deadline: ContinuousClock.Instant) async throws
}

extension ServerClock {
    func sleep(for duration: Duration) async throws { try await sleep(until: now + duration) }
}

/// The real time.
struct SystemClock: ServerClock {
    var now: ContinuousClock.Instant { .now }
    func sleep(until deadline: ContinuousClock.Instant) async throws { try await ContinuousClock().sleep(until: deadline) }
}
#endif
