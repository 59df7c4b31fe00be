import Foundation
import Testing

/// Help and version go to stdout with exit status 0, for the root command and every subcommand.
@Suite struct HelpTests {
    @Test(arguments: [["--help"], ["--version"], ["shade", "--help"], ["render", "-h"], ["bench", "--help"],
                      ["textures", "--help"], ["animate", "--help"], ["compare", "--help"], ["help", "render"]])
    func helpSucceeds(arguments: [String]) throws {
        let workspace = try Workspace()
        let result = try CLIRunner.run(arguments, in: workspace.path)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        #expect(!result.stdout.isEmpty && result.stderr.isEmpty, "\(arguments): \(result.stderr)")
    }
}
