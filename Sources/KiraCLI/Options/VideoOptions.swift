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
            guard !FileIO.isDirectory(path) else { throw ValidationError("\(path): is a directory, not a file") }
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

    /// The ffmpeg program, if any video is asked for; fails (exit 2) before anything is rendered.
    func program() throws -> String? {
        video.isEmpty ? nil : try FFmpegProgram.locate(explicit: ffmpeg)
    }

    /// Refuses a rate one of the videos' formats cannot play, before anything is rendered.
    func check(framesPerSecond: Int) throws {
        for format in video.compactMap(VideoFormat.init(path:)) { try format.check(framesPerSecond: framesPerSecond) }
    }

    /// The settings of every `--video`, for frames of `width` × `height` (ffmpeg's encoder threads:
    /// `threads`, as Kira's own).
    func settings(width: Int, height: Int, framesPerSecond: Int, background: FrameBackground, threads: Int) -> VideoSettings {
        VideoSettings(width: width, height: height, framesPerSecond: framesPerSecond, quality: crf,
                      transparent: background == .transparent, matte: background.color8 ?? .zero, outputWidth: videoWidth, threads: threads)
    }

    /// The peak memory of every `--video` of `frames` frames: ffmpeg's share and Kira's.
    func estimatedBytes(_ settings: VideoSettings, frames: Int) -> Int {
        video.compactMap(VideoFormat.init(path:)).reduce(0) { $0 + VideoEncoder.estimatedPeakBytes($1, settings: settings, frames: frames) }
    }

    /// Starts one encoder per `--video`; none may be one of `inputs`.
    func encoders(program: String, settings: VideoSettings, inputs: [String]) throws -> [VideoEncoder] {
        var started: [VideoEncoder] = []
        for path in video {
            do {
                started.append(try VideoEncoder(path: path, settings: settings, ffmpeg: program, inputs: inputs))
            } catch {
                for encoder in started { encoder.cancel() }
                throw error
            }
        }
        return started
    }
}
