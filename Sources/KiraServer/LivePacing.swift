#if Server
/// When a live preview connection starts its next render: while a frame is in flight, late
/// enough that the render shows the newest input, early enough that it is ready about when the
/// page acknowledges the frame in flight. Rendering as soon as a frame is sent held each frame
/// back for the whole round trip (p95 latency 156 ms on loopback, whole-canvas PNG frames, idle
/// 2-core Zen 4); rendering only after the acknowledgement ran render and paint one after the
/// other, a fifth of both cores idle (top, raw frames).
struct LivePacing {
    /// From sending a frame to its acknowledgement, smoothed.
    private(set) var roundTrip = Duration.zero
    /// A render's time, smoothed.
    private(set) var renderTime = Duration.zero
    private var sentAt: ContinuousClock.Instant?

    /// A frame went out at `instant`.
    mutating func sent(at instant: ContinuousClock.Instant) { sentAt = instant }

    /// The page acknowledged the frame in flight at `instant`.
    mutating func acknowledged(at instant: ContinuousClock.Instant) {
        guard let sentAt else { return }
        roundTrip = Self.smoothed(roundTrip, instant - sentAt)
        self.sentAt = nil
    }

    /// A render took `duration`.
    mutating func rendered(taking duration: Duration) { renderTime = Self.smoothed(renderTime, duration) }

    /// When to start the next render while a frame is in flight: its expected acknowledgement
    /// less a render's time (at once when nothing has been measured yet).
    var nextRenderStart: ContinuousClock.Instant? {
        sentAt.map { $0 + roundTrip - renderTime }
    }

    /// A quarter of the new sample, three quarters of the old value (the sample itself at first).
    private static func smoothed(_ old: Duration, _ sample: Duration) -> Duration {
        old == .zero ? sample : (old * 3 + sample) / 4
    }
}
#endif
