import Foundation
import KiraTestSupport

/// A `kira serve` process for the tests: started on a free port, its standard error collected,
/// stopped with a signal.
final class ServeProcess: @unchecked Sendable {
    let process = Process()
    private let lock = NSLock()
    private var errorText = ""
    private(set) var port = 0

    /// Starts `kira serve --port 0 arguments` in `directory` and waits until it listens.
    init(_ arguments: [String], in directory: String) throws {
        process.executableURL = URL(fileURLWithPath: CLIRunner.executable)
        // Generous limits unless a test sets its own: the tests run beside others, on a debug build.
        process.arguments = ["serve", "--port", "0", "--deadline", "300", "--max-wait", "60"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardOutput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardError = pipe
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.withLock { self.errorText += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, process.isRunning {
            if let line = stderr.split(separator: "\n").first(where: { $0.hasPrefix("kira serve: listening on http://127.0.0.1:") }),
               let port = Int(line.split(separator: ":").last ?? "") {
                self.port = port
                return
            }
            usleep(20_000)
        }
        process.terminate()
        throw Failure(stderr: stderr)
    }

    struct Failure: Error { var stderr: String }

    var stderr: String { lock.withLock { errorText } }

    var base: String { "http://127.0.0.1:\(port)" }

    /// Sends `signal` and waits for the process: its exit status (128 + the signal if it died of it).
    func stop(_ signal: Int32 = SIGTERM) -> Int32 {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}

/// curl, as a user calls it.
enum Curl {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: Data
        var exitCode: Int32
    }

    /// GETs `url` with `headers`.
    static func get(_ url: String, headers: [String] = []) throws -> Response {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Prerequisite.curl.path())
        let headerFile = FileManager.default.temporaryDirectory.appendingPathComponent("kira-curl-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: headerFile) }
        process.arguments = ["-s", "-D", headerFile, "-o", "-", "--max-time", "120"] + headers.flatMap { ["-H", $0] } + [url]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let body = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let head = (try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? ""
        var lines = head.split(separator: "\r\n").map(String.init)
        let status = lines.isEmpty ? 0 : Int(lines.removeFirst().split(separator: " ").dropFirst().first ?? "") ?? 0
        var fields: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Response(status: status, headers: fields, body: body, exitCode: process.terminationStatus)
    }
}
