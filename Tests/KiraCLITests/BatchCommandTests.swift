import Foundation
import KiraPNG
import KiraTestSupport
import Kira
import KiraCatalogue
import Testing

/// `kira batch` end to end, from a workspace outside the package: outputs equal `kira render`'s,
/// shards, resume, up-to-date records, bad rows and bad manifests.
@Suite struct BatchCommandTests {
    /// A catalogue in `cat/` (textures beside it): `cards` cards, each at `tilts` tilts, on a
    /// small canvas.
    static func catalogue(in workspace: Workspace, cards: Int, tilts: Int, size: String = "60x80") throws -> [String] {
        try FileManager.default.createDirectory(atPath: workspace.file("cat/art"), withIntermediateDirectories: true)
        var lines = ["output,art,mask,tilt_x,tilt_y,flip,size,background"]
        var outputs: [String] = []
        for card in 0..<cards {
            var art = try RGBAImage<UInt8>(width: 30, height: 42)
            for i in art.channels.indices { art.channels[i] = i % 4 == 3 ? 255 : UInt8((i * (card + 3)) % 256) }
            try PNGCodec.write(art, to: workspace.file("cat/art/card\(card).png"))
            for tilt in 0..<tilts {
                let output = "out/card\(card)/tilt\(tilt).png"
                outputs.append(output)
                let background = tilt % 2 == 0 ? "" : "#203040"
                lines.append("\(output),art/card\(card).png,../textures/mask.png,\(tilt * 4 - 6),\(8 - tilt * 3),\(tilt * 25),\(size),\(background)")
            }
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: workspace.file("cat/cards.csv"), atomically: false, encoding: .utf8)
        return outputs
    }

    /// What `kira render` writes for the values of a row of ``catalogue(in:cards:tilts:size:)``.
    static func renderArguments(card: Int, tilt: Int, size: String = "60x80") -> [String] {
        var arguments = ["render", "--art", "cat/art/card\(card).png", "--mask", "textures/mask.png",
                         "--tilt-x=\(tilt * 4 - 6)", "--tilt-y=\(8 - tilt * 3)", "--flip=\(tilt * 25)", "--size", size]
        if tilt % 2 == 1 { arguments += ["--background", "#203040"] }
        return arguments
    }

    static func summary(_ result: CLIRunner.Result) throws -> BatchSummary {
        try JSONDecoder().decode(BatchSummary.self, from: Data(result.stdout.utf8))
    }

    /// Inode and modification time: a file rewritten (even with the same bytes) gets new ones.
    static func identity(_ path: String) throws -> String {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let date = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(attributes[.systemFileNumber] ?? 0)@\(date)"
    }

