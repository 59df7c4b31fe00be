import Foundation
import Kira
import Testing

/// What `kira animate` does with the job's note about whole loops (the rule itself is
/// KiraOutputTests' LoopingDurationTests): it prints it, spelled as options, unless --quiet.
@Suite struct LoopingDurationTests {
    @Test func theNoteIsPrintedUnlessQuiet() throws {
        let workspace = try Workspace()
        let arguments = ["animate"] + Workspace.card + ["--preset", "seed002-spin", "--duration", "1", "--fps", "4", "--size", "40x50"]
        let result = try CLIRunner.run(arguments + ["--output-dir", "output/a"], in: workspace.path)
        #expect(result.status == 0, "\(result.stderr)")
        let note = result.stderr.split(separator: "\n").first { $0.contains("--duration 1") } ?? ""
        #expect(note.hasPrefix("kira animate: ") && note.contains("--loops"), "\(result.stderr)")
        let quiet = try CLIRunner.run(arguments + ["--output-dir", "output/b", "--quiet"], in: workspace.path)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
    }
}
