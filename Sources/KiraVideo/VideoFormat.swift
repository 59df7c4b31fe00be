/// The containers Kira writes through ffmpeg, each with the codec and settings that every
/// browser and phone plays.
public enum VideoFormat: String, Sendable, CaseIterable {
    /// H.264 (libx264) in MP4, `yuv420p`, the index at the front (`+faststart`) so that a page
    /// can start playing before the file is loaded. No alpha: transparency is flattened onto the
    /// matte colour, and odd sizes are padded to even ones (4:2:0 needs them).
    case mp4
    /// VP9 (libvpx) in WebM; `yuva420p` keeps transparency.
    case webm
    /// Animated WebP (libwebp), lossy with alpha, looping forever.
    case webp
    /// GIF with a palette made for the clip (`palettegen`/`paletteuse`), one index kept for
    /// transparency, looping forever. Frame delays are in hundredths of a second.
    case gif

    /// The format a file name's extension asks for (any case), or nil.
    public init?(path: String) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        self.init(rawValue: name[name.index(after: dot)...].lowercased())
    }

    /// The frame rates the format plays as asked. A GIF's frame delays are whole hundredths of a
    /// second: above 100 frames/s two frames round to one time, which ffmpeg refuses ("Non-monotonous
    /// DTS", seen at every rate from 101 to 240 once a clip has enough frames); at 100 or less each
    /// frame has its own hundredth.
    public var framesPerSecondRange: ClosedRange<Int> {
        self == .gif ? 1...100 : 1...240
    }

    /// Refuses, before anything is rendered, a rate the format cannot play.
    public func check(framesPerSecond: Int) throws(VideoError) {
        guard framesPerSecondRange.contains(framesPerSecond) else {
            throw .unsupportedRate(format: self, framesPerSecond: framesPerSecond, supported: framesPerSecondRange)
        }
    }

    /// Whether the format keeps a transparent background.
    public var hasAlpha: Bool { self != .mp4 }

    /// What a user should know about a clip at `framesPerSecond` in this format, or nil: a GIF
    /// whose rate does not divide 100 has frames of two lengths (whole hundredths of a second, so
    /// 30 frames/s alternate 30 and 40 ms), and an MP4 has no transparency to keep.
    public func note(framesPerSecond: Int, transparent: Bool) -> String? {
        switch self {
        case .gif where 100 % framesPerSecond != 0:
            let short = 100 / framesPerSecond
            let average = (1000 / Double(framesPerSecond) * 10).rounded() / 10
            return "a GIF's frame delays are whole hundredths of a second: at \(framesPerSecond) frames/s its frames last "
                + "\(short * 10) or \((short + 1) * 10) ms (\(average) ms on average); a rate that divides 100 (e.g. 25 or 50) gives even delays"
        case .mp4 where transparent:
            return "MP4 has no transparency: the transparent background is flattened onto black (give {background}, or write .webm, .webp or .gif to keep it)"
        default:
            return nil
        }
    }

    /// The constant-rate-factor range of the codec (lower is better and larger), if it has one.
    public var qualityRange: ClosedRange<Int>? {
        switch self {
        case .mp4: 0...51
        case .webm: 0...63
        case .webp, .gif: nil
        }
    }

    /// The constant rate factor used when none is given: visually clean for the card's fine
    /// noise at web sizes (x264's own default is 23, libvpx's recommended range 15–35).
    public var defaultQuality: Int? {
        switch self {
        case .mp4: 20
        case .webm: 32
        case .webp, .gif: nil
        }
    }
}

/// What a video is made of: frame size, rate, and how to treat transparency.
public struct VideoSettings: Sendable, Equatable {
    /// Frame width and height in pixels (the frames Kira appends; an MP4 may be padded to even).
    public var width: Int
    public var height: Int
    public var framesPerSecond: Int
    /// Constant rate factor for MP4 and WebM (nil: ``VideoFormat/defaultQuality``).
    public var quality: Int?
    /// Whether the frames have transparency to keep (a transparent background).
    public var transparent: Bool
    /// The colour (8-bit RGB) transparency is flattened onto where the format has no alpha, and
    /// the colour of an MP4's padding row or column.
    public var matte: SIMD3<UInt8>
    /// The video's width when it should be smaller (or larger) than the frames: ffmpeg scales
    /// them (Lanczos), keeping the aspect ratio. Nil: the frames' own size.
    public var outputWidth: Int?
    /// The encoder threads of an MP4 or WebM (``VideoFormat/encoderThreads(_:)``); nil: ffmpeg's
    /// own choice, one or more per processor, which ``VideoFormat/estimatedEncoderBytes(_:frames:)``
    /// then assumes.
    public var threads: Int?