    /// Every file under `directory`, hidden ones included.
    static func files(under directory: String) -> [String] {
        (FileManager.default.enumerator(atPath: directory)?.allObjects as? [String] ?? []).filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: directory + "/" + $0, isDirectory: &isDirectory) && !isDirectory.boolValue
        }.sorted()
    }

    @Test func outputsAreThoseOfKiraRender() throws {
        let workspace = try Workspace()
        _ = try Self.catalogue(in: workspace, cards: 2, tilts: 3)
        // JSON Lines too, with the columns the CSV leaves out.
        let jsonl = """
            {"output": "out/j1.png", "art": "art/card1.png", "back": "art/card0.png", "flip": 120, "axis": "xy", "crossfade": true, "depth": 16, "size": "70x90"}
            {"output": "out/j2.png", "art": "art/card0.png", "mask": "../textures/mask.png", "size": "64x80", "tilt_x": -4.5, "shader": "threejs", "perspective": 0.3, "tilt_perspective": 0.8, "y_flip": "height", "angle_strength": 3, "rotation": "standard", "compression": "fast"}
            """
        try jsonl.write(toFile: workspace.file("cat/more.jsonl"), atomically: false, encoding: .utf8)

        let result = try workspace.run("batch", "cat/cards.csv", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try Self.summary(result)
        #expect(summary.rendered == 6 && summary.skipped == 0 && summary.failed == 0 && summary.cards == 2)
        for card in 0..<2 {
            for tilt in 0..<3 {
                let render = try CLIRunner.run(in: workspace, Self.renderArguments(card: card, tilt: tilt) + ["-o", "output/r.png"])
                #expect(render.status == 0, "\(render.stderr)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: workspace.file("output/r.png")))
                        == Data(contentsOf: URL(fileURLWithPath: workspace.file("cat/out/card\(card)/tilt\(tilt).png"))),
                        "card \(card) tilt \(tilt)")
            }
        }

        let more = try workspace.run("batch", "cat/more.jsonl")
        #expect(more.status == 0, "\(more.stderr)")
        #expect(more.stdout.contains("2 rendered"), "\(more.stdout)")
        for (output, arguments) in [
            ("out/j1.png", ["--art", "cat/art/card1.png", "--back", "cat/art/card0.png", "--flip", "120", "--axis", "xy",
                            "--crossfade", "--depth", "16", "--size", "70x90"]),
            ("out/j2.png", ["--art", "cat/art/card0.png", "--mask", "textures/mask.png", "--size", "64x80",
                            "--tilt-x=-4.5", "--shader", "threejs", "--perspective", "0.3", "--tilt-perspective", "0.8",
                            "--y-flip", "height", "--angle-strength", "3", "--rotation", "standard", "--compression", "fast"]),
        ] {
            let render = try CLIRunner.run(in: workspace, ["render"] + arguments + ["-o", "output/r.png"])
            #expect(render.status == 0, "\(render.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: workspace.file("output/r.png")))
                    == Data(contentsOf: URL(fileURLWithPath: workspace.file("cat/" + output))), "\(output)")
        }
    }

    /// The target: 24 rows over 3 shard processes started at once, each row rendered
    /// exactly once; a re-run rewrites nothing.
    @Test func threeConcurrentShards() throws {
        let workspace = try Workspace()
        let outputs = try Self.catalogue(in: workspace, cards: 6, tilts: 4)
        let processes = try (0..<3).map { k -> (Process, Pipe) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CLIRunner.executable)
            process.arguments = ["batch", "cat/cards.csv", "--shard", "\(k)/3", "--json", "--threads", "1"]
            process.currentDirectoryURL = URL(fileURLWithPath: workspace.path)
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            return (process, out)
        }
        var rendered = 0
        for (process, out) in processes {
            let data = out.fileHandleForReading.readAllRetryingInterrupts()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let summary = try JSONDecoder().decode(BatchSummary.self, from: data)
            #expect(summary.rows == 8 && summary.rendered == 8 && summary.skipped == 0, "\(summary)")
            rendered += summary.rendered
        }
        #expect(rendered == 24)
        let written = Self.files(under: workspace.file("cat/out"))
        #expect(written.count == 24 && written.allSatisfy { $0.hasSuffix(".png") && !$0.contains("/.") }, "pngs only: \(written)")
        let records = Self.files(under: workspace.file("cat/.cards.csv.kira-state"))
        #expect(records.count == 24 && records.allSatisfy { $0.hasSuffix(".kira-batch") }, "records only: \(records)")
        let before = try outputs.map { try Self.identity(workspace.file("cat/" + $0)) }

        let again = try workspace.run("batch", "cat/cards.csv", "--json")
        #expect(again.status == 0, "\(again.stderr)")
        let summary = try Self.summary(again)
        #expect(summary.skipped == 24 && summary.rendered == 0, "\(summary)")
        #expect(try outputs.map { try Self.identity(workspace.file("cat/" + $0)) } == before)
    }

    /// A batch killed with SIGKILL leaves only whole files; run again, it finishes, and what was
    /// finished before is not rewritten.
    @Test func resumesAfterKill() throws {
        let workspace = try Workspace()
        // Twenty-four outputs: the kill comes after the third. With eight, a busy machine let the
        // batch write all of them before this loop saw the third and killed it.
        let outputs = try Self.catalogue(in: workspace, cards: 3, tilts: 8, size: "240x320")
        let process = try CLIRunner.start(["batch", "cat/cards.csv", "--threads", "1"], in: workspace.path)
        // Kill it once a few outputs are there.
        let deadline = Date().addingTimeInterval(60)
        while Self.files(under: workspace.file("cat/out")).filter({ $0.hasSuffix(".png") }).count < 3, Date() < deadline {
            usleep(2_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        let left = Self.files(under: workspace.file("cat/out"))
        let finished = left.filter { $0.hasSuffix(".png") }
        try #require(finished.count >= 3, "killed before three outputs were written: nothing to resume from")
        #expect(left.allSatisfy { $0.hasSuffix(".png") && !$0.contains("/.") }, "temporary files left: \(left)")
        let records = Self.files(under: workspace.file("cat/.cards.csv.kira-state"))
        #expect(records.allSatisfy { $0.hasSuffix(".kira-batch") && !$0.contains("/.") }, "temporary files left: \(records)")
        #expect(finished.count < outputs.count, "the batch finished before the kill; make it longer")
        for file in finished { #expect(throws: Never.self, "\(file)") { try PNGCodec.read(workspace.file("cat/out/" + file)) } }
        let before = try finished.map { try Self.identity(workspace.file("cat/out/" + $0)) }

        let rerun = try workspace.run("batch", "cat/cards.csv", "--json")
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let summary = try Self.summary(rerun)
        #expect(summary.rendered + summary.skipped == outputs.count)
        #expect(summary.skipped >= finished.count - 1, "\(summary), \(finished.count) finished before")
        let after = try finished.map { try Self.identity(workspace.file("cat/out/" + $0)) }
        #expect(zip(before, after).filter { $0 != $1 }.count <= 1, "finished outputs rewritten")
        #expect(Self.files(under: workspace.file("cat/out")).count == outputs.count)
        #expect(Self.files(under: workspace.file("cat/.cards.csv.kira-state")).count == outputs.count)
        let render = try CLIRunner.run(in: workspace, Self.renderArguments(card: 1, tilt: 3, size: "240x320") + ["-o", "output/r.png"])
        #expect(render.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: workspace.file("output/r.png")))
                == Data(contentsOf: URL(fileURLWithPath: workspace.file("cat/out/card1/tilt3.png"))))
    }

    /// A record's name is Kira's own: a symbolic link planted there is replaced, not written
    /// through (it overwrote the file it pointed to), and a FIFO there neither hangs the batch
    /// nor receives the record.
    @Test func plantedLinksAndFIFOsAsRecordsAreReplaced() throws {
        let workspace = try Workspace()
        let outputs = try Self.catalogue(in: workspace, cards: 1, tilts: 2)
        #expect(try workspace.run("batch", "cat/cards.csv").status == 0)
        let victim = workspace.file("victim.txt")
        try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: victim))
        let store = RecordStore(directory: workspace.file("cat/.cards.csv.kira-state"))
        let linked = store.path(forKey: outputs[0]), fifo = store.path(forKey: outputs[1])
        for record in [linked, fifo] { unlink(record) }
        try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: victim)
        #expect(mkfifo(fifo, 0o644) == 0)

        let process = try CLIRunner.start(["batch", "cat/cards.csv"], in: workspace.path)
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        // A hung batch is the failure; the checks after it would hang too.
        try #require(process.terminationReason == .exit && process.terminationStatus == 0, "the batch hung or failed")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me\n")
        for record in [linked, fifo] {
            let type = try FileManager.default.attributesOfItem(atPath: record)[.type] as? FileAttributeType
            #expect(type == .typeRegular, "\(record) is \(String(describing: type))")
        }
        #expect(try Self.summary(try workspace.run("batch", "cat/cards.csv", "--json")).skipped == 2)
    }

    /// `--state` puts the records where it says; without it, a manifest in a folder that cannot be
    /// written is refused on one line that names `--state`, before anything renders.
    @Test func stateFolder() throws {
        let workspace = try Workspace()
        let outputs = try Self.catalogue(in: workspace, cards: 1, tilts: 2)
        let first = try workspace.run("batch", "cat/cards.csv", "--state", "records", "--json")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(Self.files(under: workspace.file("records")).count == 2)
        #expect(!workspace.exists("cat/.cards.csv.kira-state"))
        #expect(Self.files(under: workspace.file("cat/out")).count == outputs.count)
        #expect(try Self.summary(try workspace.run("batch", "cat/cards.csv", "--state", "records", "--json")).skipped == 2)
        // Another state folder knows nothing yet.
        #expect(try Self.summary(try workspace.run("batch", "cat/cards.csv", "--json")).rendered == 2)

        // A file in the way of the state folder.
        try "output,size\nout/a.png,20x20\n".write(toFile: workspace.file("b.csv"), atomically: true, encoding: .utf8)
        try Data().write(to: URL(fileURLWithPath: workspace.file(".b.csv.kira-state")))
        let blocked = try workspace.run("batch", "b.csv")
        #expect(blocked.status == 2)
        #expect(blocked.stderr.split(separator: "\n").count == 1 && blocked.stderr.contains("--state DIR"), "\(blocked.stderr)")
        #expect(!workspace.exists("out/a.png"))
        #expect(try workspace.run("batch", "b.csv", "--state", "b-state").status == 0)
    }

    /// Root writes in any folder: as root, kira runs as `nobody` (through util-linux's `setpriv`).
    @Test(.enabled(if: getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func aReadOnlyManifestFolderNeedsState() throws {
        let workspace = try Workspace()
        _ = try Self.catalogue(in: workspace, cards: 1, tilts: 1)
        try "output,art,size\n../out/a.png,art/card0.png,20x20\n".write(toFile: workspace.file("cat/ro.csv"), atomically: true, encoding: .utf8)
        chmod(workspace.path, 0o777)
        chmod(workspace.file("cat"), 0o555)
        defer { chmod(workspace.file("cat"), 0o755) }
        func batch(_ arguments: String...) throws -> CLIRunner.Result {
            guard getuid() == 0 else { return try CLIRunner.run(["batch"] + arguments, in: workspace.path) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", CLIRunner.executable, "batch"] + arguments
            process.currentDirectoryURL = URL(fileURLWithPath: workspace.path)
            let err = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = err
            try process.run()
            let data = err.fileHandleForReading.readAllRetryingInterrupts()
            process.waitUntilExit()
            return CLIRunner.Result(status: process.terminationStatus, stdout: "", stderr: String(decoding: data, as: UTF8.self))
        }
        let refused = try batch("cat/ro.csv", "--quiet")
        #expect(refused.status == 2)
        #expect(refused.stderr.split(separator: "\n").count == 1 && refused.stderr.contains("--state DIR"), "\(refused.stderr)")
        #expect(!workspace.exists("out/a.png"))
        let given = try batch("cat/ro.csv", "--state", "state", "--quiet")
        #expect(given.status == 0, "\(given.stderr)")
        #expect(workspace.exists("out/a.png") && workspace.exists("state"))
    }

    /// Records are keyed by the outputs as the manifest writes them: the manifest reached by
    /// another path (shared storage mounted elsewhere: here a link) finds every output up to date.
    @Test func recordsAgreeWhateverPathReachesTheManifest() throws {
        let workspace = try Workspace()
        let outputs = try Self.catalogue(in: workspace, cards: 1, tilts: 3)
        try FileManager.default.createSymbolicLink(atPath: workspace.file("mount"), withDestinationPath: workspace.file("cat"))
        #expect(try workspace.run("batch", "cat/cards.csv", "--shard", "0/2").status == 0)
        #expect(try workspace.run("batch", workspace.file("mount/cards.csv"), "--shard", "1/2").status == 0)
        let again = try Self.summary(try workspace.run("batch", "mount/cards.csv", "--json"))
        #expect(again.skipped == outputs.count && again.rendered == 0, "\(again)")
        #expect(Self.files(under: workspace.file("cat/.cards.csv.kira-state")).count == outputs.count)
    }

    /// A record an earlier version wrote beside its output is honoured where it is (not moved);
    /// a row rendered again gets its record in the state folder.
    @Test func oldRecordsBesideOutputsAreHonoured() throws {
        let workspace = try Workspace()
        let outputs = try Self.catalogue(in: workspace, cards: 1, tilts: 2)
        #expect(try workspace.run("batch", "cat/cards.csv").status == 0)
        let store = RecordStore(directory: workspace.file("cat/.cards.csv.kira-state"))
        // Move the records beside their outputs, as earlier versions kept them.
        for output in outputs {
            try FileManager.default.moveItem(atPath: store.path(forKey: output), toPath: workspace.file("cat/" + OutputRecord.path(for: output)))
        }
        let before = try outputs.map { try Self.identity(workspace.file("cat/" + $0)) }
        let again = try Self.summary(try workspace.run("batch", "cat/cards.csv", "--json"))
        #expect(again.skipped == 2 && again.rendered == 0, "\(again)")
        #expect(try outputs.map { try Self.identity(workspace.file("cat/" + $0)) } == before)
        #expect(outputs.allSatisfy { workspace.exists("cat/" + OutputRecord.path(for: $0)) })
        #expect(Self.files(under: store.directory).isEmpty)

        // An output changed by hand is made again, its new record in the state folder.
        try Data("x".utf8).write(to: URL(fileURLWithPath: workspace.file("cat/" + outputs[0])))
        let third = try Self.summary(try workspace.run("batch", "cat/cards.csv", "--json"))
        #expect(third.rendered == 1 && third.skipped == 1, "\(third)")
        #expect(FileManager.default.fileExists(atPath: store.path(forKey: outputs[0])))
    }

    /// Changed art is rendered again, unchanged art is not.
    @Test func aChangedTextureRendersItsRowsAgain() throws {
        let workspace = try Workspace()
        let outputs = try Self.catalogue(in: workspace, cards: 2, tilts: 3)
        #expect(try workspace.run("batch", "cat/cards.csv").status == 0)
        let before = try outputs.map { try Self.identity(workspace.file("cat/" + $0)) }

        var art = try PNGCodec.read(workspace.file("cat/art/card1.png")).rgba8
        art.channels[0] ^= 0xFF
        try PNGCodec.write(art, to: workspace.file("cat/art/card1.png"))
        let result = try workspace.run("batch", "cat/cards.csv", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try Self.summary(result)
        #expect(summary.rendered == 3 && summary.skipped == 3, "\(summary)")
        let after = try outputs.map { try Self.identity(workspace.file("cat/" + $0)) }
        #expect(Array(after[0..<3]) == Array(before[0..<3]))
        #expect(zip(after[3...], before[3...]).allSatisfy { $0 != $1 })
        let render = try CLIRunner.run(in: workspace, Self.renderArguments(card: 1, tilt: 2) + ["-o", "output/r.png"])
        #expect(render.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: workspace.file("output/r.png")))
                == Data(contentsOf: URL(fileURLWithPath: workspace.file("cat/out/card1/tilt2.png"))))

        // An output changed by hand is made again; a changed value too.
        try Data("x".utf8).write(to: URL(fileURLWithPath: workspace.file("cat/" + outputs[0])))
        let third = try Self.summary(try workspace.run("batch", "cat/cards.csv", "--json"))
        #expect(third.rendered == 1 && third.skipped == 5, "\(third)")
    }

    @Test func badRowsFailAlone() throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(atPath: workspace.file("cat"), withIntermediateDirectories: true)
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: workspace.file("cat/corrupt.png")))
        try Data().write(to: URL(fileURLWithPath: workspace.file("cat/blocker")))
        try FileManager.default.copyItem(atPath: workspace.file("textures/front.png"), toPath: workspace.file("cat/in.png"))
        let manifest = """
            output,art,tilt_x,depth,crossfade,size
            out/good1.png,in.png,3,,,50x60
            out/missing.png,nope.png,,,,50x60
            out/corrupt.png,corrupt.png,,,,50x60
            out/number.png,in.png,abc,,,50x60
            out/range.png,in.png,95,,,50x60
            out/depth.png,in.png,,12,,50x60
            out/flag.png,in.png,,,maybe,50x60
            blocker/unwritable.png,in.png,,,,50x60
            in.png,in.png,,,,50x60
            ,,,,,50x60
            out/good2.png,in.png,-3,,yes,50x60

            """
        try manifest.write(toFile: workspace.file("cat/cards.csv"), atomically: false, encoding: .utf8)
        let result = try workspace.run("batch", "cat/cards.csv", "--json")
        #expect(result.status == 1, "\(result.stderr)")
        let summary = try Self.summary(result)
        #expect(summary.rendered == 2 && summary.failed == 9, "\(summary)")
        #expect(summary.failures.map(\.row) == [2, 3, 4, 5, 6, 7, 8, 9, 10])
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 9, "\(result.stderr)")
        for (row, words) in [(2, ["nope.png", "no such file"]), (3, ["corrupt.png"]), (4, ["tilt_x", "abc"]),
                             (5, ["tilt_x"]), (6, ["depth"]), (7, ["crossfade", "maybe"]),
                             (8, ["unwritable.png"]), (9, ["overwrite"]), (10, ["no output"])] {
            let line = lines.first { $0.hasPrefix("kira batch: row \(row)") } ?? ""
            #expect(words.allSatisfy { line.contains($0) }, "row \(row): \(line)")
        }
        #expect(Self.files(under: workspace.file("cat/out")).filter { $0.hasSuffix(".png") && !$0.hasPrefix(".") } == ["good1.png", "good2.png"])
    }

    /// A bad value is named by its own column, not by a shorter one its option begins with
    /// (`--back` and `--background`).
    @Test func aBadBackgroundIsNamedAsSuch() throws {
        let workspace = try Workspace()
        try "output,size,background\nout/v.png,50x60,#ZZZZZZ\n".write(toFile: workspace.file("cards.csv"), atomically: false, encoding: .utf8)
        let result = try workspace.run("batch", "cards.csv")
        #expect(result.status == 1)
        #expect(result.stderr.contains("row 1 (out/v.png): background must be #RRGGBB"), "\(result.stderr)")
    }

    /// Rows with the same values share one parse of them; each row's paths are still checked as
    /// `kira render` checks them, and a bad value fails every row that has it, with render's message.
    @Test func rowsSharingValuesAreEachCheckedAsRenderChecksThem() throws {
        let workspace = try Workspace()
        let manifest = """
            output,tilt_x,size
            out/a.png,5,40x50
            out/b.gif,5,40x50
            out/,5,40x50
            out/c.png,5,40x50
            out/d.png,abc,40x50
            out/e.png,abc,40x50

            """
        try manifest.write(toFile: workspace.file("cards.csv"), atomically: false, encoding: .utf8)
        let result = try workspace.run("batch", "cards.csv", "--json")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(try Self.summary(result).failures.map(\.row) == [2, 3, 5, 6], "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        for (row, output, tilt) in [(2, "out/b.gif", "5"), (3, "out/", "5"), (5, "out/d.png", "abc"), (6, "out/e.png", "abc")] {
            let render = try workspace.run("render", "--tilt-x=\(tilt)", "--size", "40x50", "-o", output)
            #expect(render.status != 0)
            // The same message, the parameter spelled as an option (`--tilt-x`) instead of a column (`tilt_x`).
            let reason = Self.columnSpelling(String(render.stderr.split(separator: "\n").first ?? "")
                .replacingOccurrences(of: "kira render: ", with: "").replacingOccurrences(of: " (see 'kira render --help')", with: ""))
            let line = lines.first { $0.hasPrefix("kira batch: row \(row) ") } ?? ""
            #expect(!reason.isEmpty && line.lowercased().contains(reason.lowercased()), "row \(row): \(line) vs render: \(reason)")
        }
        #expect(workspace.exists("out/a.png") && workspace.exists("out/c.png"))
    }

    /// `--tilt-x` as a manifest names it, `tilt_x`.
    static func columnSpelling(_ text: String) -> String {
        var result = "", rest = Substring(text)
        while let dashes = rest.range(of: "--") {
            result += rest[..<dashes.lowerBound]
            let name = rest[dashes.upperBound...].prefix { $0.isLetter || $0 == "-" }
            result += name.replacingOccurrences(of: "-", with: "_")
            rest = rest[dashes.upperBound...].dropFirst(name.count)
        }
        return result + rest
    }

    /// An output name of 255 bytes (as `kira render` writes) renders, and a re-run finds it up to date.
    @Test func outputNamesUpTo255Bytes() throws {
        let workspace = try Workspace()
        let name = String(repeating: "n", count: 251) + ".png"
        try "output,size\nout/\(name),30x40\n".write(toFile: workspace.file("cards.csv"), atomically: false, encoding: .utf8)
        let first = try workspace.run("batch", "cards.csv", "--json")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try Self.summary(first).rendered == 1)
        let second = try Self.summary(try workspace.run("batch", "cards.csv", "--json"))
        #expect(second.skipped == 1, "\(second)")
        #expect(Self.files(under: workspace.file("out")) == [name])
        #expect(Self.files(under: workspace.file(".cards.csv.kira-state")).count == 1)
    }

    static let badManifests: [(String, String, String)] = [
        ("missing.csv", "", "no such file"),
        ("cards.txt", "output\na.png\n", ".csv or .jsonl"),
        ("cards.csv", "art,tilt_x\na.png,1\n", "no \"output\" column"),
        ("cards.csv", "output,tilt\na.png,1\n", "unknown column"),
        ("cards.csv", "output,tilt_x\nout/a.png,1\n./out/a.png,2\n", "rows 1 and 2 both write"),
        ("cards.csv", "output,tilt_x\nout/a.png,1,2\n", "3 fields"),
        ("cards.jsonl", "{\"output\": \"out/a.png\"}\n{oops\n", "line 2"),
        // A NUL ends a file name: "out/a\0.png" would be written as "out/a".
        ("cards.csv", "output,tilt_x\nout/a\u{0}.png,1\n", "row 1: output holds a NUL character"),
        ("cards.jsonl", "{\"output\": \"out/a.png\", \"art\": \"x\\u0000.png\"}\n", "row 1: art holds a NUL character"),
        ("cards.csv", "output,tilt_x\n-,1\n", "'-' (standard output) is not a file"),
    ]

    @Test(arguments: badManifests.indices)
    func aBadManifestRendersNothing(index: Int) throws {
        let (name, text, reason) = Self.badManifests[index]
        let workspace = try Workspace()
        if !text.isEmpty { try text.write(toFile: workspace.file(name), atomically: false, encoding: .utf8) }
        let result = try workspace.run("batch", name)
        #expect(result.status == 2, "\(name): exit \(result.status): \(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("kira batch: ") && lines[0].contains(reason), "\(result.stderr)")
        #expect(!workspace.exists("out"))
    }

    /// Two rows writing one file through a symbolically linked folder: the manifest is unusable
    /// (exit 2), and nothing renders.
    @Test func duplicateOutputsThroughALinkedFolder() throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(atPath: workspace.file("real"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: workspace.file("link"), withDestinationPath: "real")
        try "output,size\nreal/cards/a.png,20x20\nlink/cards/a.png,20x20\n".write(
            toFile: workspace.file("cards.csv"), atomically: false, encoding: .utf8)
        let result = try workspace.run("batch", "cards.csv")
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("rows 1 and 2 both write"), "\(result.stderr)")
        #expect(!workspace.exists("real/cards"))
    }

    @Test func badShard() throws {
        let workspace = try Workspace()
        try "output\nout/a.png\n".write(toFile: workspace.file("cards.csv"), atomically: false, encoding: .utf8)
        // Each refused on one line that says what is wrong (a negative K is a value, not a missing one).
        for (shard, reason) in [("3/3", "K must be 0…2"), ("x", "must be K/N"), ("-1/2", "K must be 0…1"), ("1/0", "N must be"),
                                ("0/1000001", "N must be"), ("99999999999999999999/2", "must be K/N")] {
            let result = try workspace.run("batch", "cards.csv", "--shard", shard)
            #expect(result.status == 2, "\(shard): \(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains(reason), "\(shard): \(result.stderr)")
        }
        #expect(!workspace.exists("out"))
    }

    /// A summary that cannot be written is an error (exit 2), the frames are still made.
    @Test(arguments: [[], ["--json"]])
    func summaryToFullDevice(arguments: [String]) throws {
        let workspace = try Workspace()
        try "output,size\nout/a.png,20x20\n".write(toFile: workspace.file("cards.csv"), atomically: false, encoding: .utf8)
        let result = try CLIRunner.run(["batch", "cards.csv", "--quiet"] + arguments, in: workspace.path, standardOutput: "/dev/full")
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("standard output"), "\(result.stderr)")
        #expect(workspace.exists("out/a.png"))
    }

    /// A row whose output is another row's texture (by name or through a hard link) fails alone;
    /// the texture is left as it was, and the row that reads it renders.
    @Test func anOutputOverAnotherRowsTextureFails() throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(atPath: workspace.file("cat"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: workspace.file("textures/front.png"), toPath: workspace.file("cat/art.png"))
        try FileManager.default.linkItem(atPath: workspace.file("cat/art.png"), toPath: workspace.file("cat/linked.png"))
        let art = try Data(contentsOf: URL(fileURLWithPath: workspace.file("cat/art.png")))
        let manifest = "output,art,size\nart.png,,40x50\nout/b.png,art.png,40x50\nlinked.png,,40x50\n"
        try manifest.write(toFile: workspace.file("cat/cards.csv"), atomically: false, encoding: .utf8)
        let result = try workspace.run("batch", "cat/cards.csv", "--json")
        #expect(result.status == 1, "\(result.stderr)")
        let summary = try Self.summary(result)
        #expect(summary.rendered == 1 && summary.failures.map(\.row) == [1, 3], "\(summary)")
        #expect(summary.failures.allSatisfy { $0.reason.contains("a texture of row 2") }, "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: workspace.file("cat/art.png"))) == art)
        #expect(workspace.exists("cat/out/b.png"))
    }

    /// Every option of `kira render` that shapes the frame is a manifest column, so batch and
    /// render cannot drift apart.
    @Test func everyRenderOptionIsAColumn() throws {
        let workspace = try Workspace()
        let help = try workspace.run("render", "--help").stdout
        let options = Set(help.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-") })
            .filter { $0.hasPrefix("--") && $0.count > 2 }
            .map { String($0.dropFirst(2)).replacingOccurrences(of: "-", with: "_") })
        // --max-memory bounds the process, not a frame: not a column.
        let notColumns: Set<String> = ["threads", "help", "version", "max_memory"]
        let manifestColumns = Set(["output", "art", "mask", "back", "back_mask", "tilt_x", "tilt_y", "flip", "axis",
                                   "perspective", "tilt_perspective", "crossfade", "size", "background", "depth",
                                   "shader", "angle_strength", "y_flip", "rotation", "compression", "scale", "fit",
                                   "foil", "intensity", "glare", "foil_map", "quality", "lossless", "width", "height"])
        #expect(options.subtracting(notColumns) == manifestColumns)
        let batchHelp = try workspace.run("batch", "--help").stdout.replacingOccurrences(of: "\n", with: " ")
        for column in manifestColumns { #expect(batchHelp.contains(column), "\(column) not in kira batch --help") }
    }
}

