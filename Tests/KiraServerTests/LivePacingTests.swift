#if Server
@testable import KiraServer
import Testing

/// The live preview's pacing: the next render is timed to be ready when the frame in flight is
/// acknowledged.
struct LivePacingTests {
    @Test func theNextRenderEndsAboutWhenTheAcknowledgementComes() {
        var pacing = LivePacing()
        let t0 = ContinuousClock.now
        #expect(pacing.nextRenderStart == nil)
        // Nothing measured: render at once.
        pacing.sent(at: t0)
        #expect(pacing.nextRenderStart == t0)
        pacing.rendered(taking: .milliseconds(10))
        pacing.acknowledged(at: t0 + .milliseconds(30))
        #expect(pacing.roundTrip == .milliseconds(30))
        #expect(pacing.nextRenderStart == nil)
        let t1 = t0 + .milliseconds(40)
        pacing.sent(at: t1)
        #expect(pacing.nextRenderStart == t1 + .milliseconds(20))
        // Smoothed: a quarter of each new sample.
        pacing.acknowledged(at: t1 + .milliseconds(70))
        #expect(pacing.roundTrip == .milliseconds(40))
        pacing.rendered(taking: .milliseconds(50))
        #expect(pacing.renderTime == .milliseconds(20))
        // A render slower than the round trip starts as soon as the frame is out.
        pacing.sent(at: t1 + .milliseconds(100))
        pacing.rendered(taking: .milliseconds(200))
        #expect(pacing.nextRenderStart! < t1 + .milliseconds(100))
    }
}
#endif
