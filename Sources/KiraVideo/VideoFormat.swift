import CKiraCPU

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
    /// libswscale's flags for every scale and conversion of a clip: without `bitexact` its SIMD
    /// rounds by CPU (an MP4's frames up to 2 levels apart as an AVX2 CPU and as Zen 4); with it,
    /// the same bytes on every CPU tried, at no measurable cost (docs/videos.md).
    static let scaleFlags = "accurate_rnd+bitexact"

    /// The instruction sets x264 is told to use, so that an MP4 is the same on every CPU: left to
    /// itself, x264 takes AVX-512 paths that decide differently (decoded frames 40 dB apart, up
    /// to 37 levels, for the same frames on Zen 4 and as an AVX2 CPU), while its SSE4.2 and AVX2
    /// paths write the same bytes (docs/videos.md). Without AVX-512 it encodes as fast (2.4-2.7 s
    /// against 2.4-3.1 s, 60 frames of 740x1000, Zen 4). Nil off x86-64: x264's own choice.
    static let x264Instructions: String? = {
        #if arch(x86_64)
        let sse = "MMX2,SSE2Fast,SSSE3,SSE4.2"
        return kira_cpu_runs_level(3) != 0 ? sse + ",AVX,FMA3,BMI2,AVX2" : sse
        #else
        return nil
        #endif
    }()

    /// ffmpeg's arguments: raw RGBA frames of `settings` on standard input, the video to `output`.
    ///
    /// ffmpeg prints only errors (kept for Kira's message), no banner and no progress: Kira
    /// shows its own. `-xerror` makes an error writing the output end ffmpeg with a nonzero
    /// status: without it ffmpeg 5 exits 0 when the trailer cannot be written (a full disk),
    /// leaving an empty or truncated file that would be published. Every conversion is an
    /// explicit, bit-exact `scale`, x264 is told its instruction sets, and `+bitexact` keeps
    /// ffmpeg's version out of the file: a clip is the same bytes on every CPU that runs Kira
    /// (Tests/CPULevels/encoders.sh).
    public func ffmpegArguments(_ settings: VideoSettings, output: String) -> [String] {
        let matte = String(format6: settings.matte)
        var arguments = [
            "-hide_banner", "-nostdin", "-loglevel", "error", "-nostats", "-xerror",
            "-f", "rawvideo", "-pix_fmt", "rgba", "-video_size", "\(settings.width)x\(settings.height)",
            "-framerate", "\(settings.framesPerSecond)", "-i", "pipe:0", "-an",
        ]
        let alpha = settings.transparent
        let flags = Self.scaleFlags
        // Scaling, when asked, comes first (on straight RGBA); -1 keeps the aspect ratio.
        let scale = settings.outputWidth.map { "scale=\($0):-1:flags=lanczos+\(flags)," } ?? ""
        // The conversion to the codec's pixel format, made here rather than left to the
        // scaler ffmpeg would insert with its default flags.
        let convert = { (format: String) in "scale=flags=\(flags),format=\(format)" }
        // The filter graph, its own flags first: they reach the scalers ffmpeg inserts itself
        // (the overlay's and the palette's RGB conversions).
        let graph = { (filters: String) in "sws_flags=\(flags);" + filters }
        switch self {
        case .mp4:
            // Flatten onto the matte (overlay blends straight alpha), pad to even on the right and
            // bottom, convert with the BT.709 matrix and say so in the stream.
            var filter = alpha
                ? "color=c=0x\(matte):s=\(settings.width)x\(settings.height):r=\(settings.framesPerSecond)[matte];[matte][0:v]overlay=shortest=1:format=rgb,"
                : "[0:v]"
            filter += scale + "pad=ceil(iw/2)*2:ceil(ih/2)*2:0:0:color=0x\(matte),scale=out_color_matrix=bt709:out_range=tv:flags=\(flags),format=yuv420p"
            arguments += ["-filter_complex", graph(filter),
                          "-c:v", "libx264", "-preset", "medium", "-crf", "\(settings.quality ?? defaultQuality!)"]
            if let instructions = Self.x264Instructions { arguments += ["-x264-params", "asm=\(instructions)"] }
            arguments += ["-pix_fmt", "yuv420p", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709",
                          "-color_range", "tv", "-movflags", "+faststart", "-f", "mp4"]
        case .webm:
            arguments += ["-filter_complex", graph("[0:v]" + scale + convert(alpha ? "yuva420p" : "yuv420p")),
                          "-c:v", "libvpx-vp9", "-pix_fmt", alpha ? "yuva420p" : "yuv420p",
                          "-crf", "\(settings.quality ?? defaultQuality!)", "-b:v", "0", "-row-mt", "1",
                          "-deadline", "good", "-cpu-used", "4", "-f", "webm"]
        case .webp:
            arguments += ["-filter_complex", graph("[0:v]" + scale + convert(alpha ? "yuva420p" : "yuv420p")),
                          "-c:v", "libwebp_anim", "-pix_fmt", alpha ? "yuva420p" : "yuv420p",
                          "-lossless", "0", "-quality", "80", "-loop", "0", "-f", "webp"]
        case .gif:
            // One pass over the clip for the palette, one to map the frames onto it; the palette
            // keeps an index for transparency when the background is transparent.
            let reserve = alpha ? 1 : 0
            arguments += ["-filter_complex",
                          graph("[0:v]\(scale)split[a][b];[a]palettegen=stats_mode=full:reserve_transparent=\(reserve)[p];[b][p]paletteuse=dither=sierra2_4a:alpha_threshold=128"),
                          "-loop", "0", "-f", "gif"]
        }
        if let threads = encoderThreads(settings) { arguments += ["-threads", "\(threads)"] }
        return arguments + ["-flags", "+bitexact", "-fflags", "+bitexact", "-y", output]
    }
}

extension String {
    /// `RRGGBB` in hexadecimal.
    init(format6 color: SIMD3<UInt8>) {
        let digits = Array("0123456789abcdef")
        self = [color.x, color.y, color.z].map { String([digits[Int($0 >> 4)], digits[Int($0 & 15)]]) }.joined()
    }
}