extension CLIRunner {
    static func run(in workspace: Workspace, _ arguments: [String]) throws -> Result {
        try run(arguments, in: workspace.path)
    }
}

/// The Slurm example, run as Slurm would run its array tasks (the variables set, one process per task).
@Suite struct SlurmExampleTests {
    @Test func arrayTasksCoverTheCatalogue() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/slurm-array.sh").path
        let workspace = try Workspace()
        let outputs = try BatchCommandTests.catalogue(in: workspace, cards: 3, tilts: 2)
        var rendered = 0
        for task in 0..<3 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = [script, "cat/cards.csv"]
            process.currentDirectoryURL = URL(fileURLWithPath: workspace.path)
            var environment = ProcessInfo.processInfo.environment
            environment["KIRA"] = CLIRunner.executable
            environment["SLURM_ARRAY_TASK_ID"] = String(task)
            environment["SLURM_ARRAY_TASK_COUNT"] = "3"
            environment["SLURM_CPUS_PER_TASK"] = "1"
            process.environment = environment
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = out.fileHandleForReading.readAllRetryingInterrupts()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let summary = try JSONDecoder().decode(BatchSummary.self, from: data)
            #expect(summary.shard == "\(task)/3" && summary.rows == 2)
            rendered += summary.rendered
        }
        #expect(rendered == outputs.count)
        #expect(outputs.allSatisfy { workspace.exists("cat/" + $0) })
    }
}

