import Foundation
import Kira
import KiraFiles
import KiraPNG
import KiraTestSupport
import Testing

/// `kira animate --video`: the real ffmpeg, checked with ffprobe and webpmux; faults end to end.
@Suite struct VideoCommandTests {
    static func probe(_ path: String) throws -> [String: String] { try MediaTools.probe(path) }

    @Test func oneRenderWritesEveryVideoAndThePNGOutputs() throws {
        let workspace = try Workspace()
        let result = try workspace.run(
            card: "animate", "--preset", "showcase", "--fps", "4", "--size", "47x65", "--fit", "--background", "#203040",
            "--video", "output/a.mp4", "--video", "output/a.webm", "--video", "output/a.gif", "--video", "output/a.webp",
            "--apng", "output/a.png", "--output-dir", "output/frames", "--sheet", "output/sheet.png")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "ffmpeg says nothing, kira says nothing when piped: \(result.stderr)")
        #expect(workspace.outputs() == ["a.gif", "a.mp4", "a.png", "a.webm", "a.webp", "frames", "sheet.png"])
        // 4 s at 4 frames/s: 16 frames, no repeated first frame at the end.
        let expected: [(String, String, String, String)] = [("a.mp4", "h264", "yuv420p", "48x66"), ("a.webm", "vp9", "yuv420p", "47x65"),
                                                            ("a.gif", "gif", "bgra", "47x65")]
        for (name, codec, pixelFormat, size) in expected {
            let fields = try Self.probe(workspace.file("output/" + name))
            #expect(fields["codec_name"] == codec && fields["pix_fmt"] == pixelFormat, "\(name): \(fields)")
            #expect("\(fields["width"] ?? "")x\(fields["height"] ?? "")" == size, "\(name): \(fields)")
            #expect(fields["nb_read_frames"] == "16" && abs((Double(fields["format.duration"] ?? "") ?? 0) - 4) < 0.01, "\(name): \(fields)")
        }
        let webp = try MediaTools.webpInfo(workspace.file("output/a.webp"))
        #expect(webp.width == 47 && webp.height == 65 && webp.loopCount == 0 && webp.durations == Array(repeating: 250, count: 16), "\(webp)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.file("output/frames")).filter { $0.hasSuffix(".png") }.count == 16)
    }

    /// Frame 0 of the MP4 is `kira render` of the showcase's first pose, within what H.264 and
    /// 4:2:0 lose; the seam of the loop is a step like the others.
    @Test func mp4FrameZeroIsTheRenderedPoseAndTheSeamIsAnOrdinaryStep() throws {
        let workspace = try Workspace()
        let animate = try workspace.run(card: "animate", "--preset", "showcase", "--fps", "6", "--size", "47x65", "--background", "#203040",
                                        "--video", "output/a.mp4", "--output-dir", "output/frames")
        #expect(animate.status == 0, "\(animate.stderr)")
        let pose = AnimationPreset.showcase.state(at: 0).pose
        for (name, tiltY) in [("same.png", pose.tiltY), ("other.png", -pose.tiltY)] {
            let render = try workspace.run(card: "render", "--tilt-x", "\(pose.tiltX)", "--tilt-y", "\(tiltY)", "--size", "47x65",
                                           "--background", "#203040", "-o", "output/\(name)")
            #expect(render.status == 0, "\(render.stderr)")
        }
        let frame = try MediaTools.decodeFrame(workspace.file("output/a.mp4"))
        #expect(frame.width == 48 && frame.height == 66)
        let decoded = try RGBAImage<UInt8>(width: frame.width, height: frame.height, channels: frame.channels)
        var cropped = try RGBAImage<UInt8>(width: 47, height: 65)
        for y in 0..<65 { for x in 0..<47 { cropped[x, y] = decoded[x, y] } }
        let same = ImageComparison(.rgba8(cropped), try PNGCodec.read(workspace.file("output/same.png")))
        let other = ImageComparison(.rgba8(cropped), try PNGCodec.read(workspace.file("output/other.png")))
        // The test card changes colour from one pixel to the next, which 4:2:0 (one colour per
        // 2×2 pixels) cannot keep: measured 22.8 dB, but luma SSIM 0.995. Another pose: 15.1 dB, 0.55.
        #expect(same.psnr > 20 && (same.ssim ?? 0) > 0.98, "frame 0 against its pose: \(same.psnr) dB, SSIM \(same.ssim ?? .nan)")
        #expect(other.psnr < same.psnr - 5 && (other.ssim ?? 1) < 0.8, "against another pose: \(other.psnr) dB, SSIM \(other.ssim ?? .nan)")
        #expect(try PNGCodec.read(workspace.file("output/frames/frame-0000.png")) == PNGCodec.read(workspace.file("output/same.png")))

        // 24 frames; the step from the last to the first differs from its neighbours' steps no
        // more than they differ from each other (a repeated frame would be infinitely close).
        let frames = try (0..<24).map { try PNGCodec.read(workspace.file(String(format: "output/frames/frame-%04d.png", $0))) }
        let steps = (0..<24).map { ImageComparison(frames[$0], frames[($0 + 1) % 24]).psnr }
        let seam = steps[23], others = steps[0..<23]
        #expect(seam.isFinite && seam >= others.min()! - 1 && seam <= others.max()! + 1, "seam \(seam) dB, steps \(others.min()!)…\(others.max()!) dB")
    }

    @Test(arguments: [["KIRA_FFMPEG": "/nonexistent/ffmpeg"], ["PATH": "/nonexistent"]])
    func missingFFmpegIsOneLineAndNothingWritten(environment: [String: String]) throws {
        let workspace = try Workspace()
        let result = try CLIRunner.run(["animate"] + Workspace.card + ["--preset", "showcase", "--fps", "2", "--size", "40x40",
                                                                     "--video", "output/a.mp4", "--apng", "output/a.png"],
                                       in: workspace.path, environment: Self.without(environment))
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("apt-get install ffmpeg"), "\(result.stderr)")
        #expect(workspace.outputs().isEmpty, "\(workspace.outputs())")
    }

    /// `environment` with KIRA_FFMPEG removed unless it sets it.
    static func without(_ environment: [String: String]) -> [String: String?] {
        var result: [String: String?] = ["KIRA_FFMPEG": nil]
        for (key, value) in environment { result[key] = .some(value) }
        return result
    }

    @Test(arguments: [["--video", "output/a.avi"], ["--video", "output/a"], ["--video", "output/a.gif", "--crf", "20"],
                      ["--video", "output/a.mp4", "--crf", "52"], ["--video", "nowhere/a.mp4"],
                      ["--loops", "0"], ["--loops", "2", "--duration", "4"], ["--fps", "1", "--loops", "151", "--video", "output/a.gif"], ["--fps", "241", "--video", "output/a.gif"]])
    func badVideoArguments(arguments: [String]) throws {
        let workspace = try Workspace()
        let result = try CLIRunner.run(["animate"] + Workspace.card + ["--preset", "showcase", "--size", "40x40"] + arguments, in: workspace.path)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
        #expect(workspace.outputs().isEmpty, "\(arguments): \(workspace.outputs())")
    }

    /// 16-bit frames for the PNGs, the same frames rounded to 8 bits for the video.
    @Test func sixteenBitFramesAndAVideoInOneRun() throws {
        let workspace = try Workspace()
        let result = try workspace.run(card: "animate", "--preset", "seed004-flip", "--fps", "10", "--size", "40x40", "--depth", "16",
                                       "--output-dir", "output/f", "--video", "output/a.gif")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try PNGCodec.read(workspace.file("output/f/frame-0000.png")).bitDepth == 16)
        #expect(try Self.probe(workspace.file("output/a.gif"))["nb_read_frames"] == "7")
    }

    /// A --video path that is a folder is refused before rendering, and the folder is left alone.
    @Test func aVideoPathThatIsAFolder() throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(atPath: workspace.file("clip.mp4"), withIntermediateDirectories: true)
        let result = try workspace.run(card: "animate", "--preset", "showcase", "--size", "40x40", "--video", "clip.mp4")
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("is a directory"), "\(result.stderr)")
        #expect(!result.stderr.contains("move"), "refused only after encoding: \(result.stderr)")
        #expect(FileIO.isDirectory(workspace.file("clip.mp4")))
    }

    @Test func loopsNeedALoopingPreset() throws {
        let workspace = try Workspace()
        let result = try workspace.run(card: "animate", "--preset", "seed004-flip", "--loops", "2", "--video", "output/a.gif")
        #expect(result.status == 2 && result.stderr.contains("looping preset"), "\(result.stderr)")
    }

    @Test func loopsRepeatTheLoopAndAStretchedPeriodIsSaid() throws {
        let workspace = try Workspace()
        // seed002-spin is 2.5 s: at 5 frames/s 12.5 frames, rounded to 12 (well, 13: ties to even
        // is not used; .rounded() is schoolbook) — whichever, the clip is whole loops.
        let result = try workspace.run(card: "animate", "--preset", "seed002-spin", "--fps", "5", "--loops", "3", "--size", "40x40",
                                       "--video", "output/spin.mp4")
        #expect(result.status == 0, "\(result.stderr)")
        let perLoop = Int((2.5 * 5).rounded())
        #expect(result.stderr.contains("\(perLoop) frames") && result.stderr.contains("stretched"), "\(result.stderr)")
        let fields = try Self.probe(workspace.file("output/spin.mp4"))
        #expect(fields["nb_read_frames"] == "\(3 * perLoop)", "\(fields)")
    }

    /// ffmpeg dying mid-stream: kira reports it (no SIGPIPE death), exit 2, no file.
    @Test func ffmpegKilledMidwayFailsCleanly() throws {
        let workspace = try Workspace()
        let (kira, ffmpeg) = try Self.startLongEncode(in: workspace)
        kill(ffmpeg, SIGKILL)
        kira.waitUntilExit()
        #expect(kira.terminationReason == .exit && kira.terminationStatus == 2, "\(kira.terminationReason) \(kira.terminationStatus)")
        #expect(workspace.outputs().isEmpty, "\(workspace.outputs())")
    }

    /// A real ffmpeg that refuses its arguments (a wrapper adds an unknown option): one line from
    /// Kira, then ffmpeg's own last lines, exit 2, no file.
    @Test func ffmpegErrorsAreShownWithItsLastLines() throws {
        let workspace = try Workspace()
        let wrapper = workspace.file("ffmpeg-refusing")
        try "#!/bin/sh\nexec ffmpeg -no_such_option 1 \"$@\"\n".write(toFile: wrapper, atomically: false, encoding: .utf8)
        chmod(wrapper, 0o755)
        let result = try workspace.run(card: "animate", "--preset", "showcase", "--fps", "2", "--size", "40x40",
                                       "--video", "output/a.mp4", "--ffmpeg", "./ffmpeg-refusing")
        #expect(result.status == 2, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.first?.contains("ffmpeg exited with status") == true, "\(result.stderr)")
        #expect(lines.dropFirst().contains { $0.hasPrefix("    ") && $0.contains("no_such_option") }, "\(result.stderr)")
        #expect(workspace.outputs().isEmpty, "\(workspace.outputs())")
    }

    /// A program that takes every frame and exits 0 but writes nothing (as ffmpeg 5 did after a
    /// full disk): exit 2, one line, and the file already at the path keeps its bytes.
    @Test(arguments: ["a.mp4", "a.webm", "a.webp", "a.gif"])
    func anEmptyVideoIsNotPublishedAndTheOldFileStays(name: String) throws {
        let workspace = try Workspace()
        let fake = workspace.file("ffmpeg-silent")
        try "#!/bin/sh\nexec cat >/dev/null\n".write(toFile: fake, atomically: false, encoding: .utf8)
        chmod(fake, 0o755)
        let old = Array("an older video, not to be lost".utf8)
        try Data(old).write(to: URL(fileURLWithPath: workspace.file("output/" + name)))
        let result = try workspace.run(card: "animate", "--preset", "seed004-flip", "--fps", "4", "--size", "40x40",
                                       "--video", "output/" + name, "--ffmpeg", "./ffmpeg-silent")
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("wrote nothing"), "\(result.stderr)")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: workspace.file("output/" + name)))) == old)
        #expect(workspace.outputs() == [name], "no temporary file is left: \(workspace.outputs())")
    }

    /// A program that writes part of a file, says the trailer could not be written, and exits 0
    /// (what ffmpeg 5 does on a full disk without -xerror): exit 2, the old file stays.
    @Test func aWriteErrorAfterStatusZeroIsAFailure() throws {
        let workspace = try Workspace()
        let fake = workspace.file("ffmpeg-full-disk")
        let script = """
            #!/bin/sh
            for last; do :; done
            cat >/dev/null
            printf 'ftyp' > "$last"
            echo "Error writing trailer of $last: No space left on device" >&2
            exit 0

            """
        try script.write(toFile: fake, atomically: false, encoding: .utf8)
        chmod(fake, 0o755)
        let old = Array("an older video, not to be lost".utf8)
        try Data(old).write(to: URL(fileURLWithPath: workspace.file("output/a.mp4")))
        let result = try workspace.run(card: "animate", "--preset", "seed004-flip", "--fps", "4", "--size", "40x40",
                                       "--video", "output/a.mp4", "--ffmpeg", "./ffmpeg-full-disk")
        #expect(result.status == 2, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.first?.contains("could not write the video; nothing was written") == true, "\(result.stderr)")
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("    ") }, "only ffmpeg's own lines follow: \(result.stderr)")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: workspace.file("output/a.mp4")))) == old)
        #expect(workspace.outputs() == ["a.mp4"], "no temporary file is left: \(workspace.outputs())")
    }

    /// Names are bytes: `--video v-\xfd.gif` is written as that name, not as U+F7FD's UTF-8
    /// (the character Kira carries the byte as), and the temporary file beside it goes too.
    @Test func aNonUTF8VideoNameIsWrittenAsItsBytes() throws {
        let workspace = try Workspace()
        let card = Workspace.card.map { "'\($0)'" }.joined(separator: " ")
        let script = #"name="output/v-$(printf '\375').gif"; "$0" animate "# + card
            + #" --preset seed004-flip --fps 4 --size 40x40 --video "$name" --quiet"#
        #expect(try CLIRunner.runShell(script, in: workspace.path) == 0)
        let names = workspace.rawNames(in: "output")
        let expected = Array("v-".utf8) + [0xFD] + Array(".gif".utf8)
        #expect(names == [expected], "\(names)")
        // And it is the whole GIF: opened by its bytes, it starts with the header and ends with the trailer.
        let path = (Array(workspace.file("output/").utf8) + expected + [0]).map { CChar(bitPattern: $0) }
        let fd = open(path, O_RDONLY)
        #expect(fd >= 0)
        if fd >= 0 {
            var bytes = [UInt8](repeating: 0, count: 1 << 20)
            let count = read(fd, &bytes, bytes.count)
            close(fd)
            #expect(count > 6 && bytes.starts(with: Array("GIF89a".utf8)) && bytes[count - 1] == 0x3B, "\(count) bytes")
        }
    }

    /// Kira interrupted while encoding: it dies of the signal, ffmpeg does not outlive it, no file.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func interruptedEncodeLeavesNoFileAndNoFFmpeg(signal: Int32) throws {
        let workspace = try Workspace()
        let (kira, ffmpeg) = try Self.startLongEncode(in: workspace)
        kill(kira.processIdentifier, signal)
        kira.waitUntilExit()
        #expect(kira.terminationReason == .uncaughtSignal && kira.terminationStatus == signal)
        #expect(Self.waitUntilGone(ffmpeg), "ffmpeg \(ffmpeg) still runs after kira died of signal \(signal)")
        #expect(workspace.outputs().isEmpty, "\(workspace.outputs())")
    }

    /// Starts a long showcase encode (1200 frames: tens of seconds in a debug build) and waits
    /// until its ffmpeg has begun writing its temporary file.
    static func startLongEncode(in workspace: Workspace) throws -> (Process, pid_t) {
        let process = try CLIRunner.start(["animate"] + Workspace.card + ["--preset", "showcase", "--fps", "30", "--loops", "10",
                                                                         "--size", "40x40", "--video", "output/long.mp4"],
                                          in: workspace.path)
        var child: pid_t?
        for _ in 0..<300 where child == nil {
            usleep(100_000)
            child = Tool.children(of: process.processIdentifier, named: "ffmpeg").first
        }
        guard let child else {
            process.terminate()
            throw MediaTools.Failure(message: "no ffmpeg child appeared")
        }
        // The video's temporary file is there to be left behind, and ffmpeg has begun writing it:
        // "no file" afterwards means something.
        let temporaryFileExists = {
            workspace.outputs().contains { name in
                name.hasPrefix(".long.mp4.kira-")
                    && ((try? FileManager.default.attributesOfItem(atPath: workspace.file("output/" + name))[.size] as? Int) ?? 0) > 0
            }
        }
        for _ in 0..<3000 where !temporaryFileExists() { usleep(10_000) }
        #expect(temporaryFileExists(), "no temporary file: \(workspace.outputs())")
        #expect(process.isRunning, "the encode finished too soon to test")
        return (process, child)
    }

    /// Whether `pid` has exited (gone, or a zombie waiting for its new parent) within 5 s.
    static func waitUntilGone(_ pid: pid_t) -> Bool {
        for _ in 0..<50 {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
            // "pid (comm) S …": the state follows the last ')'.
            if let close = stat.lastIndex(of: ")"), stat[stat.index(close, offsetBy: 2)] == "Z" { return true }
            usleep(100_000)
        }
        return false
    }
}

/// Processes, from /proc, for the tests above.
enum Tool {
    /// Children of `parent` whose command name is `name` (from /proc).
    static func children(of parent: pid_t, named name: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return nil }
            let command = stat[stat.index(after: open)..<close]
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            guard command == name, fields.count > 1, pid_t(fields[1]) == parent else { return nil }
            return pid
        }
    }
}
