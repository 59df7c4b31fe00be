import Foundation

/// The real media tools the tests check videos with: ffmpeg (to decode frames back), ffprobe
/// (codec, pixel format, size, frames, duration) and webpmux (animated WebP, which ffprobe 5
/// cannot decode). The README's set-up line installs them; a missing one fails the test that
/// needs it with one line naming its package (``Prerequisite``).
public enum MediaTools {
    public struct Output {
        public var status: Int32
        public var stdout: Data
        public var stderr: String
    }

    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        public init(message: String) { self.message = message }
        public var description: String { message }
    }

    /// Runs `program` (looked up on PATH) and collects what it prints.
    public static func run(_ program: String, _ arguments: [String]) throws -> Output {
        if let prerequisite = Prerequisite.programs.first(where: { $0.name == program }) { _ = try prerequisite.path() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // stderr is small (errors only); reading stdout to its end first cannot block on it.
        let stdout = out.fileHandleForReading.readAllRetryingInterrupts()
        let stderr = err.fileHandleForReading.readAllRetryingInterrupts()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: stdout, stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// The first video stream's fields as ffprobe reports them, frames counted by decoding
    /// (`nb_read_frames`), the container's duration as `format.duration`, and the stream's
    /// `alpha_mode` tag (WebM) as `alpha_mode`.
    public static func probe(_ path: String) throws -> [String: String] {
        let output = try run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                          "-show_entries", "stream=codec_name,pix_fmt,width,height,nb_read_frames:stream_tags=alpha_mode:format=duration",
                                          "-of", "default=noprint_wrappers=1", path])
        var fields: [String: String] = [:]
        for line in String(decoding: output.stdout, as: UTF8.self).split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].replacingOccurrences(of: "TAG:", with: "")
            fields[key == "duration" ? "format.duration" : key] = String(line[line.index(after: equals)...])
        }
        return fields
    }

    /// Frame `index` of a video decoded by ffmpeg to 8-bit RGBA: its size (as ffprobe reports
    /// it) and `width * height * 4` channel values.
    public static func decodeFrame(_ path: String, index: Int = 0) throws -> (width: Int, height: Int, channels: [UInt8]) {
        let fields = try probe(path)
        guard let width = fields["width"].flatMap(Int.init), let height = fields["height"].flatMap(Int.init) else {
            throw Failure(message: "ffprobe found no size in \(path): \(fields)")
        }
        let output = try run("ffmpeg", ["-v", "error", "-i", path, "-vf", "select=eq(n\\,\(index))", "-frames:v", "1",
                                         "-f", "rawvideo", "-pix_fmt", "rgba", "pipe:1"])
        guard output.status == 0, output.stdout.count == width * height * 4 else {
            throw Failure(message: "ffmpeg could not decode frame \(index) of \(path): \(output.stderr)")
        }
        return (width, height, [UInt8](output.stdout))
    }

    /// `webpmux -info`: canvas size, loop count, frames and their durations (ms), and whether
    /// the file says it has transparency.
    public static func webpInfo(_ path: String) throws -> (width: Int, height: Int, loopCount: Int, durations: [Int], alpha: Bool) {
        let output = try run("webpmux", ["-info", path])
        let text = String(decoding: output.stdout, as: UTF8.self)
        guard output.status == 0 else { throw Failure(message: "webpmux -info \(path): \(output.stderr)") }
        var width = 0, height = 0, loopCount = -1, durations: [Int] = []
        for line in text.split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == ":" }).map(String.init)
            if line.hasPrefix("Canvas size") { width = Int(words[2]) ?? 0; height = Int(words[4]) ?? 0 }
            if let index = words.firstIndex(of: "Count"), index + 1 < words.count { loopCount = Int(words[index + 1]) ?? -1 }
            // Frame rows: "  1:    31    21    no  0  0  100  none  no  536  lossy"
            if let first = words.first, Int(first) != nil, words.count >= 7 { durations.append(Int(words[6]) ?? -1) }
        }
        return (width, height, loopCount, durations, text.contains("transparency"))
    }

    /// Runs Debian's `apngdis FILE PREFIX` in `directory`, which splits an APNG into whole frames,
    /// composing the changed rectangles as players do: PREFIX1.png, PREFIX2.png, … there; throws
    /// unless it exits with status 0.
    public static func splitAPNG(_ file: String, prefix: String, in directory: String) throws {
        let apngdis = try Prerequisite.apngdis.path()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: apngdis)
        process.arguments = [file, prefix]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(message: "apngdis \(file) exited with \(process.terminationStatus)") }
    }
}
