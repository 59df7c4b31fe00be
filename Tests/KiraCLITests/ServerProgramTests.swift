import Foundation
import KiraTestSupport
import Testing

/// `kira serve` runs `kira-serve`, the program with the HTTP server, from beside `kira`; where it
/// is missing or was built without its server, one line says how to build it (exit 2).
@Suite struct ServerProgramTests {
    @Test func withoutKiraServeBesideItKiraServeSaysHowToBuildIt() throws {
        let workspace = try Workspace(empty: ())
        let alone = workspace.file("bin/kira")
        try FileManager.default.createDirectory(atPath: workspace.file("bin"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLIRunner.executable, toPath: alone)
        var result: CLIRunner.Result?
        // A copy just written cannot be started while a test running beside this one has forked
        // with the copy's descriptor still open ("Text file busy"): try again for up to 5 s.
        for attempt in 0..<250 where result == nil {
            do {
                result = try CLIRunner.run(["serve", "--port", "0"], in: workspace.path, program: alone)
            } catch where attempt < 249 && "\(error)".contains("Text file busy") {
                usleep(20_000)
            }
        }
        let status = result?.status, stderr = result?.stderr ?? ""
        #expect(status == 2)
        let configuration = stderr.contains("-c release") ? "-c release " : ""
        let folder = URL(fileURLWithPath: workspace.file("bin")).resolvingSymlinksInPath().path
        #expect(stderr == "kira serve: the server is not built: build it with 'swift build \(configuration)--product kira-serve' (it goes beside kira, in \(folder))\n")
    }

    /// Invalid options are refused by `kira` itself, before it looks for the server.
    @Test func badOptionsAreRefusedFirst() throws {
        let workspace = try Workspace(empty: ())
        let result = try CLIRunner.run(["serve", "--port", "70000"], in: workspace.path)
        #expect(result.status == 2 && result.stderr == "kira serve: --port must be 0...65535, not 70000 (see 'kira serve --help')\n", "\(result.stderr)")
    }

    #if !Server
    /// Built without the Server trait, `kira-serve` is the command line alone and says so.
    @Test func aKiraServeWithoutItsServerSaysHowToBuildIt() throws {
        let workspace = try Workspace(empty: ())
        let result = try CLIRunner.run(["serve", "--port", "0"], in: workspace.path)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("kira serve: this kira-serve was built without its server (the Server trait): build it with the default traits, 'swift build"),
                "\(result.stderr)")
    }
    #endif
}
