#if canImport(Glibc)
import Glibc
#endif
import KiraGeometry
import Testing
@testable import KiraAnimation
@testable import KiraRequest

@Suite struct PresetTests {
    // The showcase never rests: it is a loop that starts anywhere on its circle (tested below).
    @Test(arguments: AnimationPreset.allCases.filter { $0 != .showcase })
    func startsAtRest(preset: AnimationPreset) {
        let start = preset.state(at: 0)
        switch start.visibility {
        case .separateFaces(let front, let back):
            // Exactly one face shows, unturned.
            #expect((front == 0 && abs(back) == 90) || (back == 0 && abs(front) == 90), "\(preset): \(start)")
        default:
            #expect(start.pose.flip == 0 && start.pose.tiltX == 0 && start.pose.tiltY == 0, "\(preset): \(start)")
        }
    }

    @Test func flipsEndOnTheOtherFace() {
        for preset in [AnimationPreset.seed002Flip, .seed003TiltFlip] {
            let end = preset.state(at: preset.duration())
            #expect(abs(end.pose.flip - 180) < 0.2, "\(preset): \(end.pose.flip)")
            #expect(abs(end.pose.tiltX) < 0.01 && abs(end.pose.tiltY) < 0.01)
        }
        guard case .separateFaces(let f0, let b0) = AnimationPreset.seed000Flip.state(at: 0.7).visibility,
              case .separateFaces(let f4, let b4) = AnimationPreset.seed004Flip.state(at: 0.6).visibility else {
            Issue.record("the two-face presets turn faces separately")
            return
        }
        #expect(f0 == 90 && b0 == 0, "seed000-flip ends on the back")
        #expect(b4 == 90 && f4 == 0, "seed004-flip ends on the front")
        // seed000-flip's back waits for the front to reach 90°.
        guard case .separateFaces(let f, let b) = AnimationPreset.seed000Flip.state(at: 0.3).visibility else {
            Issue.record("seed000-flip turns its faces separately at 0.3 s too")
            return
        }
        #expect(b == -90 && f > 0 && f < 90)
    }

    @Test func seed001SwitchesFaceAtNinetyDegreesAndCyclesAxes() {
        let preset = AnimationPreset.seed001Flip
        #expect(abs(preset.state(at: 0.5).pose.flip - 90) < 1e-9, "easeInOut is symmetric: 90° half way")
        #expect(preset.state(at: 0.5).visibility == .switchAtQuarterTurn)
        #expect(preset.state(at: 0.5).pose.flipAxis == .y)
        #expect(preset.state(at: 1.5).pose.flipAxis == .x && abs(preset.state(at: 1.5).pose.flip - 90) < 1e-9)
        #expect(preset.state(at: 2.5).pose.flipAxis == .diagonal)
        #expect(preset.state(at: 0.99).pose.flip > 179 && preset.state(at: 1.99).pose.flip < 1)
        #expect(preset.state(at: 2.5).pose.flipPerspective == 0.3)
    }

    @Test func spinTurnsOnceAndLoops() {
        let spin = AnimationPreset.seed002Spin
        #expect(spin.loops && spin.duration() == 2.5)
        #expect(abs(spin.state(at: 1.25).pose.flip - 180) < 1e-9 && spin.state(at: 1.25).pose.flipPerspective == 0.4)
        #expect(abs(spin.state(at: 2.5 + 0.625).pose.flip - 90) < 1e-9)
    }

    @Test func tiltPresetsMapTheDragAsTheSeedsDo() throws {
        let drag = try DragPath(samples: [.init(time: 0, dx: 0, dy: 0), .init(time: 1, dx: 100, dy: -400)])
        let t3 = AnimationPreset.seed003Tilt.state(at: 0.5, drag: drag).pose
        #expect(abs(t3.tiltY - 50 * 0.15) < 1e-9 && t3.tiltX == 10, "clamped to ±10")
        let t2 = AnimationPreset.seed002Tilt.state(at: 0.5, drag: drag).pose
        #expect(abs(t2.tiltY - 50.0 / 6) < 1e-9 && abs(t2.tiltX - 200.0 / 6) < 1e-9 && t2.tiltPerspective == 0.5)
        let clamped = AnimationPreset.seed002Tilt.state(at: 1, drag: drag).pose
        #expect(clamped.tiltX == 45)
        for preset in [AnimationPreset.seed002Tilt, .seed003Tilt] {
            let end = preset.state(at: preset.duration(drag: drag), drag: drag).pose
            #expect(abs(end.tiltX) < 0.1 && abs(end.tiltY) < 0.1, "\(preset) springs back to rest")
        }
    }

