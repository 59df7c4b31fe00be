#if canImport(Glibc)
import Glibc
#endif
import Foundation
import KiraTestSupport
import Testing

/// Every input has a bound before it is read, and a line that repeats a user's value is short:
/// from a workspace outside the package, as a user runs `kira`.
@Suite struct BoundedInputTests {
    /// `kira ARGUMENTS` in `workspace` under coreutils' `timeout` (exit 124 when it ran out), so
    /// that a hang fails the test instead of holding the suite.
    static func run(_ arguments: [String], in workspace: Workspace, seconds: Int = 60, input: Data? = nil) throws -> CLIRunner.Result {
        try CLIRunner.run([String(seconds), CLIRunner.executable] + arguments, in: workspace.path, input: input, program: "/usr/bin/timeout")
    }

    /// A row whose art is a FIFO with no writer fails at once with one line; the other rows render.
    @Test func aFIFOArtFailsItsRowAloneAndAtOnce() throws {
        let workspace = try Workspace()
        try FIFO.make(workspace.file("fifo.png"))
        try "output,art,size\nout/a.png,fifo.png,60x80\nout/b.png,,60x80\n".write(toFile: workspace.file("m.csv"), atomically: false, encoding: .utf8)
        let start = Date()
        let result = try Self.run(["batch", "m.csv"], in: workspace, seconds: 60)
        let seconds = Date().timeIntervalSince(start)
        #expect(result.status == 1, "exit \(result.status) after \(seconds) s: \(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("kira batch: row 1 (out/a.png): fifo.png: ") && lines[0].contains("not a regular file"),
                "\(result.stderr)")
        #expect(workspace.exists("out/b.png"))
        #expect(!workspace.exists("out/a.png"))
    }

    /// A manifest that is a link to /dev/zero is refused at 64 MiB, not read to 1 GiB.
    @Test func aManifestLinkedToDevZeroIsRefusedAtItsLimit() throws {
        let workspace = try Workspace()
        try FileManager.default.createSymbolicLink(atPath: workspace.file("z.csv"), withDestinationPath: "/dev/zero")
        let result = try Self.run(["batch", "z.csv", "--state", "st"], in: workspace)
        #expect(result.status == 2)
        #expect(result.stderr == "kira batch: z.csv: larger than 64 MiB, the most a manifest may hold (about half a million rows): split it\n")
    }

    /// Standard input as the manifest, read by its content; the records need --state.
    @Test func aManifestOnStandardInput() throws {
        let workspace = try Workspace()
        let manifest = Data("{\"output\": \"out/a.png\", \"size\": \"60x80\"}\n".utf8)
        let refused = try Self.run(["batch", "-"], in: workspace, input: manifest)
        #expect(refused.status == 2 && refused.stderr.contains("--state"), "\(refused.stderr)")
        let result = try Self.run(["batch", "-", "--state", "st"], in: workspace, input: manifest)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(workspace.exists("out/a.png"))
        let again = try Self.run(["batch", "-", "--state", "st", "--json"], in: workspace, input: manifest)
        #expect(again.stdout.contains("\"skipped\":1"), "\(again.stdout)")
    }

    /// A 1 MiB value or output name gives a line of a few hundred bytes, its length said.
    @Test func aHugeValueGivesAShortLine() throws {
        let workspace = try Workspace()
        let huge = String(repeating: "a", count: 1 << 20)
        // The last row's art is the second row's output: "the output would overwrite" names it.
        try "output,background,size,art\nout/a.png,\(huge),60x80,\n\(huge).png,,60x80,\nout/\(huge).png,,60x80,\nout/d.png,,60x80,\(huge).png\n"
            .write(toFile: workspace.file("m.csv"), atomically: false, encoding: .utf8)
        let result = try Self.run(["batch", "m.csv"], in: workspace)
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 4, "\(result.stderr.prefix(2000))")
        for line in lines {
            #expect(line.utf8.count < 800 && line.contains("(10485"), "\(line.utf8.count) bytes: \(line.prefix(400))")
        }
        // Values on the command line: argument-parser's own messages too (a value under the 128 KiB an argument may have).
        let long = String(repeating: "b", count: 100_000)
        for arguments in [["render", "--background", long], ["render", "--threads", long], ["render", "--frob" + long],
                          ["render", "--size", long], ["render", "-o", long + ".png", "--size", "8x8"], [long]] {
            let result = try Self.run(arguments, in: workspace)
            #expect(result.status == 2, "\(arguments.map { $0.prefix(20) })")
            #expect(result.stderr.utf8.count < 800 && result.stderr.contains("(100"), "\(arguments.map { $0.prefix(20) }): \(result.stderr.prefix(400))")
        }
    }

    /// A PNG whose header claims 2³²−1 pixels a side is one line, exit 2 (it was a trap).
    @Test(arguments: ["render", "compare"])
    func aHeaderClaimingAnySizeIsOneLine(command: String) throws {
        let workspace = try Workspace()
        func word(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32($0))) } }
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + word(13) + Array("IHDR".utf8)
            + word(.max) + word(.max) + [16, 6, 0, 0, 0, 0, 0, 0, 0]
        try Data(bytes).write(to: URL(fileURLWithPath: workspace.file("huge.png")))
        let arguments = command == "render" ? ["render", "--art", "huge.png", "-o", "x.png"] : ["compare", "huge.png", "huge.png"]
        let result = try Self.run(arguments, in: workspace)
        #expect(result.status == 2, "\(result.stderr.prefix(300))")
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.hasPrefix("kira \(command): "), "\(result.stderr.prefix(300))")
    }
}
