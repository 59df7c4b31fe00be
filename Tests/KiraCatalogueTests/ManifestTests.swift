import Foundation
@testable import KiraCatalogue
import Testing

@Suite struct ManifestTests {
    static let columns: Set<String> = ["output", "art", "tilt_x", "background"]

    func csv(_ text: String) throws(ManifestError) -> [ManifestRow] {
        try Manifest.parse(text, format: .csv, name: "m.csv", columns: Self.columns, required: "output")
    }

    func jsonl(_ text: String) throws(ManifestError) -> [ManifestRow] {
        try Manifest.parse(text, format: .jsonLines, name: "m.jsonl", columns: Self.columns, required: "output")
    }

    @Test func csvFollowsRFC4180() throws {
        let text = "\u{FEFF}output,art,tilt_x\r\n"
            + "a.png,\"my, card.png\",5\r\n"
            + "\"b \"\"quoted\"\".png\",\"two\nlines.png\",-3\r\n"
            + "\r\n"
            + "c.png, spaced.png ,\n"
        let rows = try csv(text)
        #expect(rows.map(\.number) == [1, 2, 3])
        #expect(rows[0].values == ["output": "a.png", "art": "my, card.png", "tilt_x": "5"])
        #expect(rows[1].values == ["output": "b \"quoted\".png", "art": "two\nlines.png", "tilt_x": "-3"])
        // Spaces are data; an empty cell is absent.
        #expect(rows[2].values == ["output": "c.png", "art": " spaced.png "])
    }

    @Test func jsonLines() throws {
        let rows = try jsonl("""
            {"output": "a.png", "tilt_x": 5, "art": "x.png"}

            {"output": "b.png", "tilt_x": -2.5, "background": null}\r
            {"output": "c.png", "tilt_x": true}
            """)
        #expect(rows.map(\.number) == [1, 2, 3])
        #expect(rows[0].values == ["output": "a.png", "tilt_x": "5", "art": "x.png"])
        #expect(rows[1].values == ["output": "b.png", "tilt_x": "-2.5"])
        #expect(rows[2].values["tilt_x"] == "true")
    }

    /// What Foundation's JSONDecoder (the parser JSON Lines are read with) makes of two lenient
    /// forms, as docs/batch.md documents: a trailing comma is accepted, and of a key given twice the
    /// first value is kept. Fails if Foundation changes either, so that docs/batch.md is corrected.
    @Test func jsonLinesLeniencyIsAsDocumented() throws {
        let rows = try jsonl("{\"output\": \"a.png\", \"tilt_x\": 5,}\n{\"output\": \"b.png\", \"tilt_x\": 5, \"tilt_x\": 7}\n")
        #expect(rows[0].values == ["output": "a.png", "tilt_x": "5"])
        #expect(rows[1].values == ["output": "b.png", "tilt_x": "5"])
    }

    static let badCSV: [(String, String, String)] = [
        ("empty", "", "empty"),
        ("no output column", "art,tilt_x\na.png,1\n", "no \"output\" column"),
        ("unknown column", "output,tilt\na.png,1\n", "unknown column \"tilt\" in the header (columns: art, "),
        ("a column as an option", "output,tilt-x\na.png,1\n", "unknown column \"tilt-x\" in the header (did you mean \"tilt_x\"? columns are spelt with underscores)"),
        ("column twice", "output,art,art\na,b,c\n", "appears twice"),
        ("too many fields", "output,art\na.png,b.png,c\n", "row 1 has 3 fields"),
        ("too few fields", "output,art\na.png,b.png\nc.png\n", "row 2 has 1 fields"),
        ("quote never closed", "output,art\na.png,\"b.png\nc.png,d.png\n", "never closed"),
    ]

    @Test(arguments: badCSV.indices)
    func badCSVIsRefused(index: Int) {
        let (name, text, reason) = Self.badCSV[index]
        #expect(throws: ManifestError.self, "\(name)") { try csv(text) }
        do {
            _ = try csv(text)
        } catch {
            #expect(error.reason.contains(reason), "\(name): \(error.reason)")
        }
    }

