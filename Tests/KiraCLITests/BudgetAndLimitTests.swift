import Foundation
import Kira
import KiraTestSupport
import Testing

/// What a run may need is known before it starts: rates a format cannot play, drag files, inputs
/// and the images Kira draws are refused up front, with one line, when they do not fit.
@Suite struct BudgetAndLimitTests {
    /// A PNG that declares `width` × `height` but holds no image: refusing it from its header is
    /// the only way to refuse it before anything is allocated.
    static func headerOnlyPNG(width: UInt32, height: UInt32, bitDepth: UInt8 = 8) -> Data {
        let header = PNGFixture.bigEndian(width) + PNGFixture.bigEndian(height) + [bitDepth, 6, 0, 0, 0]
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + PNGFixture.chunk("IHDR", header)
            + PNGFixture.chunk("IDAT", [0x78, 0x9C, 0x00]) + PNGFixture.chunk("IEND", [])
        return Data(bytes)
    }

    /// A GIF's delays are whole hundredths: above 100 frames/s ffmpeg fails after the whole
    /// render ("Non-monotonous DTS"). Refused first, naming the rates that work; ffmpeg is not
    /// even looked for.
    @Test(arguments: [101, 120, 240])
    func gifRatesOver100AreRefusedBeforeRendering(fps: Int) throws {
        let workspace = try Workspace()
        let result = try CLIRunner.run(["animate"] + Workspace.card + ["--preset", "seed003-tilt", "--fps", "\(fps)", "--video", "output/a.gif"],
                                       in: workspace.path, environment: ["KIRA_FFMPEG": "/nonexistent/ffmpeg"])
        #expect(result.status == 2 && result.stderr.contains("1…100") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(workspace.outputs().isEmpty)
    }

    /// 100 frames/s, long enough that a rate over 100 would give two frames one time, works.
    @Test func gifAt100FramesPerSecondWorks() throws {
        _ = try Prerequisite.ffmpeg.path()
        let workspace = try Workspace()
        let result = try workspace.run(card: "animate", "--preset", "seed003-tilt", "--fps", "100", "--duration", "0.7",
                                       "--size", "24x24", "--video", "output/a.gif", "--quiet")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(workspace.exists("output/a.gif"))
    }

    /// A drag file is read within the budget: its bytes are refused before they are read when
    /// they would not fit (the smaller twin of a 0.9 GB drag that took 4.2 GiB).
    @Test func dragFileOverTheBudgetIsRefusedBeforeItIsRead() throws {
        let workspace = try Workspace()
        // 8 MB of valid samples lasting 0.6 s, over what a 16 MiB budget leaves for the file.
        let lines = (0..<600_000).map { "\(Double($0) / 1_000_000),0,0\n" }.joined()
        try Data(lines.utf8).write(to: URL(fileURLWithPath: workspace.file("drag.csv")))
        let result = try workspace.run(card: "animate", "--preset", "seed003-tilt", "--drag", "drag.csv", "--fps", "5",
                                       "--size", "24x24", "--output-dir", "output", "--max-memory", "16M", "--quiet")
        #expect(result.status == 2 && result.stderr.contains("memory budget") && result.stderr.split(separator: "\n").count == 1,
                "\(result.stderr)")
        #expect(workspace.outputs().isEmpty)
    }

    /// `compare` checks its estimate from the headers: two files that declare 8000×8000 images
    /// (and hold none) are refused for the budget, not decoded (which took 2.02 GiB before the
    /// refusal at full size).
    @Test func compareEstimatesFromTheHeaders() throws {
        let workspace = try Workspace()
        for name in ["a.png", "b.png"] {
            try Self.headerOnlyPNG(width: 8000, height: 8000).write(to: URL(fileURLWithPath: workspace.file(name)))
        }
        let result = try workspace.run("compare", "a.png", "b.png", "--max-memory", "64M")
        #expect(result.status == 2 && result.stderr.contains("of memory, over the budget"), "\(result.stderr)")
    }

    /// The same for the card's textures, before any is decoded.
    @Test func texturesAreEstimatedFromTheirHeaders() throws {
        let workspace = try Workspace()
        try Self.headerOnlyPNG(width: 16384, height: 16384, bitDepth: 16).write(to: URL(fileURLWithPath: workspace.file("huge.png")))
        let result = try workspace.run("render", "--art", "huge.png", "-o", "output/x.png")
        #expect(result.status == 2 && result.stderr.contains("reading huge.png needs about"), "\(result.stderr)")
    }

    /// `kira textures` draws under the budget too (16384×16384 used 2.06 GiB with none).
    @Test func texturesCommandIsUnderTheBudget() throws {
        let workspace = try Workspace(empty: ())
        let result = try workspace.run("textures", "--size", "4096x4096", "--max-memory", "64M", "--output-dir", "t")
        #expect(result.status == 2 && result.stderr.contains("over the budget of 64 MiB"), "\(result.stderr)")
        #expect(!workspace.exists("t/front.png"))
    }
}

/// ffmpeg's memory is in the budget: a video that fits Kira's share but not ffmpeg's is refused
/// before anything renders (the smaller twin of an 8192² WebM that peaked at 13.8 GiB under 2 GiB).
@Suite struct VideoBudgetTests {
    @Test func ffmpegsShareIsCounted() throws {
        _ = try Prerequisite.ffmpeg.path()
        let workspace = try Workspace()
        let start = Date()
        let result = try workspace.run(card: "animate", "--preset", "seed003-tilt", "--size", "2048x2048", "--fps", "2",
                                       "--video", "output/v.webm", "--max-memory", "1G")
        #expect(result.status == 2 && result.stderr.contains("ffmpeg's share included") && result.stderr.contains("over the budget"),
                "\(result.stderr)")
        #expect(Date().timeIntervalSince(start) < 20, "refused before rendering")
        #expect(workspace.outputs().isEmpty)
    }
}
