import KiraGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(WASILibc)
import WASILibc  // WebAssembly: wasi-libc's libm (scripts/build-web)
#endif

/// What the card shows at one moment of an animation.
public struct CardState: Sendable, Equatable {
    public var pose: CardPose
    public var visibility: FaceVisibility

    public init(pose: CardPose = CardPose(), visibility: FaceVisibility = .orientation) {
        self.pose = pose
        self.visibility = visibility
    }
}

/// The SwiftUI card animations Kira reproduces (docs/fidelity.md), each as the card's state over
/// time.
///
/// Timings are SwiftUI's: its default duration (0.35 s) where a card view names a curve
/// without one; `.spring` is duration 0.5 s without bounce (``TimingCurve/smoothSpring``), and
/// `withAnimation` without an argument is iOS 17's default animation, a spring of 0.55 s without
/// bounce (``TimingCurve/defaultSpring``).
public enum AnimationPreset: String, Sendable, CaseIterable {
    /// Two faces turned separately: front 0 → 90° at once, back −90 → 0° after 0.35 s, both
    /// `.linear` (the per-face `.animation` modifiers override the outer `.easeIn`).
    case seed000Flip = "seed000-flip"
    /// One view turned 0 → 180° (`.easeInOut`, 1 s, perspective 0.3) with the face switched at
    /// 90°, three times: about y, then back about x, then about the diagonal (1, 1, 0).
    case seed001Flip = "seed001-flip"
    /// A flip with a counter-rotated back and an opacity swap, `.spring(duration: 0.6, bounce: 0.15)`.
    case seed002Flip = "seed002-flip"
    /// A continuous turn about y, `.linear(duration: 2.5)` repeated forever, perspective 0.4: one turn.
    case seed002Spin = "seed002-spin"
    /// A drag mapped to tilt (translation / 6, clamped to ±45°, perspective 0.5),
    /// then `.spring` back to rest.
    case seed002Tilt = "seed002-tilt"
    /// A drag mapped to tilt (translation × 0.15, clamped to ±10°), then `.spring`
    /// back to rest.
    case seed003Tilt = "seed003-tilt"
    /// The whole tilt-and-flip card: the on-appear nudge (tiltY to 5° with the default animation, then straight
    /// back to 0 on completion), a drag, the spring back, and a `.spring` flip with perspective 0.7.
    case seed003TiltFlip = "seed003-tilt-flip"
    /// Two linear phases of 0.3 s: back 0 → 90°, then front −90 → 0°.
    case seed004Flip = "seed004-flip"
    /// A seamless loop for a store page or a feed: the pointer circles the card once every
    /// ``showcasePeriod`` seconds at a steady pace, the card tilts towards it (`seed003-tilt`'s
    /// mapping, ±``showcaseTilt``°), and the rainbow sweeps as the view angle turns.
    case showcase

    /// The name a user types, for what the animation shows; `rawValue`, the name of the card view
    /// it reproduces, stays accepted as an alias.
    public var name: String {
        switch self {
        case .seed000Flip: "flip-two-faces"
        case .seed001Flip: "flip-three-axes"
        case .seed002Flip: "flip-spring"
        case .seed002Spin: "spin"
        case .seed002Tilt: "tilt-wide"
        case .seed003Tilt: "tilt"
        case .seed003TiltFlip: "tilt-then-flip"
        case .seed004Flip: "flip-quick"
        case .showcase: "showcase"
        }
    }

    /// Each preset by its ``name``.
    public static var names: [(String, AnimationPreset)] { allCases.map { ($0.name, $0) } }

    /// The older, seed-numbered names that differ from ``name``, still accepted.
    public static var aliases: [(String, AnimationPreset)] {
        allCases.filter { $0.name != $0.rawValue }.map { ($0.rawValue, $0) }
    }

    /// Whether the animation repeats forever (its duration is then one cycle, and a clip of it
    /// should step from its last frame to its first like any other step: see ``FrameTiming``).
    public var loops: Bool { self == .seed002Spin || self == .showcase }

    /// One turn of the showcase's pointer, in seconds.
    public static let showcasePeriod = 4.0
    /// The showcase's tilt, in degrees: `seed003-tilt`'s clamp.
    public static let showcaseTilt = 10.0

    /// Whether the animation follows a drag (the others ignore one).
    public var usesDrag: Bool {
        switch self {
        case .seed002Tilt, .seed003Tilt, .seed003TiltFlip: true
        case .seed000Flip, .seed001Flip, .seed002Flip, .seed002Spin, .seed004Flip, .showcase: false
        }
    }

    /// The natural length of the animation, in seconds; `drag` is the finger's path for the tilt
    /// presets.
    public func duration(drag: DragPath = .figureEight) -> Double {
        switch self {
        case .seed000Flip: 2 * Animation.defaultDuration
        case .seed001Flip: 3
        case .seed002Flip: Self.flipSpring.end
        case .seed002Spin: 2.5
        case .seed002Tilt, .seed003Tilt: drag.duration + Self.release.end
        case .seed003TiltFlip: Self.nudge.end + drag.duration + Self.release.end + Self.release.end
        case .seed004Flip: 0.6
        case .showcase: Self.showcasePeriod
        }
    }