    @Test func seed003NudgeJumpsBackOnCompletion() {
        let preset = AnimationPreset.seed003TiltFlip
        let during = preset.state(at: 0.3).pose.tiltY
        #expect(during > 2 && during <= 5)
        #expect(preset.state(at: AnimationPreset.nudge.end + 1e-6).pose.tiltY.magnitude < 0.01)
    }
}

@Suite struct DragPathTests {
    @Test func csvWithHeaderAndComments() throws {
        let path = try DragPath(text: "time,dx,dy\n0,0,0\n# a comment\n0.5, 10, -4\n1.0,20,-8\n", name: "drag.csv")
        #expect(path.samples.count == 3 && path.duration == 1)
        #expect(path.translation(at: 0.75) == (15, -6))
        #expect(path.translation(at: 5) == (20, -8))
    }

    @Test func windowsLineEndings() throws {
        let path = try DragPath(text: "time,dx,dy\r\n0,0,0\r\n1,10,20\r\n", name: "drag.csv")
        #expect(path.samples == [.init(time: 0, dx: 0, dy: 0), .init(time: 1, dx: 10, dy: 20)])
    }

    @Test func json() throws {
        let path = try DragPath(text: #"[{"time": 0, "dx": 0, "dy": 0}, {"t": 2, "dx": -30, "dy": 12.5}]"#, name: "drag.json")
        #expect(path.samples == [.init(time: 0, dx: 0, dy: 0), .init(time: 2, dx: -30, dy: 12.5)])
    }

    @Test(arguments: ["", "time,dx,dy\n", "0,1\n", "0,0,0\n0,1,1\n", "1,0,0\n0.5,0,0\n", "0,nan,0\n", "[{\"time\": 0, \"dx\": 1}]", "[{\"time\": 0 \"dx\": 1, \"dy\": 2}]", "[{"])
    func badFilesAreRefused(text: String) {
        #expect(throws: DragPathError.self) { try DragPath(text: text, name: "bad") }
    }

    @Test func showcaseCirclesAtASteadyPaceAndLoopsSeamlessly() {
        let showcase = AnimationPreset.showcase
        #expect(showcase.loops && showcase.duration() == AnimationPreset.showcasePeriod)
        // At fps where period × fps is and is not a whole number (then the period is stretched).
        for fps in [24, 30, 7] {
            let timing = FrameTiming.loop(period: showcase.duration(), framesPerSecond: fps, loops: 2)
            let perLoop = Int((showcase.duration() * Double(fps)).rounded())
            #expect(timing.count == 2 * perLoop)
            let tilts = timing.animationTimes.map { showcase.state(at: $0).pose }.map { SIMD2($0.tiltX, $0.tiltY) }
            // Every tilt on the circle of radius showcaseTilt.
            for tilt in tilts { #expect(abs((tilt * tilt).sum().squareRoot() - AnimationPreset.showcaseTilt) < 1e-9) }
            // Each step, the seam (last frame of a loop → first) included, is the same distance.
            let steps = (0..<tilts.count).map { k in
                let d = tilts[(k + 1) % tilts.count] - tilts[k]
                return (d * d).sum().squareRoot()
            }
            #expect(steps.allSatisfy { abs($0 - steps[0]) < 1e-9 && $0 > 0 }, "fps \(fps): \(steps.min()!)…\(steps.max()!)")
            // No frame repeats the one a loop earlier… except exactly one loop apart.
            #expect(tilts[perLoop] == tilts[0] && tilts[perLoop - 1] != tilts[0])
        }
        #expect(!FrameTiming.loop(period: 4, framesPerSecond: 30).isStretched)
        let stretched = FrameTiming.loop(period: 2.5, framesPerSecond: 25)
        #expect(stretched.isStretched && stretched.count == 63 && stretched.loopLength == 63.0 / 25, "62.5 frames round to 63")
    }

    @Test func onceIncludesBothEnds() {
        let timing = FrameTiming.once(length: 0.6, framesPerSecond: 10)
        #expect(timing.count == 7 && timing.animationTimes.last == 0.6 && timing.clipTime(6) == 0.6)
    }
}

/// `.spring` and SwiftUI's default animation are different springs, and each seed gets its own.
@Suite struct SeedSpringTests {
    /// A critically damped spring of period `period`, released at rest: 1 − (1 + ωt) e^(−ωt).
    static func critical(_ t: Double, period: Double) -> Double {
        let omega = 2 * Double.pi / period
        return 1 - (1 + omega * t) * exp(-omega * t)
    }

    @Test(arguments: [0.05, 0.1, 0.2, 0.3])
    func theOnAppearNudgeUsesTheDefaultAnimation(time: Double) {
        // seed003-tilt-flip: `withAnimation { tiltY = 5 }`, response 0.55, damping fraction 1.
        let tiltY = AnimationPreset.seed003TiltFlip.state(at: time).pose.tiltY
        #expect(abs(tiltY - 5 * Self.critical(time, period: 0.55)) < 1e-9, "\(tiltY)")
        #expect(abs(tiltY - 5 * Self.critical(time, period: 0.5)) > 1e-3, "must differ from .spring")
    }

    @Test(arguments: [0.05, 0.1, 0.2])
    func theReleaseUsesSpring(after: Double) throws {
        // seed003-tilt's drag release is `withAnimation(.spring)`: duration 0.5, no bounce.
        let drag = try DragPath(text: "0,0,0\n0.2,40,-20\n", name: "drag.csv")
        let released = AnimationPreset.seed003Tilt.state(at: drag.duration, drag: drag).pose.tiltY
        let later = AnimationPreset.seed003Tilt.state(at: drag.duration + after, drag: drag).pose.tiltY
        #expect(abs(released) > 0.1, "the drag must end tilted for this test")
        #expect(abs(later - released * (1 - Self.critical(after, period: 0.5))) < 1e-9, "\(later)")
    }
}

/// Drag files read exactly, looked up in O(log n).
@Suite struct DragPathRobustnessTests {
    @Test func byteOrderMarkIsSkipped() throws {
        let csv = try DragPath(text: "\u{FEFF}0,1,2\n1,3,4\n", name: "d.csv")
        #expect(csv.samples.count == 2 && csv.samples[0].dx == 1)
        let json = try DragPath(text: "\u{FEFF}[{\"time\": 0, \"dx\": 1, \"dy\": 2}]", name: "d.json")
        #expect(json.samples.count == 1)
    }

    @Test(arguments: ["0,0,0\n1\u{0},1,1\n", "0,0,0\n0x1p3,1,1\n", "0,0,0\nnan,1,1\n", "0,0,0\n1,inf,1\n",
                      "[{\"time\": 0, \"dx\": 0, \"dy\": 0},\n{\"time\": 1\u{0}, \"dx\": 0, \"dy\": 0}]",
                      "0,0,0\n1,1e300,1\n"])
    func inexactNumbersAreRefused(text: String) {
        #expect(throws: DragPathError.self) { try DragPath(text: text, name: "d") }
    }

    @Test func errorsNameTheLine() {
        do {
            _ = try DragPath(text: "[\n{\"time\": 0, \"dx\": 0, \"dy\": 0},\n{\"time\": x, \"dx\": 0, \"dy\": 0}]", name: "d.json")
            Issue.record("accepted")
        } catch {
            #expect(error.description.hasPrefix("d.json:3:"), "\(error)")
        }
    }

    /// JSON that is not JSON was once read by counting braces: stray words, missing commas,
    /// unquoted keys and a NUL between objects all passed, and an array of arrays was "empty".
    @Test(arguments: [
        (#"[{"time":0,"dx":0,"dy":0}, GARBAGE true null, {"time":1,"dx":5,"dy":5}] trailing]"#, "d.json:1: element 2: expected an object"),
        ("[{\"time\":0,\"dx\":0,\"dy\":0}\n{\"time\":1,\"dx\":5,\"dy\":5}]", "d.json:2: expected `,` or `]`, found `{`"),
        ("[{time:0,dx:0,dy:0}]", "d.json:1: expected a key in double quotes, found `t`"),
        ("[{\"time\":0,\"dx\":0,\"dy\":0},\n\u{0}{\"time\":1,\"dx\":5,\"dy\":5}]", "d.json:2: element 2: expected an object"),
        ("[[0,0,0],[1,5,5]]", "d.json:1: element 1: expected an object"),
        (#"[{"time":0,"dx":0,"dy":0}] trailing"#, "d.json:1: expected nothing after the array"),
        (#"[{"time":0,"dx":0,"dy":0},]"#, "d.json:1: element 2: expected an object"),
        (#"[{"time":01,"dx":0,"dy":0}]"#, "d.json:1: expected `,` or `}`, found `1`"),
        (#"[{"time":0,"time":1,"dx":0,"dy":0}]"#, "d.json:1: \"time\" appears twice"),
    ])
    func invalidJSONIsRefusedWithItsLine(text: String, message: String) {
        do {
            _ = try DragPath(text: text, name: "d.json")
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description.hasPrefix(message), "\(error)")
            #expect(!error.description.contains("\n"))
        }
    }

    /// The binary search gives what a linear scan gives.
    @Test func lookupMatchesLinearScan() throws {
        var state: UInt32 = 7
        func random() -> Double {
            state = state &* 1_664_525 &+ 1_013_904_223
            return Double(state >> 8) / Double(1 << 24)
        }
        var time = 0.0
        let samples = (0..<5000).map { _ -> DragPath.Sample in
            time += 0.001 + random()
            return DragPath.Sample(time: time, dx: random() * 100 - 50, dy: random() * 100 - 50)
        }
        let path = try DragPath(samples: samples)
        for _ in 0..<2000 {
            let t = random() * (time + 2) - 1
            let linear: (Double, Double) = {
                guard let after = samples.firstIndex(where: { $0.time >= t }) else { return (samples.last!.dx, samples.last!.dy) }
                if after == 0 { return (samples[0].dx, samples[0].dy) }
                let a = samples[after - 1], b = samples[after], f = (t - a.time) / (b.time - a.time)
                return (a.dx + (b.dx - a.dx) * f, a.dy + (b.dy - a.dy) * f)
            }()
            let found = path.translation(at: t)
            #expect(found.dx == linear.0 && found.dy == linear.1)
        }
    }
}

/// A drag holds at most a million samples, refused as soon as the count is passed (the parsers
/// are shown that with a limit of 3; the million itself through the samples).
@Suite struct DragSampleLimitTests {
    static let json = (0..<4).map { #"{"t":\#($0),"dx":0,"dy":0}"# }

    @Test(arguments: [("0,0,0\n1,0,0\n2,0,0\n3,0,0\ngarbage\n", "d:4: more than 3 samples"),
                      ("[" + json[0] + ",\n" + json[1] + "," + json[2] + ",\n" + json[3] + ", garbage", "d:3: more than 3 samples")])
    func oneSampleOverTheLimitIsRefusedWhereItIs(text: String, message: String) throws {
        // The garbage after the extra sample is never reached: the limit is the error.
        do {
            _ = try DragPath(bytes: Array(text.utf8), name: "d", limit: 3)
            Issue.record("accepted")
        } catch {
            #expect(error.description.hasPrefix(message), "\(error)")
        }
    }

    @Test(arguments: ["0,0,0\n1,0,0\n2,0,0\n", "[" + json[0] + "," + json[1] + "," + json[2] + "]"])
    func theLimitIsAccepted(text: String) throws {
        #expect(try DragPath(bytes: Array(text.utf8), name: "d", limit: 3).samples.count == 3)
    }

    @Test func aMillionSamplesAndNoMore() throws {
        let samples = (0...DragPath.maxSamples).map { DragPath.Sample(time: Double($0), dx: 0, dy: 0) }
        #expect(DragPath.maxSamples == 1_000_000)
        #expect(try DragPath(samples: Array(samples.dropLast())).samples.count == DragPath.maxSamples)
        #expect(throws: DragPathError.self) { try DragPath(samples: samples) }
    }
}
