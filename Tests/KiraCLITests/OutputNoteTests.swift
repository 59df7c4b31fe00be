import Foundation
import Kira
import KiraTestSupport
import Testing

/// What stderr says about outputs a user did not choose in so many words: where a default output
/// went, a transparent background an MP4 flattens, the delays a GIF uses.
@Suite struct OutputNoteTests {
    @Test(arguments: [
        (["render", "--size", "60x80", "--fit"], "kira render: wrote output/render.png (the default: no --output given)", "output/render.png"),
        (["shade"], "kira shade: wrote output/shade.png (the default: no --output given)", "output/shade.png"),
        (["animate", "--preset", "seed000-flip", "--fps", "4", "--size", "60x80", "--fit", "--quiet"],
         "kira animate: wrote 4 frames to output/flip-two-faces/ (the default: no --output-dir, --apng, --sheet or --video given)",
         "output/flip-two-faces/frame-0003.png"),
    ])
    func aDefaultOutputIsNamed(arguments: [String], line: String, file: String) throws {
        let workspace = try Workspace()
        let result = try workspace.run(card: arguments[0], Array(arguments.dropFirst()))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").map(String.init) == [line], "\(result.stderr)")
        #expect(workspace.exists(file))
        // A named output is not announced.
        let named = try workspace.run(card: "render", ["--size", "60x80", "--fit", "-o", "output/named.png"])
        #expect(named.status == 0 && named.stderr.isEmpty, "\(named.stderr)")
    }

    /// An MP4 of a transparent background says that it is flattened; with a background it says nothing.
    @Test func anMP4FlattensATransparentBackgroundAndSaysSo() throws {
        let workspace = try Workspace()
        let transparent = try workspace.run(card: "animate", ["--preset", "seed000-flip", "--fps", "4", "--size", "48x64", "--fit",
                                                              "--video", "output/a.mp4", "--quiet"])
        #expect(transparent.status == 0, "\(transparent.stderr)")
        #expect(transparent.stderr == "kira animate: output/a.mp4: MP4 has no transparency: the transparent background is flattened onto black "
                + "(give --background, or write .webm, .webp or .gif to keep it)\n")
        let opaque = try workspace.run(card: "animate", ["--preset", "seed000-flip", "--fps", "4", "--size", "48x64", "--fit",
                                                         "--video", "output/b.mp4", "--background", "#203040", "--quiet"])
        #expect(opaque.status == 0 && opaque.stderr.isEmpty, "\(opaque.stderr)")
    }

    /// A GIF at a rate that does not divide 100 names the two delays its frames have: the ones
    /// ffprobe reads from the file. At 25 frames/s (40 ms each) nothing is said.
    @Test(arguments: [12, 30])
    func aGIFNamesTheDelaysItUses(fps: Int) throws {
        let workspace = try Workspace()
        let result = try workspace.run(card: "animate", ["--preset", "seed000-flip", "--fps", String(fps), "--size", "48x64", "--fit",
                                                         "--background", "#203040", "--video", "output/a.gif", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        let probe = try MediaTools.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=duration",
                                                   "-of", "csv=p=0", workspace.file("output/a.gif")])
        let delays = Set(String(decoding: probe.stdout, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }).sorted()
        #expect(delays.count == 2, "\(delays)")
        let said = delays.map { "\($0 * 10)" }.joined(separator: " or ")
        #expect(result.stderr.contains("output/a.gif: a GIF's frame delays are whole hundredths of a second: at \(fps) frames/s its frames last \(said) ms"),
                "\(result.stderr) (the file has \(delays))")

        let even = try workspace.run(card: "animate", ["--preset", "seed000-flip", "--fps", "25", "--size", "48x64", "--fit",
                                                       "--background", "#203040", "--video", "output/b.gif", "--quiet"])
        #expect(even.status == 0 && even.stderr.isEmpty, "\(even.stderr)")
    }
}

extension Workspace {
    func run(card command: String, _ arguments: [String]) throws -> CLIRunner.Result {
        let faces = command == "shade" || command == "bench" ? Self.front : Self.card
        return try CLIRunner.run([command] + faces + arguments, in: path)
    }
}
