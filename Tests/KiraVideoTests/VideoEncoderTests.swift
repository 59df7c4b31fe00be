import Foundation
import KiraImage
import KiraTestSupport
import Testing
@testable import KiraVideo

/// Videos written through the real ffmpeg, checked with ffprobe, ffmpeg and webpmux.
@Suite struct VideoEncoderTests {
    static let width = 33, height = 21, fps = 10, frameCount = 7

    /// Frame `k`: a gradient that moves with k, transparent (when asked) in a band in the middle
    /// and on the right.
    static func frame(_ k: Int, transparentRight: Bool = true) -> RGBAImage<UInt8> {
        var image = try! RGBAImage<UInt8>(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let r = UInt8((x * 7 + k * 20) % 256), g = UInt8((y * 11) % 256), b = UInt8((x + y + k * 9) * 3 % 256)
                image[x, y] = SIMD4(r, g, b, transparentRight && (10..<16).contains(x) || transparentRight && x >= 26 ? 0 : 255)
            }
        }
        return image
    }

    /// An encoder for 33×21 frames at 10 frames/s into `directory/name`.
    func encoder(_ name: String, in directory: TemporaryDirectory, transparent: Bool = true,
                 quality: Int? = nil, outputWidth: Int? = nil) throws -> VideoEncoder {
        try VideoEncoder(
            path: directory.path + "/" + name,
            settings: VideoSettings(width: Self.width, height: Self.height, framesPerSecond: Self.fps,
                                    quality: quality, transparent: transparent, matte: SIMD3(16, 32, 48),
                                    outputWidth: outputWidth),
            ffmpeg: try FFmpegProgram.locate())
    }

    /// Writes the 7 test frames; the video's path.
    func write(_ name: String, in directory: TemporaryDirectory, transparent: Bool = true,
               quality: Int? = nil, outputWidth: Int? = nil) throws -> String {
        let encoder = try encoder(name, in: directory, transparent: transparent, quality: quality, outputWidth: outputWidth)
        for k in 0..<Self.frameCount { try encoder.append(Self.frame(k, transparentRight: transparent)) }
        try encoder.finish()
        return encoder.path
    }

    /// Frame `index` of a video, decoded by ffmpeg.
    func decodeFrame(_ path: String, index: Int = 0) throws -> RGBAImage<UInt8> {
        let frame = try MediaTools.decodeFrame(path, index: index)
        return try RGBAImage(width: frame.width, height: frame.height, channels: frame.channels)
    }

    @Test func mp4IsH264Yuv420pPaddedToEvenWithTheIndexFirst() throws {
        let directory = try TemporaryDirectory()
        let path = try write("clip.mp4", in: directory)
        let fields = try MediaTools.probe(path)
        #expect(fields["codec_name"] == "h264" && fields["pix_fmt"] == "yuv420p", "\(fields)")
        #expect(fields["width"] == "34" && fields["height"] == "22", "33×21 padded to even: \(fields)")
        #expect(fields["nb_read_frames"] == "\(Self.frameCount)", "\(fields)")
        #expect(abs((Double(fields["format.duration"] ?? "") ?? 0) - 0.7) < 0.01, "\(fields)")
        // +faststart: the index (moov) comes before the media data (mdat).
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let text = String(decoding: bytes.map { $0 >= 32 && $0 < 127 ? $0 : 46 }, as: UTF8.self)
        let moov = try #require(text.range(of: "moov")), mdat = try #require(text.range(of: "mdat"))
        #expect(moov.lowerBound < mdat.lowerBound)
        #expect(directory.contents() == ["clip.mp4"], "no temporary file left: \(directory.contents())")
    }

    @Test func mp4FrameDecodesBackCloseToItsInput() throws {
        let directory = try TemporaryDirectory()
        let path = try write("clip.mp4", in: directory, transparent: false)
        for k in [0, 3] {
            let decoded = try decodeFrame(path, index: k)
            let input = Self.frame(k, transparentRight: false)
            var total = 0.0, other = 0.0
            for y in 0..<Self.height {
                for x in 0..<Self.width {
                    let d = SIMD4<Double>(decoded[x, y]) - SIMD4<Double>(input[x, y])
                    let o = SIMD4<Double>(decoded[x, y]) - SIMD4<Double>(Self.frame(k + 2, transparentRight: false)[x, y])
                    total += (d * d).sum() / 3
                    other += (o * o).sum() / 3
                }
            }
            let psnr = { (squares: Double) in 10 * log10(255 * 255 / (squares / Double(Self.width * Self.height))) }
            // Lossy (4:2:0 halves the colour resolution), but the right frame in the right place;
            // a neighbouring frame is far off.
            #expect(psnr(total) > 25, "frame \(k): \(psnr(total)) dB")
            #expect(psnr(other) < psnr(total) - 6, "frame \(k): \(psnr(other)) dB against another frame")
        }
    }

    @Test func mp4FlattensTransparencyOntoTheMatte() throws {
        let directory = try TemporaryDirectory()
        let decoded = try decodeFrame(try write("clip.mp4", in: directory, transparent: true))
        // In the transparent band, on the right, and in the padding column (33).
        for (x, y) in [(12, 10), (29, 10), (33, 5)] {
            let pixel = decoded[x, y]
            #expect(abs(Int(pixel.x) - 16) <= 6 && abs(Int(pixel.y) - 32) <= 6 && abs(Int(pixel.z) - 48) <= 6, "(\(x), \(y)): \(pixel)")
        }
    }

    @Test func webmIsVP9WithAlpha() throws {
        let directory = try TemporaryDirectory()
        let fields = try MediaTools.probe(try write("clip.webm", in: directory))
        // ffprobe's built-in VP9 decoder drops the alpha plane; the stream says it has one.
        #expect(fields["codec_name"] == "vp9" && fields["alpha_mode"] == "1", "\(fields)")
        #expect(fields["width"] == "33" && fields["height"] == "21" && fields["nb_read_frames"] == "7", "\(fields)")
        #expect(abs((Double(fields["format.duration"] ?? "") ?? 0) - 0.7) < 0.01, "\(fields)")
        let opaque = try MediaTools.probe(try write("opaque.webm", in: directory, transparent: false))
        #expect(opaque["alpha_mode"] == nil && opaque["pix_fmt"] == "yuv420p", "\(opaque)")
    }

    @Test func webpIsAnimatedLoopingWithAlpha() throws {
        let directory = try TemporaryDirectory()
        let path = try write("clip.webp", in: directory)
        #expect(try MediaTools.probe(path)["codec_name"] == "webp")
        let info = try MediaTools.webpInfo(path)
        #expect(info.width == 33 && info.height == 21 && info.loopCount == 0, "loops forever: \(info)")
        #expect(info.durations == Array(repeating: 100, count: 7) && info.alpha, "\(info)")
    }

    @Test func gifHasItsOwnPaletteATransparentIndexAndLoops() throws {
        let directory = try TemporaryDirectory()
        let path = try write("clip.gif", in: directory)
        let fields = try MediaTools.probe(path)
        #expect(fields["codec_name"] == "gif" && fields["width"] == "33" && fields["nb_read_frames"] == "7", "\(fields)")
        #expect(abs((Double(fields["format.duration"] ?? "") ?? 0) - 0.7) < 0.01, "\(fields)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        // NETSCAPE2.0 application extension with loop count 0 (forever).
        let netscape = try #require(bytes.indices.first { Array(bytes[$0..<min($0 + 11, bytes.count)]) == Array("NETSCAPE2.0".utf8) })
        #expect(bytes[netscape + 13] == 0 && bytes[netscape + 14] == 0)
        let decoded = try decodeFrame(path)
        #expect(decoded[12, 10].w == 0 && decoded[29, 10].w == 0 && decoded[3, 10].w == 255 && decoded[20, 10].w == 255)
    }

    /// 33×21 scaled to 16 wide keeps the aspect ratio (16×10); an MP4 is then padded to even.
    @Test(arguments: [("clip.gif", 16, "16x10"), ("clip.webm", 16, "16x10"), ("clip.mp4", 17, "18x12")])
    func scaledToAWidth(name: String, width: Int, size: String) throws {
        let directory = try TemporaryDirectory()
        let fields = try MediaTools.probe(try write(name, in: directory, outputWidth: width))
        #expect("\(fields["width"] ?? "")x\(fields["height"] ?? "")" == size, "\(fields)")
        #expect(fields["nb_read_frames"] == "\(Self.frameCount)")
    }

    @Test func unknownExtensionAndMissingProgram() throws {
        let directory = try TemporaryDirectory()
        let settings = VideoSettings(width: 4, height: 4, framesPerSecond: 1, transparent: false)
        #expect(throws: VideoError.unknownFormat(path: directory.path + "/a.avi")) {
            try VideoEncoder(path: directory.path + "/a.avi", settings: settings, ffmpeg: "/usr/bin/ffmpeg")
        }
        #expect(VideoFormat(path: "dir.mp4/clip") == nil && VideoFormat(path: "x/CLIP.GIF") == .gif && VideoFormat(path: ".mp4") == nil)
        do {
            _ = try FFmpegProgram.locate(explicit: directory.path + "/ffmpeg")
            Issue.record("a missing program was found")
        } catch {
            #expect(error.description.contains("apt-get install ffmpeg"), "\(error)")
        }
        #expect(directory.contents().isEmpty)
    }

    @Test func unwritableDirectoryFailsBeforeAnyFrame() throws {
        let settings = VideoSettings(width: 4, height: 4, framesPerSecond: 1, transparent: false)
        #expect(throws: VideoError.self) {
            try VideoEncoder(path: "/nonexistent-kira/a.mp4", settings: settings, ffmpeg: try FFmpegProgram.locate())
        }
    }

    /// ffmpeg dying mid-stream: an error that carries its last lines, no SIGPIPE (it would kill
    /// this test process), no file.
    @Test func ffmpegKilledMidStreamLeavesNothing() throws {
        let directory = try TemporaryDirectory()
        let encoder = try encoder("clip.mp4", in: directory, transparent: false)
        try encoder.append(Self.frame(0))
        kill(encoder.processID, SIGKILL)
        var failure: VideoError?
        do {
            // Enough frames to fill the pipe and the queue whatever ffmpeg had read.
            for k in 0..<400 { try encoder.append(Self.frame(k)) }
            try encoder.finish()
        } catch {
            failure = error
        }
        guard case .ffmpegFailed(_, let status, _)? = failure else {
            Issue.record("expected ffmpegFailed, got \(String(describing: failure))")
            return
        }
        #expect(status == "was killed by signal 9")
        #expect(directory.contents().isEmpty, "\(directory.contents())")
    }

    @Test func cancelStopsFFmpegAndRemovesTheFile() throws {
        let directory = try TemporaryDirectory()
        let encoder = try encoder("clip.webm", in: directory)
        try encoder.append(Self.frame(0))
        #expect(directory.contents().count == 1, "the temporary file, hidden: \(directory.contents())")
        let pid = encoder.processID
        encoder.cancel()
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "ffmpeg is gone (and reaped)")
        #expect(directory.contents().isEmpty)
        #expect(throws: VideoError.closed) { try encoder.append(Self.frame(1)) }
    }

    @Test func ffmpegErrorsComeBackWithItsLastLines() throws {
        // A real ffmpeg failure: libvpx's constant rate factor stops at 63 (the CLI checks this
        // before starting ffmpeg; the library leaves it to ffmpeg).
        let directory = try TemporaryDirectory()
        let encoder = try encoder("clip.webm", in: directory, transparent: false, quality: 99)
        do {
            for k in 0..<3 { try encoder.append(Self.frame(k)) }
            try encoder.finish()
            Issue.record("ffmpeg accepted crf 99 for VP9")
        } catch {
            #expect(error.details.joined().contains("crf"), "ffmpeg's own words: \(error.details)")
            #expect(error.description.contains("exited with status"), "\(error)")
        }
        #expect(directory.contents().isEmpty)
    }
}

