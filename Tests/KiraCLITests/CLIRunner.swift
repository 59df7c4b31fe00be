import Foundation
import KiraPNG
import KiraTestSupport
import Kira

/// Runs the `kira` executable built beside the test bundle.
enum CLIRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutData = Data()
    }

    /// `KIRA_TEST_EXECUTABLE` runs the CLI tests against another build (to see a new test fail on
    /// an older one).
    static var executable: String {
        if let other = ProcessInfo.processInfo.environment["KIRA_TEST_EXECUTABLE"] { return other }
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [bundle, bundle.deletingLastPathComponent()].map { $0.appendingPathComponent("kira").path }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
    }

    /// Runs `kira` (or another copy of it, `program`) with `arguments` in `directory`;
    /// `environment` entries replace or (with nil) remove inherited variables, `input` is piped to
    /// its standard input, and `standardOutput` (a path, e.g. "/dev/full") replaces the captured pipe.
    static func run(_ arguments: [String], in directory: String, environment: [String: String?] = [:],
                    input: Data? = nil, standardOutput: String? = nil, program: String = CLIRunner.executable) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        if !environment.isEmpty {
            var merged = ProcessInfo.processInfo.environment
            for (key, value) in environment { merged[key] = value }
            process.environment = merged
        }
        let out = Pipe(), err = Pipe(), inPipe = Pipe()
        if let standardOutput {
            process.standardOutput = FileHandle(forWritingAtPath: standardOutput)
        } else {
            process.standardOutput = out
        }
        process.standardError = err
        if input != nil { process.standardInput = inPipe }
        try process.run()
        if let input {
            // Written from another thread: a large input must not block against a full stdout pipe.
            let writer = inPipe.fileHandleForWriting
            Thread.detachNewThread {
                writer.write(input)
                try? writer.close()
            }
        }
        let outData = standardOutput == nil ? out.fileHandleForReading.readAllRetryingInterrupts() : Data()
        let errData = err.fileHandleForReading.readAllRetryingInterrupts()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self), stdoutData: outData)
    }

    /// Runs `/bin/sh -c script` in `directory`, with `kira` as `$0` (for arguments that are not
    /// UTF-8, which `Process` cannot pass); its exit status.
    static func runShell(_ script: String, in directory: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, executable]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Starts `kira` with `arguments` in `directory` and returns at once, for tests that signal it
    /// or run several together; its output is discarded, and `environment` entries are added to
    /// the inherited variables.
    static func start(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Starts `kira`, sends it `signal` after `microseconds` and waits for it: how it ended
    /// (`.uncaughtSignal` unless it finished first).
    static func runKilled(_ arguments: [String], in directory: String, after microseconds: UInt32, signal: Int32,
                          environment: [String: String] = [:]) throws -> Process.TerminationReason {
        let process = try start(arguments, in: directory, environment: environment)
        usleep(microseconds)
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return process.terminationReason
    }

    /// Starts `kira`, sends it `signal` once `ready` holds (checked every 2 ms, for up to a
    /// minute, and sent anyway then) and waits for it: how it ended, and whether `ready` held.
    static func runKilled(_ arguments: [String], in directory: String, signal: Int32, environment: [String: String] = [:],
                          once ready: () -> Bool) throws -> (Process.TerminationReason, ready: Bool) {
        let process = try start(arguments, in: directory, environment: environment)
        let deadline = Date().addingTimeInterval(60)
        var held = ready()
        while !held, process.isRunning, Date() < deadline {
            usleep(2_000)
            held = ready()
        }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return (process.terminationReason, held)
    }
}

/// A scratch directory with a small card (art, mask) in textures/ and an output/ folder, as a
/// user's checkout has.
final class Workspace {
    let path: String
    static let artSize = (width: 45, height: 63)
    static let maskSize = (width: 15, height: 21)

    /// A directory with nothing in it, as a user's new project folder.
    init(empty: Void) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("kira-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// The names in `folder` as their bytes (`.` and `..` left out), for names that are not UTF-8.
    func rawNames(in folder: String) -> [[UInt8]] {
        var names: [[UInt8]] = []
        if let directory = opendir(file(folder)) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
                if name != Array(".".utf8), name != Array("..".utf8) { names.append(name) }
            }
            closedir(directory)
        }
        return names
    }

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("kira-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path + "/textures", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: path + "/output", withIntermediateDirectories: true)
        var art = try RGBAImage<UInt8>(width: Self.artSize.width, height: Self.artSize.height)
        for i in art.channels.indices { art.channels[i] = i % 4 == 3 ? 255 : UInt8((i * 13) % 200) }
        // A third of the art's size: the smaller masks users give, upscaled to the art (FaceMap).
        var mask = try RGBAImage<UInt8>(width: Self.maskSize.width, height: Self.maskSize.height)
        for i in mask.channels.indices { mask.channels[i] = i % 4 == 3 ? 255 : UInt8((i / 4 * 37) % 256) }
        for name in ["front", "back"] { try PNGCodec.write(art, to: "\(path)/textures/\(name).png") }
        for name in ["mask", "back-mask"] { try PNGCodec.write(mask, to: "\(path)/textures/\(name).png") }
    }

    func file(_ name: String) -> String { path + "/" + name }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: file(name)) }

    /// Every file under output/ (hidden ones included: a leftover temporary file is a failure).
    func outputs() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: file("output"))) ?? []).sorted()
    }

    func run(_ arguments: String...) throws -> CLIRunner.Result {
        try CLIRunner.run(arguments, in: path)
    }

    /// Runs `kira command` on the workspace's small card (the commands' own default is the built-in
    /// 630×880 sample card, slow in a debug build): the front for `shade` and `bench`, both faces
    /// otherwise.
    func run(card command: String, _ arguments: String...) throws -> CLIRunner.Result {
        let faces = command == "shade" || command == "bench" ? Self.front : Self.card
        return try CLIRunner.run([command] + faces + arguments, in: path)
    }

    static let front = ["--art", "textures/front.png", "--mask", "textures/mask.png"]

    /// The face the commands make of the files `art` and `mask`: the mask fitted to the art as
    /// every front end fits it (``FaceMap``).
    static func face(art: String, mask: String) throws -> CardFace {
        let image = try PNGCodec.read(art)
        return try CardFace(art: image, mask: try FaceMap.fitted(try PNGCodec.read(mask), artWidth: image.width, artHeight: image.height, parameter: "mask"))
    }
    static let card = front + ["--back", "textures/back.png", "--back-mask", "textures/back-mask.png"]

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
