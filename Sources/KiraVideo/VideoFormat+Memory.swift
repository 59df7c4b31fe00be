#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// ffmpeg's own memory while it encodes, so that a video is inside the memory budget with the
// rest of the work: each model bounds every peak `Benchmarks/ffmpeg-memory.sh` measured
// (docs/robustness.md has the table).

extension VideoFormat {
    /// Threads the encoder is given: an MP4's or WebM's as `settings` says (the command's
    /// `--threads`, at most ``maxEncoderThreads``); WebP and GIF one, since their encoders use one
    /// and more only made ffmpeg hold more (3× at 8 threads for WebP, the same bytes).
    public func encoderThreads(_ settings: VideoSettings) -> Int? {
        switch self {
        case .mp4, .webm: settings.threads.map { min(max(1, $0), Self.maxEncoderThreads) }
        case .webp, .gif: 1
        }
    }

    /// x264 and libvpx hold more per thread (MP4 12 MiB per megapixel and thread, WebM 13 MiB a
    /// thread): 16 bounds what a large machine adds.
    public static let maxEncoderThreads = 16

    /// An upper bound of ffmpeg's peak memory encoding `frames` frames of `settings`.
    ///
    /// Per megapixel P of the larger of the frames and the video (ffmpeg holds both while it
    /// scales), with t encoder threads:
    /// - MP4 (x264 `medium`, 40 frames of look-ahead): 80 MiB + P × (200 + 12 (t − 1)) MiB;
    /// - WebM (VP9, 25 frames of look-ahead): 110 MiB + 260 MiB × P + 14 MiB × (t − 1);
    /// - WebP (one thread): 80 MiB + 40 MiB × P;
    /// - GIF: the palette is made from the whole clip before the first frame is written, so ffmpeg
    ///   holds every frame twice as RGBA: 100 MiB + P × 20 MiB + frames × 2 × the frame's bytes.
    public func estimatedEncoderBytes(_ settings: VideoSettings, frames: Int) -> Int {
        let mebibyte = Double(1 << 20)
        let outputHeight = settings.outputWidth.map { settings.height * $0 / max(1, settings.width) } ?? settings.height
        let pixels = max(settings.width * settings.height, (settings.outputWidth ?? settings.width) * outputHeight)
        let megapixels = Double(pixels) / mebibyte
        let threads = Double(encoderThreads(settings) ?? Self.defaultThreads)
        let bytes: Double = switch self {
        case .mp4: (80 + megapixels * (200 + 12 * (threads - 1))) * mebibyte
        case .webm: (110 + 260 * megapixels + 14 * (threads - 1)) * mebibyte
        case .webp: (80 + 40 * megapixels) * mebibyte
        case .gif: (100 + 20 * megapixels) * mebibyte + Double(frames) * 2 * Double(pixels * 4)
        }
        return Int(bytes.rounded(.up))
    }

    /// ffmpeg's own thread count when none is given: x264 takes 1.5 per processor.
    private static var defaultThreads: Int {
        Int((Double(max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))) * 1.5).rounded(.up))
    }
}

extension VideoEncoder {
    /// The peak of a video of `frames` frames of `settings`: ffmpeg's share
    /// (``VideoFormat/estimatedEncoderBytes(_:frames:)``) and Kira's, the frames queued for the
    /// pipe and the one being written.
    public static func estimatedPeakBytes(_ format: VideoFormat, settings: VideoSettings, frames: Int) -> Int {
        format.estimatedEncoderBytes(settings, frames: frames) + (queuedFrames + 1) * settings.width * settings.height * 4
    }
}