/// ffmpeg's share of the memory budget, as modelled from measured peaks.
@Suite struct EncoderMemoryTests {
    static func settings(_ side: Int, threads: Int) -> VideoSettings {
        VideoSettings(width: side, height: side, framesPerSecond: 30, transparent: true, threads: threads)
    }

    @Test func measuredPeaksAreBounded() {
        // (format, side, threads, frames, peak MiB measured by Benchmarks/ffmpeg-memory.sh).
        let measured: [(VideoFormat, Int, Int, Int, Int)] = [
            (.mp4, 512, 1, 48, 114), (.mp4, 4096, 1, 48, 2885), (.mp4, 4096, 8, 48, 3893), (.mp4, 2048, 8, 48, 1125),
            (.webm, 512, 8, 48, 254), (.webm, 4096, 1, 48, 3940), (.webm, 4096, 8, 48, 4034),
            (.webp, 1024, 1, 48, 110), (.webp, 4096, 1, 48, 426), (.gif, 512, 1, 24, 141), (.gif, 512, 1, 48, 191),
            (.gif, 1024, 1, 96, 878), (.gif, 2048, 1, 96, 3224),
        ]
        for (format, side, threads, frames, peak) in measured {
            let estimate = format.estimatedEncoderBytes(Self.settings(side, threads: threads), frames: frames)
            #expect(estimate >= peak << 20, "\(format) \(side)² \(threads) threads: \(estimate >> 20) MiB < \(peak) MiB")
        }
    }

