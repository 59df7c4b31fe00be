import Foundation
import Kira
import KiraPNG
import KiraTestSupport
import Testing

/// Files of every kind a user might hand Kira, good and bad, written into a workspace.
enum InputFixtures {
    static let bad = ["missing.png", "textures"] + BadPNGFiles.names
    static let unusualButGood = ["gray16.png", "palette.png", "gray2.png", "interlaced.png", "rgba16.png"]

    static func write(into workspace: Workspace) throws {
        func put(_ name: String, _ bytes: [UInt8]) throws {
            try Data(bytes).write(to: URL(fileURLWithPath: workspace.file(name)))
        }
        try BadPNGFiles.write(into: workspace.path, good: try Array(Data(contentsOf: URL(fileURLWithPath: workspace.file("textures/front.png")))))

        let (w, h) = (23, 31)
        func pattern(_ n: Int, _ depth: Int) -> [Int] { (0..<n).map { ($0 * 7919 + 13) % (1 << depth) } }
        try put("gray16.png", PNGFixture(width: w, height: h, colorType: .gray, bitDepth: 16, samples: pattern(w * h, 16)).bytes)
        try put("gray2.png", PNGFixture(width: w, height: h, colorType: .gray, bitDepth: 2, samples: pattern(w * h, 2)).bytes)
        let palette: [(UInt8, UInt8, UInt8)] = (0..<16).map { (i: Int) in (UInt8(i * 16), UInt8(255 - i * 16), UInt8(90)) }
        try put("palette.png", PNGFixture(width: w, height: h, colorType: .palette, bitDepth: 4, samples: pattern(w * h, 4),
                                           palette: palette, transparency: [0, 128]).bytes)
        try put("interlaced.png", PNGFixture(width: w, height: h, colorType: .rgb, bitDepth: 8, interlaced: true,
                                              samples: pattern(w * h * 3, 8)).bytes)
        try put("rgba16.png", PNGFixture(width: w, height: h, colorType: .rgba, bitDepth: 16, samples: pattern(w * h * 4, 16)).bytes)
    }
}

/// Every subcommand, every kind of bad input: one line on stderr, exit status 2, no crash and
/// no output file; and unusual but valid PNGs work.
@Suite struct BadInputTests {
    /// Each command, with `FILE` where an input image goes.
    static let fileCommands: [[String]] = [
        ["shade", "--art", "FILE"],
        ["shade", "--mask", "FILE"],
        ["render", "--art", "FILE", "--size", "60x80"],
        ["render", "--back-mask", "FILE", "--flip", "180", "--size", "60x80"],
        ["bench", "--art", "FILE", "--mask", "textures/mask.png", "--frames", "1", "--repeats", "1"],
    ]

    /// What the command line adds to a refusal: one line, exit 2, nothing written. The values'
    /// rules themselves are the library's, tested in-process (FrontEndParityTests, ShadeValueTests).
    static let invalidArguments: [[String]] = [
        ["shade", "--tilt-x", "nan"], ["shade", "--tilt-x=-inf"], ["shade", "--normal", "1,2"],
        ["shade", "--threads", "-1"], ["shade", "--sparkle"],
        ["render", "--flip", "1e400"], ["render", "--size", "100000x100000"],
        ["render", "--wobble"], ["bench", "--frames", "0"], ["bench", "--size", "0x0"], ["bench", "--threads", "nan"],
        ["bench", "--art", "textures/front.png"], ["textures", "--output-dir", "no/such/parent"], ["textures", "--size", "-3x4"],
        ["frobnicate"], ["shade", "-o", "output/x.gif"], ["render", "--output", "card.TIFF"],
        ["animate", "--preset", "seed004-flip", "--sheet", "sheet.webp"], ["animate", "--preset", "seed004-flip", "--apng", "a.gif"],
    ]

    static let invalidOutputs: [[String]] = [
        ["shade", "-o", "nowhere/x.png"], ["shade", "-o", "/proc/kira-readonly.png"], ["shade", "-o", "textures/front.png"],
        ["shade", "-o", "textures"], ["render", "--size", "60x80", "-o", "nowhere/x.png"],
        ["render", "--size", "60x80", "-o", "textures/mask.png"], ["render", "--size", "60x80", "-o", "/proc/kira.png"],
    ]

