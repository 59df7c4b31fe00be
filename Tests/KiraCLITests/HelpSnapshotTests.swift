import Foundation
import Testing

/// The help text of `kira` and of every subcommand, kept as snapshot files beside this test (as
/// swift-argument-parser's own tests do), so that a change to it is deliberate: re-record with
/// `KIRA_RECORD_HELP=1 swift test --filter HelpSnapshotTests` and review the diff. A missing
/// snapshot fails, and so does a recording run (after writing the files, as argument-parser's
/// snapshot helpers do): only a run that compares can pass.
@Suite struct HelpSnapshotTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("HelpSnapshots")

    /// `kira` and the subcommands its help lists.
    static func commands() throws -> [[String]] {
        let root = try help([])
        let lines = root.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "SUBCOMMANDS:") else { return [[]] }
        let names = lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap { line -> String? in
            let word = line.split(separator: " ").first.map(String.init)
            return line.hasPrefix("  ") && !line.hasPrefix("   ") ? word : nil
        }
        return [[]] + names.map { [$0] }
    }

    /// The help as a user reading it through a pipe sees it (80 columns).
    static func help(_ command: [String]) throws -> String {
        let result = try CLIRunner.run(command + ["--help"], in: FileManager.default.temporaryDirectory.path, environment: ["COLUMNS": "80"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(command): \(result.stderr)")
        return result.stdout
    }

    /// An option whose default argument-parser prints ("(default: 1.0)") does not also name it
    /// in its own text: not "(default 1). (default: 1.0)".
    @Test func noOptionStatesItsDefaultTwice() throws {
        for command in try Self.commands() {
            var entries: [String] = []
            for line in try Self.help(command).split(separator: "\n") {
                if line.hasPrefix("  -") { entries.append(String(line)) } else if line.hasPrefix("      "), !entries.isEmpty {
                    entries[entries.count - 1] += " " + line.trimmingPrefix(while: { $0 == " " })
                }
            }
            #expect(!entries.isEmpty, "\(command): no options found")
            for entry in entries where entry.contains("(default: ") {
                #expect(entry.components(separatedBy: "default").count <= 2, "\(command): \(entry)")
            }
        }
    }

    @Test func everyCommandsHelpMatchesItsSnapshot() throws {
        let commands = try Self.commands()
        #expect(commands.count > 5, "the root help lists the subcommands: \(commands)")
        let record = ProcessInfo.processInfo.environment["KIRA_RECORD_HELP"] == "1"
        for command in commands {
            let name = (["kira"] + command).joined(separator: "-") + ".txt"
            let file = Self.directory.appendingPathComponent(name)
            let text = try Self.help(command)
            if record {
                try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
                try text.write(to: file, atomically: false, encoding: .utf8)
                Issue.record("recorded help snapshot \(name): review the diff, commit it, and run the tests again without KIRA_RECORD_HELP")
                continue
            }
            guard let snapshot = try? String(contentsOf: file, encoding: .utf8) else {
                Issue.record("no help snapshot \(name): record it with KIRA_RECORD_HELP=1 swift test --filter HelpSnapshotTests")
                continue
            }
            #expect(text == snapshot, "the help of `kira \(command.joined(separator: " "))` changed: if meant, re-record with KIRA_RECORD_HELP=1 and commit Tests/KiraCLITests/HelpSnapshots/\(name)")
        }
    }
}
