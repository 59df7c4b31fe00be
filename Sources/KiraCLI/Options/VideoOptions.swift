import ArgumentParser
import Kira
import KiraFiles

/// `--video` and its settings, for `kira animate`.
struct VideoOptions: ParsableArguments {
    @Option(help: ArgumentHelp("""
        Write a video; the extension picks the format: .mp4 (H.264, yuv420p, +faststart; a transparent \
        background is flattened onto black, an odd size padded to even with the background colour), \
        .webm (VP9, keeps transparency), .webp (animated, looping), .gif (a palette made for the clip, \
        looping). Repeat for several. Needs the ffmpeg program.
        """, valueName: "path"))
    var video: [String] = []

    @Option(help: ArgumentHelp("Video quality as a constant rate factor, lower is better and larger: .mp4 0...51 (default 20), .webm 0...63 (default 32).", valueName: "n"))
    var crf: Int?

    @Option(name: .customLong("video-width"), help: ArgumentHelp("Scale the videos to this width (Lanczos, aspect kept; default: the canvas's).", valueName: "px"))
    var videoWidth: Int?

    @Option(help: ArgumentHelp("The ffmpeg program (default: $KIRA_FFMPEG, else ffmpeg on PATH).", valueName: "path"))
    var ffmpeg: String?

    func validate() throws {
        for path in video {
            guard !path.isEmpty else { throw ValidationError("output paths must not be empty") }
            guard VideoFormat(path: path) != nil else { throw ValidationError(VideoError.unknownFormat(path: path).description) }
            // Found now, not after the whole clip has been rendered and encoded.
            guard !FileIO.isDirectory(path) else { throw ValidationError("\(QuotedValue.shown(path)): is a directory, not a file") }
        }
        if let videoWidth {
            guard !video.isEmpty else { throw ValidationError("--video-width applies to --video outputs") }
            try Check.integer(videoWidth, "--video-width", in: 2...8192, example: 720)
        }
        if let crf {
            let formats = video.compactMap { VideoFormat(path: $0) }.filter { $0.qualityRange != nil }
            guard !formats.isEmpty else { throw ValidationError("--crf applies to .mp4 and .webm videos") }
            for format in formats { try Check.integer(crf, "--crf for .\(format.rawValue)", in: format.qualityRange!,
                                                   example: (format.qualityRange!.lowerBound + format.qualityRange!.upperBound) / 2) }
        }
    }

    /// Refuses a rate one of the videos' formats cannot play, before anything is rendered.
    func check(framesPerSecond: Int) throws {
        for format in video.compactMap(VideoFormat.init(path:)) { try format.check(framesPerSecond: framesPerSecond) }
    }
}