    @Test func badJSONLinesIsRefused() {
        for (text, reason) in [
            ("{\"output\": \"a.png\"}\nnot json\n", "line 2 is not a JSON object"),
            ("[1, 2]\n", "line 1 is not a JSON object"),
            ("{\"output\": \"a.png\", \"tilt\": 1}\n", "unknown field \"tilt\""),
            ("{\"output\": \"a.png\", \"Tilt_X\": 1}\n", "unknown field \"Tilt_X\" (did you mean \"tilt_x\"? fields are spelt with underscores)"),
            ("{\"output\": [\"a.png\"]}\n", "must be a string, number or boolean"),
            ("{\"art\": \"a.png\"}\n", "no \"output\" field"),
        ] {
            do {
                _ = try jsonl(text)
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.reason.contains(reason), "\(text): \(error.reason)")
            }
        }
    }

    @Test func readChecksTheFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kira-manifest-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data([0x89, 0x50, 0x4E, 0x47, 0xFF, 0xFE]).write(to: URL(fileURLWithPath: directory + "/binary.csv"))
        try Data("output\na.png\n".utf8).write(to: URL(fileURLWithPath: directory + "/cards.txt"))
        for (path, reason) in [("binary.csv", "not UTF-8"), ("cards.txt", ".csv or .jsonl"), ("missing.csv", "no such file")] {
            do {
                _ = try Manifest.read(directory + "/" + path, columns: Self.columns, required: "output")
                Issue.record("accepted: \(path)")
            } catch {
                #expect(error.reason.contains(reason), "\(path): \(error.reason)")
            }
        }
    }

    @Test func pathsAreTakenFromTheManifestsFolder() throws {
        let manifest = Manifest(path: "cat/x/m.csv", directory: "cat/x", format: .csv, rows: [
            ManifestRow(number: 1, values: ["output": "out/a.png"]),
            ManifestRow(number: 2, values: ["output": "/abs/b.png"]),
            ManifestRow(number: 3, values: ["output": "./out//a.png"]),
            ManifestRow(number: 4, values: ["output": "../x/out/a.png"]),
            ManifestRow(number: 5, values: ["output": "out/c.png"]),
        ])
        #expect(manifest.resolve("out/a.png") == "cat/x/out/a.png")
        #expect(manifest.resolve("/abs/b.png") == "/abs/b.png")
        let duplicates = manifest.duplicateOutputs(column: "output")
        #expect(duplicates.map(\.row.number) == [3, 4])
        #expect(duplicates.map(\.first) == [1, 1])
    }

    /// One output named through a symbolically linked folder (existing or not yet made below it),
    /// through a link to the file, or with `..`: found before anything renders.
    @Test func duplicatesThroughLinksAreFound() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kira-places-\(UUID().uuidString)").path
        let files = FileManager.default
        try files.createDirectory(atPath: directory + "/real", withIntermediateDirectories: true)
        defer { try? files.removeItem(atPath: directory) }
        try files.createSymbolicLink(atPath: directory + "/link", withDestinationPath: "real")
        try Data([1]).write(to: URL(fileURLWithPath: directory + "/real/x.png"))
        try files.createSymbolicLink(atPath: directory + "/real/y.png", withDestinationPath: "x.png")
        try files.linkItem(atPath: directory + "/real/x.png", toPath: directory + "/real/hard.png")
        let outputs = ["real/a.png", "link/a.png",              // 2 = 1: a new name in a linked folder
                       "real/new/b.png", "link/new/./b.png",    // 4 = 3: in a folder not made yet
                       "real/x.png", "link/y.png",              // 6 = 5: an existing file and a link to it
                       "real/new/../c.png", "real/c.png",       // 8 = 7
                       "real/d.png", "link/new/d.png",          // different files
                       "real/hard.png"]                         // a hard link: replaced by a new file, x.png stays
        let manifest = Manifest(path: directory + "/m.csv", directory: directory, format: .csv,
                                rows: outputs.enumerated().map { ManifestRow(number: $0 + 1, values: ["output": $1]) })
        let duplicates = manifest.duplicateOutputs(column: "output")
        #expect(duplicates.map(\.row.number) == [2, 4, 6, 8])
        #expect(duplicates.map(\.first) == [1, 3, 5, 7])
    }
}

/// Manifests made of random pieces (quotes, separators, line breaks, column names, JSON tokens):
/// reading one either fails with a ManifestError or gives rows that only use known columns and
/// have no empty values. Deterministic (a fixed seed), so a failure reproduces.
@Suite struct RandomManifestTests {
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    static let pieces = ["output", "art", "tilt_x", "background", "x", "\"", "\"\"", ",", "\n", "\r\n", "\r", " ",
                         "a.png", "5", "-3.5", "{", "}", "[", "]", ":", "null", "true", "\u{FEFF}", "é", "\u{0}", "#"]

    @Test func neverCrashesAndKeepsItsPromises() {
        var random = Generator(state: 14)
        for format in [Manifest.Format.csv, .jsonLines] {
            var accepted = 0
            for _ in 0..<3000 {
                var text = format == .csv ? (Bool.random(using: &random) ? "output,art\n" : "") : ""
                for _ in 0..<Int.random(in: 0..<40, using: &random) { text += Self.pieces.randomElement(using: &random)! }
                guard let rows = try? Manifest.parse(text, format: format, name: "m", columns: ManifestTests.columns, required: "output")
                else { continue }
                accepted += 1
                for (index, row) in rows.enumerated() {
                    #expect(row.number == index + 1)
                    #expect(row.values.keys.allSatisfy { ManifestTests.columns.contains($0) }, "\(text.debugDescription)")
                    #expect(row.values.values.allSatisfy { !$0.isEmpty }, "\(text.debugDescription)")
                }
            }
            #expect(accepted > 0, "no random \(format) manifest was accepted: the generator tests nothing")
        }
    }
}
