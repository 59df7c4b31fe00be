/// Which moments of an animation a clip shows: for frame k, the time in the clip (k / fps) and
/// the time in the animation that is rendered.
public struct FrameTiming: Sendable, Equatable {
    /// Frames per second of the clip.
    public let framesPerSecond: Int
    /// For each frame, the time in the animation to render (seconds).
    public let animationTimes: [Double]
    /// The length of one loop in the clip, when the animation loops: frames per loop / fps.
    /// It differs from the animation's period when period × fps is not a whole number (the
    /// period is then stretched, or squeezed, to a whole number of frames).
    public let loopLength: Double?
    /// The animation's own period, when it loops.
    public let period: Double?

    /// Frames in the clip.
    public var count: Int { animationTimes.count }

    /// Time in the clip of frame `index` (seconds).
    public func clipTime(_ index: Int) -> Double { Double(index) / Double(framesPerSecond) }

    /// Whether a loop's period was stretched or squeezed to fit whole frames.
    public var isStretched: Bool {
        guard let loopLength, let period else { return false }
        return abs(loopLength - period) > 1e-9 * period
    }

    /// An animation that plays once: `length` seconds at `fps`, both ends included (the last
    /// frame shows the end state).
    public static func once(length: Double, framesPerSecond fps: Int) -> FrameTiming {
        let count = max(1, Int((length * Double(fps)).rounded()) + 1)
        let times = (0..<count).map { min(Double($0) / Double(fps), length) }
        return FrameTiming(framesPerSecond: fps, animationTimes: times, loopLength: nil, period: nil)
    }

    /// A looping animation of `period` seconds, `loops` times over: N = round(period × fps)
    /// frames per loop (at least 2), frame k showing the animation at (k mod N) / N of its
    /// period. The last frame of a loop steps to the first like any other step — no frame is
    /// repeated — and the loop lasts exactly N / fps seconds in the clip.
    public static func loop(period: Double, framesPerSecond fps: Int, loops: Int = 1) -> FrameTiming {
        let perLoop = max(2, Int((period * Double(fps)).rounded()))
        let times = (0..<(perLoop * max(1, loops))).map { Double($0 % perLoop) / Double(perLoop) * period }
        return FrameTiming(framesPerSecond: fps, animationTimes: times,
                           loopLength: Double(perLoop) / Double(fps), period: period)
    }
}