    @discardableResult
    static func expectCleanFailure(_ arguments: [String], in workspace: Workspace) throws -> CLIRunner.Result {
        let before = workspace.outputs()
        let result = try CLIRunner.run(arguments, in: workspace.path)
        let command = arguments.joined(separator: " ")
        #expect(result.status == 2, "\(command): exit \(result.status), stderr: \(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(command): stderr must be one line: \(result.stderr)")
        #expect(result.stderr.hasPrefix("kira"), "\(command): \(result.stderr)")
        #expect(workspace.outputs() == before, "\(command): left \(workspace.outputs())")
        return result
    }

    /// Each kind of bad file once, the commands taking turns (each takes one or two): the
    /// library refuses every kind in every role in one line (KiraRequestTests'
    /// CardFileErrorTests, KiraImageTests' PNGErrorTests); this is the command line's part.
    @Test(arguments: InputFixtures.bad.indices)
    func badFiles(file: Int) throws {
        let workspace = try Workspace()
        try InputFixtures.write(into: workspace)
        let arguments = Self.fileCommands[file % Self.fileCommands.count].map { $0 == "FILE" ? InputFixtures.bad[file] : $0 }
        try Self.expectCleanFailure(arguments, in: workspace)
    }

    @Test(arguments: invalidArguments)
    func badArguments(arguments: [String]) throws {
        try Self.expectCleanFailure(arguments, in: try Workspace())
    }

    @Test(arguments: invalidOutputs)
    func badOutputs(arguments: [String]) throws {
        let workspace = try Workspace()
        let textures = try FileManager.default.contentsOfDirectory(atPath: workspace.file("textures")).sorted()
        let front = try Data(contentsOf: URL(fileURLWithPath: workspace.file("textures/front.png")))
        // On the workspace's small card: the built-in sample is slow to draw in a debug build.
        let card = arguments[0] == "shade" ? Workspace.front : Workspace.card
        try Self.expectCleanFailure([arguments[0]] + card + arguments.dropFirst(), in: workspace)
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.file("textures")).sorted() == textures)
        #expect(try Data(contentsOf: URL(fileURLWithPath: workspace.file("textures/front.png"))) == front)
    }

    /// Each unusual PNG once, as art, mask or back in turn (KiraImageTests' PNGDecodingTests
    /// decodes every colour type, depth and interlacing in process).
    @Test(arguments: InputFixtures.unusualButGood.indices)
    func unusualPNGsWork(file: Int) throws {
        let commands = [["shade", "--art", "FILE"], ["shade", "--art", "textures/front.png", "--mask", "FILE"],
                        ["render", "--art", "textures/front.png", "--mask", "textures/mask.png", "--back", "FILE", "--flip", "170", "--size", "70x90"]]
        let command = commands[file % commands.count], name = InputFixtures.unusualButGood[file]
        let workspace = try Workspace()
        try InputFixtures.write(into: workspace)
        let result = try CLIRunner.run(command.map { $0 == "FILE" ? name : $0 } + ["-o", "output/ok.png"], in: workspace.path)
        #expect(result.status == 0, "\(command) \(name): \(result.stderr)")
        #expect(workspace.outputs() == ["ok.png"])
    }
}

/// A render killed half way leaves no file, whole or partial.
@Suite struct AtomicOutputTests {
    /// Killed while it renders: the output is not created before the image is ready. (Killed
    /// while files are written: killedRenderWithNamedTemporaryFiles and the tests beside it.)
    @Test func killedRenderLeavesNothing() throws {
        let workspace = try Workspace()
        for signal in [SIGKILL, SIGTERM, SIGINT] {
            // A big canvas: seconds of work in a debug build.
            let ended = try CLIRunner.runKilled(["render", "--size", "6000x6000", "--tilt-y", "20", "--threads", "1", "-o", "output/big.png"],
                                                in: workspace.path, after: 400_000, signal: signal)
            #expect(ended == .uncaughtSignal, "signal \(signal): the render finished too soon to test")
            #expect(workspace.outputs().isEmpty, "signal \(signal) left \(workspace.outputs())")
        }
    }
}

