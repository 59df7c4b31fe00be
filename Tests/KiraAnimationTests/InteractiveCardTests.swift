import KiraGeometry
import Testing
@testable import KiraAnimation

@Suite struct InteractiveCardTests {
    /// A drag, then the release, poses the card as `seed003-tilt` does at the same moments.
    @Test func followsTheSeedsDragAndRelease() throws {
        let drag = try DragPath(samples: [.init(time: 0.1, dx: 0, dy: 0), .init(time: 0.5, dx: 40, dy: -30)])
        var card = InteractiveCard()
        card.drag(dx: 40, dy: -30)
        let held = card.state(at: 0.5).pose
        let preset = AnimationPreset.seed003Tilt
        #expect(held.tiltX == preset.state(at: 0.5, drag: drag).pose.tiltX)
        #expect(held.tiltY == preset.state(at: 0.5, drag: drag).pose.tiltY)
        card.release(at: 0.5)
        for t in [0.55, 0.6, 0.8, 1.2] {
            let live = card.state(at: t).pose, expected = preset.state(at: t, drag: drag).pose
            #expect(abs(live.tiltX - expected.tiltX) < 1e-12 && abs(live.tiltY - expected.tiltY) < 1e-12, "at \(t): \(live) vs \(expected)")
        }
        #expect(card.isMoving(at: 0.6))
        #expect(!card.isMoving(at: 0.5 + AnimationPreset.release.end))
        #expect(card.state(at: 10).pose.tiltX == 0 && card.state(at: 10).pose.tiltY == 0)
    }

    @Test func clampsToTheLimit() {
        var card = InteractiveCard()
        card.drag(dx: 1000, dy: 1000)
        #expect(card.state(at: 0).pose.tiltX == -10 && card.state(at: 0).pose.tiltY == 10)
        card.setTiltLimit(45)
        card.drag(dx: -1000, dy: .nan)
        #expect(card.state(at: 0).pose.tiltX == 0 && card.state(at: 0).pose.tiltY == -45)
        card.setTiltLimit(400)
        #expect(card.tiltLimit == 45)
    }

    /// A tap flips with the seed's spring; a second tap mid-flip turns back from where it is.
    @Test func flipsWithTheSeedsSpring() {
        var card = InteractiveCard()
        #expect(!card.isMoving(at: 0))
        card.toggleFlip(at: 1)
        #expect(card.showsBack)
        #expect(card.state(at: 1.2).pose.flip == AnimationPreset.release.value(from: 0, to: 180, at: 0.2))
        #expect(card.state(at: 5).pose.flip == 180)
        let midway = card.state(at: 1.1).pose.flip
        var again = card
        again.toggleFlip(at: 1.1)
        #expect(again.state(at: 1.1).pose.flip == midway)
        #expect(again.state(at: 9).pose.flip == 0)
        #expect(card.state(at: 1).visibility == .crossfade)
    }

    @Test func reducedMotionJumps() {
        var card = InteractiveCard()
        card.reducedMotion = true
        card.drag(dx: 20, dy: 0)
        card.release(at: 0)
        card.toggleFlip(at: 0)
        #expect(card.state(at: 0).pose == CardPose(flip: 180))
        #expect(!card.isMoving(at: 0))
    }

    @Test func orientationTiltsByTheSameAngles() {
        var card = InteractiveCard(tiltLimit: 45)
        card.orient(beta: 12, gamma: -7)
        let pose = card.state(at: 0).pose
        #expect(abs(pose.tiltX - 12) < 1e-9 && abs(pose.tiltY + 7) < 1e-9)
    }
}
