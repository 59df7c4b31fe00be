import KiraOutput
import KiraRequest
import Testing

/// A duration on a looping preset renders whole loops (so the clip loops seamlessly), and the job
/// says so in a note the front end may leave out (`kira animate --quiet`).
@Suite struct LoopingDurationTests {
    static func job(duration: String) throws -> AnimationJob {
        let request = try AnimationRequest(values: [("preset", "seed002-spin"), ("duration", duration), ("fps", "4"), ("size", "40x50")])
        return try AnimationJob(request, outputs: AnimationOutputs(sheet: "unused.png"))
    }

    @Test func aDurationOnALoopSaysWhatWasRendered() throws {
        let job = try Self.job(duration: "1")
        // 2.5 s at 4 frames/s is 10 frames: one whole loop, not the 4 frames of one second.
        #expect(job.scenes.count == 10)
        let clip = job.notes.filter { $0.kind == .clip }.map(\.text)
        #expect(clip.count == 1 && clip[0].contains("{duration} 1 is rendered as 1 whole loop, 2.5000 s")
                && clip[0].contains("seamlessly") && clip[0].contains("{loops}"), "\(clip)")
    }

    @Test func noNoteWhenTheDurationIsWholeLoops() throws {
        let job = try Self.job(duration: "5")
        #expect(job.scenes.count == 20)
        #expect(job.notes.allSatisfy { $0.kind != .clip }, "\(job.notes)")
    }
}