/// Lengths, memory, files that are not regular files, outputs that are inputs,
/// reports that cannot be written, temporary files, byte-string names.
@Suite struct BadInputRobustnessTests {
    static func put(_ text: String, _ name: String, in workspace: Workspace) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: workspace.file(name)))
    }

    /// A drag sets the frame count: it obeys --duration's limits, refused before allocating.
    /// (Every such drag is refused in process: KiraRequestTests' DragLengthTests.)
    @Test func aDragTooLongIsRefused() throws {
        let workspace = try Workspace()
        try Self.put("0,0,0\n1e17,1,1\n", "drag.csv", in: workspace)
        try BadInputTests.expectCleanFailure(
            ["animate", "--preset", "seed003-tilt", "--drag", "drag.csv", "--size", "40x50", "--output-dir", "output"],
            in: workspace)
    }

    /// A NUL inside a number is refused with the line it is on.
    @Test func nulInNumberNamesTheLine() throws {
        let workspace = try Workspace()
        try Self.put("time,dx,dy\n0,0,0\n0.5,1\u{0}2,3\n", "drag.csv", in: workspace)
        let result = try workspace.run("animate", "--preset", "seed003-tilt", "--drag", "drag.csv", "--size", "40x50", "--output-dir", "output")
        #expect(result.status == 2)
        #expect(result.stderr.contains("drag.csv:3:"), "\(result.stderr)")
    }

    /// Work estimated over the budget is refused at once, saying how to get under it.
    @Test(arguments: [
        ["animate", "--art", "textures/front.png", "--mask", "textures/mask.png", "--back", "textures/back.png", "--back-mask", "textures/back-mask.png", "--preset", "seed002-spin", "--size", "16384x16384", "--output-dir", "output"],
        ["render", "--art", "textures/front.png", "--mask", "textures/mask.png", "--back", "textures/back.png", "--back-mask", "textures/back-mask.png", "--size", "16384x16384", "-o", "output/x.png", "--max-memory", "1G"],
        ["bench", "--size", "4096x4096", "--frames", "1000", "--max-memory", "64M"],
        ["shade", "--max-memory", "16M", "--art", "big.png", "--mask", "big.png", "-o", "output/x.png"],
        ["compare", "big.png", "big.png", "--diff", "output/d.png", "--max-memory", "16M"],
    ])
    func overBudget(arguments: [String]) throws {
        let workspace = try Workspace()
        // Unfiltered: choosing row filters over 2.25 Mpx took seconds per case in a debug build (more
        // under the sanitizers), and this file only has to be big.
        try PNGCodec.write(try RGBAImage<UInt8>(width: 1500, height: 1500), to: workspace.file("big.png"),
                           options: .init(filters: .none, deflater: .libdeflate(level: 1)))
        let result = try BadInputTests.expectCleanFailure(arguments, in: workspace)
        #expect(result.stderr.contains("--max-memory"), "\(result.stderr)")
    }

    @Test(arguments: ["0", "abc", "1e400", "-2G", "2X", "8"])
    func badMemoryBudgets(value: String) throws {
        try BadInputTests.expectCleanFailure(["shade", "--max-memory", value, "--art", "textures/front.png", "-o", "output/x.png"],
                                             in: try Workspace())
    }

    /// A budget under the minimum is refused in the option's name, as the library words it
    /// (MemoryBudgetTests has the rule's cases).
    @Test func aSmallBudgetIsNamedExactly() throws {
        let result = try Workspace().run("shade", "--max-memory", "1K", "--art", "textures/front.png", "-o", "output/x.png")
        #expect(result.status == 2 && result.stderr.contains("--max-memory must be at least 16M, not 1 KiB"), "\(result.stderr)")
    }

    /// Whether this process may make a character device (root with CAP_MKNOD): tried once, in a
    /// folder of its own, with the device /dev/full is (1,7).
    static let canMakeDevices: Bool = {
        guard let directory = try? TemporaryDirectory() else { return false }
        return mknod(directory.path + "/full", S_IFCHR | 0o666, dev_t(1 << 8 | 7)) == 0
    }()

    /// A character device is written in place, never replaced; its errors are errors.
    @Test(.enabled(if: canMakeDevices, "making a character device (a /dev/full in the workspace) needs root"))
    func devicesAreWrittenInPlace() throws {
        let workspace = try Workspace()
        let full = workspace.file("output/full")
        try #require(mknod(full, S_IFCHR | 0o666, dev_t(1 << 8 | 7)) == 0, "mknod: \(String(cString: strerror(errno)))")
        let result = try workspace.run("shade", "--art", "textures/front.png", "-o", "output/full")
        #expect(result.status == 2 && result.stderr.contains("No space left"), "\(result.stderr)")
        var status = stat()
        #expect(stat(full, &status) == 0 && (status.st_mode & S_IFMT) == S_IFCHR, "the device was replaced")
        #expect(try workspace.run("shade", "--art", "textures/front.png", "-o", "/dev/null").status == 0)
        #expect(stat("/dev/null", &status) == 0 && (status.st_mode & S_IFMT) == S_IFCHR)
        // The streamed APNG too.
        let card = ["--art", "textures/front.png", "--mask", "textures/mask.png", "--back", "textures/back.png",
                    "--back-mask", "textures/back-mask.png", "--preset", "seed004-flip", "--fps", "5", "--size", "40x50"]
        let apng = try CLIRunner.run(["animate"] + card + ["--apng", "output/full"], in: workspace.path)
        #expect(apng.status == 2 && apng.stderr.contains("No space left"), "\(apng.stderr)")
        #expect(stat(full, &status) == 0 && (status.st_mode & S_IFMT) == S_IFCHR, "the device was replaced")
        #expect(try CLIRunner.run(["animate"] + card + ["--apng", "/dev/null"], in: workspace.path).status == 0)
        #expect(stat("/dev/null", &status) == 0 && (status.st_mode & S_IFMT) == S_IFCHR)
        #expect(workspace.outputs() == ["full"])
    }

    /// A FIFO gets the PNG through it and stays a FIFO.
    @Test func fifoIsWrittenInPlace() throws {
        let workspace = try Workspace()
        let fifo = workspace.file("output/pipe")
        #expect(mkfifo(fifo, 0o644) == 0)
        let reader = Thread.detachNewThreadReadingAll(fifo)
        let result = try workspace.run("shade", "--art", "textures/front.png", "-o", "output/pipe")
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = reader.wait()
        #expect(try PNGCodec.decode(bytes).width == Workspace.artSize.width)
        var status = stat()
        #expect(stat(fifo, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO)
    }

    /// `cat card.png | kira shade --art - -o -`, as Unix tools are used.
    @Test func standardInputAndOutput() throws {
        let workspace = try Workspace()
        let art = try Data(contentsOf: URL(fileURLWithPath: workspace.file("textures/front.png")))
        let result = try CLIRunner.run(["shade", "--art", "-", "-o", "-"], in: workspace.path, input: art)
        #expect(result.status == 0, "\(result.stderr)")
        let expected = try CLIRunner.run(["shade", "--art", "textures/front.png", "-o", "output/file.png"], in: workspace.path)
        #expect(expected.status == 0)
        #expect(result.stdoutData == (try Data(contentsOf: URL(fileURLWithPath: workspace.file("output/file.png")))))
        // Standard input is read once.
        try BadInputTests.expectCleanFailure(["shade", "--art", "-", "--mask", "-", "-o", "output/x.png"], in: workspace)
        // What is not a PNG is named as standard input, not "-".
        for command in [["render", "--art", "-", "-o", "output/y.png"], ["compare", "-", "textures/front.png"]] {
            let junk = try CLIRunner.run(command, in: workspace.path, input: Data("hello\n".utf8))
            #expect(junk.status == 2 && junk.stderr == "kira \(command[0]): standard input: not a PNG file (bad signature)\n", "\(junk.stderr)")
        }
    }

    /// Outputs that are inputs, or each other, by any name: refused before rendering.
    @Test func sameFileByAnyName() throws {
        let workspace = try Workspace()
        let front = try Data(contentsOf: URL(fileURLWithPath: workspace.file("textures/front.png")))
        // The art inside --output-dir under a frame's name.
        try front.write(to: URL(fileURLWithPath: workspace.file("output/frame-0002.png")))
        let frameBefore = workspace.outputs()
        try BadInputTests.expectCleanFailure(
            ["animate", "--preset", "seed004-flip", "--fps", "5", "--size", "40x50", "--art", "output/frame-0002.png",
             "--output-dir", "output"], in: workspace)
        #expect(workspace.outputs() == frameBefore)
        // Two outputs on one file.
        try BadInputTests.expectCleanFailure(
            ["animate", "--art", "textures/front.png", "--mask", "textures/mask.png", "--back", "textures/back.png", "--back-mask", "textures/back-mask.png", "--preset", "seed004-flip", "--fps", "5", "--size", "40x50", "--apng", "output/x.png", "--sheet", "./output/x.png"],
            in: workspace)
        // A hard link and a symbolic link to an input.
        #expect(link(workspace.file("textures/front.png"), workspace.file("output/hard.png")) == 0)
        #expect(symlink("../textures/mask.png", workspace.file("output/soft.png")) == 0)
        for output in ["output/hard.png", "output/soft.png"] {
            try BadInputTests.expectCleanFailure(["shade", "--art", "textures/front.png", "--mask", "textures/mask.png", "-o", output],
                                                 in: workspace)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: workspace.file("textures/front.png"))) == front)
    }

    /// A report that cannot be written is an error, not a silent exit 0.
    @Test(arguments: [["compare", "textures/front.png", "textures/front.png"],
                      ["compare", "textures/front.png", "textures/front.png", "--json"],
                      ["bench", "--size", "16x16", "--frames", "1", "--repeats", "1", "--json", "--quiet"]])
    func reportToFullDevice(arguments: [String]) throws {
        let workspace = try Workspace()
        let result = try CLIRunner.run(arguments, in: workspace.path, standardOutput: "/dev/full")
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("standard output"), "\(result.stderr)")
    }

    /// A replaced file keeps its mode; a symbolic link is written through and stays a link.
    @Test func replacedFilesKeepModeAndLinks() throws {
        let workspace = try Workspace()
        #expect(try workspace.run("shade", "--art", "textures/front.png", "-o", "output/a.png").status == 0)
        #expect(chmod(workspace.file("output/a.png"), 0o600) == 0)
        #expect(symlink("a.png", workspace.file("output/link.png")) == 0)
        #expect(try workspace.run("shade", "--art", "textures/front.png", "--tilt-y", "9", "-o", "output/link.png").status == 0)
        var status = stat()
        #expect(lstat(workspace.file("output/link.png"), &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK)
        #expect(stat(workspace.file("output/a.png"), &status) == 0 && status.st_mode & 0o777 == 0o600)
        #expect(workspace.outputs() == ["a.png", "link.png"])
    }

    /// Names of up to 255 bytes work, with and without unnamed files, and leave no temporary file.
    @Test(arguments: [false, true])
    func longNames(namedTemporaryFiles: Bool) throws {
        let workspace = try Workspace()
        let name = String(repeating: "n", count: 251) + ".png"
        let environment: [String: String?] = namedTemporaryFiles ? ["KIRA_NAMED_TEMPORARY_FILES": "1"] : [:]
        for _ in 0..<2 {  // new, then replaced
            let result = try CLIRunner.run(["shade", "--art", "textures/front.png", "-o", "output/" + name], in: workspace.path, environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(workspace.outputs() == [name])
    }

    /// Names are bytes: `bad-\xff.png` is written and read as such.
    @Test func nonUTF8Names() throws {
        let workspace = try Workspace()
        let script = #"name="output/bad-$(printf '\377').png"; "$0" shade --art textures/front.png -o "$name" && "$0" shade --art "$name" -o output/ok.png"#
        #expect(try CLIRunner.runShell(script, in: workspace.path) == 0)
        let names = workspace.rawNames(in: "output")
        #expect(Set(names) == [Array("bad-".utf8) + [0xFF] + Array(".png".utf8), Array("ok.png".utf8)])
    }

    /// Runs creating the same new --output-dir at once all succeed.
    @Test func concurrentOutputDirectories() throws {
        let workspace = try Workspace()
        let runs = try (0..<4).map { _ in
            try CLIRunner.start(["animate"] + Workspace.card + ["--preset", "seed004-flip", "--fps", "2", "--size", "30x40", "--output-dir", "output/new", "--quiet"],
                                in: workspace.path)
        }
        for process in runs {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
    }

    /// Killed at many moments while it writes frame after frame through named temporary files,
    /// `kira` leaves none behind: a name is remembered before the file exists under it, and a
    /// signal handled on another thread waits for a creation under way. (Before that, 3 kills in
    /// 40 of a release build left a hidden file, and this test failed 1 run in 3.) A race can only
    /// be caught by chance: a pass shows little, a failure is real.
    @Test func killsAtRandomMomentsLeaveNoTemporaryFile() throws {
        let workspace = try Workspace()
        var generator = SystemRandomNumberGenerator()
        var killed = 0
        for round in 0..<12 {
            let folder = "output/kill-\(round)"
            try FileManager.default.createDirectory(atPath: workspace.file(folder), withIntermediateDirectories: true)
            let ended = try CLIRunner.runKilled(
                ["animate"] + Workspace.card + ["--preset", "seed002-spin", "--fps", "240", "--size", "120x120", "--output-dir", folder, "--quiet"],
                in: workspace.path, after: UInt32.random(in: 100_000...500_000, using: &generator),
                signal: round % 2 == 0 ? SIGTERM : SIGINT, environment: ["KIRA_NAMED_TEMPORARY_FILES": "1"])
            if ended == .uncaughtSignal { killed += 1 }
            let left = try FileManager.default.contentsOfDirectory(atPath: workspace.file(folder)).filter { $0.hasPrefix(".") }
            #expect(left.isEmpty, "round \(round) left \(left)")
        }
        // Runs that finish before their signal test nothing; most must be killed.
        #expect(killed >= 8, "only \(killed) of 12 runs were killed: the job finished too soon to test")
    }

    /// SIGTERM and SIGINT remove named temporary files too (where unnamed files are unavailable).
    /// The signal comes once frames are being written, not while kira starts.
    @Test func killedRenderWithNamedTemporaryFiles() throws {
        let workspace = try Workspace()
        for signal in [SIGTERM, SIGINT] {
            let folder = "output/\(signal)"
            try FileManager.default.createDirectory(atPath: workspace.file(folder), withIntermediateDirectories: true)
            let frames = { ((try? FileManager.default.contentsOfDirectory(atPath: workspace.file(folder))) ?? []).filter { $0.hasSuffix(".png") } }
            let (ended, writing) = try CLIRunner.runKilled(
                ["animate"] + Workspace.card + ["--preset", "seed002-spin", "--fps", "240", "--size", "300x300", "--threads", "1", "--output-dir", folder, "--quiet"],
                in: workspace.path, signal: signal, environment: ["KIRA_NAMED_TEMPORARY_FILES": "1"], once: { frames().count >= 2 })
            #expect(writing, "signal \(signal): no frame was written in time")
            #expect(ended == .uncaughtSignal, "signal \(signal): finished too soon to test")
            let left = try FileManager.default.contentsOfDirectory(atPath: workspace.file(folder)).filter { $0.hasPrefix(".") }
            #expect(left.isEmpty, "signal \(signal) left \(left)")
        }
    }
}

extension Thread {
    /// Reads `path` (a FIFO) to its end on a new thread.
    static func detachNewThreadReadingAll(_ path: String) -> FIFOReader {
        let reader = FIFOReader()
        Thread.detachNewThread {
            // open(2) itself: Foundation's file reading takes a FIFO's size, 0, for its length.
            var bytes: [UInt8] = []
            let fd = open(path, O_RDONLY)
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while fd >= 0, case let n = read(fd, &buffer, buffer.count), n > 0 { bytes += buffer[0..<n] }
            if fd >= 0 { close(fd) }
            reader.finish(Data(bytes))
        }
        return reader
    }
}

final class FIFOReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    func finish(_ data: Data) {
        self.data = data
        done.signal()
    }

    func wait() -> [UInt8] {
        done.wait()
        return [UInt8](data)
    }

    /// The bytes read, or nil when the reader is still blocked after `seconds` (a FIFO replaced
    /// under it leaves it waiting for a writer that never comes).
    func wait(seconds: Int) -> [UInt8]? {
        guard done.wait(timeout: .now() + .seconds(seconds)) == .success else { return nil }
        return [UInt8](data)
    }
}