/// `--compression fast` writes the same pixels as the default, in other (larger) bytes.
@Suite struct CompressionOptionTests {
    @Test func fastCompressionKeepsThePixels() throws {
        let workspace = try Workspace()
        for compression in ["standard", "fast"] {
            let result = try workspace.run("render", "--art", "textures/front.png", "--mask", "textures/mask.png",
                                           "--tilt-x", "5", "--size", "60x80", "--compression", compression, "-o", "output/\(compression).png")
            #expect(result.status == 0, "\(result.stderr)")
        }
        let standard = try Data(contentsOf: URL(fileURLWithPath: workspace.file("output/standard.png")))
        let fast = try Data(contentsOf: URL(fileURLWithPath: workspace.file("output/fast.png")))
        #expect(standard != fast)
        #expect(try PNGCodec.read(workspace.file("output/standard.png")) == PNGCodec.read(workspace.file("output/fast.png")))
        #expect(try workspace.run("render", "--compression", "best").status == 2)
    }
}

/// The Kubernetes example cannot run here (no cluster); its shard count must match its completions.
@Suite struct KubernetesExampleTests {
    @Test func shardCountMatchesCompletions() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/kubernetes-indexed-job.yaml").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        func number(after marker: String) -> Int? {
            guard let range = text.range(of: marker) else { return nil }
            return Int(text[range.upperBound...].prefix { $0.isNumber })
        }
        let completions = number(after: "completions: "), shards = number(after: "$(SHARD_INDEX)/")
        #expect(completions != nil && completions == shards, "completions \(String(describing: completions)), --shard …/\(String(describing: shards))")
        #expect(text.contains("completionMode: Indexed") && text.contains("batch.kubernetes.io/job-completion-index"))
    }
}
