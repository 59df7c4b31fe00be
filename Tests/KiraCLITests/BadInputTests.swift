import Foundation
import Kira
import KiraTestSupport
import Testing

/// Files of every kind a user might hand Kira, good and bad, written into a workspace.
enum InputFixtures {
    static let bad = ["missing.png", "textures", "notes.txt", "empty.png", "random.png", "truncated.png",
                      "badcrc.png", "huge.png", "zero.png"]
    static let unusualButGood = ["gray16.png", "palette.png", "gray2.png", "interlaced.png", "rgba16.png"]

    static func write(into workspace: Workspace) throws {
        func put(_ name: String, _ bytes: [UInt8]) throws {
            try Data(bytes).write(to: URL(fileURLWithPath: workspace.file(name)))
        }
        try put("notes.txt", Array("just text\n".utf8))
        try put("empty.png", [])
        var state: UInt32 = 12345
        try put("random.png", (0..<4096).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(state >> 24)
        })
        let good = try Array(Data(contentsOf: URL(fileURLWithPath: workspace.file("textures/front.png"))))
        try put("truncated.png", Array(good.prefix(good.count / 2)))
        var corrupt = good
        corrupt[29] ^= 0x55  // inside the IHDR CRC
        try put("badcrc.png", corrupt)
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        func header(_ w: UInt32, _ h: UInt32) -> [UInt8] {
            signature + PNGFixture.chunk("IHDR", PNGFixture.bigEndian(w) + PNGFixture.bigEndian(h) + [8, 6, 0, 0, 0])
                + PNGFixture.chunk("IEND", [])
        }
        try put("huge.png", header(100_000, 100_000))
        try put("zero.png", header(0, 0))

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

    static let invalidArguments: [[String]] = [
        ["shade", "--tilt-x", "nan"], ["shade", "--tilt-y", "inf"], ["shade", "--tilt-x=-inf"],
        ["shade", "--tilt-x", "181"], ["shade", "--normal", "1,2"], ["shade", "--normal", "0,0,0"],
        ["shade", "--normal", "nan,1,1"], ["shade", "--threads", "-1"], ["shade", "--depth", "7"],
        ["shade", "--angle-strength", "1e30"], ["shade", "--shader", "glsl"], ["shade", "--sparkle"],
        ["render", "--flip", "1e400"], ["render", "--perspective", "nan"], ["render", "--size", "10"],
        ["render", "--size", "100000x100000"], ["render", "--axis", "z"], ["render", "--background", "red"],
        ["render", "--wobble"], ["bench", "--frames", "0"], ["bench", "--size", "0x0"], ["bench", "--threads", "nan"],
        ["bench", "--art", "textures/front.png"], ["textures", "--output-dir", "nowhere"], ["textures", "--size", "-3x4"],
        ["frobnicate"], ["shade", "-o", "output/x.jpg"], ["render", "--output", "card.JPEG"],
        ["animate", "--preset", "seed004-flip", "--sheet", "sheet.webp"], ["animate", "--preset", "seed004-flip", "--apng", "a.gif"],
    ]

    static let invalidOutputs: [[String]] = [
        ["shade", "-o", "nowhere/x.png"], ["shade", "-o", "/proc/kira-readonly.png"], ["shade", "-o", "textures/front.png"],
        ["shade", "-o", "textures"], ["render", "--size", "60x80", "-o", "nowhere/x.png"],
        ["render", "--size", "60x80", "-o", "textures/mask.png"], ["render", "--size", "60x80", "-o", "/proc/kira.png"],
    ]

    static func expectCleanFailure(_ arguments: [String], in workspace: Workspace) throws {
        let before = workspace.outputs()
        let result = try CLIRunner.run(arguments, in: workspace.path)
        let command = arguments.joined(separator: " ")
        #expect(result.status == 2, "\(command): exit \(result.status), stderr: \(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(command): stderr must be one line: \(result.stderr)")
        #expect(result.stderr.hasPrefix("kira"), "\(command): \(result.stderr)")
        #expect(workspace.outputs() == before, "\(command): left \(workspace.outputs())")
    }

    @Test(arguments: fileCommands.indices, InputFixtures.bad)
    func badFiles(command: Int, file: String) throws {
        let workspace = try Workspace()
        try InputFixtures.write(into: workspace)
        let arguments = Self.fileCommands[command].map { $0 == "FILE" ? file : $0 }
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

    @Test(arguments: [["shade", "--art", "FILE"], ["shade", "--art", "textures/front.png", "--mask", "FILE"],
                      ["render", "--art", "textures/front.png", "--mask", "textures/mask.png", "--back", "FILE", "--flip", "170", "--size", "70x90"]],
          InputFixtures.unusualButGood)
    func unusualPNGsWork(command: [String], file: String) throws {
        let workspace = try Workspace()
        try InputFixtures.write(into: workspace)
        let result = try CLIRunner.run(command.map { $0 == "FILE" ? file : $0 } + ["-o", "output/ok.png"], in: workspace.path)
        #expect(result.status == 0, "\(command) \(file): \(result.stderr)")
        #expect(workspace.outputs() == ["ok.png"])
    }
}

/// A render killed half way leaves no file, whole or partial.
@Suite struct AtomicOutputTests {
    @Test func killedRenderLeavesNothing() throws {
        let workspace = try Workspace()
        for signal in [SIGKILL, SIGTERM, SIGINT] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CLIRunner.executable)
            // A big canvas: seconds of work in a debug build.
            process.arguments = ["render", "--size", "6000x6000", "--tilt-y", "20", "--threads", "1", "-o", "output/big.png"]
            process.currentDirectoryURL = URL(fileURLWithPath: workspace.path)
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(400_000)
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal, "signal \(signal): the render finished too soon to test")
            #expect(workspace.outputs().isEmpty, "signal \(signal) left \(workspace.outputs())")
        }
    }
}
