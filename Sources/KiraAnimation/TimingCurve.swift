#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(WASILibc)
import WASILibc  // WebAssembly: wasi-libc's libm (scripts/build-web)
#endif

/// How an animated value moves from its start (0) to its end (1).
public enum TimingCurve: Sendable, Equatable {
    case linear
    /// SwiftUI's documented cubic Bézier timing curves.
    case easeIn, easeOut, easeInOut
    /// A cubic Bézier from (0, 0) to (1, 1) with control points (x1, y1) and (x2, y2).
    case bezier(Double, Double, Double, Double)
    /// A damped spring released from rest at 0 towards 1.
    ///
    /// SwiftUI does not publish its spring's formula; this is the standard mass–spring–damper
    /// response with SwiftUI's parametrisation: `duration` is the period of the undamped
    /// oscillation (angular frequency `2π / duration`) and `bounce` sets the damping ratio
    /// `ζ = 1 − bounce` (bounce 0 is critically damped, no overshoot).
    case spring(duration: Double, bounce: Double)

    /// SwiftUI's `.spring` (and `.spring()`, `.smooth`): `spring(duration: 0.5, bounce: 0)`.
    /// Source: Apple's documentation of `Animation.spring`
    /// (https://developer.apple.com/documentation/swiftui/animation/spring).
    public static let smoothSpring = TimingCurve.spring(duration: 0.5, bounce: 0)

    /// SwiftUI's default animation on iOS 17 / macOS 14 and later, what `withAnimation { }` without
    /// an argument uses: `spring(response: 0.55, dampingFraction: 1.0, blendDuration: 0)`, i.e.
    /// duration 0.55 s and no bounce (response is the period; damping fraction 1 is bounce 0).
    /// Before iOS 17 it was `easeInOut`. Source: Apple's documentation of `Animation.default`
    /// (https://developer.apple.com/documentation/swiftui/animation/default).
    public static let defaultSpring = TimingCurve.spring(duration: 0.55, bounce: 0)

    /// The value at `time` seconds into an animation of `duration` seconds (ignored by springs,
    /// which run on their own clock). 0 at or before the start; 1 at the end (springs approach it).
    public func value(at time: Double, duration: Double) -> Double {
        switch self {
        case .spring(let period, let bounce):
            return Self.spring(time: max(0, time), period: period, bounce: bounce)
        default:
            guard duration > 0 else { return time >= 0 ? 1 : 0 }
            let x = min(max(time / duration, 0), 1)
            switch self {
            case .linear: return x
            case .easeIn: return Self.bezier(x, 0.42, 0, 1, 1)
            case .easeOut: return Self.bezier(x, 0, 0, 0.58, 1)
            case .easeInOut: return Self.bezier(x, 0.42, 0, 0.58, 1)
            case .bezier(let x1, let y1, let x2, let y2): return Self.bezier(x, x1, y1, x2, y2)
            case .spring: return x  // handled above
            }
        }
    }

    /// How long the animation lasts: `duration` for the curves; for a spring, the time after
    /// which it stays within 0.1% of its end.
    public func length(duration: Double) -> Double {
        guard case .spring(let period, let bounce) = self else { return duration }
        let omega = 2 * .pi / period, zeta = 1 - min(max(bounce, 0), 1)
        // The response stays inside its envelope; solve envelope = 0.001.
        if zeta >= 1 {
            // 1 − e^{−ωt}(1 + ωt): step to where it is within the tolerance.
            var t = 0.0
            while (1 + omega * t) * exp(-omega * t) > 0.001 { t += period / 1000 }
            return t
        }
        let damped = omega * (1 - zeta * zeta).squareRoot()
        let amplitude = (1 + pow(zeta * omega / damped, 2)).squareRoot()
        return log(amplitude / 0.001) / (zeta * omega)
    }

    // MARK: Implementations

    /// y of the Bézier at abscissa `x`: the curve parameter is found by Newton's method, with
    /// bisection when a step leaves [0, 1] or the slope vanishes.
    static func bezier(_ x: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        func curve(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
            let u = 1 - t
            return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
        }
        func slope(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
            let u = 1 - t
            return 3 * u * u * p1 + 6 * u * t * (p2 - p1) + 3 * t * t * (1 - p2)
        }
        var low = 0.0, high = 1.0, t = x
        for _ in 0..<50 {
            let error = curve(t, x1, x2) - x
            if abs(error) < 1e-12 { break }
            if error > 0 { high = t } else { low = t }
            let d = slope(t, x1, x2)
            var next = d != 0 ? t - error / d : (low + high) / 2
            if next <= low || next >= high { next = (low + high) / 2 }
            t = next
        }
        return curve(t, y1, y2)
    }

    static func spring(time t: Double, period: Double, bounce: Double) -> Double {
        let omega = 2 * .pi / period, zeta = 1 - min(max(bounce, 0), 1)
        if zeta >= 1 { return 1 - (1 + omega * t) * exp(-omega * t) }
        let damped = omega * (1 - zeta * zeta).squareRoot()
        return 1 - exp(-zeta * omega * t) * (cos(damped * t) + zeta * omega / damped * sin(damped * t))
    }
}

/// A timed change of a value: a curve, its duration, a delay, and repetition.
public struct Animation: Sendable, Equatable {
    public var curve: TimingCurve
    /// Seconds, for the non-spring curves.
    public var duration: Double
    public var delay: Double
    /// Repeat forever, optionally playing every other run backwards.
    public var repeatsForever: Bool
    public var autoreverses: Bool

    public init(_ curve: TimingCurve, duration: Double = 0.35, delay: Double = 0,
                repeatsForever: Bool = false, autoreverses: Bool = false) {
        self.curve = curve
        self.duration = duration
        self.delay = delay
        self.repeatsForever = repeatsForever
        self.autoreverses = autoreverses
    }

    /// SwiftUI's `.linear`, `.easeIn`… default duration.
    public static let defaultDuration = 0.35

    /// When it ends (after the delay), for one run.
    public var end: Double { delay + curve.length(duration: duration) }

    /// Progress from 0 to 1 at `time` seconds after the animation was started.
    public func progress(at time: Double) -> Double {
        let local = time - delay
        guard local > 0 else { return 0 }
        let length = curve.length(duration: duration)
        guard repeatsForever, length > 0 else { return curve.value(at: local, duration: duration) }
        let run = (local / length).rounded(.down)
        let within = local - run * length
        // A reversed run plays the curve backwards in time (not mirrored in value).
        let reversed = autoreverses && Int(run) % 2 == 1
        return curve.value(at: reversed ? length - within : within, duration: duration)
    }

    /// The value animated from `from` to `to`, at `time`.
    public func value(from: Double, to: Double, at time: Double) -> Double {
        from + (to - from) * progress(at: time)
    }
}
