import KiraGeometry

/// The tilt-and-flip card driven live: a pointer (or a phone's orientation) tilts it, releasing
/// it springs back to rest, and a tap flips it, with `seed003-tilt-flip`'s mapping and springs.
///
/// A front end feeds it input as it comes, stamped with its own clock in seconds, and asks for
/// the card at any time (``state(at:)``); the poses come from the same mapping and the same
/// ``TimingCurve`` springs as ``AnimationPreset/seed003TiltFlip``, so a live preview and a
/// rendered animation move alike. Springs are restarted from where the value is when a new
/// target comes (a tap during a flip turns the card back from its current angle).
public struct InteractiveCard: Sendable, Equatable {
    /// Degrees of tilt per point of drag, as the seed's card.
    public static let responsiveness = 0.15
    /// The seed's clamp, in degrees.
    public static let defaultTiltLimit = 10.0
    /// The largest clamp a front end may set: the default canvas has room for ±45°.
    public static let tiltLimitRange: ClosedRange<Double> = 1...45
    /// The largest pointer offset taken, in points: far beyond any screen, small enough to stay finite.
    public static let maxOffset = 100_000.0

    /// The clamp of the tilts, in degrees (``tiltLimitRange``).
    public private(set) var tiltLimit = defaultTiltLimit
    /// No springs: the card jumps to its targets (for `prefers-reduced-motion`).
    public var reducedMotion = false

    /// The tilt while held (nil when released).
    private var held: (x: Double, y: Double)?
    /// The tilt the card was released from, and when.
    private var released: (x: Double, y: Double, time: Double) = (0, 0, 0)
    /// The flip's spring: from, to, started at.
    private var flip: (from: Double, to: Double, time: Double) = (0, 0, 0)

    public init(tiltLimit: Double = defaultTiltLimit) {
        setTiltLimit(tiltLimit)
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.tiltLimit == b.tiltLimit && a.reducedMotion == b.reducedMotion && a.held?.x == b.held?.x && a.held?.y == b.held?.y
            && a.released == b.released && a.flip == b.flip
    }

    /// Sets the clamp, bounded to ``tiltLimitRange``.
    public mutating func setTiltLimit(_ limit: Double) {
        tiltLimit = limit.isFinite ? min(max(limit, Self.tiltLimitRange.lowerBound), Self.tiltLimitRange.upperBound) : Self.defaultTiltLimit
    }

    /// The pointer is down (or moved) `dx`, `dy` points (right, down) from where it was pressed:
    /// the card follows at once, as the seed's `onChanged` sets the tilt without animation.
    public mutating func drag(dx: Double, dy: Double) {
        let dx = Self.bounded(dx), dy = Self.bounded(dy)
        held = (Self.clamp(-dy * Self.responsiveness, tiltLimit), Self.clamp(dx * Self.responsiveness, tiltLimit))
    }

    /// A phone's orientation, in degrees from where it was first held (`beta` front-back,
    /// `gamma` left-right): tilts the card as a drag that turns it by the same angles would,
    /// clamped alike.
    public mutating func orient(beta: Double, gamma: Double) {
        drag(dx: Self.bounded(gamma) / Self.responsiveness, dy: -Self.bounded(beta) / Self.responsiveness)
    }

    /// The pointer is up at `time`: the card springs back to rest with the seed's `.spring`.
    public mutating func release(at time: Double) {
        guard let held else { return }
        released = (held.x, held.y, time)
        self.held = nil
    }

    /// A tap or the space bar at `time`: the card turns to its other face with the seed's
    /// `.spring`, from wherever it is.
    public mutating func toggleFlip(at time: Double) {
        let now = flipAngle(at: time)
        flip = (now, flip.to == 0 ? 180 : 0, time)
    }

    /// Which face the card is turning to: true for the back.
    public var showsBack: Bool { flip.to != 0 }

    /// The card at `time` (the same clock as the input's).
    public func state(at time: Double) -> CardState {
        let tilt: (x: Double, y: Double)
        if let held {
            tilt = held
        } else {
            let back = Self.progress(since: released.time, at: time, reducedMotion: reducedMotion)
            tilt = (released.x * (1 - back), released.y * (1 - back))
        }
        return CardState(pose: CardPose(tiltX: tilt.x, tiltY: tilt.y, flip: flipAngle(at: time)), visibility: .crossfade)
    }

    /// Whether the card still moves at `time` without new input: a spring has not yet settled.
    public func isMoving(at time: Double) -> Bool {
        guard !reducedMotion else { return false }
        let end = AnimationPreset.release.end
        let springing = held == nil && (released.x != 0 || released.y != 0) && time - released.time < end
        return springing || (flip.from != flip.to && time - flip.time < end)
    }

    private func flipAngle(at time: Double) -> Double {
        let progress = Self.progress(since: flip.time, at: time, reducedMotion: reducedMotion)
        return flip.from + (flip.to - flip.from) * progress
    }

    /// The seed's release spring's progress `time − start` seconds in; 1 once it has settled
    /// (within 0.1%, ``Animation/end``) or without motion.
    private static func progress(since start: Double, at time: Double, reducedMotion: Bool) -> Double {
        let release = AnimationPreset.release
        return reducedMotion || time - start >= release.end ? 1 : release.progress(at: time - start)
    }

    private static func clamp(_ value: Double, _ limit: Double) -> Double { min(max(value, -limit), limit) }
    private static func bounded(_ value: Double) -> Double { value.isFinite ? min(max(value, -maxOffset), maxOffset) : 0 }
}