    @Test func threadsAndLength() {
        let one = Self.settings(1024, threads: 1), eight = Self.settings(1024, threads: 8)
        for format in [VideoFormat.mp4, .webm] {
            #expect(format.estimatedEncoderBytes(eight, frames: 10) > format.estimatedEncoderBytes(one, frames: 10))
            #expect(format.ffmpegArguments(eight, output: "x").joined(separator: " ").contains("-threads 8"))
        }
        // One thread for WebP and GIF, whatever is asked: their encoders use one.
        for format in [VideoFormat.webp, .gif] {
            #expect(format.estimatedEncoderBytes(eight, frames: 10) == format.estimatedEncoderBytes(one, frames: 10))
            #expect(format.ffmpegArguments(eight, output: "x").joined(separator: " ").contains("-threads 1"))
        }
        // A GIF's palette pass holds the clip.
        #expect(VideoFormat.gif.estimatedEncoderBytes(one, frames: 200) > VideoFormat.gif.estimatedEncoderBytes(one, frames: 100))
        #expect(VideoFormat.mp4.estimatedEncoderBytes(Self.settings(1024, threads: 64), frames: 1)
                == VideoFormat.mp4.estimatedEncoderBytes(Self.settings(1024, threads: VideoFormat.maxEncoderThreads), frames: 1))
    }
}