    /// The card at `time` seconds.
    public func state(at time: Double, drag: DragPath = .figureEight) -> CardState {
        switch self {
        case .seed000Flip:
            let front = Animation(.linear).value(from: 0, to: 90, at: time)
            let back = Animation(.linear, delay: Animation.defaultDuration).value(from: -90, to: 0, at: time)
            return CardState(pose: CardPose(flipPerspective: 1), visibility: .separateFaces(front: front, back: back))

        case .seed001Flip:
            let axes: [CardPose.FlipAxis] = [.y, .x, .diagonal]
            let index = min(2, max(0, Int((time / 1).rounded(.down))))
            let progress = Animation(.easeInOut, duration: 1).progress(at: time - Double(index))
            let angle = index % 2 == 0 ? 180 * progress : 180 * (1 - progress)
            return CardState(pose: CardPose(flip: angle, flipAxis: axes[index], flipPerspective: 0.3),
                             visibility: .switchAtQuarterTurn)

        case .seed002Flip:
            return CardState(pose: CardPose(flip: Self.flipSpring.value(from: 0, to: 180, at: time), flipPerspective: 1),
                             visibility: .crossfadeBackUnder)

        case .seed002Spin:
            let turn = Animation(.linear, duration: 2.5, repeatsForever: true).value(from: 0, to: 360, at: time)
            return CardState(pose: CardPose(flip: turn, flipPerspective: 0.4))

        case .seed002Tilt:
            let (tx, ty) = Self.tilt(drag: drag, at: time, scale: 1.0 / 6, limit: 45)
            return CardState(pose: CardPose(tiltX: tx, tiltY: ty, tiltPerspective: 0.5), visibility: .crossfade)

        case .seed003Tilt:
            let (tx, ty) = Self.tilt(drag: drag, at: time, scale: 0.15, limit: 10)
            return CardState(pose: CardPose(tiltX: tx, tiltY: ty), visibility: .crossfade)

        case .seed003TiltFlip:
            let nudgeEnd = Self.nudge.end
            if time < nudgeEnd {
                // `withAnimation { tiltY = 5 } completion: { tiltY = 0 }`: the reset is not animated.
                return CardState(pose: CardPose(tiltY: Self.nudge.value(from: 0, to: 5, at: time)), visibility: .crossfade)
            }
            let dragStart = nudgeEnd, flipStart = nudgeEnd + drag.duration + Self.release.end
            let (tx, ty) = Self.tilt(drag: drag, at: min(time, flipStart) - dragStart, scale: 0.15, limit: 10)
            let flip = Self.release.value(from: 0, to: 180, at: time - flipStart)
            return CardState(pose: CardPose(tiltX: tx, tiltY: ty, flip: flip), visibility: .crossfade)

        case .seed004Flip:
            let back = Animation(.linear, duration: 0.3).value(from: 0, to: 90, at: time)
            let front = Animation(.linear, duration: 0.3, delay: 0.3).value(from: -90, to: 0, at: time)
            return CardState(pose: CardPose(flipPerspective: 1), visibility: .separateFaces(front: front, back: back))

        case .showcase:
            // The pointer at angle θ on a circle around the card's centre (y down); `seed003-tilt`
            // tilts by (−dy, dx) × 0.15, so the card leans towards it.
            let theta = 2 * Double.pi * time / Self.showcasePeriod
            return CardState(pose: CardPose(tiltX: -Self.showcaseTilt * sin(theta), tiltY: Self.showcaseTilt * cos(theta)),
                             visibility: .crossfade)
        }
    }

    static let flipSpring = Animation(.spring(duration: 0.6, bounce: 0.15))
    /// The tilt presets release the drag, and `seed003-tilt-flip` flips, with `withAnimation(.spring)`.
    static let release = Animation(.smoothSpring)
    /// `seed003-tilt-flip`'s on-appear nudge is `withAnimation { }` without an argument: the default animation.
    static let nudge = Animation(.defaultSpring)

    /// The tilt a drag gives at `time` (from the drag's start): the translation scaled and
    /// clamped while the finger is down, then a spring back to rest from where it was released.
    static func tilt(drag: DragPath, at time: Double, scale: Double, limit: Double) -> (x: Double, y: Double) {
        func mapped(_ t: Double) -> (Double, Double) {
            let (dx, dy) = drag.translation(at: t)
            return (min(max(-dy * scale, -limit), limit), min(max(dx * scale, -limit), limit))
        }
        guard time > 0 else { return (0, 0) }
        if time <= drag.duration { return mapped(time) }
        let (x, y) = mapped(drag.duration)
        let back = release.progress(at: time - drag.duration)
        return (x * (1 - back), y * (1 - back))
    }
}
