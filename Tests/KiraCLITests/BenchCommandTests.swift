import Foundation
import KiraTestSupport
import Testing

@Suite struct BenchCommandTests {
    @Test func jsonReportHasEveryPath() throws {
        let workspace = try Workspace()
        let result = try workspace.run("bench", "--size", "48x64", "--frames", "2", "--repeats", "1", "--threads", "2", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let paths = try #require(object["paths"] as? [[String: Any]])
        let names = Set(paths.compactMap { $0["name"] as? String })
        #expect(names.isSuperset(of: ["scalar", "simd", "sweep", "frame", "animate-png", "animate-apng"]), "\(names)")
        for path in paths {
            for key in ["name", "width", "height", "frames", "threads", "seconds", "mpx_per_s"] {
                #expect(path[key] != nil, "\(key) missing in \(path)")
            }
            #expect((path["seconds"] as? Double ?? 0) > 0)
            #expect(path["width"] as? Int == 48 && path["height"] as? Int == 64)
        }
        #expect(Set(paths.filter { $0["name"] as? String == "simd" }.compactMap { $0["threads"] as? Int }) == [1, 2])
    }

    @Test func pathFilterMeasuresOnlyThosePaths() throws {
        let workspace = try Workspace()
        let result = try workspace.run("bench", "--size", "40x56", "--frames", "1", "--repeats", "1", "--threads", "2",
                                       "--path", "frame", "--path", "frame-scalar", "--path", "frame-thumbnail", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let paths = try #require(object["paths"] as? [[String: Any]])
        #expect(paths.compactMap { $0["name"] as? String } == ["frame", "frame", "frame-scalar", "frame-scalar", "frame-thumbnail", "frame-thumbnail"])
        for path in paths {
            #expect(path["frames_per_s"] as? Double ?? 0 > 0 && path["threads"] as? Int != nil, "\(path)")
        }
        let unknown = try workspace.run("bench", "--path", "nope")
        #expect(unknown.status == 2 && unknown.stderr.contains("unknown path 'nope'"), "\(unknown.stderr)")
    }

    @Test func tableIsReadable() throws {
        let workspace = try Workspace()
        let result = try workspace.run("bench", "--size", "32x48", "--frames", "1", "--repeats", "1")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Mpx/s") && result.stdout.contains("sweep"))
    }
}

/// On a terminal, `kira bench` says which path it is measuring; piped, it is silent on stderr.
@Suite struct BenchProgressTests {
    /// Runs `kira` on a pseudo-terminal (util-linux `script`), returning what the terminal showed.
    static func onTerminal(_ arguments: [String], in workspace: Workspace) throws -> String {
        let command = ([CLIRunner.executable] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-q", "-e", "-c", command, "/dev/null"]
        process.currentDirectoryURL = URL(fileURLWithPath: workspace.path)
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readAllRetryingInterrupts()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
    }

    @Test func aLinePerPathOnATerminal() throws {
        let workspace = try Workspace()
        let arguments = ["bench"] + Workspace.front + ["--frames", "1", "--repeats", "1", "--threads", "1"]
        let shown = try Self.onTerminal(arguments, in: workspace)
        for path in ["scalar", "simd", "sweep", "frame", "png-decode"] {
            #expect(shown.contains("kira bench: \(path), 1 thread…"), "\(path) missing in \(shown)")
        }
        #expect(!(try Self.onTerminal(arguments + ["--quiet"], in: workspace)).contains("kira bench: scalar"))
        // Into a log: the plan, no bar, and no progress line for paths shorter than 10 s;
        // nothing with --quiet.
        let piped = try CLIRunner.run(arguments, in: workspace.path)
        #expect(piped.status == 0 && !piped.stderr.contains("░") && !piped.stderr.contains("\r"), "\(piped.stderr)")
        let logged = piped.stderr.split(separator: "\n")
        #expect(logged.count == 2 && logged[1].contains("best of 1 run: scalar (1 thread)"), "\(piped.stderr)")
        let quiet = try CLIRunner.run(arguments + ["--quiet"], in: workspace.path)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
    }

    @Test func planAndEstimateFirst() throws {
        let workspace = try Workspace()
        let arguments = ["bench", "--size", "32x48", "--frames", "2", "--repeats", "1", "--threads", "2"]
        let shown = try Self.onTerminal(arguments, in: workspace)
        // The line that says it is timing is cleared (ESC [K) and replaced by the plan.
        #expect(shown.hasPrefix("kira bench: timing one frame of each path for an estimate…\r\u{1B}[K"), "\(shown.prefix(200))")
        let lines = shown.replacingOccurrences(of: "\u{1B}[K", with: "").split(whereSeparator: \.isNewline).map(String.init)
        let plan = try #require(lines.first { $0.hasPrefix("kira bench: 32×48, 2 frames a run, best of 1 run: ") }, "\(shown)")
        #expect(plan.contains("scalar (1 thread), simd (1, 2 threads), sweep (1, 2 threads)") && plan.contains("; foil kira; about "), "\(plan)")
        #expect(plan.hasSuffix(" (from one frame of each path)"), "\(plan)")
        // The plan names the paths the table then reports, in its order.
        let table = lines.drop { !$0.hasPrefix("path ") }.dropFirst().compactMap { $0.split(separator: " ").first.map(String.init) }
        var measured: [String] = []
        for name in table where !measured.contains(name) { measured.append(name) }
        let planned = plan.split(separator: ": ", maxSplits: 2)[2].split(separator: ";")[0].split(separator: "), ")
            .map { String($0.split(separator: " (")[0]) }
        #expect(!measured.isEmpty && planned == measured, "plan \(planned), table \(measured)")
        #expect(shown.contains("2/2"), "a progress bar at its end")
        // Piped: the plan and its estimate on stderr too, as lines, and stdout is the table alone.
        let piped = try CLIRunner.run(arguments, in: workspace.path)
        #expect(piped.status == 0, "\(piped.stderr)")
        let logged = piped.stderr.split(separator: "\n").map(String.init)
        #expect(logged.first == "kira bench: timing one frame of each path for an estimate…", "\(piped.stderr)")
        #expect(logged.dropFirst().first.map { $0.hasPrefix("kira bench: 32×48, 2 frames a run, best of 1 run: ") } == true, "\(piped.stderr)")
        let out = piped.stdout.split(separator: "\n").map(String.init)
        #expect(out.first?.hasPrefix("kira bench: 32×48, ") == true && out.count > 2 && out[1].hasPrefix("path "), "\(piped.stdout)")
        #expect(!piped.stdout.contains("about") && !piped.stdout.contains("frames a run") && !piped.stdout.contains("░"))
        #expect(out.dropFirst(2).map { $0.split(separator: " ").first.map(String.init) ?? "" } == table, "the same rows as on a terminal")
    }
}