/// The ffmpeg arguments that make a clip the same bytes on every CPU.
@Suite struct ReproducibleEncodeTests {
    /// Tests/CPULevels/encoders.sh proves the bytes on emulated CPUs; this says why: each scaler, written or inserted by ffmpeg, rounds bit-exactly, x264 is
    /// kept off its AVX-512 paths, and ffmpeg's version stays out of the file.
    @Test(arguments: VideoFormat.allCases) func sameBytesOnEveryCPU(format: VideoFormat) {
        for transparent in [false, true] {
            for outputWidth in [nil, 16] {
                let settings = VideoSettings(width: 33, height: 21, framesPerSecond: 10, transparent: transparent, outputWidth: outputWidth)
                let arguments = format.ffmpegArguments(settings, output: "x")
                let graph = arguments.firstIndex(of: "-filter_complex").map { arguments[$0 + 1] } ?? ""
                #expect(graph.hasPrefix("sws_flags=accurate_rnd+bitexact;"), "\(graph)")
                let scalers = graph.components(separatedBy: "scale=").dropFirst()
                #expect(scalers.allSatisfy { $0.prefix(while: { $0 != "," && $0 != ";" }).contains("bitexact") }, "\(graph)")
                #expect(arguments.joined(separator: " ").contains("-flags +bitexact -fflags +bitexact"))
                let x264 = arguments.firstIndex(of: "-x264-params").map { arguments[$0 + 1] }
                #expect(format == .mp4 ? x264?.hasPrefix("asm=MMX2,SSE2Fast,SSSE3,SSE4.2") == true && !x264!.contains("AVX512") : x264 == nil)
            }
        }
    }
}
