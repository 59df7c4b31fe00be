import KiraFiles
import KiraImage

/// Why a video could not be written.
public enum VideoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No ffmpeg program: none on `PATH`, or the one named does not exist or cannot be run.
    case ffmpegNotFound(String)
    /// The file name's extension names no container Kira writes.
    case unknownFormat(path: String)
    /// A system call failed (the action, and `errno`).
    case system(String, Int32)
    /// A frame of another size than the video's.
    case frameSize(expected: String, got: String)
    /// The encoder was used after it finished or was cancelled.
    case closed
    /// ffmpeg exited with an error or was killed; the last lines it wrote on its standard error.
    case ffmpegFailed(path: String, status: String, lastLines: [String])
    /// ffmpeg exited with status 0 but left an empty file (a program that is not ffmpeg, or one
    /// that failed without saying so); nothing is published.
    case ffmpegWroteNothing(path: String)
    /// The output cannot be opened or put in place (a directory, a link to nothing, an input of
    /// the command, a folder that cannot be written); the door's message.
    case output(ImageFileError)
    /// A frame rate the format cannot play: the rates it can.
    case unsupportedRate(format: VideoFormat, framesPerSecond: Int, supported: ClosedRange<Int>)
    /// The encode is estimated to need more memory than allowed (ffmpeg's share and Kira's).
    case overBudget(String)

    public var description: String {
        switch self {
        case .ffmpegNotFound(let detail):
            "\(detail); Kira writes videos with the ffmpeg program (Debian/Ubuntu: apt-get install ffmpeg)"
        case .unknownFormat(let path):
            "\(QuotedValue.shown(path)): unknown video format; the extension must be one of \(VideoFormat.allCases.map { ".\($0.rawValue)" }.joined(separator: ", "))"
        case .system(let action, let code):
            "\(action): \(String(cString: strerror(code)))"
        case .frameSize(let expected, let got):
            "a \(got) frame for a \(expected) video"
        case .closed:
            "the video is already finished"
        case .ffmpegFailed(let path, let status, _):
            "\(QuotedValue.shown(path)): ffmpeg \(status); nothing was written"
        case .ffmpegWroteNothing(let path):
            "\(QuotedValue.shown(path)): ffmpeg exited with status 0 but wrote nothing; nothing was written"
        case .output(let error):
            error.description
        case .unsupportedRate(let format, let rate, let supported):
            "--fps \(rate): a .\(format.rawValue) plays \(supported.lowerBound)…\(supported.upperBound) frames per second "
                + (format == .gif ? "(its frame delays are whole hundredths of a second)" : "")
                + "; give --fps \(supported.upperBound) or less for it"
        case .overBudget(let text):
            text
        }
    }

    /// ffmpeg's last lines on its standard error, when it failed.
    public var details: [String] {
        if case .ffmpegFailed(_, _, let lines) = self { return lines }
        return []
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