    public init(width: Int, height: Int, framesPerSecond: Int, quality: Int? = nil,
                transparent: Bool, matte: SIMD3<UInt8> = .zero, outputWidth: Int? = nil, threads: Int? = nil) {
        self.threads = threads
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        self.quality = quality
        self.transparent = transparent
        self.matte = matte
        self.outputWidth = outputWidth
    }
}

extension VideoFormat {
    /// ffmpeg's arguments: raw RGBA frames of `settings` on standard input, the video to `output`.
    ///
    /// ffmpeg prints only errors (kept for Kira's message), no banner and no progress: Kira
    /// shows its own. `-xerror` makes an error writing the output end ffmpeg with a nonzero
    /// status: without it ffmpeg 5 exits 0 when the trailer cannot be written (a full disk),
    /// leaving an empty or truncated file that would be published.
    public func ffmpegArguments(_ settings: VideoSettings, output: String) -> [String] {
        let matte = String(format6: settings.matte)
        var arguments = [
            "-hide_banner", "-nostdin", "-loglevel", "error", "-nostats", "-xerror",
            "-f", "rawvideo", "-pix_fmt", "rgba", "-video_size", "\(settings.width)x\(settings.height)",
            "-framerate", "\(settings.framesPerSecond)", "-i", "pipe:0", "-an",
        ]
        let alpha = settings.transparent
        // Scaling, when asked, comes first (on straight RGBA); -1 keeps the aspect ratio.
        let scale = settings.outputWidth.map { "scale=\($0):-1:flags=lanczos," } ?? ""
        switch self {
        case .mp4:
            // Flatten onto the matte (overlay blends straight alpha), pad to even on the right and
            // bottom, convert with the BT.709 matrix and say so in the stream.
            var filter = alpha
                ? "color=c=0x\(matte):s=\(settings.width)x\(settings.height):r=\(settings.framesPerSecond)[matte];[matte][0:v]overlay=shortest=1:format=rgb,"
                : "[0:v]"
            filter += scale + "pad=ceil(iw/2)*2:ceil(ih/2)*2:0:0:color=0x\(matte),scale=out_color_matrix=bt709:out_range=tv,format=yuv420p"
            arguments += ["-filter_complex", filter,
                          "-c:v", "libx264", "-preset", "medium", "-crf", "\(settings.quality ?? defaultQuality!)",
                          "-pix_fmt", "yuv420p", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709",
                          "-color_range", "tv", "-movflags", "+faststart", "-f", "mp4"]
        case .webm:
            if !scale.isEmpty { arguments += ["-vf", String(scale.dropLast())] }
            arguments += ["-c:v", "libvpx-vp9", "-pix_fmt", alpha ? "yuva420p" : "yuv420p",
                          "-crf", "\(settings.quality ?? defaultQuality!)", "-b:v", "0", "-row-mt", "1",
                          "-deadline", "good", "-cpu-used", "4", "-f", "webm"]
        case .webp:
            if !scale.isEmpty { arguments += ["-vf", String(scale.dropLast())] }
            arguments += ["-c:v", "libwebp_anim", "-pix_fmt", alpha ? "yuva420p" : "yuv420p",
                          "-lossless", "0", "-quality", "80", "-loop", "0", "-f", "webp"]
        case .gif:
            // One pass over the clip for the palette, one to map the frames onto it; the palette
            // keeps an index for transparency when the background is transparent.
            let reserve = alpha ? 1 : 0
            arguments += ["-filter_complex",
                          "[0:v]\(scale)split[a][b];[a]palettegen=stats_mode=full:reserve_transparent=\(reserve)[p];[b][p]paletteuse=dither=sierra2_4a:alpha_threshold=128",
                          "-loop", "0", "-f", "gif"]
        }
        if let threads = encoderThreads(settings) { arguments += ["-threads", "\(threads)"] }
        return arguments + ["-y", output]
    }
}

extension String {
    /// `RRGGBB` in hexadecimal.
    init(format6 color: SIMD3<UInt8>) {
        let digits = Array("0123456789abcdef")
        self = [color.x, color.y, color.z].map { String([digits[Int($0 >> 4)], digits[Int($0 & 15)]]) }.joined()
    }
}
