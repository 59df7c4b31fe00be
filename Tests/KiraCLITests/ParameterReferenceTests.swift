import Foundation
import Testing

/// docs/parameters.md is what ``ParameterReference`` writes from the parameter table now, so the
/// page cannot fall behind the table. Re-write it with
/// `KIRA_RECORD_DOCS=1 swift test --filter ParameterReferenceTests` and review the diff; a
/// recording run fails, so that only a run that compares can pass.
@Suite struct ParameterReferenceTests {
    static let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/parameters.md")

    /// The long options of each subcommand, from `kira --experimental-dump-help`.
    static func options() throws -> [String: Set<String>] {
        let result = try CLIRunner.run(["--experimental-dump-help"], in: FileManager.default.temporaryDirectory.path)
        #expect(result.status == 0, "\(result.stderr)")
        let tool = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let root = try #require(tool["command"] as? [String: Any])
        var options: [String: Set<String>] = [:]
        for command in root["subcommands"] as? [[String: Any]] ?? [] {
            guard let name = command["commandName"] as? String else { continue }
            let arguments = command["arguments"] as? [[String: Any]] ?? []
            options[name] = Set(arguments.flatMap { argument in
                (argument["names"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "long" }.compactMap { $0["name"] as? String }
            })
        }
        return options
    }

    @Test func thePageIsTheTable() throws {
        let options = try Self.options()
        #expect(options["render"]?.contains("tilt-x") == true, "the dump lists kira render's options: \(options.keys.sorted())")
        let text = ParameterReference(options: options).markdown
        if ProcessInfo.processInfo.environment["KIRA_RECORD_DOCS"] == "1" {
            try text.write(to: Self.page, atomically: true, encoding: .utf8)
            Issue.record("wrote docs/parameters.md: review the diff, commit it, and run the tests again without KIRA_RECORD_DOCS")
            return
        }
        let committed = try String(contentsOf: Self.page, encoding: .utf8)
        #expect(committed == text, "docs/parameters.md differs from the parameter table: KIRA_RECORD_DOCS=1 swift test --filter ParameterReferenceTests")
    }

    /// Every parameter is taken by some front end, and every front end's own list is in the table.
    @Test func everyParameterHasAFrontEnd() throws {
        let reference = ParameterReference(options: try Self.options())
        #expect(reference.rows.count > 30)
        for row in reference.rows {
            #expect(!row.frontEnds.isEmpty, "\(row.name) is taken by no front end")
        }
    }
}
