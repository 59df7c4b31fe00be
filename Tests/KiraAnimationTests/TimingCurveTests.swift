#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import KiraAnimation

@Suite struct TimingCurveTests {
    static let curves: [TimingCurve] = [.linear, .easeIn, .easeOut, .easeInOut, .bezier(0.25, 0.1, 0.25, 1)]

    @Test(arguments: curves)
    func endpointsAndMonotony(curve: TimingCurve) {
        #expect(curve.value(at: 0, duration: 2) == 0)
        #expect(abs(curve.value(at: 2, duration: 2) - 1) < 1e-12)
        #expect(curve.value(at: -1, duration: 2) == 0 && abs(curve.value(at: 5, duration: 2) - 1) < 1e-12)
        var previous = 0.0
        for i in 1...400 {
            let v = curve.value(at: Double(i) / 200, duration: 2)
            #expect(v >= previous - 1e-12, "\(curve) decreases at \(i)")
            previous = v
        }
    }

    /// Values of SwiftUI's documented Béziers, by an independent bisection in Python.
    @Test func bezierValues() {
        let expected: [(TimingCurve, [Double])] = [
            (.easeIn, [0.093464651, 0.315356813, 0.621861869]),
            (.easeOut, [0.378138131, 0.684643187, 0.906535349]),
            (.easeInOut, [0.129161931, 0.5, 0.870838069]),
        ]
        for (curve, values) in expected {
            for (x, value) in zip([0.25, 0.5, 0.75], values) {
                #expect(abs(curve.value(at: x, duration: 1) - value) < 1e-8, "\(curve) at \(x)")
            }
        }
    }

    @Test(arguments: [0.1, 0.15, 0.3, 0.5])
    func springOvershootsByItsDampingAndSettles(bounce: Double) {
        let spring = TimingCurve.spring(duration: 0.6, bounce: bounce)
        // Peak overshoot of a damped spring with ζ = 1 − bounce: e^(−ζπ / √(1 − ζ²)).
        let zeta = 1 - bounce
        let expected = exp(-zeta * .pi / (1 - zeta * zeta).squareRoot())
        let peak = stride(from: 0.0, through: 3, by: 0.0005).map { spring.value(at: $0, duration: 0) }.max()! - 1
        #expect(abs(peak - expected) < 1e-4, "bounce \(bounce): overshoot \(peak), expected \(expected)")
        // For SwiftUI's small bounces the overshoot is of the order of the bounce itself
        // (0.15 → 0.6 %, 0.5 → 16 %): bounce is damping, not the overshoot fraction.
        #expect(peak > 0 && peak < bounce)
        let settle = spring.length(duration: 0)
        for t in stride(from: settle, through: settle + 2, by: 0.01) {
            #expect(abs(spring.value(at: t, duration: 0) - 1) < 0.001)
        }
        #expect(spring.value(at: 0, duration: 0) == 0)
    }

    @Test func criticallyDampedSpringNeverOvershoots() {
        let spring = TimingCurve.defaultSpring
        for t in stride(from: 0.0, through: 3, by: 0.01) { #expect(spring.value(at: t, duration: 0) <= 1) }
        #expect(abs(spring.value(at: spring.length(duration: 0), duration: 0) - 1) <= 0.001)
    }

    @Test func delaysAndRepeats() {
        let delayed = Animation(.linear, duration: 1, delay: 0.5)
        #expect(delayed.progress(at: 0.4) == 0 && delayed.progress(at: 1) == 0.5 && delayed.progress(at: 2) == 1)
        #expect(delayed.end == 1.5)
        let forever = Animation(.linear, duration: 2, repeatsForever: true)
        #expect(abs(forever.progress(at: 5) - 0.5) < 1e-12)
        let reversing = Animation(.linear, duration: 2, repeatsForever: true, autoreverses: true)
        #expect(abs(reversing.progress(at: 2.5) - 0.75) < 1e-12)
        // Backwards in time: an easeIn run played back starts fast, not with easeIn's slow start.
        let easeBack = Animation(.easeIn, duration: 1, repeatsForever: true, autoreverses: true)
        #expect(abs(easeBack.progress(at: 1.25) - TimingCurve.easeIn.value(at: 0.75, duration: 1)) < 1e-12)
        #expect(abs(easeBack.progress(at: 1.999999) - 0) < 1e-4 && abs(easeBack.progress(at: 1.000001) - 1) < 1e-4)
        #expect(abs(Animation(.linear, duration: 1).value(from: 10, to: 20, at: 0.25) - 12.5) < 1e-12)
    }
}
