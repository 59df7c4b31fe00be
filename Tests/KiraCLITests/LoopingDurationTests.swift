import Foundation
import Kira
import Testing

/// A duration on a looping preset renders whole loops (so the clip loops seamlessly), and says so.
@Suite struct LoopingDurationTests {
    @Test func aDurationOnALoopSaysWhatWasRendered() throws {
        let workspace = try Workspace()
        let result = try workspace.run(card: "animate", "--preset", "seed002-spin", "--duration", "1", "--fps", "4",
                                       "--size", "40x50", "--output-dir", "output/spin")
        #expect(result.status == 0, "\(result.stderr)")
        // 2.5 s at 4 frames/s is 10 frames: one whole loop, not the 4 frames of one second.
        let index = try String(contentsOfFile: workspace.file("output/spin/frames.csv"), encoding: .utf8)
        #expect(index.split(separator: "\n").count == 1 + 10, "\(index)")
        let note = result.stderr.split(separator: "\n").first { $0.contains("--duration 1") } ?? ""
        #expect(note.contains("1 whole loop, 2.5000 s") && note.contains("seamlessly") && note.contains("--loops"), "\(result.stderr)")
    }

    /// Whole loops that match the duration need no note, and --quiet silences it.
    @Test func noNoteWhenTheDurationIsWholeLoops() throws {
        let workspace = try Workspace()
        let whole = try workspace.run(card: "animate", "--preset", "seed002-spin", "--duration", "5", "--fps", "4",
                                      "--size", "40x50", "--output-dir", "output/a")
        #expect(whole.status == 0 && !whole.stderr.contains("--duration"), "\(whole.stderr)")
        let quiet = try workspace.run(card: "animate", "--preset", "seed002-spin", "--duration", "1", "--fps", "4",
                                      "--size", "40x50", "--output-dir", "output/b", "--quiet")
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
    }
}
