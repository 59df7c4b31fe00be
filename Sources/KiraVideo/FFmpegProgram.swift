import KiraFiles
import KiraImage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the `ffmpeg` program Kira hands its frames to.
public enum FFmpegProgram {
    /// The environment variable that names the program when no path is given explicitly.
    public static let environmentVariable = "KIRA_FFMPEG"

    /// The program to run: `explicit` if given (a path), else `$KIRA_FFMPEG`, else `ffmpeg` on
    /// `PATH`. A name without a slash is looked up on `PATH`.
    ///
    /// - Throws: ``VideoError/ffmpegNotFound(_:)`` when there is none, or the one named cannot
    ///   be run.
    public static func locate(explicit: String? = nil) throws(VideoError) -> String {
        if let explicit { return try executable(explicit, source: "--ffmpeg \(explicit)") }
        if let variable = getenv(environmentVariable), variable.pointee != 0 {
            let value = PathBytes.string(cString: variable)
            return try executable(value, source: "\(environmentVariable)=\(value)")
        }
        return try executable("ffmpeg", source: "ffmpeg")
    }

    private static func executable(_ name: String, source: String) throws(VideoError) -> String {
        if name.contains("/") {
            guard isExecutableFile(name) else { throw .ffmpegNotFound("\(source): no such executable file") }
            return name
        }
        let path = getenv("PATH").map { PathBytes.string(cString: $0) } ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (directory.isEmpty ? "." : String(directory)) + "/" + name
            if isExecutableFile(candidate) { return candidate }
        }
        throw .ffmpegNotFound("\(source): not found on PATH")
    }

    /// Checked by the bytes `path` stands for (``/KiraFiles/PathBytes``), the name the child is started by.
    private static func isExecutableFile(_ path: String) -> Bool {
        PathBytes.withCString(path) { name in
            var status = stat()
            return stat(name, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG && access(name, X_OK) == 0
        }
    }
}
